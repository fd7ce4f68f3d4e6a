"""Whole matches between bots, in-process: used by ``lanomino selfplay`` and benchmarks.

Compiled with mypyc when installed (see setup.py): the loops below run at engine speed, and every
move costs one ``observe`` (its legal moves computed there, once), one bot call and one ``apply``.
``play_matches`` is selfplay's loop over matches, here rather than in the command so that it is
compiled too (a one-hand match is short: interpreted, the loop cost about a tenth of the match).
``shuffle`` and ``seeded`` (bots/chance.py) draw as ``random.Random`` does, at a fraction of its
interpreted cost.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from lanomino.bots import Bot
from lanomino.bots.chance import seeded, shuffle
from lanomino.engine import (
    TILES,
    GameState,
    MatchEnded,
    Phase,
    Rules,
    apply,
    new_game,
    observe,
    start_hand,
)
from lanomino.engine.dealing import deal_for

if TYPE_CHECKING:
    from lanomino.record.writer import RecordBuilder

_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_COMPILED: Final = not __file__.endswith(".py")  # built by mypyc (setup.py)


@dataclass(frozen=True, slots=True)
class MatchResult:
    outcome: MatchEnded
    hands: int  # hands played, void deals excluded
    hand_points: tuple[int, ...]  # total points per side over the match
    record: dict[str, Any] | None


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    rng: random.Random,
    names: Sequence[str] | None = None,
    keep_record: bool = False,
    max_hands: int = 10_000,
) -> MatchResult:
    """Play one match; ``rng`` shuffles the decks and seeds every seat's own random source."""
    players = len(bots)
    state = new_game(rules, players)
    seat_rngs = [seeded(rng.getrandbits(64)) for _ in range(players)]
    seat_bots = list(bots)  # a list: indexed natively when compiled
    builder = None
    if keep_record:  # imported only when wanted: lanomino.record is most of a short run's start-up
        from lanomino.record.writer import RecordBuilder

        builder = RecordBuilder(rules, names or [f"Bot {s + 1}" for s in range(players)])
    while state.phase is not _OVER:
        if state.hand_no >= max_hands:
            raise RuntimeError(f"match did not end after {max_hands} deals")
        deck = list(TILES)
        shuffle(rng, deck)
        deal, boneyard = deal_for(state, deck)
        if builder:
            builder.start_hand(deal, boneyard)
        start_hand(state, deal, boneyard)
        _play_hand(state, seat_bots, seat_rngs, builder)
    assert state.outcome is not None
    totals = [0] * state.sides
    for result in state.results:
        for side, points in enumerate(result.points):
            totals[side] += points
    record = builder.to_json() if builder else None
    return _result(state.outcome, state.dealt_hands, tuple(totals), record)


class Tally:
    """The summary of many matches: wins per side, matches without a winner, hands, points."""

    def __init__(self, sides: int) -> None:
        self.wins = [0] * sides
        self.no_winner = 0
        self.hands = 0  # void deals excluded
        self.points = [0] * sides  # hand points per side, over every match

    def add(self, result: MatchResult) -> None:
        winner = result.outcome.winner
        if winner is None:
            self.no_winner += 1
        else:
            self.wins[winner] += 1
        self.hands += result.hands
        points = self.points
        for side, gained in enumerate(result.hand_points):
            points[side] += gained


def play_matches(
    tally: Tally,
    rules: Rules,
    bots: Sequence[Bot],
    rng: random.Random,
    games: int,
    names: Sequence[str] | None = None,
    keep_record: bool = False,
    each: Callable[[int, MatchResult], None] | None = None,
) -> None:
    """Play ``games`` matches one after the other with ``play_match`` (the same ``rng``
    throughout) and add them to ``tally``; ``each(game, result)`` is called after each one
    (game counts from 1)."""
    for game in range(1, games + 1):
        result = play_match(rules, bots, rng, names, keep_record)
        tally.add(result)
        if each is not None:
            each(game, result)


_NEW_RESULT: Final[Any] = MatchResult.__new__


def _result(
    outcome: MatchEnded, hands: int, hand_points: tuple[int, ...], record: dict[str, Any] | None
) -> MatchResult:
    """``MatchResult(...)``. Compiled, by native stores: the frozen dataclass's own __init__ is
    interpreted (one object.__setattr__ per field), and it cost more than dealing a hand."""
    if not _COMPILED:
        return MatchResult(outcome, hands, hand_points, record)
    result: MatchResult = _NEW_RESULT(MatchResult)
    result.outcome = outcome  # type: ignore[misc]
    result.hands = hands  # type: ignore[misc]
    result.hand_points = hand_points  # type: ignore[misc]
    result.record = record  # type: ignore[misc]
    return result


def _play_hand(
    state: GameState, bots: list[Bot], seat_rngs: list[random.Random], builder: RecordBuilder | None
) -> None:
    while state.phase is _PLAY:
        seat = state.turn
        action = bots[seat](observe(state, seat), seat_rngs[seat])
        apply(state, seat, action)
        if builder:
            builder.add(seat, action)
