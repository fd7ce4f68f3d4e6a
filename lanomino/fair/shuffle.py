"""The shuffle: seed from the revealed secrets, Fisher–Yates deck order, the deal rule.

Algorithm ``lanomino-fy-hmac-sha256/1`` (published with test vectors in docs/fair-deal.md):

- seed = HMAC-SHA256(key = "lanomino.seed/1", message = table id (16 bytes) || hand (u32 BE) ||
  attempt (u32 BE) || for each committing seat in seat order: seat (1 byte) || secret (32 bytes)).
- stream block j = HMAC-SHA256(key = seed, message = "lanomino.stream/1" || j (u64 BE)),
  j = 0, 1, 2, ...; the blocks are read as consecutive big-endian u32 words.
- Fisher–Yates over the canonical tile order (0-0, 1-0, 1-1, 2-0, ...): for i = n-1 down to 1,
  take words until one is below 2**32 - (2**32 mod (i+1)) (rejection sampling: no modulo bias),
  let j = word mod (i+1), swap deck[i] and deck[j].
- Deal: the k-tile hands go to the active seats in seat order, each taking the next k tiles of
  the deck from the front; the boneyard is the rest of the deck in order (drawn from its front).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from lanomino.engine import Rules, Tile
from lanomino.engine.dealing import split_deck
from lanomino.engine.tiles import TILES
from lanomino.fair.commit import SECRET_BYTES, CommitmentError, DealContext

ALGORITHM = "lanomino-fy-hmac-sha256/1"
SEED_KEY = b"lanomino.seed/1"
STREAM_TAG = b"lanomino.stream/1"
_WORD_SPACE = 1 << 32


def shuffle_seed(ctx: DealContext, secrets: Sequence[tuple[int, bytes]]) -> bytes:
    """The deal's seed from every committing seat's secret, ``secrets`` in seat order."""
    return keyed_seed(SEED_KEY, ctx.to_bytes(), secrets)


def keyed_seed(key: bytes, context: bytes, secrets: Sequence[tuple[int, bytes]]) -> bytes:
    """HMAC-SHA256 under ``key`` of ``context`` then each (seat, secret), ``secrets`` in seat order
    (the key keeps a deal's seed and a re-shuffle's apart)."""
    parts = [context]
    last = -1
    for seat, secret in secrets:
        if seat <= last or not 0 <= seat < 256 or len(secret) != SECRET_BYTES:
            raise CommitmentError("secrets must be 32 bytes each, one per seat, in seat order")
        parts.append(bytes([seat]) + secret)
        last = seat
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


class _WordStream:
    """Big-endian u32 words from the HMAC-SHA256 counter stream keyed by the seed."""

    __slots__ = ("_mac", "_block", "_buffer", "_pos")

    def __init__(self, seed: bytes) -> None:
        self._mac = hmac.new(seed, STREAM_TAG, hashlib.sha256)
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def word(self) -> int:
        if self._pos >= len(self._buffer):
            mac = self._mac.copy()
            mac.update(self._block.to_bytes(8, "big"))
            self._buffer = mac.digest()
            self._block += 1
            self._pos = 0
        value = int.from_bytes(self._buffer[self._pos : self._pos + 4], "big")
        self._pos += 4
        return value


def uniform_below(stream: _WordStream, bound: int) -> int:
    """A uniform integer in [0, bound) by rejection sampling."""
    limit = _WORD_SPACE - _WORD_SPACE % bound
    while True:
        word = stream.word()
        if word < limit:
            return word % bound


def deck_order(seed: bytes, tiles: Sequence[Tile] = TILES) -> list[Tile]:
    """The shuffled deck: Fisher–Yates over ``tiles`` (canonical order) driven by the seed."""
    deck = list(tiles)
    stream = _WordStream(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = uniform_below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_from_deck(
    deck: Sequence[Tile], rules: Rules, active: Sequence[bool]
) -> tuple[list[list[Tile]], list[Tile]]:
    """(hand per seat, boneyard in draw order) under the documented deal rule: the engine's one
    ``split_deck`` with the rules' hand size (play and the verifier cannot drift apart)."""
    return split_deck(deck, active, rules.hand_size_for(len(active)))


def derive_deal(
    ctx: DealContext, secrets: Sequence[tuple[int, bytes]], rules: Rules, active: Sequence[bool]
) -> tuple[list[Tile], list[list[Tile]], list[Tile]]:
    """(deck, hands, boneyard) for a deal from its revealed secrets."""
    deck = deck_order(shuffle_seed(ctx, secrets))
    hands, boneyard = deal_from_deck(deck, rules, active)
    return deck, hands, boneyard
