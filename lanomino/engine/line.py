"""The line of play: its open ends, doubles across them, and the All Fives spinner.

Ends are indexed by ``End.value`` (left, right, up, down). An end is closed when its number is
``CLOSED``. Up and down exist only on the spinner and open once both of its long sides hold a
tile; they count for All Fives only once a tile lies on them.
"""

from __future__ import annotations

from typing import Final

from lanomino.engine.actions import End
from lanomino.engine.tiles import Tile

CLOSED: Final = -1
LEFT: Final = 0
RIGHT: Final = 1
UP: Final = 2
DOWN: Final = 3


class Line:
    """Mutable state of the line. ``copy()`` before exploring."""

    __slots__ = ("fives", "ends", "double", "counted", "pending", "spinner", "tiles", "first")

    def __init__(
        self,
        fives: bool = False,
        ends: list[int] | None = None,
        double: list[bool] | None = None,
        counted: list[bool] | None = None,
        pending: set[int] | None = None,
        spinner: Tile | None = None,
        tiles: int = 0,
        first: Tile | None = None,
    ) -> None:
        """An empty line, or one made of the parts given (``copy`` and ``snapshot``: compiled,
        ``Line.__new__`` runs ``__init__`` too, so parts built there and replaced were waste)."""
        self.fives = fives  # All Fives: doubles at an end count twice and the spinner branches
        self.ends = [CLOSED, CLOSED, CLOSED, CLOSED] if ends is None else ends
        # the end tile is a double laid across
        self.double = [False, False, False, False] if double is None else double
        # up/down: a tile lies on it
        self.counted = [False, False, False, False] if counted is None else counted
        # spinner long sides still waiting for a tile
        self.pending: set[int] = set() if pending is None else pending
        self.spinner = spinner
        self.tiles = tiles  # tiles on the line
        self.first = first

    def copy(self) -> Line:
        return Line(
            self.fives, self.ends[:], self.double[:], self.counted[:], set(self.pending),
            self.spinner, self.tiles, self.first,
        )

    def snapshot(self) -> Line:
        """A copy that stays as the line is now, for an observation (read-only). Outside All
        Fives, once the first tile lies, play changes only the ends and the tile count (play.py),
        so the rest is shared instead of copied; ``copy()`` of a snapshot is a full copy."""
        if self.fives or self.tiles == 0:
            return self.copy()
        return Line(
            False, self.ends[:], self.double, self.counted, self.pending, self.spinner, self.tiles,
            self.first,
        )

    @property
    def is_empty(self) -> bool:
        return self.tiles == 0

    def open_ends(self) -> list[int]:
        return [e for e in range(4) if self.ends[e] != CLOSED]

    def open_numbers(self) -> tuple[int, ...]:
        """The distinct numbers showing on open ends, in end order."""
        seen: list[int] = []
        for n in self.ends:
            if n != CLOSED and n not in seen:
                seen.append(n)
        return tuple(seen)

    def end_key(self, e: int) -> tuple[int, bool, bool, bool, bool]:
        """Two ends with the same key are one place to play: the game cannot tell them apart."""
        double = self.double[e] and self.fives
        return (self.ends[e], double, self.counted[e], e in self.pending, e >= UP)

    def place_first(self, tile: Tile, high_on: End) -> int:
        """Lay the opening tile. Returns the number showing on the right end."""
        left, right = (tile.high, tile.low) if high_on is End.LEFT else (tile.low, tile.high)
        self.ends[LEFT], self.ends[RIGHT] = left, right
        self.counted[LEFT] = self.counted[RIGHT] = True
        if tile.is_double:
            self.double[LEFT] = self.double[RIGHT] = True
            if self.fives:
                self.spinner = tile
                self.pending = {LEFT, RIGHT}
        self.tiles = 1
        self.first = tile
        return right

    def place(self, tile: Tile, e: int) -> tuple[int, bool]:
        """Lay ``tile`` against end ``e`` (it must fit). Returns (number showing, new spinner)."""
        number = self.ends[e]
        exposed = tile.other(number)
        self.ends[e] = exposed
        self.double[e] = tile.is_double
        self.counted[e] = True
        self.tiles += 1
        became_spinner = False
        if e in self.pending:
            self.pending.discard(e)
            if not self.pending:
                self._open_arms()
        if tile.is_double and self.fives and self.spinner is None:
            self.spinner = tile
            self.pending = {e}
            became_spinner = True
        return exposed, became_spinner

    def _open_arms(self) -> None:
        assert self.spinner is not None
        self.ends[UP] = self.ends[DOWN] = self.spinner.high
        self.double[UP] = self.double[DOWN] = False
        self.counted[UP] = self.counted[DOWN] = False

    def fives_count(self) -> int:
        """The All Fives count: the pips showing on the ends."""
        if self.tiles == 1 and self.first is not None:
            return self.first.pips  # a double laid first counts once
        total = 0
        for e in range(4):
            n = self.ends[e]
            if n != CLOSED and self.counted[e]:
                total += 2 * n if self.double[e] else n
        return total
