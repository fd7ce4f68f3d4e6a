"""Escrow of a key among all the other holders: the others together rebuild a lost holder's
share of any position, and nothing less does; a bad sub-share, a low threshold and a bad part
are named."""

from __future__ import annotations

from dataclasses import replace

import pytest
from blindkit import run_deal, seed

from lanomino.blind.deck import opened, share_of, tile_of
from lanomino.blind.group import ORDER, BlindError, base_mul, combination
from lanomino.blind.key_escrow import (
    _lagrange_at_zero,
    check_sub_share,
    escrow_part,
    rebuilt_share,
    split_key,
)
from lanomino.blind.rounds import BlindFault


def test_the_others_rebuild_a_lost_holders_share_and_its_tile_opens() -> None:
    dealt = run_deal(4)
    lost = dealt.holders[3]
    secret = lost.reveal().secret
    escrow = split_key(3, secret, [0, 1, 2], seed("escrow", 3))
    for seat, sub in escrow.sub_shares.items():
        check_sub_share(dealt.ctx, 3, escrow.commitments, seat, sub)
    position = dealt.round.layout.boneyard[0]  # seat 0 draws after seat 3 is gone
    c1 = dealt.deck[position].c1
    parts = {j: escrow_part(dealt.ctx, j, 3, escrow.sub_shares[j], position, c1) for j in (1, 2)}
    parts[0] = escrow_part(dealt.ctx, 0, 3, escrow.sub_shares[0], position, c1)
    rebuilt = rebuilt_share(dealt.ctx, 3, escrow.commitments, position, c1, parts)
    assert rebuilt == share_of(secret, dealt.deck[position])
    others = [h.reveal().secret for h in dealt.holders[:3]]
    shares = [share_of(x, dealt.deck[position]) for x in others]
    tile = tile_of(opened(dealt.deck[position], [*shares, rebuilt]), 28)
    everything = sum(h.reveal().secret for h in dealt.holders)
    assert tile == tile_of(opened(dealt.deck[position],
                                  [share_of(everything, dealt.deck[position])]), 28)


def test_fewer_than_all_the_others_rebuild_nothing() -> None:
    escrow = split_key(3, 987654321, [0, 1, 2], seed("escrow", 3))
    pair = [0, 1]
    guess = sum(lam * escrow.sub_shares[j] for lam, j in
                zip(_lagrange_at_zero([j + 1 for j in pair]), pair, strict=True))
    assert base_mul(guess % ORDER) != base_mul(987654321)  # two of three others: a wrong key
    full = combination(_lagrange_at_zero([1, 2, 3]), [base_mul(escrow.sub_shares[j])
                                                      for j in (0, 1, 2)])
    assert full == base_mul(987654321)


def test_a_bad_escrow_is_named_by_the_holder_that_gets_it() -> None:
    dealt = run_deal(3)
    secret = dealt.holders[2].reveal().secret
    escrow = split_key(2, secret, [0, 1], seed("escrow", 2))
    with pytest.raises(BlindFault, match="seat 3: escrowed a sub-share that does not fit"):
        check_sub_share(dealt.ctx, 2, escrow.commitments, 0, escrow.sub_shares[0] + 1)
    other_key = split_key(2, secret + 1, [0, 1], seed("escrow", 2))
    with pytest.raises(BlindFault, match="seat 3: escrowed commitments that are not for its key"):
        check_sub_share(dealt.ctx, 2, other_key.commitments, 0, other_key.sub_shares[0])
    low = split_key(2, secret, [0], seed("escrow", 2))  # degree 0: any one other holds the key
    with pytest.raises(BlindFault, match="for 1 of the 2 others, not all of them"):
        check_sub_share(dealt.ctx, 2, low.commitments, 0, low.sub_shares[0])


def test_a_bad_part_is_named_and_a_missing_one_refused() -> None:
    dealt = run_deal(3)
    escrow = split_key(2, dealt.holders[2].reveal().secret, [0, 1], seed("escrow", 2))
    position = dealt.round.layout.boneyard[0]
    c1 = dealt.deck[position].c1
    parts = {j: escrow_part(dealt.ctx, j, 2, escrow.sub_shares[j], position, c1) for j in (0, 1)}
    point, proof = parts[1]
    bad = {0: parts[0], 1: (point, replace(proof, s=proof.s + 1))}
    with pytest.raises(BlindFault, match=f"seat 2: its escrow part for position {position}"):
        rebuilt_share(dealt.ctx, 2, escrow.commitments, position, c1, bad)
    with pytest.raises(BlindError, match="every other holder's part"):
        rebuilt_share(dealt.ctx, 2, escrow.commitments, position, c1, {0: parts[0]})
