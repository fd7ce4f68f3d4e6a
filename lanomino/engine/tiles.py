"""Tiles and sets.

A tile is stored with its higher number first. Tiles of a set have a canonical order (by high
number, then low number: 0-0, 1-0, 1-1, 2-0, ...) and an index in that order; hands are kept as
bitmasks over those indices, which is what makes the engine's hot path cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from lanomino.engine.errors import TileError

DEFAULT_TOP: Final = 6


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One domino, ``high >= low``. ``str`` gives the notation "6-4"."""

    high: int
    low: int
    index: int = field(init=False, compare=False, repr=False)
    bit: int = field(init=False, compare=False, repr=False)  # 1 << index: the tile in a hand mask

    def __post_init__(self) -> None:
        if not (isinstance(self.high, int) and isinstance(self.low, int)):
            raise TileError(f"tile numbers must be integers, not {self.high!r} and {self.low!r}")
        if self.low < 0 or self.high < self.low:
            raise TileError(f"not a tile: {self.high}-{self.low} (write the higher number first)")
        index = self.high * (self.high + 1) // 2 + self.low
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, number: int) -> bool:
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The number on the other half from ``number``."""
        return self.low if self.high == number else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


def make_set(top: int = DEFAULT_TOP) -> tuple[Tile, ...]:
    """Every tile of a double-``top`` set in canonical order."""
    if not 1 <= top <= 12:
        raise TileError(f"a set's top number must be 1..12, not {top}")
    return tuple(Tile(h, lo) for h in range(top + 1) for lo in range(h + 1))


TILES: Final[tuple[Tile, ...]] = make_set(DEFAULT_TOP)
TOP: Final = DEFAULT_TOP
NUMBERS: Final = range(TOP + 1)
FULL_MASK: Final = (1 << len(TILES)) - 1

# WITH[n]: bitmask of the tiles carrying number n.
WITH: Final[tuple[int, ...]] = tuple(
    sum(1 << t.index for t in TILES if t.has(n)) for n in NUMBERS
)
PIPS: Final[tuple[int, ...]] = tuple(t.pips for t in TILES)


def parse_tile(text: object, top: int = DEFAULT_TOP) -> Tile:
    """Parse "6-4" (either order). Raises TileError."""
    a, b = parse_halves(text, top)
    tile = Tile(max(a, b), min(a, b))
    return TILES[tile.index] if top == DEFAULT_TOP else tile


def parse_halves(text: object, top: int = DEFAULT_TOP) -> tuple[int, int]:
    """Parse "3-5" into its two numbers in the order written. Raises TileError."""
    if not isinstance(text, str):
        raise TileError(f"a tile is written like \"6-4\", not {text!r}")
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise TileError(f"a tile is written like \"6-4\", not {text!r}")
    a, b = int(parts[0]), int(parts[1])
    if a > top or b > top:
        raise TileError(f"no tile {text!r} in a double-{top} set")
    return a, b


def _chunk_tiles(chunk: int) -> tuple[tuple[Tile, ...], ...]:
    return tuple(
        tuple(TILES[chunk * 7 + i] for i in range(7) if m >> i & 1 and chunk * 7 + i < len(TILES))
        for m in range(128)
    )


# The tiles of every 7-bit slice of a mask, so that listing a hand is four lookups.
_TILES_BY_CHUNK: Final = tuple(_chunk_tiles(c) for c in range(4))


def tiles_in(mask: int) -> tuple[Tile, ...]:
    """The tiles of a (double-six) bitmask, in canonical order."""
    if mask < 128:
        return _TILES_BY_CHUNK[0][mask]
    return (
        _TILES_BY_CHUNK[0][mask & 127]
        + _TILES_BY_CHUNK[1][mask >> 7 & 127]
        + _TILES_BY_CHUNK[2][mask >> 14 & 127]
        + _TILES_BY_CHUNK[3][mask >> 21 & 127]
    )


def mask_of(tiles: object) -> int:
    mask = 0
    for t in tiles:  # type: ignore[attr-defined]
        mask |= 1 << t.index
    return mask


def _chunk_pips(chunk: int) -> tuple[int, ...]:
    return tuple(sum(PIPS[chunk * 7 + i] for i in range(7) if m >> i & 1) for m in range(128))


# Pip totals of every 7-tile slice of a mask: four lookups instead of a walk over the tiles.
_PIPS_BY_CHUNK: Final = tuple(_chunk_pips(c) for c in range(4))


def pips_of(mask: int) -> int:
    """Total pips of the tiles in a (double-six) mask."""
    return (
        _PIPS_BY_CHUNK[0][mask & 127]
        + _PIPS_BY_CHUNK[1][mask >> 7 & 127]
        + _PIPS_BY_CHUNK[2][mask >> 14 & 127]
        + _PIPS_BY_CHUNK[3][mask >> 21 & 127]
    )


# OTHER[tile index][n]: the number left showing when the tile is laid against n (-1: it does not
# fit).
# Each row ends with one more -1, so that a closed end (CLOSED == -1, e.g. up/down outside All
# Fives) indexes it and never fits: without it, index -1 read the entry for a six.
OTHER: Final[tuple[tuple[int, ...], ...]] = tuple(
    (*(t.other(n) if t.has(n) else -1 for n in NUMBERS), -1) for t in TILES
)


def heavier(a: Tile, b: Tile) -> bool:
    """True when ``a`` outranks ``b`` as the heaviest tile: more pips, then the higher end."""
    return (a.pips, a.high) > (b.pips, b.high)
