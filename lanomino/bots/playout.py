"""How Expert values a finished hand and plays a sampled world to its end.

``match_value`` turns a hand's result into the chance of winning the *match*. ``play_out`` plays a
determinized hand to its end with a quick greedy policy for every seat (or Hard's policy, or at
random: the alternatives the benchmarks measured). ``solve`` plays a small endgame of one world
exactly: with the hidden tiles fixed the hand is a two-sided game of perfect information, so a
memoised minimax over the seats' moves gives its value outright.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.bots.odds import odds_for
from lanomino.engine import TILES, Action, GameState, Phase, Play, apply, legal_actions, observe

NEED_POWER = 2.0  # how sharply "points still needed" turns into a chance of winning the match
POINTS_SCALE = 40.0  # the "points" value: a margin of this many points is a certain win
LOSES_MATCH = 1000.0  # the roll-out policy's cost of a play after which the next seat can win
_PIPS = tuple(t.pips for t in TILES)
_WITH = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))
ROLLOUTS = ("auto", "greedy", "tuned", "blind", "hard", "random")


@dataclass(frozen=True, slots=True)
class Weights:
    """What the greedy roll-out policy scores a play by (per tile: pips and being a double; for
    the ends the play leaves: the next seat having nothing for them, the mover keeping a tile
    for them, how many it keeps, and how many of the number it exposes; a random tie-break;
    in All Fives: per point the play scores, and per point of the next seat's best score
    after it)."""

    pips: float
    double: float
    block: float
    keep: float
    fits: float
    control: float
    noise: float
    fives: float = 1.5
    reply: float = 0.0


GREEDY = Weights(pips=1.0, double=3.0, block=6.0, keep=2.0, fits=0.0, control=0.0, noise=1.0)
# Tuned by a hill climb over 10 000 duplicate-dealt Draw hands a step between two greedy
# players that both see the next hand, as in a roll-out (README, "roll-out policy"); the All
# Fives reply weight by a few checks of the same kind on All Fives hands.
TUNED = Weights(pips=0.5, double=3.5, block=9.0, keep=2.0, fits=1.0, control=1.0, noise=0.5,
                fives=1.5, reply=1.5)
VALUES = ("match", "odds", "points")


def match_value(state: GameState, side: int) -> float:
    """The estimated chance that ``side`` wins the match from ``state`` (between hands)."""
    if state.outcome is not None:
        winner = state.outcome.winner
        return 1.0 if winner == side else 0.5 if winner is None else 0.0
    target = max(1, state.rules.target)
    live = {state.side_of(s) for s in range(state.players) if state.active[s]}
    weights = {x: 1.0 / max(1, target - state.scores[x]) ** NEED_POWER for x in live}
    return float(weights.get(side, 0.0) / sum(weights.values()))


def odds_value(state: GameState, side: int) -> float:
    """``side``'s chance of winning the match from ``state`` (between hands) by the race of
    hands still to come (``odds.py``); ``match_value`` where that does not model the match."""
    if state.outcome is None and all(state.active):
        table = odds_for(state.rules, state.players)
        if table is not None:
            chance = table.chance(state.scores[0], state.scores[1])
            return chance if side == 0 else 1.0 - chance
    return match_value(state, side)


def side_values(state: GameState, before: Sequence[int], value: str) -> list[float]:
    """Every side's value of the finished hand in ``state``: its match-win chance by the rule of
    thumb ("match") or by the race of hands to come ("odds"), or its points margin over the best
    other side this hand, scaled into [0, 1] ("points")."""
    if value == "match":
        return [match_value(state, s) for s in range(state.sides)]
    if value == "odds":
        return [odds_value(state, s) for s in range(state.sides)]
    gains = [state.scores[s] - before[s] for s in range(state.sides)]
    out = []
    for s, gain in enumerate(gains):
        best_other = max(g for o, g in enumerate(gains) if o != s)
        out.append(min(1.0, max(0.0, 0.5 + (gain - best_other) / (2 * POINTS_SCALE))))
    return out


def rollout_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """The quick policy every seat follows in a simulation: shed weight, score fives, and leave
    ends the next seat cannot play on (it looks at that seat's hand in the sampled world) while
    keeping one for itself."""
    return greedy_choice(state, actions, rng, GREEDY, True)


def tuned_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """``rollout_choice`` with the ``TUNED`` weights: less for weight, more for a block, and
    a play counts the tiles the mover keeps for the ends and for the number it shows; in All
    Fives it gives up what the next seat can score straight after it."""
    return greedy_choice(state, actions, rng, TUNED, True)


def auto_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """Expert's default: ``tuned_choice`` where the rules score fives (it won more All Fives
    matches against the reference, README), ``rollout_choice`` elsewhere."""
    if state.rules.fives:
        return tuned_choice(state, actions, rng)
    return rollout_choice(state, actions, rng)


def blind_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """``rollout_choice`` without looking at the next seat's hand: shed weight, score fives,
    keep a tile for the ends."""
    return greedy_choice(state, actions, rng, GREEDY, False)


def greedy_choice(state: GameState, actions: Sequence[Action], rng: random.Random, w: Weights,
                  peek: bool) -> Action:
    """The play with the best score by ``w``; with ``peek`` it looks at the next seat's hand."""
    best: Action = actions[0]
    best_score = -1e9
    fives = state.rules.fives
    line = state.line
    seat = state.turn
    mine = state.hands[seat]
    nxt = state.hands[state.next_seat[seat]]
    same_side = state.side_of(state.next_seat[seat]) == state.side_of(seat)
    # All Fives to a target: what each side still needs, since points that reach it end the match
    target = state.rules.target if fives else 0
    need = need_next = 0
    if target:
        need = target - state.scores[state.side_of(seat)]
        need_next = target - state.scores[state.side_of(state.next_seat[seat])]
    for action in actions:
        if not isinstance(action, Play):
            continue
        tile = action.tile
        score = w.pips * _PIPS[tile.index] + (w.double if tile.is_double else 0.0)
        score += w.noise * rng.random()
        if fives:
            if action.end is not None and line.tiles:
                count, reply = fives_after(state, action, nxt, bool(w.reply) and peek)
                if count % 5 == 0:
                    if target and count >= need:
                        return action  # it takes the match
                    score += w.fives * count
                if target and reply >= need_next and not same_side:
                    score -= LOSES_MATCH  # the next seat's reply would take the match
                else:
                    score -= w.reply * reply
        elif action.end is not None and line.tiles:
            e = action.end.value
            shown = tile.other(line.ends[e])
            kept = line.ends[1 - e]
            fits = _WITH[shown] | _WITH[kept]
            rest = mine & ~tile.bit
            if peek and not nxt & fits:
                score += -w.block if same_side else w.block
            if rest & fits:
                score += w.keep
            if w.fits or w.control:
                score += w.fits * (rest & fits).bit_count()
                score += w.control * (rest & _WITH[shown]).bit_count()
        if score > best_score:
            best, best_score = action, score
    return best


def fives_after(state: GameState, action: Play, hand: int, reply: bool) -> tuple[int, int]:
    """All Fives: the count on the ends after ``action`` (played against an end), and with
    ``reply`` the most points the holder of ``hand`` (a tile mask) then scores with its next
    play (0 if none scores, or without ``reply``)."""
    assert action.end is not None
    trial = state.line.copy()
    trial.place(action.tile, action.end.value)
    count = trial.fives_count()
    best = 0
    if reply:
        for e in trial.open_ends():
            options = hand & _WITH[trial.ends[e]]
            while options:
                low = options & -options
                options ^= low
                after = trial.copy()
                after.place(TILES[low.bit_length() - 1], e)
                points = after.fives_count()
                if points % 5 == 0 and points > best:
                    best = points
    return count, best


def hard_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """Hard's best play, from the mover's own observation of the sampled world."""
    from lanomino.bots.hard import ranked_plays

    ranked = ranked_plays(observe(state, state.turn))
    return ranked[0][1] if ranked else actions[0]


def random_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


_POLICIES = {
    "auto": auto_choice,
    "greedy": rollout_choice,
    "tuned": tuned_choice,
    "blind": blind_choice,
    "hard": hard_choice,
    "random": random_choice,
}


def play_out(state: GameState, rng: random.Random, policy: str = "greedy") -> None:
    """Play ``state`` to the end of the hand with the rollout ``policy``."""
    choose = _POLICIES[policy]
    while state.phase is Phase.PLAY:
        seat = state.turn
        actions = legal_actions(state, seat)
        action = actions[0] if len(actions) == 1 else choose(state, actions, rng)
        apply(state, seat, action)


class TooBig(Exception):
    """The endgame has more positions than the solver was allowed to visit."""


def can_solve(state: GameState, max_tiles: int) -> bool:
    """True when ``solve`` applies: two sides, no All Fives, nothing left to draw, and at most
    ``max_tiles`` tiles in the hands."""
    return (
        state.phase is Phase.PLAY
        and state.sides == 2
        and not state.rules.fives
        and state.drawable <= 0
        and state.line.tiles > 0
        and sum(h.bit_count() for h in state.hands) <= max_tiles
    )


def solve(state: GameState, side: int, value: str, before: Sequence[int], limit: int) -> float:
    """``side``'s value of ``state`` with every seat playing perfectly (see ``can_solve``).
    Raises TooBig after ``limit`` positions."""
    memo: dict[tuple[int, ...], float] = {}
    return _minimax(state, side, value, before, memo, [limit])


def solve_moves(state: GameState, moves: Sequence[Action], side: int, value: str,
                before: Sequence[int], limit: int) -> list[float]:
    """``side``'s value of each of ``moves`` (the mover's) in ``state`` with every seat playing
    perfectly from then on, one memo shared by all (see ``can_solve``). Raises TooBig after
    ``limit`` positions."""
    memo: dict[tuple[int, ...], float] = {}
    left = [limit]
    seat = state.turn
    out = []
    for action in moves:
        child = state.copy()
        apply(child, seat, action)
        out.append(_minimax(child, side, value, before, memo, left))
    return out


def _minimax(state: GameState, side: int, value: str, before: Sequence[int],
             memo: dict[tuple[int, ...], float], left: list[int]) -> float:
    if state.phase is not Phase.PLAY:
        return side_values(state, before, value)[side]
    ends = state.line.ends
    key = (*state.hands, ends[0], ends[1], state.turn)
    got = memo.get(key)
    if got is not None:
        return got
    left[0] -= 1
    if left[0] < 0:
        raise TooBig
    seat = state.turn
    mine = state.side_of(seat) == side
    best = -1.0 if mine else 2.0
    for action in legal_actions(state, seat):
        child = state.copy()
        apply(child, seat, action)
        v = _minimax(child, side, value, before, memo, left)
        best = max(best, v) if mine else min(best, v)
    memo[key] = best
    return best
