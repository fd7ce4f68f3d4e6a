"""Key proofs and share proofs: they hold for the statement they were made for and for nothing
else (another key, share, position, seat or context), and bad encodings are refused."""

from __future__ import annotations

from dataclasses import replace

import pytest
from blindkit import context, run_deal

from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.group import IDENTITY, BlindError, add, base_mul, parse_point
from lanomino.blind.proofs import (
    EqualLogProof,
    KeyProof,
    key_proof_holds,
    prove_key,
    prove_share,
    share_proof_holds,
)
from lanomino.blind.rounds import BlindFault, KeyAnnouncement, Share, check_share

SECRET = 123456789


def test_a_key_proof_holds_for_its_key_seat_and_context_only() -> None:
    ctx = context(3)
    key, proof = prove_key(ctx, 1, SECRET)
    assert key == base_mul(SECRET)
    assert key_proof_holds(ctx, 1, key, proof)
    assert not key_proof_holds(ctx, 2, key, proof)  # replayed as another seat
    assert not key_proof_holds(ctx, 1, base_mul(SECRET + 1), proof)
    for other in (replace(ctx, hand=2), replace(ctx, attempt=2), replace(ctx, table=bytes(16)),
                  replace(ctx, tiles=55)):
        assert not key_proof_holds(other, 1, key, proof)
    assert not key_proof_holds(ctx, 1, key, replace(proof, s=proof.s + 1))
    assert KeyProof.from_bytes(proof.to_bytes()) == proof


def test_a_rogue_key_without_its_logarithm_is_named() -> None:
    """Seat 2 announces Y' − X₀ − X₁ to control the aggregate key; it cannot prove it."""
    ctx = context(3)
    deal = LockedDeal.started(ctx, run_deal(3).round.layout, 0.0, 5.0)
    k0, p0 = prove_key(ctx, 0, 11)
    k1, p1 = prove_key(ctx, 1, 22)
    deal.receive_key(KeyAnnouncement(0, k0, p0), 0.0)
    deal.receive_key(KeyAnnouncement(1, k1, p1), 0.0)
    _, borrowed = prove_key(ctx, 2, 33)
    rogue = add(base_mul(5), base_mul(7))
    with pytest.raises(BlindFault, match="seat 3: its key proof does not hold"):
        deal.receive_key(KeyAnnouncement(2, rogue, borrowed), 0.0)
    assert deal.step is Step.ABANDONED and deal.culprit == 2


def test_a_share_proof_holds_for_its_share_only() -> None:
    dealt = run_deal(2)
    ctx, deck = dealt.ctx, dealt.deck
    holder_secret = dealt.holders[0].reveal().secret
    c1 = deck[20].c1
    share, proof = prove_share(ctx, 0, 20, holder_secret, c1)
    key = ctx.key_of(0)
    assert share_proof_holds(ctx, 0, 20, key, c1, share, proof)
    wrong = add(share, base_mul(1))
    assert not share_proof_holds(ctx, 0, 20, key, c1, wrong, proof)  # a wrong share
    assert not share_proof_holds(ctx, 0, 21, key, deck[21].c1, share, proof)
    assert not share_proof_holds(ctx, 0, 21, key, c1, share, proof)  # another position
    assert not share_proof_holds(ctx, 1, 20, ctx.key_of(1), c1, share, proof)
    assert not share_proof_holds(replace(ctx, hand=2), 0, 20, key, c1, share, proof)
    assert EqualLogProof.from_bytes(proof.to_bytes()) == proof


def test_a_wrong_share_is_named_on_arrival() -> None:
    dealt = run_deal(2)
    position = dealt.round.layout.dealt[1][0]
    good = next(s for s in dealt.round.shares_of(position) if s.seat == 0)
    bad = Share(0, position, add(good.point, base_mul(1)), good.proof)
    with pytest.raises(BlindFault, match=f"seat 1: its share of position {position}"):
        check_share(dealt.ctx, dealt.deck, bad)
    moved = Share(0, position + 1, good.point, good.proof)
    with pytest.raises(BlindFault, match="seat 1"):
        check_share(dealt.ctx, dealt.deck, moved)
    outsider = Share(3, position, good.point, good.proof)
    with pytest.raises(BlindFault, match="seat 4: sent a share but holds no key"):
        check_share(dealt.ctx, dealt.deck, outsider)


def test_points_and_scalars_are_checked_at_the_edge() -> None:
    with pytest.raises(BlindError):
        parse_point(b"\x01" + bytes(31))
    with pytest.raises(BlindError):
        parse_point(bytes(32))  # the identity, where it is not allowed
    assert parse_point(bytes(32), identity_ok=True) == bytes(32)
    with pytest.raises(BlindError):
        KeyProof.from_bytes(base_mul(3) + b"\xff" * 32)


def test_the_identity_as_a_key_is_refused_on_arrival() -> None:
    """x = 0 "proves" itself: T = k·B, s = k. The round refuses it before any proof."""
    ctx = context(2)
    deal = LockedDeal.started(ctx, run_deal(2).round.layout, 0.0, 5.0)
    zero = KeyAnnouncement(0, IDENTITY, KeyProof(base_mul(7), 7))
    assert key_proof_holds(ctx, 0, IDENTITY, zero.proof)  # why the round must refuse it
    with pytest.raises(BlindFault, match="seat 1: sent the identity as its key"):
        deal.receive_key(zero, 0.0)
    assert deal.culprit == 0
