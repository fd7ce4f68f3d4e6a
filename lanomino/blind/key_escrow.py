"""Escrow of a holder's key among all the other holders (Feldman), for ``--escrow`` tables. Pure.

A holder i with key x splits it with a polynomial f of degree n−2 over the n−1 other holders,
f(0) = x, so that all of them together, and no fewer, can stand in for it (design study §5: a
smaller threshold would let fewer colluders rebuild more than one key). It publishes Feldman
commitments Aₖ = aₖ·B to f's coefficients and gives holder j the sub-share sⱼ = f(j+1) (sealed
to j by the transport: this module sees no encryption). Anyone can compute j's public share key
Sⱼ = Σₖ (j+1)ᵏ·Aₖ = sⱼ·B, and j checks its sub-share against it.

When i is gone, each other holder j sends, for a ciphertext to open, its part Pⱼ = sⱼ·c₁ with a
proof of equal logarithms (log_B Sⱼ = log_c₁ Pⱼ, domain ``escrow``); the one who needs i's share
combines them by Lagrange at 0: Σ λⱼ·Pⱼ = x·c₁, exactly i's decryption share.

Sealing (``seal_sub_share``): a sub-share travels through the host, so it goes sealed to its
receiver's key of this hand, Xⱼ: R = r·B and the sub-share's 32 bytes XOR SHA-256(context, the
owner, the receiver, R, r·Xⱼ) (hashed ElGamal on libsodium's group operations). The owner signs
the sealed bytes on the wire, so a receiver whose sub-share does not fit the commitments names
the owner (``open_sub_share``). At the hand's end, keys are revealed anyway: each other holder
reveals its sub-share and anyone rebuilds the lost key (``rebuilt_reveal``), each sub-share
checked against its public share key first (a wrong one names its seat).

Standing in (``standing_context``): once i is gone, each other holder j holds x′ⱼ = xⱼ + λⱼ·sⱼ
(λⱼ: j's Lagrange coefficient at 0 among the others), whose public key X′ⱼ = Xⱼ + λⱼ·Sⱼ anyone
computes. Σ X′ⱼ = Σ Xⱼ + x·B = Y: the others alone now lock the SAME deck, each with an
ordinary share and its proof under the standing context (the others as holders, the X′ⱼ as
keys), so a draw opens as before, for its drawer alone: every other's share and its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanomino.blind.group import (
    BASE,
    ORDER,
    SCALAR_BYTES,
    BlindError,
    Point,
    add,
    base_mul,
    combination,
    mul,
    parse_point,
    parse_scalar,
    scalar_bytes,
)
from lanomino.blind.hashing import Context, Drbg, u32
from lanomino.blind.proofs import EqualLogProof, equal_logs_hold, prove_equal_logs
from lanomino.blind.rounds import BlindFault, Reveal
from lanomino.engine.errors import seat_name

ESCROW_DOMAIN = b"escrow"
SEAL_DOMAIN = b"escrow-seal"
SEALED_BYTES = 32 + SCALAR_BYTES  # R, then the sealed sub-share


@dataclass(frozen=True, slots=True)
class Escrow:
    """A holder's published commitments and the sub-share for each other holder (by seat)."""

    owner: int
    commitments: tuple[Point, ...]  # A₀ = X, A₁, …
    sub_shares: Mapping[int, int]  # seat -> sⱼ (each goes sealed to its seat only)


def split_key(owner: int, secret: int, others: Sequence[int], seed: bytes) -> Escrow:
    """Feldman-share ``secret`` among ``others``, all of them needed (degree len(others) − 1)."""
    if not others or owner in others:
        raise BlindError("a key is escrowed with the other holders")
    drbg = Drbg(seed, b"escrow-polynomial")
    coefficients = [secret] + [drbg.scalar() for _ in range(len(others) - 1)]
    shares = {j: _evaluate(coefficients, j + 1) for j in others}
    return Escrow(owner, tuple(base_mul(a) for a in coefficients), shares)


def _evaluate(coefficients: Sequence[int], x: int) -> int:
    value = 0
    for a in reversed(coefficients):
        value = (value * x + a) % ORDER
    return value


def share_key(commitments: Sequence[Point], seat: int) -> Point:
    """Sⱼ = Σₖ (j+1)ᵏ·Aₖ: the public key of seat j's sub-share."""
    x = seat + 1
    return combination([pow(x, k, ORDER) for k in range(len(commitments))], commitments)


def check_sub_share(ctx: Context, owner: int, commitments: Sequence[Point], seat: int,
                    sub_share: int) -> None:
    """Seat ``seat``'s check of what ``owner`` escrowed with it: the commitments open with the
    owner's key, have the degree that needs every other holder (a lower one would let fewer
    rebuild the key), and the sub-share fits them.

    Raises: BlindFault naming the owner.
    """
    others = [s for s in ctx.holders if s != owner]
    if not commitments or commitments[0] != ctx.key_of(owner):
        raise BlindFault(owner, "escrowed commitments that are not for its key")
    if len(commitments) != len(others):
        raise BlindFault(owner, f"escrowed its key for {len(commitments)} of the "
                         f"{len(others)} others, not all of them")
    if base_mul(sub_share) != share_key(commitments, seat):
        raise BlindFault(owner, "escrowed a sub-share that does not fit its commitments")


def escrow_part(ctx: Context, seat: int, owner: int, sub_share: int, position: int, c1: Point
                ) -> tuple[Point, EqualLogProof]:
    """Seat j's part sⱼ·c₁ of the lost ``owner``'s share of ``position``, with its proof."""
    _key, part, proof = prove_equal_logs(ctx, ESCROW_DOMAIN, seat, u32(owner) + u32(position),
                                         sub_share, BASE, c1)
    return part, proof


def _lagrange_at_zero(xs: Sequence[int]) -> list[int]:
    out = []
    for i, xi in enumerate(xs):
        num, den = 1, 1
        for j, xj in enumerate(xs):
            if i != j:
                num = num * xj % ORDER
                den = den * (xj - xi) % ORDER
        out.append(num * pow(den, -1, ORDER) % ORDER)
    return out


def rebuilt_share(ctx: Context, owner: int, commitments: Sequence[Point], position: int,
                  c1: Point, parts: Mapping[int, tuple[Point, EqualLogProof]]) -> Point:
    """The lost ``owner``'s share x·c₁ from every other holder's checked part.

    Raises: BlindFault naming a holder whose part fails; BlindError when a part is missing.
    """
    others = [s for s in ctx.holders if s != owner]
    if sorted(parts) != others:
        raise BlindError("rebuilding a lost key's share needs every other holder's part")
    points = []
    for seat in others:
        part, proof = parts[seat]
        if not equal_logs_hold(ctx, ESCROW_DOMAIN, seat, u32(owner) + u32(position),
                               BASE, share_key(commitments, seat), c1, part, proof):
            raise BlindFault(seat, f"its escrow part for position {position} does not hold")
        points.append(part)
    return combination(_lagrange_at_zero([s + 1 for s in others]), points)




def _pad(ctx: Context, owner: int, receiver: int, r_point: Point, shared: Point) -> bytes:
    return hashlib.sha256(ctx.prefix(SEAL_DOMAIN, owner) + u32(receiver) + r_point
                          + shared).digest()


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def seal_sub_share(ctx: Context, owner: int, receiver: int, sub_share: int, seed: bytes
                   ) -> bytes:
    """``owner``'s sub-share for ``receiver``, sealed to the receiver's key of this hand."""
    r = Drbg(seed, SEAL_DOMAIN + u32(receiver)).nonzero_scalar()
    r_point = base_mul(r)
    pad = _pad(ctx, owner, receiver, r_point, mul(r, ctx.key_of(receiver)))
    return r_point + _xor(scalar_bytes(sub_share), pad)


def open_sub_share(ctx: Context, owner: int, receiver: int, secret: int,
                   commitments: Sequence[Point], sealed: bytes) -> int:
    """The receiver's sub-share of ``owner``'s key, opened with its ``secret`` and checked
    against the owner's commitments (``check_sub_share``).

    Raises: BlindFault naming the owner (it signed what it sealed).
    """
    if len(sealed) != SEALED_BYTES:
        raise BlindFault(owner, f"sealed a sub-share in {len(sealed)} bytes, not {SEALED_BYTES}")
    try:
        r_point = parse_point(sealed[:32])
        pad = _pad(ctx, owner, receiver, r_point, mul(secret, r_point))
        sub_share = parse_scalar(_xor(sealed[32:], pad))
    except BlindError:
        raise BlindFault(owner, "sealed a sub-share that does not open") from None
    check_sub_share(ctx, owner, commitments, receiver, sub_share)
    return sub_share


def rebuilt_reveal(ctx: Context, owner: int, commitments: Sequence[Point],
                   sub_shares: Mapping[int, int]) -> Reveal:
    """The lost ``owner``'s key at the hand's end, from every other holder's revealed sub-share:
    its reveal, with no shuffle seed (its shuffle is then checked by its stored argument).

    Raises: BlindFault naming a holder whose sub-share does not fit; BlindError when one is
    missing.
    """
    others = [s for s in ctx.holders if s != owner]
    if sorted(sub_shares) != others:
        raise BlindError("rebuilding a lost key needs every other holder's sub-share")
    for seat in others:
        if base_mul(sub_shares[seat]) != share_key(commitments, seat):
            raise BlindFault(seat, f"revealed a sub-share of {seat_name(owner)}'s key that "
                             "does not fit its commitments")
    secret = sum(lam * sub_shares[s] for lam, s in
                 zip(_lagrange_at_zero([s + 1 for s in others]), others, strict=True)) % ORDER
    if base_mul(secret) != ctx.key_of(owner):
        raise BlindFault(owner, "escrowed commitments that do not rebuild its key")
    return Reveal(owner, secret, None)


def _standing(ctx: Context, owner: int) -> tuple[list[int], list[int]]:
    others = [s for s in ctx.holders if s != owner]
    return others, _lagrange_at_zero([s + 1 for s in others])


def standing_context(ctx: Context, owner: int, commitments: Sequence[Point]) -> Context:
    """The context after ``owner`` is gone: the others hold X′ⱼ = Xⱼ + λⱼ·Sⱼ, which lock the
    same deck (their sum is the deck's key)."""
    others, lams = _standing(ctx, owner)
    keys = [add(ctx.key_of(j), mul(lam, share_key(commitments, j)))
            for j, lam in zip(others, lams, strict=True)]
    return Context(ctx.table, ctx.hand, ctx.attempt, ctx.tiles, tuple(others), tuple(keys))


def standing_secret(ctx: Context, owner: int, seat: int, secret: int, sub_share: int) -> int:
    """Seat ``seat``'s key in the standing context: x′ⱼ = xⱼ + λⱼ·sⱼ."""
    others, lams = _standing(ctx, owner)
    return (secret + lams[others.index(seat)] * sub_share) % ORDER
