"""The chance of winning a two-sided match from its scores, by counting the hands still to come.

Theory of operation: a hand's value to Expert is its side's chance of winning the *match* from the
scores it leaves. ``playout.match_value``'s rule of thumb (each side's weight falls with the
square of the points it still needs) is far off near the target: at 98 to 90 in a Draw game to
100 it gives 0.96, but either side wins the match with its next hand won, so the chance is
nearer 0.6. Here the rest of the match is modelled as a race of independent hands: each hand
ends with gains (x, y) for the two sides, drawn from ``hand_gains``' measured distribution
(``SAMPLE_HANDS`` hands of the rules played from random deals by the roll-out policy, from a
fixed seed, each counted both ways round), and ``race_table`` solves the chance
of reaching the target first by dynamic programming over the scores. The scores are counted on a
grid of ``step`` points (a gain splits between the two grid points around it, keeping its mean)
so that the table has at most ``GRID`` rows a side; values between grid points are interpolated.

Tables are built once per rules and seat count and kept (``odds_for``): about a tenth of a second
in pure Python, a hundredth compiled. Only two-sided matches with a target are modelled; the
caller falls back to the rule of thumb for the rest.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from lanomino.engine import TILES, Phase, Rules, new_game, start_hand

SAMPLE_HANDS = 300  # hands played to measure how many points a hand brings
GRID = 50  # at most this many score cells a side
SEED = 20_261_201  # the measuring hands' fixed seed: a table depends on the rules alone


class RaceTable:
    """The chance that side 0 wins the match from scores (a, b), side 0 having a points."""

    def __init__(self, target: int, step: int, cells: list[list[float]]) -> None:
        self.target = target
        self.step = step
        self.cells = cells

    def chance(self, a: int, b: int) -> float:
        """Side 0's chance of winning from ``a`` to ``b`` (both below the target)."""
        fa, fb = a / self.step, b / self.step
        ia, ib = int(fa), int(fb)
        ta, tb = fa - ia, fb - ib
        return (
            (1 - ta) * (1 - tb) * self._at(ia, ib) + ta * (1 - tb) * self._at(ia + 1, ib)
            + (1 - ta) * tb * self._at(ia, ib + 1) + ta * tb * self._at(ia + 1, ib + 1)
        )

    def _at(self, i: int, j: int) -> float:
        n = len(self.cells)
        if i >= n and j >= n:
            return 0.5
        if i >= n:
            return 1.0
        if j >= n:
            return 0.0
        return self.cells[i][j]


def race_table(target: int, step: int, gains: Sequence[tuple[int, int, float]]) -> RaceTable:
    """The race of independent hands to ``target``, each hand adding (x, y) points to the two
    sides with probability p for each (x, y, p) in ``gains`` (the ps sum to 1). Raises
    ValueError when no hand scores anything."""
    n = -(-target // step)  # cells 0..n-1 lie below the target
    moves: dict[tuple[int, int], float] = {}
    for x, y, p in gains:
        for dx, wx in _split(x, step):
            for dy, wy in _split(y, step):
                moves[dx, dy] = moves.get((dx, dy), 0.0) + p * wx * wy
    stay = moves.pop((0, 0), 0.0)
    if stay >= 1.0 - 1e-12:
        raise ValueError("no hand in the distribution scores a point")
    edges = list(moves.items())
    cells = [[0.0] * n for _ in range(n)]
    for i in range(n - 1, -1, -1):
        row = cells[i]
        for j in range(n - 1, -1, -1):
            total = 0.0
            for (dx, dy), p in edges:
                a, b = i + dx, j + dy
                if a >= n:
                    total += p * (1.0 if b < n else 0.5)
                elif b < n:
                    total += p * cells[a][b]
            row[j] = total / (1.0 - stay)
    return RaceTable(target, step, cells)


def _split(points: int, step: int) -> list[tuple[int, float]]:
    """``points`` as grid cells with weights: the two around it, weighted to keep the mean."""
    low, rest = divmod(points, step)
    if rest == 0:
        return [(low, 1.0)]
    up = rest / step
    return [(low, 1.0 - up), (low + 1, up)]


def hand_gains(rules: Rules, players: int, hands: int = SAMPLE_HANDS,
               seed: int = SEED) -> list[tuple[int, int, float]]:
    """How many points a hand of ``rules`` brings each side, measured on ``hands`` hands of the
    roll-out policy from random deals, each counted both ways round (so neither side is favoured):
    (x, y, share)."""
    from lanomino.bots.playout import play_out  # (playout imports this module)

    rng = random.Random(seed)
    size = rules.hand_size_for(players)
    counts: dict[tuple[int, int], int] = {}
    played = 0
    while played < hands:
        state = new_game(rules, players)
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, [deck[i * size:(i + 1) * size] for i in range(players)],
                   deck[players * size:])
        if state.phase is not Phase.PLAY:
            continue  # a voided deal
        play_out(state, rng, "greedy")
        x, y = state.scores[0], state.scores[1]
        counts[x, y] = counts.get((x, y), 0) + 1
        counts[y, x] = counts.get((y, x), 0) + 1
        played += 1
    return [(x, y, c / (2 * hands)) for (x, y), c in counts.items()]


_TABLES: dict[tuple[Rules, int], RaceTable | None] = {}


def odds_for(rules: Rules, players: int) -> RaceTable | None:
    """The race table of a two-sided match to a target under ``rules`` (built once), or None
    when the match is not one (more sides, no target) or its hands score nothing."""
    key = (rules, players)
    if key not in _TABLES:
        table = None
        sides = 2 if rules.partnership or players == 2 else players
        if sides == 2 and rules.target > 0:
            step = max(5 if rules.fives else 1, math.ceil(rules.target / GRID))
            try:
                table = race_table(rules.target, step, hand_gains(rules, players))
            except ValueError:
                table = None
        _TABLES[key] = table
    return _TABLES[key]
