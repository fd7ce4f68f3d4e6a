"""Events: facts in the past tense, returned by ``apply`` and kept in the public history.

The same event types are used by the host, in records and in the UI. ``TileDrawn.tile`` is
``None`` in every observation but the drawer's own.
"""

from __future__ import annotations

from dataclasses import dataclass

from lanomino.engine.actions import End
from lanomino.engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand: int  # 1-based count of hands dealt in the match, void deals included
    opener: int
    must_lead: Tile | None  # the tile the opener has to lead with, if the rules say so
    hand_sizes: tuple[int, ...]
    boneyard: int


@dataclass(frozen=True, slots=True)
class DealVoided:
    """Nobody held a double and the rules say to deal again."""

    hand: int


@dataclass(frozen=True, slots=True)
class TilePlayed:
    seat: int
    tile: Tile
    end: End  # for the first tile: the side its higher number lies on
    first: bool  # the opening tile of the hand
    exposed: int  # the number now showing at that end (for the first tile: the right end)
    spinner: bool  # this tile became the All Fives spinner


@dataclass(frozen=True, slots=True)
class TileDrawn:
    seat: int
    tile: Tile | None  # hidden from everyone but the drawer
    ends: tuple[int, ...]  # the numbers showing when the seat drew: it had none of them
    boneyard: int  # tiles left in the boneyard after the draw


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    ends: tuple[int, ...]  # the numbers showing: the seat has none of them


@dataclass(frozen=True, slots=True)
class PointsScored:
    side: int  # a seat, or a team (0 or 1) in a partnership game
    points: int
    reason: str  # "fives" (during play), "domino", "blocked"


@dataclass(frozen=True, slots=True)
class Resigned:
    seat: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    hand: int
    end: str  # domino | blocked | target | resigned
    winner: int | None  # a seat, or a team in a partnership game
    points: tuple[int, ...]  # per side: everything scored in this hand, fives included
    pips_left: tuple[int | None, ...]  # per seat; None for a seat that has left
    hands: tuple[tuple[Tile, ...], ...]  # what every seat still held (public at hand end)
    reason: str  # one sentence saying how the points were counted


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: int | None  # a seat, or a team in a partnership game
    scores: tuple[int, ...]
    standings: tuple[int, ...]  # sides from first place to last


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
