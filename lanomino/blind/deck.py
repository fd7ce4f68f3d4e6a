"""The ElGamal deck: tiles as points, ciphertexts under the table's key, re-masking, opening.

Tile t (its canonical index, ``Tile.index``) is the point Mₜ = (t+1)·B. A ciphertext under the
aggregate key Y = ΣXᵢ is (c₁, c₂) = (r·B, r·Y + M). A holder's decryption share of a ciphertext
is Dᵢ = xᵢ·c₁; all of them together open it: c₂ − ΣDᵢ = M. The open deck, before any shuffle,
is Enc(Mₜ; 1) for every tile in canonical order: public, so anyone can rebuild it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lanomino.blind.group import (
    BASE,
    POINT_BYTES,
    BlindError,
    Point,
    add,
    base_mul,
    mul,
    parse_point,
    sub,
    total,
)


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """One locked tile: (c₁, c₂) = (r·B, r·Y + M)."""

    c1: Point
    c2: Point

    def to_bytes(self) -> bytes:
        return self.c1 + self.c2

    @classmethod
    def from_bytes(cls, data: bytes) -> Ciphertext:
        """Raises: BlindError for anything but two valid points (c₁ never the identity)."""
        if len(data) != 2 * POINT_BYTES:
            raise BlindError(f"a ciphertext is {2 * POINT_BYTES} bytes, not {len(data)}")
        return cls(parse_point(data[:POINT_BYTES]), parse_point(data[POINT_BYTES:],
                                                                identity_ok=True))

    def remasked(self, key: Point, r: int) -> Ciphertext:
        """The same tile under fresh randomness: (c₁ + r·B, c₂ + r·Y)."""
        return Ciphertext(add(self.c1, base_mul(r)), add(self.c2, mul(r, key)))


Deck = tuple[Ciphertext, ...]


def deck_bytes(deck: Iterable[Ciphertext]) -> bytes:
    return b"".join(c.to_bytes() for c in deck)


def deck_digest(deck: Iterable[Ciphertext]) -> bytes:
    """SHA-256 of the deck's bytes: what a shuffler signs for its input and output."""
    return hashlib.sha256(b"lanomino.blind.deck/1" + deck_bytes(deck)).digest()


def parse_deck(data: bytes, tiles: int) -> Deck:
    """A deck of ``tiles`` ciphertexts. Raises: BlindError."""
    size = 2 * POINT_BYTES
    if len(data) != tiles * size:
        raise BlindError(f"a deck of {tiles} tiles is {tiles * size} bytes, not {len(data)}")
    return tuple(Ciphertext.from_bytes(data[i : i + size]) for i in range(0, len(data), size))


@lru_cache(maxsize=4)
def tile_points(tiles: int) -> tuple[Point, ...]:
    """Mₜ = (t+1)·B for t in 0..tiles−1."""
    return tuple(base_mul(t + 1) for t in range(tiles))


@lru_cache(maxsize=4)
def _tile_index(tiles: int) -> dict[Point, int]:
    return {point: t for t, point in enumerate(tile_points(tiles))}


def tile_of(point: Point, tiles: int) -> int:
    """The tile index a decrypted point stands for. Raises: BlindError if it is no tile."""
    try:
        return _tile_index(tiles)[point]
    except KeyError:
        raise BlindError("the opened point is not a tile of the set") from None


def aggregate_key(keys: Sequence[Point]) -> Point:
    """Y = ΣXᵢ, the key the deck is locked under."""
    if not keys:
        raise BlindError("a deck needs at least one key")
    return total(keys)


def open_deck(key: Point, tiles: int) -> Deck:
    """Enc(Mₜ; 1) = (B, Y + Mₜ) for every tile in canonical order: the first shuffler's input."""
    return tuple(Ciphertext(BASE, add(key, m)) for m in tile_points(tiles))


def opened(ciphertext: Ciphertext, shares: Iterable[Point]) -> Point:
    """c₂ − ΣDᵢ: the tile's point when ``shares`` holds every holder's share."""
    return sub(ciphertext.c2, total(shares))


def share_of(secret: int, ciphertext: Ciphertext) -> Point:
    """A holder's decryption share xᵢ·c₁ (proofs in ``proofs.py``)."""
    return mul(secret, ciphertext.c1)
