"""Fiat–Shamir challenges, generators and the seeded randomness of the locked deck.

Every challenge is SHA-512 over a sequence of length-framed parts (4-byte big-endian length, then
the bytes), reduced modulo the group order. The first parts are always the ``Context``: the
algorithm tag, the domain (which proof), table id, hand, attempt, the proving seat, the deck
size, the holders' seats, their keys and the digest of the generators; then the proof's own
inputs and outputs. A proof made for one table, hand, attempt, seat or key set does not check
under another.

Randomness is never drawn here: a ``Drbg`` expands a 32-byte seed that the caller made (the
runtime takes it from ``fair/entropy.py``), so a shuffle can be recomputed from its seed once the
seed is revealed, and test vectors are fixed bytes.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from lanomino.blind.group import (
    BASE,
    ORDER,
    POINT_BYTES,
    BlindError,
    Point,
    hash_to_point,
    scalar_bytes,
)
from lanomino.engine.errors import seat_name

ALGORITHM = "lanomino-blind-ristretto255/1"
TAG = ALGORITHM.encode()
GENERATOR_TAG = b"lanomino.blind.generator/1"
SEED_BYTES = 32
MAX_TILES = 91  # a double-twelve set, the largest the engine makes


def frame(part: bytes) -> bytes:
    """A part as the hash reads it: 4-byte big-endian length, then the bytes."""
    return len(part).to_bytes(4, "big") + part


def u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


@lru_cache(maxsize=8)
def generators(tiles: int) -> tuple[Point, ...]:
    """(h, h₁, …, h_N) for a deck of N tiles: hash-to-group of the tag and the index, so nobody
    knows a logarithm between them or to the base point. h is index 0."""
    if not 1 <= tiles <= MAX_TILES:
        raise BlindError(f"a deck has 1..{MAX_TILES} tiles, not {tiles}")
    return tuple(hash_to_point(GENERATOR_TAG, u32(i)) for i in range(tiles + 1))


def generators_digest(tiles: int) -> bytes:
    """SHA-256 of the base point and (h, h₁, …, h_N): what the context binds."""
    return hashlib.sha256(BASE + b"".join(generators(tiles))).digest()


@dataclass(frozen=True, slots=True)
class Context:
    """What every proof of one deal attempt is bound to. ``keys`` is the key set in seat order
    (empty for the key proofs themselves, made before the set exists)."""

    table: bytes
    hand: int
    attempt: int
    tiles: int
    holders: tuple[int, ...] = ()  # the seats whose keys lock the deck, in seat order
    keys: tuple[Point, ...] = ()  # their keys, aligned with ``holders``

    def __post_init__(self) -> None:
        if len(self.table) != 16:
            raise BlindError("a table id is 16 bytes")
        if not (0 <= self.hand < 2**32 and 0 <= self.attempt < 2**32):
            raise BlindError("hand and attempt are unsigned 32-bit numbers")
        generators(self.tiles)  # checks the size
        if any(len(k) != POINT_BYTES for k in self.keys):
            raise BlindError("a key is a 32-byte point")
        if list(self.holders) != sorted(set(self.holders)) or not all(
                0 <= s < 256 for s in self.holders):
            raise BlindError("holders are distinct seats 0..255 in seat order")
        if self.keys and len(self.keys) != len(self.holders):
            raise BlindError("one key per holder")

    def with_keys(self, keys: Iterable[Point]) -> Context:
        """The same context with the key set (aligned with ``holders``) bound in."""
        return Context(self.table, self.hand, self.attempt, self.tiles, self.holders,
                       tuple(keys))

    def key_of(self, seat: int) -> Point:
        """The key of holder ``seat``. Raises: BlindError for a seat that holds no key."""
        if seat not in self.holders or not self.keys:
            raise BlindError(f"{seat_name(seat)} holds no key in this deal")
        return self.keys[self.holders.index(seat)]

    def prefix(self, domain: bytes, seat: int) -> bytes:
        """The framed context parts that open every challenge of ``domain`` by ``seat``."""
        if not 0 <= seat < 256:
            raise BlindError(f"a seat is 0..255, not {seat}")
        return b"".join(frame(p) for p in (
            TAG, domain, self.table, u32(self.hand), u32(self.attempt), u32(seat),
            u32(self.tiles), bytes(self.holders), b"".join(self.keys),
            generators_digest(self.tiles)))


def challenge(ctx: Context, domain: bytes, seat: int, *parts: bytes) -> int:
    """The Fiat–Shamir challenge: SHA-512 of the context prefix and the framed parts, mod ℓ."""
    h = hashlib.sha512(ctx.prefix(domain, seat))
    for part in parts:
        h.update(frame(part))
    return int.from_bytes(h.digest(), "little") % ORDER


def nonce(secret: int, *parts: bytes) -> int:
    """A proof nonce derived from the secret and the statement (as EdDSA does): no randomness
    needed, and never the same nonce for two statements."""
    mac = hmac.new(scalar_bytes(secret), b"lanomino.blind.nonce/1", hashlib.sha512)
    for part in parts:
        mac.update(frame(part))
    return int.from_bytes(mac.digest(), "little") % ORDER


class Drbg:
    """Deterministic randomness from a 32-byte seed: HMAC-SHA512 counter blocks under a label."""

    __slots__ = ("_key", "_label", "_block", "_buffer")

    def __init__(self, seed: bytes, label: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise BlindError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._key = seed
        self._label = label
        self._block = 0
        self._buffer = b""

    def _take(self, size: int) -> bytes:
        while len(self._buffer) < size:
            block = hmac.new(self._key, frame(self._label) + self._block.to_bytes(8, "big"),
                             hashlib.sha512).digest()
            self._buffer += block
            self._block += 1
        out, self._buffer = self._buffer[:size], self._buffer[size:]
        return out

    def scalar(self) -> int:
        """A scalar mod ℓ from 64 bytes (the bias of the reduction is below 2⁻²⁵⁹)."""
        return int.from_bytes(self._take(64), "little") % ORDER

    def nonzero_scalar(self) -> int:
        while True:
            value = self.scalar()
            if value:
                return value

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound) by rejection sampling on 32-bit words."""
        limit = 2**32 - 2**32 % bound
        while True:
            word = int.from_bytes(self._take(4), "big")
            if word < limit:
                return word % bound

    def permutation(self, n: int) -> tuple[int, ...]:
        """A uniform permutation of range(n) (Fisher–Yates)."""
        items = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return tuple(items)
