"""Actions a seat can take: commands in the imperative."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from lanomino.engine.tiles import Tile


class End(enum.IntEnum):
    """An open end of the line. ``UP`` and ``DOWN`` exist only on the All Fives spinner.

    An int, so that it indexes the line's list of ends directly."""

    LEFT = 0
    RIGHT = 1
    UP = 2
    DOWN = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> End:
        try:
            return cls[text.upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"an end is left, right, up or down, not {text!r}") from None


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` against ``end``.

    For the first tile of a hand there is no end to match: ``end`` then says on which side of the
    line the tile's higher number lies (LEFT by default). ``end=None`` means "the only place it
    fits" and is refused when the tile could go to two different places.
    """

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"play {self.tile}" + (f" {self.end}" if self.end is not None else "")


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the boneyard."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn (only when nothing fits and nothing may be drawn)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the match: the seat's tiles leave the table with it."""

    def __str__(self) -> str:
        return "resign"


Action = Play | Draw | Pass | Resign

DRAW: Final = Draw()
PASS: Final = Pass()
RESIGN: Final = Resign()
