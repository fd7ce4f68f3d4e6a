"""Schnorr proofs of key ownership and Chaum–Pedersen proofs of equal logarithms (shares).

Both are sigma protocols made non-interactive with the challenge of ``hashing.challenge``, whose
context binds the table, hand, attempt, seat, deck size, key set and generators; the nonces are
derived from the secret and the statement (``hashing.nonce``), so proving needs no randomness.

- Key proof (Schnorr), for X = x·B: T = k·B, c = H(ctx, "key", seat, X, T), s = k + c·x.
  Check: s·B = T + c·X.
- Equal logarithms (Chaum–Pedersen), for a = x·g and b = x·h: T₁ = k·g, T₂ = k·h,
  c = H(ctx, domain, seat, label, g, a, h, b, T₁, T₂), s = k + c·x.
  Check: s·g = T₁ + c·a and s·h = T₂ + c·b. A decryption share is the case g = B, a = X,
  h = c₁, b = D, domain "share", label the position (u32).
"""

from __future__ import annotations

from dataclasses import dataclass

from lanomino.blind.group import (
    BASE,
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
class EqualLogProof:
    """A Chaum–Pedersen proof of equal logarithms (a share and the seat's key; a blinding)."""

    t1: Point
    t2: Point
    s: int

    def to_bytes(self) -> bytes:
        return self.t1 + self.t2 + scalar_bytes(self.s)

    @classmethod
    def from_bytes(cls, data: bytes) -> EqualLogProof:
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


def _times(k: int, point: Point) -> Point:
    return base_mul(k) if point == BASE else mul(k, point)


def prove_equal_logs(ctx: Context, domain: bytes, seat: int, label: bytes, secret: int,
                     g: Point, h: Point) -> tuple[Point, Point, EqualLogProof]:
    """(a, b, proof) with a = x·g and b = x·h: a Chaum–Pedersen proof that log_g a = log_h b.
    The challenge hashes ``label``, g, a, h, b, T₁, T₂ after the context."""
    a, b = _times(secret, g), mul(secret, h)
    k = nonce(secret, ctx.prefix(domain, seat), label, g, h)
    t1, t2 = _times(k, g), mul(k, h)
    c = challenge(ctx, domain, seat, label, g, a, h, b, t1, t2)
    return a, b, EqualLogProof(t1, t2, (k + c * secret) % ORDER)


def equal_logs_hold(ctx: Context, domain: bytes, seat: int, label: bytes, g: Point, a: Point,
                    h: Point, b: Point, proof: EqualLogProof) -> bool:
    """Whether ``proof`` shows log_g a = log_h b for ``seat`` in this context and domain."""
    c = challenge(ctx, domain, seat, label, g, a, h, b, proof.t1, proof.t2)
    return (_times(proof.s, g) == add(proof.t1, mul(c, a))
            and mul(proof.s, h) == add(proof.t2, mul(c, b)))


def prove_share(ctx: Context, seat: int, position: int, secret: int, c1: Point
                ) -> tuple[Point, EqualLogProof]:
    """(D, proof) with D = x·c₁, the seat's share of the ciphertext at ``position``:
    log_B X = log_c₁ D."""
    _key, share, proof = prove_equal_logs(ctx, SHARE_DOMAIN, seat, u32(position), secret, BASE,
                                          c1)
    return share, proof


def share_proof_holds(ctx: Context, seat: int, position: int, key: Point, c1: Point,
                      share: Point, proof: EqualLogProof) -> bool:
    """Whether ``share`` is ``seat``'s share of the ciphertext with first half ``c1``."""
    return equal_logs_hold(ctx, SHARE_DOMAIN, seat, u32(position), BASE, key, c1, share, proof)
