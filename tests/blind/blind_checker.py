"""A second verifier of the locked deck, written apart from lanomino/blind from the spec in
docs/fair-deal.md: it reads raw bytes, derives the generators and hashes on its own, and checks
each equation in the forward form s·G = t + c·X instead of recomputing the commitments.

It shares nothing with lanomino.blind but libsodium (``rbcl``): if the two drift apart, the tests
that run both on the same proofs fail.
"""

from __future__ import annotations

import hashlib
from functools import reduce

import rbcl

L = 2**252 + 27742317777372353535851937790883648493
ZERO = bytes(32)
TAG = b"lanomino-blind-ristretto255/1"


def pt(data: bytes) -> bytes:
    assert len(data) == 32 and rbcl.crypto_core_ristretto255_is_valid_point(data)
    return data


def sc(data: bytes) -> int:
    value = int.from_bytes(data, "little")
    assert len(data) == 32 and value < L
    return value


def smul(k: int, p: bytes) -> bytes:
    if p == ZERO or k % L == 0:
        return ZERO
    return bytes(rbcl.crypto_scalarmult_ristretto255((k % L).to_bytes(32, "little"), p))


def g(k: int) -> bytes:
    if k % L == 0:
        return ZERO
    return bytes(rbcl.crypto_scalarmult_ristretto255_base((k % L).to_bytes(32, "little")))


def plus(*points: bytes) -> bytes:
    return reduce(lambda a, b: bytes(rbcl.crypto_core_ristretto255_add(a, b)), points, ZERO)


def lin(scalars: list[int], points: list[bytes]) -> bytes:
    return plus(*(smul(k, p) for k, p in zip(scalars, points, strict=True)))


def lp(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def gens(n: int) -> list[bytes]:
    tag = b"lanomino.blind.generator/1"
    return [bytes(rbcl.crypto_core_ristretto255_from_hash(
        hashlib.sha512(lp(tag) + i.to_bytes(4, "big")).digest())) for i in range(n + 1)]


class Table:
    """The context of one deal attempt, as the spec lists it."""

    def __init__(self, table: bytes, hand: int, attempt: int, tiles: int,
                 holders: list[int], keys: list[bytes]) -> None:
        self.table, self.hand, self.attempt, self.tiles = table, hand, attempt, tiles
        self.holders, self.keys = holders, [pt(k) for k in keys]
        self.gens = gens(tiles)
        base = g(1)
        self.gen_digest = hashlib.sha256(base + b"".join(self.gens)).digest()

    def hash(self, domain: bytes, seat: int, *parts: bytes) -> int:
        head = [TAG, domain, self.table, self.hand.to_bytes(4, "big"),
                self.attempt.to_bytes(4, "big"), seat.to_bytes(4, "big"),
                self.tiles.to_bytes(4, "big"), bytes(self.holders), b"".join(self.keys),
                self.gen_digest]
        data = b"".join(lp(p) for p in [*head, *parts])
        return int.from_bytes(hashlib.sha512(data).digest(), "little") % L

    @property
    def y(self) -> bytes:
        return plus(*self.keys)


def key_ok(t: Table, seat: int, key: bytes, proof: bytes) -> bool:
    """Schnorr: s·B = T + c·X."""
    big_t, s = pt(proof[:32]), sc(proof[32:])
    c = t.hash(b"key", seat, key, big_t)
    return g(s) == plus(big_t, smul(c, key))


def share_ok(t: Table, seat: int, position: int, c1: bytes, share: bytes, proof: bytes) -> bool:
    """Chaum–Pedersen: s·B = T₁ + c·X and s·c₁ = T₂ + c·D."""
    key = t.keys[t.holders.index(seat)]
    t1, t2, s = pt(proof[:32]), pt(proof[32:64]), sc(proof[64:])
    c = t.hash(b"share", seat, position.to_bytes(4, "big"), g(1), key, c1, share, t1, t2)
    return g(s) == plus(t1, smul(c, key)) and smul(s, c1) == plus(t2, smul(c, share))


def split_deck(data: bytes) -> list[tuple[bytes, bytes]]:
    return [(pt(data[i:i + 32]), pt(data[i + 32:i + 64])) for i in range(0, len(data), 64)]


def shuffle_ok(t: Table, seat: int, before: bytes, after: bytes, argument: bytes) -> bool:
    """The Terelius–Wikström argument, checked forward: every response equation of the
    prover's commitments, with the challenges hashed from the raw bytes."""
    n = t.tiles
    e, e2 = split_deck(before), split_deck(after)
    if len(e) != n or len(e2) != n:
        return False
    points = [pt(argument[i:i + 32]) for i in range(0, (3 * n + 5) * 32, 32)]
    scal = [sc(argument[i:i + 32]) for i in range((3 * n + 5) * 32, len(argument), 32)]
    if len(scal) != 2 * n + 4:
        return False
    c, chat = points[:n], points[n:2 * n]
    t1, t2, t3, t41, t42 = points[2 * n:2 * n + 5]
    that = points[2 * n + 5:]
    s1, s2, s3, s4 = scal[:4]
    shat, sprime = scal[4:4 + n], scal[4 + n:]
    h0, hs = t.gens[0], t.gens[1:]
    u = [t.hash(b"shuffle-u", seat, before, after, b"".join(c), i.to_bytes(4, "big"))
         for i in range(n)]
    ch = t.hash(b"shuffle", seat, before, after, b"".join(c), b"".join(chat), t.y,
                b"".join([t1, t2, t3, t41, t42, *that]))
    u_all = reduce(lambda a, b: a * b % L, u, 1)
    c_bar = plus(*c, *(smul(L - 1, h) for h in hs))
    c_hat = plus(chat[-1], smul(L - u_all, h0))
    checks = [
        g(s1) == plus(t1, smul(ch, c_bar)),
        g(s2) == plus(t2, smul(ch, c_hat)),
        plus(g(s3), lin(sprime, hs)) == plus(t3, smul(ch, lin(u, c))),
        plus(lin(sprime, [x[1] for x in e2]), smul(L - s4, t.y))
        == plus(t41, smul(ch, lin(u, [x[1] for x in e]))),
        plus(lin(sprime, [x[0] for x in e2]), g(L - s4))
        == plus(t42, smul(ch, lin(u, [x[0] for x in e]))),
    ]
    for i in range(n):
        previous = chat[i - 1] if i else h0
        checks.append(plus(g(shat[i]), smul(sprime[i], previous))
                      == plus(that[i], smul(ch, chat[i])))
    return all(checks)


def open_deck_bytes(t: Table) -> bytes:
    """Enc(Mₜ; 1) for every tile: (B, Y + (t+1)·B)."""
    return b"".join(g(1) + plus(t.y, g(i + 1)) for i in range(t.tiles))


def tiles_of(t: Table, deck: bytes, secrets: list[int]) -> list[int]:
    """Every position's tile index from every holder's secret key."""
    x = sum(secrets) % L
    lookup = {g(i + 1): i for i in range(t.tiles)}
    return [lookup[plus(c2, smul(L - x, c1))] for c1, c2 in split_deck(deck)]


def equal_logs_ok(t: Table, domain: bytes, seat: int, label: bytes, gen: bytes, a: bytes,
                  h: bytes, b: bytes, proof: bytes) -> bool:
    """Any Chaum–Pedersen proof of the package (blinding, escrow parts): s·g = T₁ + c·a and
    s·h = T₂ + c·b, with the challenge over label, g, a, h, b, T₁, T₂."""
    t1, t2, s = pt(proof[:32]), pt(proof[32:64]), sc(proof[64:])
    c = t.hash(domain, seat, label, gen, a, h, b, t1, t2)
    return smul(s, gen) == plus(t1, smul(c, a)) and smul(s, h) == plus(t2, smul(c, b))


def feldman_key(commitments: list[bytes], seat: int) -> bytes:
    """Σₖ (seat+1)ᵏ·Aₖ, the public key of a seat's escrow sub-share."""
    return lin([pow(seat + 1, k, L) for k in range(len(commitments))], commitments)


def resignation_fault(record: dict, active: list[bool], clock: bool) -> int | None:  # type: ignore[type-arg]
    """The seat to blame for the record's resignations (its JSON, as the spec gives it), or None
    when they hold: each one after ``at`` ≤ the number of moves, in order, of a seat still in the
    match, signed by the seat ("seat") or by the host only for a seat that left ("left") or, at
    a table with a move clock, one away ("away"); no move by a seat once it has resigned (the
    host's order: its fault). The
    rules' own checks of the moves are not repeated here: the engine's replay does those."""
    host, moves = record["host"], record["moves"]
    playing = list(active)
    last = 0
    for entry in record.get("resignations", []):
        seat, at, by = entry["seat"], entry["at"], entry["by"]
        assert by in ("seat", "left", "away") and last <= at <= len(moves)
        last = at
        signer = seat if by == "seat" else host
        if by == "away" and not clock:
            return host
        if not playing[seat]:
            return signer
        playing[seat] = False
        after = [m["seat"] for m in moves[at:]]
        if seat in after:  # the seat signed both; the host put them in this order
            return host
    return None
