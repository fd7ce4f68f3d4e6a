"""A draw as a round: the other holders' shares checked on arrival, the drawer opens the tile,
a bad share names its holder, a deadline names the silent ones."""

from __future__ import annotations

from dataclasses import replace

import pytest
from blindkit import Dealt, run_deal

from lanomino.blind.draw_round import DrawRound
from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError, add, base_mul
from lanomino.blind.rounds import BlindFault, Share, open_all


def shares_for(n: int, drawer: int) -> tuple[Dealt, DrawRound, list[Share]]:
    dealt = run_deal(n)
    position = [h.drew(drawer) for h in dealt.holders][0]
    shares = []
    for h in dealt.holders:
        if h.seat != drawer:
            share = h.draw_share("host", position, drawer)
            assert not isinstance(share, Refusal)
            shares.append(share)
    return dealt, DrawRound.started(dealt.ctx, dealt.deck, position, drawer, 10.0, 5.0), shares


def test_the_shares_come_in_and_the_drawer_opens_its_tile() -> None:
    dealt, draw, shares = shares_for(4, 2)
    for share in shares:
        assert not draw.done
        draw.receive(share)
    assert draw.done and draw.missing() == ()
    tile = dealt.holders[2].open(draw.position, draw.shares.values())
    every = {h.seat: h.reveal().secret for h in dealt.holders}
    assert tile == open_all(dealt.ctx, dealt.deck, every)[draw.position]


def test_a_bad_share_names_its_holder_and_ends_the_draw() -> None:
    _dealt, draw, shares = shares_for(3, 0)
    bad = replace(shares[1], point=add(shares[1].point, base_mul(1)))
    with pytest.raises(BlindFault, match="seat 3: its share of position"):
        draw.receive(bad)
    assert draw.culprit == 2 and draw.over and not draw.done
    with pytest.raises(BlindError, match="this draw is over"):
        draw.receive(shares[0])


def test_shares_it_does_not_wait_for_are_refused_and_not_counted() -> None:
    _dealt, draw, shares = shares_for(3, 0)
    draw.receive(shares[0])
    with pytest.raises(BlindError, match="does not wait for a share from seat 2"):
        draw.receive(shares[0])
    with pytest.raises(BlindError, match="came for the draw of"):
        draw.receive(replace(shares[1], position=draw.position + 1))
    assert draw.missing() == (2,) and draw.culprit is None


def test_a_deadline_names_the_silent_holders() -> None:
    _dealt, draw, shares = shares_for(4, 1)
    draw.receive(shares[0])
    assert not draw.expire(14.9)
    assert draw.expire(15.0)
    assert draw.unanswered == (2, 3) and draw.over
