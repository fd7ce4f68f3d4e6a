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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanomino.blind.group import BASE, ORDER, BlindError, Point, base_mul, combination
from lanomino.blind.hashing import Context, Drbg, u32
from lanomino.blind.proofs import EqualLogProof, equal_logs_hold, prove_equal_logs
from lanomino.blind.rounds import BlindFault

ESCROW_DOMAIN = b"escrow"


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


