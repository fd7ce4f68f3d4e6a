"""Events: facts in the past tense, returned by ``apply`` and kept in the public history.

The same event types are used by the host, in records and in the UI. ``TileDrawn.tile`` is
``None`` in every observation but the drawer's own.

Events are immutable named tuples rather than frozen dataclasses: one is made for every move,
and a frozen dataclass costs three times as much to build, which the engine's hot path cannot
afford (see scripts/bench_engine.py). Equality also compares the event type.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, NamedTuple

from lanomino.engine.actions import End
from lanomino.engine.tiles import Tile


class HandEnd(enum.StrEnum):
    """How a hand ended (equal to its JSON text, so ``end == "blocked"`` holds)."""

    DOMINO = "domino"  # a seat played its last tile
    BLOCKED = "blocked"  # nobody could move
    TARGET = "target"  # All Fives: a side reached the target during play
    RESIGNED = "resigned"  # a resignation left one side (or a partnership conceded)


class MatchEnd(enum.StrEnum):
    """Why a match ended."""

    TARGET = "target"  # a side reached the target
    ONE_HAND = "one-hand"  # the match was a single hand
    RESIGNED = "resigned"  # the others resigned or left: one side was left


class HandStarted(NamedTuple):
    hand: int  # 1-based count of hands dealt in the match, void deals included
    opener: int
    must_lead: Tile | None  # the tile the opener has to lead with, if the rules say so
    hand_sizes: tuple[int, ...]
    boneyard: int


class DealVoided(NamedTuple):
    """Nobody held a double and the rules say to deal again."""

    hand: int


class TilePlayed(NamedTuple):
    seat: int
    tile: Tile
    end: End  # for the first tile: the side its higher number lies on
    first: bool  # the opening tile of the hand
    exposed: int  # the number now showing at that end (for the first tile: the right end)
    spinner: bool  # this tile became the All Fives spinner


class TileDrawn(NamedTuple):
    seat: int
    tile: Tile | None  # hidden from everyone but the drawer
    ends: tuple[int, ...]  # the numbers showing when the seat drew: it had none of them
    boneyard: int  # tiles left in the boneyard after the draw


class Passed(NamedTuple):
    seat: int
    ends: tuple[int, ...]  # the numbers showing: the seat has none of them


class PointsScored(NamedTuple):
    side: int  # a seat, or a team (0 or 1) in a partnership game
    points: int
    reason: str  # "fives" (during play), "domino", "blocked"


class Resigned(NamedTuple):
    seat: int


class HandTally(NamedTuple):
    """The facts behind a hand's end points, from which the words are made (``lanomino.narrate``).

    Sides are seats, or teams (0 and 1) in a partnership game."""

    seat: int | None  # who went out, reached the target or resigned; None for a blocked hand
    others: int  # pips left in the other live sides' hands
    own: int  # pips left in the winning side's hands (for a blocked hand: the fewest)
    counted: int  # the points the count gives before rounding
    earned: int  # the points the winner scored at the end of the hand (rounded if the rules say)
    tied: tuple[int, ...] = ()  # a blocked hand: the sides tied on the fewest pips
    lightest: Tile | None = None  # a blocked tie broken by the lightest tile: that tile


class HandEnded(NamedTuple):
    hand: int
    end: HandEnd
    winner: int | None  # a seat, or a team in a partnership game
    points: tuple[int, ...]  # per side: everything scored in this hand, fives included
    pips_left: tuple[int | None, ...]  # per seat; None for a seat that has left
    hands: tuple[tuple[Tile, ...], ...]  # what every seat still held (public at hand end)
    tally: HandTally  # how the end points were counted


class MatchEnded(NamedTuple):
    winner: int | None  # a seat, or a team in a partnership game
    scores: tuple[int, ...]
    standings: tuple[int, ...]  # sides from first place to last
    why: MatchEnd


def _typed_equality(*classes: type) -> None:
    """Make two events equal only when they are of the same type (plain tuples ignore it)."""

    def eq(self: tuple[Any, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def ne(self: tuple[Any, ...], other: object) -> bool:
        return not eq(self, other)

    def hash_(self: tuple[Any, ...]) -> int:
        return hash((type(self).__name__, tuple(self)))

    for cls in classes:
        cls.__eq__ = eq  # type: ignore[assignment,method-assign]
        cls.__ne__ = ne  # type: ignore[assignment,method-assign]
        cls.__hash__ = hash_  # type: ignore[assignment,method-assign]


_typed_equality(
    HandStarted, DealVoided, TilePlayed, TileDrawn, Passed, PointsScored, Resigned, HandEnded,
    MatchEnded
)

Event = (
    HandStarted
    | DealVoided
    | TilePlayed
    | TileDrawn
    | Passed
    | PointsScored
    | Resigned
    | HandEnded
    | MatchEnded
)


def unopened_draw(history: Sequence[Event], seat: int | None) -> bool:
    """``history``'s last event is ``seat``'s own draw whose tile it does not know yet: the locked
    deck opens a drawn tile for its drawer with the others' shares, a moment after the draw (a
    drawn tile is never hidden from its drawer otherwise). Its turn has no move until then."""
    last = history[-1] if history else None
    return isinstance(last, TileDrawn) and last.seat == seat and last.tile is None
