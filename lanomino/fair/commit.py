"""Commitments to per-seat secrets, and the host's commitment set.

A commitment is SHA-256 over a domain tag with the protocol version, the table id, the hand
number, the deal attempt, the seat and the 32-byte secret, so it cannot be replayed into another
table, hand, attempt or seat. The signed statements below are what peers sign (canonical JSON).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine.errors import seat_name
from lanomino.fair.canonical import digest, u32
from lanomino.fair.entropy import fresh_bytes

COMMIT_TAG = b"lanomino.commit/1\x00"
SECRET_BYTES = 32
TABLE_ID_BYTES = 16


class CommitmentError(ValueError):
    """A commitment, set or secret that does not check out."""


@dataclass(frozen=True, slots=True)
class DealContext:
    """Which deal a secret belongs to: table, hand (1-based, played hands) and attempt (1-based;
    a voided deal is dealt again with the next attempt)."""

    table: bytes
    hand: int
    attempt: int

    def __post_init__(self) -> None:
        if len(self.table) != TABLE_ID_BYTES:
            raise CommitmentError(f"a table id is {TABLE_ID_BYTES} bytes")
        if not (0 < self.hand < 2**32 and 0 < self.attempt < 2**32):
            raise CommitmentError("hand and attempt numbers are 1 .. 2**32-1")

    def to_bytes(self) -> bytes:
        return self.table + u32(self.hand) + u32(self.attempt)


def new_secret() -> bytes:
    """A fresh 32-byte secret for one seat and one deal."""
    return fresh_bytes(SECRET_BYTES)


def new_table_id() -> bytes:
    return fresh_bytes(TABLE_ID_BYTES)


def commitment(ctx: DealContext, seat: int, secret: bytes) -> bytes:
    """The commitment to ``secret`` by ``seat`` for the deal ``ctx``."""
    return tagged_commitment(COMMIT_TAG, ctx.to_bytes(), seat, secret)


def tagged_commitment(tag: bytes, context: bytes, seat: int, secret: bytes) -> bytes:
    """SHA-256 of ``tag``, ``context``, the seat and the secret (the tag keeps a deal's
    commitments and a re-shuffle's apart)."""
    if len(secret) != SECRET_BYTES:
        raise CommitmentError(f"a secret is {SECRET_BYTES} bytes, not {len(secret)}")
    if not 0 <= seat < 256:
        raise CommitmentError(f"no {seat_name(seat)}")
    return hashlib.sha256(tag + context + bytes([seat]) + secret).digest()


def opens(ctx: DealContext, seat: int, secret: bytes, committed: bytes) -> bool:
    """True when ``secret`` is what ``seat`` committed to."""
    if len(secret) != SECRET_BYTES:
        return False
    return hmac.compare_digest(commitment(ctx, seat, secret), committed)


# ----- signed statements ---------------------------------------------------------------------


def commit_statement(header: str, ctx: DealContext, seat: int, committed: bytes) -> dict[str, Any]:
    return {"type": "lanomino.commit/1", "header": header, "hand": ctx.hand,
            "attempt": ctx.attempt, "seat": seat, "commitment": committed.hex()}


def set_statement(
    header: str, ctx: DealContext, host: int, commitments: Sequence[tuple[int, bytes]]
) -> dict[str, Any]:
    """The host's commitment set: every committing seat with its commitment, in seat order."""
    return {"type": "lanomino.set/1", "header": header, "hand": ctx.hand, "attempt": ctx.attempt,
            "host": host, "commitments": [[seat, c.hex()] for seat, c in commitments]}


def set_digest(statement: dict[str, Any]) -> bytes:
    """What each peer echoes back to prove everyone got the same set."""
    return digest(statement)


def echo_statement(header: str, ctx: DealContext, seat: int, digest_: bytes) -> dict[str, Any]:
    return {"type": "lanomino.echo/1", "header": header, "hand": ctx.hand, "attempt": ctx.attempt,
            "seat": seat, "set": digest_.hex()}


def check_own_in_set(statement: dict[str, Any], seat: int, committed: bytes) -> None:
    """A peer's check of the set before it reveals. Raises CommitmentError."""
    entries = statement.get("commitments", [])
    if [seat, committed.hex()] not in entries:
        raise CommitmentError(f"{seat_name(seat)}'s commitment is missing from the host's set")
    seats = [entry[0] for entry in entries]
    if seats != sorted(set(seats)):
        raise CommitmentError("the host's set is not one commitment per seat in seat order")


def check_echoes(expected: bytes, echoes: Sequence[tuple[int, bytes]]) -> None:
    """The host's check that every peer saw the same set. Raises CommitmentError naming a seat."""
    for seat, echoed in echoes:
        if not hmac.compare_digest(expected, echoed):
            raise CommitmentError(f"{seat_name(seat)} received a different commitment set")
