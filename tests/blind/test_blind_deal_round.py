"""The locked deal round: its steps in order, every message checked on arrival, a bad one
abandons the round naming its signer, a deadline names the silent seats."""

from __future__ import annotations

from dataclasses import replace

import pytest
from blindkit import context, holders, layout

from lanomino.blind.deal_round import TRANSITIONS, LockedDeal, Step
from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.holder import Holder
from lanomino.blind.rounds import BlindFault, Share


def started(n: int = 3) -> tuple[LockedDeal, list[Holder]]:
    return LockedDeal.started(context(n), layout(n), 0.0, 5.0), holders(n)


def keyed(n: int = 3) -> tuple[LockedDeal, list[Holder]]:
    deal, hs = started(n)
    for h in hs:
        deal.receive_key(h.announce(), 1.0)
    for h in hs:
        h.keys_agreed(deal.ctx)
    return deal, hs


def shuffled(n: int = 3) -> tuple[LockedDeal, list[Holder]]:
    deal, hs = keyed(n)
    for h in hs:
        deal.receive_shuffle(h.shuffle(deal.deck), 2.0)
    for h in hs:
        h.deck_agreed(deal.deck)
    return deal, hs


def test_steps_follow_the_table() -> None:
    assert TRANSITIONS[Step.KEYS] == {Step.SHUFFLE, Step.ABANDONED}
    deal, hs = started()
    assert deal.missing() == (0, 1, 2)
    deal.receive_key(hs[0].announce(), 0.0)
    assert deal.step is Step.KEYS and deal.missing() == (1, 2)
    with pytest.raises(BlindError, match="twice"):
        deal.receive_key(hs[0].announce(), 0.0)
    deal, hs = keyed()
    assert deal.step is Step.SHUFFLE and deal.ctx.keys and deal.deadline == 6.0
    with pytest.raises(BlindError, match="seat 2 shuffled out of turn"):
        deal.receive_shuffle(hs[1].shuffle(deal.deck), 2.0)
    with pytest.raises(BlindError, match="came in the shuffle step"):
        deal.receive_key(hs[0].announce(), 2.0)


def test_a_bad_shuffle_abandons_the_deal_and_names_the_shuffler() -> None:
    deal, hs = keyed()
    deal.receive_shuffle(hs[0].shuffle(deal.deck), 2.0)
    turn = hs[1].shuffle(deal.deck)
    swapped = replace(turn, deck=(turn.deck[1], turn.deck[0], *turn.deck[2:]))
    with pytest.raises(BlindFault, match="seat 2: its shuffle argument does not hold"):
        deal.receive_shuffle(swapped, 2.0)
    assert deal.step is Step.ABANDONED and deal.culprit == 1


def test_deal_shares_must_cover_exactly_the_other_seats_positions() -> None:
    deal, hs = shuffled()
    shares = hs[0].deal_shares("host")
    assert not isinstance(shares, Refusal)
    with pytest.raises(BlindFault, match="seat 1: did not send one share for each position"):
        deal.receive_shares(0, shares[1:], 3.0)
    assert deal.culprit == 0


def test_a_forged_deal_share_names_its_holder() -> None:
    deal, hs = shuffled()
    shares = hs[2].deal_shares("host")
    assert not isinstance(shares, Refusal)
    first = shares[0]
    other = shares[1]
    forged = Share(2, first.position, other.point, first.proof)
    with pytest.raises(BlindFault, match=f"seat 3: its share of position {first.position}"):
        deal.receive_shares(2, (forged, *shares[1:]), 3.0)
    deal2, hs2 = shuffled()
    batch = hs2[2].deal_shares("host")
    assert not isinstance(batch, Refusal)
    with pytest.raises(BlindFault, match="seat 3: sent shares signed as another seat"):
        deal2.receive_shares(2, (replace(batch[0], seat=1), *batch[1:]), 3.0)


def test_a_deadline_names_the_silent_seats() -> None:
    deal, hs = started()
    deal.receive_key(hs[1].announce(), 1.0)
    assert not deal.expire(4.9)
    assert deal.expire(5.0)
    assert deal.step is Step.ABANDONED and deal.unanswered == (0, 2)
    deal, hs = keyed()
    deal.receive_shuffle(hs[0].shuffle(deal.deck), 2.0)
    assert deal.expire(7.0) and deal.unanswered == (1,)
