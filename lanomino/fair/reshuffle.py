"""Re-shuffling the unknown tiles when a lost host's deal cannot be rebuilt. Pure.

When the escrow cannot be rebuilt (a share holder was lost with the host, or void deals earlier in
the hand took their secrets with the host), nobody alive knows the lost seats' hands or the order
of the boneyard. The survivors then each *claim* their own part of the deal, signed: the tiles they
were dealt and the tiles they drew, in order (``lanomino.claim/1``). The *unknown* tiles are the
set minus the survivors' hands minus the tiles on the line: the boneyard and the hands of the seats
nobody vouches for. A fresh commit-reveal round among the claimants, in its own domain (below),
orders them with the published shuffle; the unclaimed seats take their tile counts from the front
in seat order, the rest is the boneyard in the new order.

The moves before the re-shuffle cannot be checked tile by tile for the unclaimed seats: ``world_at``
(``engine/placeholders.py``, re-exported here) builds a game state that agrees with everything that
*can* be known, with placeholders for the unclaimed seats' tiles.

Domain: commitments are ``SHA-256("lanomino.reshuffle/1" 0x00 || table || hand (u32) || term (u32)
|| seat (1 byte) || r)``; the seed is ``HMAC-SHA256(key = "lanomino.reshuffle.seed/1", table || hand
|| term || for each claimant in seat order: seat || r)``; the order is ``deck_order(seed, unknown
tiles in canonical order)`` (the ``lanomino-fy-hmac-sha256/1`` stream and Fisher–Yates).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine import GameState, Tile
from lanomino.engine.events import TilePlayed
from lanomino.engine.placeholders import World as World  # (re-exported: its callers' name)
from lanomino.engine.placeholders import WorldError
from lanomino.engine.placeholders import world_at as world_at
from lanomino.engine.tiles import TILES
from lanomino.fair.canonical import digest, u32
from lanomino.fair.commit import SECRET_BYTES, TABLE_ID_BYTES, CommitmentError, tagged_commitment
from lanomino.fair.commit_reveal import Domain
from lanomino.fair.shuffle import deck_order, keyed_seed

RESHUFFLE_TAG = b"lanomino.reshuffle/1\x00"
RESHUFFLE_SEED_KEY = b"lanomino.reshuffle.seed/1"


ReshuffleError = WorldError  # (the engine's placeholder world raises it: one error)


@dataclass(frozen=True, slots=True)
class ReshuffleContext:
    """Which re-shuffle a secret belongs to: table, transcript hand, and the new host's term."""

    table: bytes
    hand: int
    term: int

    def __post_init__(self) -> None:
        if len(self.table) != TABLE_ID_BYTES:
            raise CommitmentError(f"a table id is {TABLE_ID_BYTES} bytes")
        if not (0 < self.hand < 2**32 and 0 < self.term < 2**32):
            raise CommitmentError("hand and term numbers are 1 .. 2**32-1")

    def to_bytes(self) -> bytes:
        return self.table + u32(self.hand) + u32(self.term)


@dataclass(frozen=True, slots=True)
class Claim:
    """A survivor's signed statement of its part of the deal: dealt tiles, then draws in order."""

    seat: int
    dealt: tuple[Tile, ...]
    drawn: tuple[Tile, ...]
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "dealt": [str(t) for t in self.dealt],
                "drawn": [str(t) for t in self.drawn], "signature": self.signature.hex()}


# ----- statements and the shuffle --------------------------------------------------------------


def claim_statement(header: str, hand: int, term: int, seat: int, dealt: Sequence[Tile],
                    drawn: Sequence[Tile]) -> dict[str, Any]:
    return {"type": "lanomino.claim/1", "header": header, "hand": hand, "term": term, "seat": seat,
            "dealt": [str(t) for t in dealt], "drawn": [str(t) for t in drawn]}


def claims_digest(claims: Sequence[Claim]) -> bytes:
    """What the re-shuffle's commitment set binds: the claims as the transcript lists them."""
    return digest([c.to_json() for c in claims])


def reshuffle_commitment(ctx: ReshuffleContext, seat: int, secret: bytes) -> bytes:
    return tagged_commitment(RESHUFFLE_TAG, ctx.to_bytes(), seat, secret)


def reshuffle_opens(ctx: ReshuffleContext, seat: int, secret: bytes, committed: bytes) -> bool:
    if len(secret) != SECRET_BYTES:
        return False
    return hmac.compare_digest(reshuffle_commitment(ctx, seat, secret), committed)


def commit_statement(header: str, ctx: ReshuffleContext, seat: int,
                     committed: bytes) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.commit/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "seat": seat, "commitment": committed.hex()}


def set_statement(header: str, ctx: ReshuffleContext, host: int, at: int, opener: int,
                  claims: bytes, commitments: Sequence[tuple[int, bytes]]) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.set/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "host": host, "at": at, "opener": opener, "claims": claims.hex(),
            "commitments": [[seat, c.hex()] for seat, c in commitments]}


def echo_statement(header: str, ctx: ReshuffleContext, seat: int,
                   set_digest: bytes) -> dict[str, Any]:
    return {"type": "lanomino.reshuffle.echo/1", "header": header, "hand": ctx.hand,
            "term": ctx.term, "seat": seat, "set": set_digest.hex()}


def reshuffle_seed(ctx: ReshuffleContext, secrets: Sequence[tuple[int, bytes]]) -> bytes:
    return keyed_seed(RESHUFFLE_SEED_KEY, ctx.to_bytes(), secrets)


def unknown_tiles(state: GameState, claimants: Sequence[int]) -> list[Tile]:
    """Tiles neither on the line nor in a claimant's hand, in canonical order: the boneyard, the
    unclaimed seats' hands, and the tiles that left the table with seats that resigned."""
    known = 0
    for s in claimants:
        known |= state.hands[s]
    for e in state.history:
        if isinstance(e, TilePlayed):
            known |= e.tile.bit
    return [t for t in TILES if not known & t.bit]


def reshuffle(state: GameState, claimants: Sequence[int],
              seed: bytes) -> tuple[list[Tile], dict[int, list[Tile]]]:
    """Deal the unknown tiles again in the order ``seed`` gives. The first ones are those that left
    the table with seats that resigned earlier in the hand (which those were is unknown, so they are
    drawn too); then every active seat without a claim, in seat order, takes as many tiles as it
    held; the rest is the boneyard, in order. Changes ``state``; returns the order and the
    unclaimed seats' new hands."""
    order = deck_order(seed, unknown_tiles(state, claimants))
    seats = [s for s in range(state.players) if state.active[s] and s not in claimants]
    counts = [bin(state.hands[s]).count("1") for s in seats]
    left = len(state.boneyard) - state.drawn
    pos = len(order) - sum(counts) - left  # the tiles that left the table
    if pos < 0:
        raise ReshuffleError("reshuffle", None,
                             "the unknown tiles do not add up to the hands and the boneyard")
    hands: dict[int, list[Tile]] = {}
    for seat, count in zip(seats, counts, strict=True):
        hands[seat] = order[pos:pos + count]
        state.hands[seat] = sum(t.bit for t in hands[seat])
        pos += count
    state.boneyard = state.boneyard[:state.drawn] + order[pos:]
    return order, hands


def reshuffle_domain(header: str, ctx: ReshuffleContext, host: int, at: int, opener: int,
                     claims: bytes, verify: Callable[[int, bytes, dict[str, Any]], bool]) -> Domain:
    """The re-shuffle's commit-reveal round (``fair/commit_reveal.py``) in its own domain."""
    return Domain(
        commit_statement=lambda seat, c: commit_statement(header, ctx, seat, c),
        set_statement=lambda entries: set_statement(header, ctx, host, at, opener, claims, entries),
        echo_statement=lambda seat, d: echo_statement(header, ctx, seat, d),
        opens=lambda seat, secret, c: reshuffle_opens(ctx, seat, secret, c),
        verify=verify,
        label="re-shuffle",
    )
