"""Escrow: XOR shares of a deal's secrets, so the other peers together can rebuild the deal.

The host concatenates the committing seats' secrets in seat order and splits the result into one
share per holder (every other human peer): all shares but the last are fresh random pads, the
last is the XOR of the data with all pads. Any proper subset of shares reveals nothing. The
``Escrow`` value lists the holders and a digest of each share, so at rebuild a wrong share is
named; the rebuilt secrets are also checked against the seats' commitments.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanomino.engine.errors import seat_name
from lanomino.fair.commit import SECRET_BYTES, DealContext, opens
from lanomino.fair.entropy import fresh_bytes

ESCROW_TAG = b"lanomino.escrow/1\x00"
MIN_HOLDERS = 2


class EscrowError(ValueError):
    """Escrow cannot be made or rebuilt; the message names the holder or seat at fault."""


@dataclass(frozen=True, slots=True)
class Share:
    holder: int  # the seat holding this share
    data: bytes


@dataclass(frozen=True, slots=True)
class Escrow:
    """What everyone may know about an escrow: whose secrets, who holds shares, share digests."""

    ctx: DealContext
    seats: tuple[int, ...]  # the committing seats whose secrets are inside, in seat order
    holders: tuple[int, ...]
    digests: tuple[bytes, ...]  # one per holder


def share_digest(ctx: DealContext, holder: int, data: bytes) -> bytes:
    return hashlib.sha256(ESCROW_TAG + ctx.to_bytes() + bytes([holder]) + data).digest()


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def split(
    ctx: DealContext, secrets: Sequence[tuple[int, bytes]], holders: Sequence[int]
) -> tuple[Escrow, tuple[Share, ...]]:
    """Split the deal's secrets (seat order) among ``holders``. Raises EscrowError when there
    are fewer than two holders (one holder alone would learn every secret)."""
    holders = tuple(holders)
    if len(holders) < MIN_HOLDERS:
        raise EscrowError(f"escrow needs at least {MIN_HOLDERS} other peers, not {len(holders)}")
    if len(set(holders)) != len(holders):
        raise EscrowError("a holder is listed twice")
    if any(len(secret) != SECRET_BYTES for _, secret in secrets):
        raise EscrowError(f"every secret is {SECRET_BYTES} bytes")
    data = b"".join(secret for _, secret in secrets)
    pads = [fresh_bytes(len(data)) for _ in holders[1:]]
    last = data
    for pad in pads:
        last = _xor(last, pad)
    parts = [*pads, last]
    shares = tuple(Share(h, part) for h, part in zip(holders, parts, strict=True))
    escrow = Escrow(
        ctx,
        tuple(seat for seat, _ in secrets),
        holders,
        tuple(share_digest(ctx, s.holder, s.data) for s in shares),
    )
    return escrow, shares


def resplit(
    escrow: Escrow, secrets: Sequence[tuple[int, bytes]], leaving: int
) -> tuple[Escrow, tuple[Share, ...]]:
    """New shares among the holders that remain after ``leaving`` goes, with fresh pads (the old
    shares are useless together with the new ones). Raises EscrowError if fewer than two remain."""
    if tuple(seat for seat, _ in secrets) != escrow.seats:
        raise EscrowError("re-split must cover the same seats' secrets")
    return split(escrow.ctx, secrets, [h for h in escrow.holders if h != leaving])


def rebuild(
    escrow: Escrow, shares: Sequence[Share], commitments: Mapping[int, bytes]
) -> list[tuple[int, bytes]]:
    """The secrets (seat order) from every holder's share, checked against the commitments.

    Raises EscrowError naming a missing or wrong share, or a seat whose rebuilt secret does not
    open its commitment.
    """
    by_holder = {s.holder: s for s in shares}
    data: bytes | None = None
    for holder, expected in zip(escrow.holders, escrow.digests, strict=True):
        share = by_holder.get(holder)
        if share is None:
            raise EscrowError(f"{seat_name(holder)}'s escrow share is missing")
        if not hmac.compare_digest(share_digest(escrow.ctx, holder, share.data), expected):
            raise EscrowError(f"{seat_name(holder)}'s escrow share is wrong")
        data = share.data if data is None else _xor(data, share.data)
    assert data is not None
    if len(data) != SECRET_BYTES * len(escrow.seats):
        raise EscrowError("the escrow shares have the wrong length")
    secrets = [
        (seat, data[i * SECRET_BYTES : (i + 1) * SECRET_BYTES])
        for i, seat in enumerate(escrow.seats)
    ]
    for seat, secret in secrets:
        committed = commitments.get(seat)
        if committed is None or not opens(escrow.ctx, seat, secret, committed):
            raise EscrowError(
                f"the rebuilt secret of {seat_name(seat)} does not match its commitment"
            )
    return secrets


def rebuild_unchecked(escrow: Escrow, shares: Sequence[Share]) -> bytes:
    """XOR of the given shares, with no checks (for tests of what a subset reveals)."""
    out = bytes(SECRET_BYTES * len(escrow.seats))
    for share in shares:
        out = _xor(out, share.data)
    return out
