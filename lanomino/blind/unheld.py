"""The blind re-shuffle: after a holder is lost (no escrow), the tiles nobody holds are shuffled
again by the survivors, and nobody sends their hand to anyone (design study §5). Pure.

The survivors S lock the new deck under Y′ = Σ_{s∈S} Xₛ (their context, ``ctx``):

1. each survivor sends its *hand vector*: for every tile t, eₛ,ₜ = Enc_Y′([t ∈ handₛ]·B) — the
   vector is encrypted, so it hides the hand (a false vector is found at the hand's end, when the
   hands are known);
2. anyone combines them: Fₜ = (t+1)·(Enc(B; 1) − Σₛ eₛ,ₜ), with Enc(O; 1) for a tile on the line,
   so Fₜ locks Mₜ when nobody holds t, and the identity when somebody does;
3. each survivor shuffles F in turn with a shuffle argument (``shuffle_proof.py``);
4. each survivor in turn *blinds* a copy of the result: every ciphertext times a secret ρ, with a
   proof of equal logarithms (log_c₁ c₁′ = log_c₂ c₂′); all of them open the blinded copy
   together, which shows only "identity or not" for each slot of the shuffled F;
5. the slots that are not the identity, in shuffled order, are the new deck: exactly the tiles
   nobody holds, in an order nobody knows. Their number must be the public count.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from lanomino.blind.deck import Ciphertext, Deck, aggregate_key, opened
from lanomino.blind.group import BASE, IDENTITY, BlindError, Point, add, base_mul, mul, sub
from lanomino.blind.hashing import Context, Drbg, u32
from lanomino.blind.proofs import EqualLogProof, equal_logs_hold, prove_equal_logs
from lanomino.blind.rounds import BlindFault

BLINDING_DOMAIN = b"unheld-blinding"
OPENING_DOMAIN = b"unheld-share"


def hand_vector(ctx: Context, hand: Collection[int], seed: bytes) -> Deck:
    """eₜ = Enc_Y′([t ∈ hand]·B) for every tile t, randomness from ``seed``."""
    key = aggregate_key(ctx.keys)
    drbg = Drbg(seed, b"unheld-hand")
    out = []
    for t in range(ctx.tiles):
        r = drbg.nonzero_scalar()
        out.append(Ciphertext(base_mul(r), add(mul(r, key), BASE if t in hand else IDENTITY)))
    return tuple(out)


def _times(k: int, c: Ciphertext) -> Ciphertext:
    return Ciphertext(mul(k, c.c1), mul(k, c.c2))


def combine(ctx: Context, vectors: Iterable[Deck], on_line: Collection[int]) -> Deck:
    """Fₜ = (t+1)·(Enc(B or O; 1) − Σₛ eₛ,ₜ): Mₜ for a tile nobody holds, else the identity."""
    key = aggregate_key(ctx.keys)
    vectors = list(vectors)
    if any(len(v) != ctx.tiles for v in vectors):
        raise BlindError(f"a hand vector has {ctx.tiles} ciphertexts")
    out = []
    for t in range(ctx.tiles):
        c1, c2 = BASE, key if t in on_line else add(key, BASE)
        for vector in vectors:
            c1, c2 = sub(c1, vector[t].c1), sub(c2, vector[t].c2)
        out.append(_times(t + 1, Ciphertext(c1, c2)))
    return tuple(out)


def blind(ctx: Context, seat: int, deck: Deck, seed: bytes
          ) -> tuple[Deck, tuple[EqualLogProof, ...]]:
    """The deck with every ciphertext times a secret ρᵢ, and a proof for each position."""
    drbg = Drbg(seed, b"unheld-blinding")
    out, proofs = [], []
    for i, c in enumerate(deck):
        a, b, proof = prove_equal_logs(ctx, BLINDING_DOMAIN, seat, u32(i), drbg.nonzero_scalar(),
                                       c.c1, c.c2)
        out.append(Ciphertext(a, b))
        proofs.append(proof)
    return tuple(out), tuple(proofs)


def check_blinding(ctx: Context, seat: int, before: Deck, after: Deck,
                   proofs: Sequence[EqualLogProof]) -> Deck:
    """``after``, once every position is ``before``'s times one secret with its proof.

    Raises: BlindFault naming the seat.
    """
    if not len(before) == len(after) == len(proofs):
        raise BlindFault(seat, "blinded another number of tiles than it was given")
    for i, (c, d, proof) in enumerate(zip(before, after, proofs, strict=True)):
        if d.c1 == IDENTITY or not equal_logs_hold(ctx, BLINDING_DOMAIN, seat, u32(i), c.c1,
                                                   d.c1, c.c2, d.c2, proof):
            raise BlindFault(seat, f"its blinding of slot {i} does not hold")
    return after


def opening_share(ctx: Context, seat: int, secret: int, deck: Deck, slot: int
                  ) -> tuple[Point, EqualLogProof]:
    """A survivor's share of one slot of the blinded deck, with its proof."""
    _key, share, proof = prove_equal_logs(ctx, OPENING_DOMAIN, seat, u32(slot), secret, BASE,
                                          deck[slot].c1)
    return share, proof


def check_opening(ctx: Context, seat: int, blinded: Deck,
                  batch: Sequence[tuple[Point, EqualLogProof]]) -> None:
    """A survivor's (share, proof) of every slot of ``blinded``. Raises: BlindFault naming it."""
    if len(batch) != len(blinded):
        raise BlindFault(seat, "sent shares of another number of blinded slots")
    key = ctx.key_of(seat)
    for slot, (c, (share, proof)) in enumerate(zip(blinded, batch, strict=True)):
        if not equal_logs_hold(ctx, OPENING_DOMAIN, seat, u32(slot), BASE, key, c.c1, share,
                               proof):
            raise BlindFault(seat, f"its share of blinded slot {slot} does not hold")


def unheld_deck(ctx: Context, shuffled: Deck, blinded: Deck,
                shares: Mapping[int, Sequence[tuple[Point, EqualLogProof]]], count: int,
                checked: bool = False) -> Deck:
    """The new deck: the slots of ``shuffled`` whose blinded copy does not open to the identity.

    ``shares`` maps each survivor to its (share, proof) of every slot of ``blinded`` (each batch
    checked here unless ``checked``: ``check_opening`` on arrival).
    Raises: BlindFault naming a survivor whose share fails; BlindError when the number of
    unheld tiles is not ``count`` (a false hand vector; found by seat at the hand's end).
    """
    if set(shares) != set(ctx.holders):
        raise BlindError("opening the blinded deck needs every survivor's shares")
    if not checked:
        for seat, batch in shares.items():
            check_opening(ctx, seat, blinded, batch)
    kept = [shuffled[slot] for slot, c in enumerate(blinded)
            if opened(c, [batch[slot][0] for batch in shares.values()]) != IDENTITY]
    if len(kept) != count:
        raise BlindError(f"the re-shuffle found {len(kept)} unheld tiles, not {count}: a hand "
                         "vector was false (the hand's end shows whose)")
    return tuple(kept)
