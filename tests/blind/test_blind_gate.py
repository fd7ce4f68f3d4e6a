"""The holder's rule: a share only for the position the log gives that seat now, never for one
dealt to another seat, never twice; every refusal names who asked, the position and why."""

from __future__ import annotations

import pytest
from blindkit import draw, layout, run_deal

from lanomino.blind.gate import DealLayout, Refusal, ShareGate
from lanomino.blind.group import BlindError
from lanomino.blind.rounds import Share
from lanomino.engine import Rules


def gate(me: int = 0, n: int = 3) -> ShareGate:
    return ShareGate(me, layout(n))


def test_layout_follows_the_engine_deal_rule() -> None:
    three = layout(3)
    k = Rules.classic().hand_size_for(3)
    assert three.dealt == tuple(tuple(range(s * k, (s + 1) * k)) for s in range(3))
    assert three.boneyard == tuple(range(3 * k, 28))
    skipped = DealLayout.for_deal(28, [True, False, True], 7)
    assert skipped.dealt == (tuple(range(7)), (), tuple(range(7, 14)))
    with pytest.raises(BlindError):
        DealLayout.for_deal(30, [True, True], 7)


def test_deal_shares_cover_the_other_seats_positions_once() -> None:
    g = gate(me=1)
    granted = g.deal("host")
    assert granted == (*layout(3).dealt[0], *layout(3).dealt[2])
    again = g.deal("host")
    assert isinstance(again, Refusal)
    assert str(again).startswith("refused host:") and "already released" in str(again)


def test_a_nosy_host_asking_for_another_seats_dealt_position_gets_nothing() -> None:
    g = gate(me=0)
    position = layout(3).dealt[2][0]
    refused = g.draw("host", position, 1)
    assert isinstance(refused, Refusal)
    assert str(refused) == (f"refused host: a share of position {position} for seat 2: "
                            "it was dealt to seat 3")


def test_the_boneyard_opens_only_position_by_position_as_the_log_draws() -> None:
    g = gate(me=0)
    bone = layout(3).boneyard
    ahead = g.draw("host", bone[0], 1)
    assert isinstance(ahead, Refusal) and ahead.reason == "nobody has drawn it"
    assert g.drew(1) == bone[0]
    assert g.draw("host", bone[0], 1) == bone[0]
    twice = g.draw("host", bone[0], 1)
    assert isinstance(twice, Refusal) and twice.reason == "already released"
    skip = g.draw("host", bone[2], 2)  # a position further on, never drawn
    assert isinstance(skip, Refusal) and skip.reason == "nobody has drawn it"


def test_a_drawn_position_opens_for_the_drawer_only() -> None:
    g = gate(me=0)
    position = g.drew(2)
    wrong = g.draw("host", position, 1)
    assert isinstance(wrong, Refusal)
    assert wrong.reason == "the log gives it to seat 3"
    assert g.draw("seat 3", position, 2) == position


def test_a_holder_never_releases_for_itself_or_a_position_that_does_not_exist() -> None:
    g = gate(me=0)
    position = g.drew(0)
    own = g.draw("host", position, 0)
    assert isinstance(own, Refusal) and own.reason == ("a holder opens its own tiles (and its "
                                                          "bots') itself")
    nowhere = g.draw("host", 99, 1)
    assert isinstance(nowhere, Refusal) and nowhere.reason == "no such position"


def test_own_shares_are_shown_only_with_a_play_of_an_own_position_once() -> None:
    g = gate(me=1)
    mine = layout(3).dealt[1][0]
    assert g.show(mine) == mine
    assert isinstance(g.show(mine), Refusal)
    theirs = g.show(layout(3).dealt[0][0])
    assert isinstance(theirs, Refusal) and "seat 1's" in str(theirs)
    drawn = g.drew(1)
    assert g.show(drawn) == drawn
    not_yet = g.show(layout(3).boneyard[1])
    assert isinstance(not_yet, Refusal) and "nobody's yet" in str(not_yet)


def test_the_boneyard_runs_out() -> None:
    g = gate(me=0, n=4)
    for _ in layout(4).boneyard:
        g.drew(1)
    with pytest.raises(BlindError, match="boneyard is empty"):
        g.drew(2)


def test_a_holder_refuses_the_nosy_host_and_gives_no_share() -> None:
    """Through the Holder: the request for seat 2's tile returns the refusal, not a share."""
    dealt = run_deal(3)
    host_side = dealt.holders[1]
    refused = host_side.draw_share("host", dealt.round.layout.dealt[2][0], 0)
    assert isinstance(refused, Refusal) and "dealt to seat 3" in str(refused)
    position, _tile = draw(dealt, 2)
    assert isinstance(host_side.draw_share("host", position, 2), Refusal)  # given already
    fresh = dealt.holders[1].drew(0)
    given = dealt.holders[1].draw_share("host", fresh, 0)
    assert isinstance(given, Share) and given.position == fresh
