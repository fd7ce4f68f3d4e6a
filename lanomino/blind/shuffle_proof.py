"""The shuffle and its argument: Terelius–Wikström, as condensed by Haenni, Locher, Koenig and
Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017 workshops).

The functions below follow that paper's algorithms line by line (GenShuffle, GenPermutation-
Commitment, GenCommitmentChain, GenShuffleProof, CheckShuffleProof), written additively: the
paper's gˣ is x·B, a product ∏ is a sum Σ, a quotient is a difference. Its ciphertext (a, b) =
(m·pkʳ, gʳ) is our (c₂, c₁). Its generators h, h₁…h_N are ``hashing.generators`` (hash-to-group).
Its Hash is ``hashing.challenge``, whose context adds the table, hand, attempt, seat, deck size,
key set and generators. Indices run from 0; the paper's ψ = (j₁, …, j_N) is ``permutation``.

Randomness: the permutation, the re-masking scalars r′ and every random value of the argument
come from the shuffler's 32-byte seed (``Drbg`` under three labels), so the seed revealed at the
hand's end reproduces the output deck and the argument byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.blind.deck import Deck, deck_bytes
from lanomino.blind.group import (
    ORDER,
    POINT_BYTES,
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
    sub,
    total,
)
from lanomino.blind.hashing import Context, Drbg, challenge, generators, u32

SHUFFLE_U_DOMAIN = b"shuffle-u"
SHUFFLE_DOMAIN = b"shuffle"


@dataclass(frozen=True, slots=True)
class ShuffleArgument:
    """π = (t, s, c, ĉ) of the paper: the permutation commitment ``c``, the commitment chain
    ``c_hat``, the commitments ``t1``…``t_hat`` and the responses ``s1``…``s_prime``."""

    c: tuple[Point, ...]
    c_hat: tuple[Point, ...]
    t1: Point
    t2: Point
    t3: Point
    t41: Point
    t42: Point
    t_hat: tuple[Point, ...]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.c)
        if not (n and len(self.c_hat) == len(self.t_hat) == len(self.s_hat)
                == len(self.s_prime) == n):
            raise BlindError("a shuffle argument's vectors must all have the deck's length")

    def to_bytes(self) -> bytes:
        points = (*self.c, *self.c_hat, self.t1, self.t2, self.t3, self.t41, self.t42,
                  *self.t_hat)
        scalars = (self.s1, self.s2, self.s3, self.s4, *self.s_hat, *self.s_prime)
        return b"".join(points) + b"".join(scalar_bytes(s) for s in scalars)

    @classmethod
    def from_bytes(cls, data: bytes, tiles: int) -> ShuffleArgument:
        """Raises: BlindError when the length or any point or scalar is wrong."""
        n_points, n_scalars = 3 * tiles + 5, 2 * tiles + 4
        if len(data) != n_points * POINT_BYTES + n_scalars * SCALAR_BYTES:
            raise BlindError(f"a shuffle argument for {tiles} tiles has the wrong length")
        cut = n_points * POINT_BYTES
        p = [parse_point(data[i : i + POINT_BYTES], identity_ok=True)
             for i in range(0, cut, POINT_BYTES)]
        s = [parse_scalar(data[i : i + SCALAR_BYTES]) for i in range(cut, len(data), SCALAR_BYTES)]
        n = tiles
        t1, t2, t3, t41, t42 = p[2 * n : 2 * n + 5]
        s1, s2, s3, s4 = s[:4]
        return cls(tuple(p[:n]), tuple(p[n : 2 * n]), t1, t2, t3, t41, t42,
                   tuple(p[2 * n + 5 :]), s1, s2, s3, s4, tuple(s[4 : 4 + n]),
                   tuple(s[4 + n :]))


@dataclass(frozen=True, slots=True)
class Shuffled:
    """A shuffle's output with its witness (kept by the shuffler, revealed only as the seed)."""

    deck: Deck
    permutation: tuple[int, ...]
    masks: tuple[int, ...]  # r′ⱼ for the input position j


def gen_shuffle(deck: Deck, key: Point, seed: bytes) -> Shuffled:
    """GenShuffle: e′ᵢ = ReEnc(e_{jᵢ}, r′_{jᵢ}) for a permutation ψ and fresh r′ from the seed."""
    n = len(deck)
    psi = Drbg(seed, b"shuffle-permutation").permutation(n)
    masks_drbg = Drbg(seed, b"shuffle-remask")
    masks = tuple(masks_drbg.scalar() for _ in range(n))
    output = tuple(deck[j].remasked(key, masks[j]) for j in psi)
    return Shuffled(output, psi, masks)


def _challenges_u(ctx: Context, seat: int, e: Deck, e_out: Deck, c: Sequence[Point]
                  ) -> list[int]:
    """uᵢ ← Hash((e, e′, c), i)."""
    return [challenge(ctx, SHUFFLE_U_DOMAIN, seat, deck_bytes(e), deck_bytes(e_out),
                      b"".join(c), u32(i)) for i in range(len(e))]


def _challenge(ctx: Context, seat: int, e: Deck, e_out: Deck, c: Sequence[Point],
               c_hat: Sequence[Point], key: Point, t: Sequence[Point]) -> int:
    """c ← Hash(y, t) with y = (e, e′, c, ĉ, pk)."""
    return challenge(ctx, SHUFFLE_DOMAIN, seat, deck_bytes(e), deck_bytes(e_out), b"".join(c),
                     b"".join(c_hat), key, b"".join(t))


def gen_permutation_commitment(psi: Sequence[int], h: Sequence[Point], drbg: Drbg
                               ) -> tuple[list[Point], list[int]]:
    """GenPermutationCommitment(ψ, h): c_{jᵢ} ← g^{r_{jᵢ}}·hᵢ."""
    n = len(psi)
    c: list[Point] = [Point(b"")] * n
    r = [0] * n
    for i, j in enumerate(psi):
        r[j] = drbg.scalar()
        c[j] = add(base_mul(r[j]), h[i])
    return c, r


def gen_commitment_chain(c0: Point, u: Sequence[int], drbg: Drbg
                         ) -> tuple[list[Point], list[int]]:
    """GenCommitmentChain(c₀, u): cᵢ ← g^{rᵢ}·c_{i−1}^{uᵢ}."""
    c, r = [], []
    previous = c0
    for ui in u:
        ri = drbg.scalar()
        previous = add(base_mul(ri), mul(ui, previous))
        c.append(previous)
        r.append(ri)
    return c, r


def gen_shuffle_proof(ctx: Context, seat: int, e: Deck, shuffled: Shuffled, key: Point,
                      seed: bytes) -> ShuffleArgument:
    """GenShuffleProof(e, e′, r′, ψ, pk), the paper's algorithm in its order."""
    e_out, psi, r_prime = shuffled.deck, shuffled.permutation, shuffled.masks
    n = len(e)
    gens = generators(n)
    h0, h = gens[0], gens[1:]
    drbg = Drbg(seed, b"shuffle-argument")
    c, r = gen_permutation_commitment(psi, h, drbg)
    u = _challenges_u(ctx, seat, e, e_out, c)
    u_prime = [u[j] for j in psi]
    c_hat, r_hat = gen_commitment_chain(h0, u_prime, drbg)
    w1, w2, w3, w4 = (drbg.scalar() for _ in range(4))
    w_hat = [drbg.scalar() for _ in range(n)]
    w_prime = [drbg.scalar() for _ in range(n)]
    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = add(base_mul(w3), combination(w_prime, h))
    t41 = sub(combination(w_prime, (x.c2 for x in e_out)), mul(w4, key))
    t42 = sub(combination(w_prime, (x.c1 for x in e_out)), base_mul(w4))
    t_hat = [add(base_mul(w_hat[i]), mul(w_prime[i], c_hat[i - 1] if i else h0))
             for i in range(n)]
    ch = _challenge(ctx, seat, e, e_out, c, c_hat, key, (t1, t2, t3, t41, t42, *t_hat))
    r_bar = sum(r) % ORDER
    s1 = (w1 + ch * r_bar) % ORDER
    v = [1] * n  # v_N = 1, v_{i−1} = u′ᵢ·vᵢ
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_prime[i] * v[i] % ORDER
    r_hat_sum = sum(ri * vi for ri, vi in zip(r_hat, v, strict=True)) % ORDER
    s2 = (w2 + ch * r_hat_sum) % ORDER
    r_tilde = sum(ri * ui for ri, ui in zip(r, u, strict=True)) % ORDER
    s3 = (w3 + ch * r_tilde) % ORDER
    r_prime_sum = sum(ri * ui for ri, ui in zip(r_prime, u, strict=True)) % ORDER
    s4 = (w4 + ch * r_prime_sum) % ORDER
    s_hat = tuple((w_hat[i] + ch * r_hat[i]) % ORDER for i in range(n))
    s_prime = tuple((w_prime[i] + ch * u_prime[i]) % ORDER for i in range(n))
    return ShuffleArgument(tuple(c), tuple(c_hat), t1, t2, t3, t41, t42, tuple(t_hat),
                           s1, s2, s3, s4, s_hat, s_prime)


def check_shuffle_proof(ctx: Context, seat: int, pi: ShuffleArgument, e: Deck, e_out: Deck,
                        key: Point) -> bool:
    """CheckShuffleProof(π, e, e′, pk): whether e′ is a permutation of e, re-masked under pk."""
    n = len(e)
    if len(e_out) != n or len(pi.c) != n:
        return False
    gens = generators(n)
    h0, h = gens[0], gens[1:]
    u = _challenges_u(ctx, seat, e, e_out, pi.c)
    c_bar = sub(total(pi.c), total(h))
    u_prod = 1
    for ui in u:
        u_prod = u_prod * ui % ORDER
    c_hat = sub(pi.c_hat[-1], mul(u_prod, h0))
    c_tilde = combination(u, pi.c)
    a_tilde = combination(u, (x.c2 for x in e))
    b_tilde = combination(u, (x.c1 for x in e))
    ch = _challenge(ctx, seat, e, e_out, pi.c, pi.c_hat, key,
                    (pi.t1, pi.t2, pi.t3, pi.t41, pi.t42, *pi.t_hat))
    minus = (ORDER - ch) % ORDER
    for i in range(n):
        previous = pi.c_hat[i - 1] if i else h0
        t_hat_i = add(add(mul(minus, pi.c_hat[i]), base_mul(pi.s_hat[i])),
                      mul(pi.s_prime[i], previous))
        if t_hat_i != pi.t_hat[i]:
            return False
    t1 = add(mul(minus, c_bar), base_mul(pi.s1))
    t2 = add(mul(minus, c_hat), base_mul(pi.s2))
    t3 = add(add(mul(minus, c_tilde), base_mul(pi.s3)), combination(pi.s_prime, h))
    t41 = add(sub(mul(minus, a_tilde), mul(pi.s4, key)),
              combination(pi.s_prime, (x.c2 for x in e_out)))
    t42 = add(sub(mul(minus, b_tilde), base_mul(pi.s4)),
              combination(pi.s_prime, (x.c1 for x in e_out)))
    return (t1, t2, t3, t41, t42) == (pi.t1, pi.t2, pi.t3, pi.t41, pi.t42)


def shuffle_with_argument(ctx: Context, seat: int, deck: Deck, key: Point, seed: bytes
                          ) -> tuple[Deck, ShuffleArgument]:
    """One holder's turn: shuffle and re-mask ``deck`` from ``seed`` and prove it."""
    shuffled = gen_shuffle(deck, key, seed)
    return shuffled.deck, gen_shuffle_proof(ctx, seat, deck, shuffled, key, seed)

