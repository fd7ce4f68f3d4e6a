"""Schnorr proofs of key ownership and Chaum–Pedersen proofs of equal logarithms (shares).

Both are sigma protocols made non-interactive with the challenge of ``hashing.challenge``, whose
context binds the table, hand, attempt, seat, deck size, key set and generators; the nonces are
derived from the secret and the statement (``hashing.nonce``), so proving needs no randomness.

- Key proof (Schnorr), for X = x·B: T = k·B, c = H(ctx, "key", seat, X, T), s = k + c·x.
  Check: s·B = T + c·X.
- Share proof (Chaum–Pedersen), for D = x·c₁ with X = x·B: T₁ = k·B, T₂ = k·c₁,
  c = H(ctx, "share", seat, position, X, c₁, D, T₁, T₂), s = k + c·x.
  Check: s·B = T₁ + c·X and s·c₁ = T₂ + c·D.
"""

from __future__ import annotations

from dataclasses import dataclass

from lanomino.blind.group import (
    ORDER,
    POINT_BYTES,
    SCALAR_BYTES,
    BlindError,
    Point,
    add,
    base_mul,
    mul,
    parse_point,
    parse_scalar,
    scalar_bytes,
)
from lanomino.blind.hashing import Context, challenge, nonce, u32

KEY_DOMAIN = b"key"
SHARE_DOMAIN = b"share"


@dataclass(frozen=True, slots=True)
class KeyProof:
    """A Schnorr proof that the seat knows the logarithm of its key."""

    t: Point
    s: int

    def to_bytes(self) -> bytes:
        return self.t + scalar_bytes(self.s)

    @classmethod
    def from_bytes(cls, data: bytes) -> KeyProof:
        if len(data) != POINT_BYTES + SCALAR_BYTES:
            raise BlindError("a key proof is 64 bytes")
        return cls(parse_point(data[:POINT_BYTES]), parse_scalar(data[POINT_BYTES:]))


@dataclass(frozen=True, slots=True)
class ShareProof:
    """A Chaum–Pedersen proof that a share and the seat's key have one logarithm."""

    t1: Point
    t2: Point
    s: int

    def to_bytes(self) -> bytes:
        return self.t1 + self.t2 + scalar_bytes(self.s)

    @classmethod
    def from_bytes(cls, data: bytes) -> ShareProof:
        if len(data) != 2 * POINT_BYTES + SCALAR_BYTES:
            raise BlindError("a share proof is 96 bytes")
        return cls(parse_point(data[:POINT_BYTES]), parse_point(data[POINT_BYTES:2 * POINT_BYTES]),
                   parse_scalar(data[2 * POINT_BYTES:]))


def prove_key(ctx: Context, seat: int, secret: int) -> tuple[Point, KeyProof]:
    """(X, proof) for the secret key x."""
    key = base_mul(secret)
    k = nonce(secret, ctx.prefix(KEY_DOMAIN, seat), key)
    t = base_mul(k)
    c = challenge(ctx, KEY_DOMAIN, seat, key, t)
    return key, KeyProof(t, (k + c * secret) % ORDER)


def key_proof_holds(ctx: Context, seat: int, key: Point, proof: KeyProof) -> bool:
    """Whether ``proof`` shows that ``seat`` knows the logarithm of ``key`` in this context."""
    c = challenge(ctx, KEY_DOMAIN, seat, key, proof.t)
    return base_mul(proof.s) == add(proof.t, mul(c, key))


def prove_share(ctx: Context, seat: int, position: int, secret: int, c1: Point
                ) -> tuple[Point, ShareProof]:
    """(D, proof) with D = x·c₁, the seat's share of the ciphertext at ``position``."""
    key, share = base_mul(secret), mul(secret, c1)
    k = nonce(secret, ctx.prefix(SHARE_DOMAIN, seat), u32(position), c1)
    t1, t2 = base_mul(k), mul(k, c1)
    c = challenge(ctx, SHARE_DOMAIN, seat, u32(position), key, c1, share, t1, t2)
    return share, ShareProof(t1, t2, (k + c * secret) % ORDER)


def share_proof_holds(ctx: Context, seat: int, position: int, key: Point, c1: Point,
                      share: Point, proof: ShareProof) -> bool:
    """Whether ``share`` is ``seat``'s share of the ciphertext with first half ``c1``."""
    c = challenge(ctx, SHARE_DOMAIN, seat, u32(position), key, c1, share, proof.t1, proof.t2)
    return (base_mul(proof.s) == add(proof.t1, mul(c, key))
            and mul(proof.s, c1) == add(proof.t2, mul(c, share)))

