"""Host-side bots are not holders: the host opens their tiles (so it sees them, as the README
will say) and shows its share with their plays; nobody else reads them, and the host never
publishes its share of a bot's position."""

from __future__ import annotations

import pytest
from blindkit import TABLE, seed

from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.deck import opened, share_of, tile_of
from lanomino.blind.gate import DealLayout, Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.rounds import BlindFault, Share, check_play

# seats 0 (the host), 1 (a person), 2 (the host's bot): two holders
OPENERS = (0, 1, 0)


def deal_with_a_bot() -> tuple[LockedDeal, list[Holder]]:
    ctx = Context(TABLE, 1, 1, 28, (0, 1))
    layout = DealLayout.for_deal(28, [True] * 3, 5, OPENERS)
    hs = [Holder(ctx, s, layout, seed("key", s), seed("shuffle", s)) for s in (0, 1)]
    deal = LockedDeal.started(ctx, layout, 0.0, 5.0)
    for h in hs:
        deal.receive_key(h.announce(), 0.0)
    for h in hs:
        h.keys_agreed(deal.ctx)
        deal.receive_shuffle(h.shuffle(deal.deck), 0.0)
    for h in hs:
        h.deck_agreed(deal.deck)
        batch = h.deal_shares("host")
        assert not isinstance(batch, Refusal)
        deal.receive_shares(h.seat, batch, 0.0)
    assert deal.step is Step.DONE
    return deal, hs


def test_the_host_opens_its_bots_tiles_and_publishes_no_share_of_them() -> None:
    deal, (host, person) = deal_with_a_bot()
    bot_positions = deal.layout.dealt[2]
    assert {s.position for s in deal.shares[0]} == set(deal.layout.dealt[1])
    assert {s.position for s in deal.shares[1]} == set(deal.layout.dealt[0]) | set(bot_positions)
    bot_hand = [host.open(p, deal.shares_of(p)) for p in bot_positions]
    assert len(set(bot_hand)) == 5
    with pytest.raises(BlindError, match="is not seat 2's to open"):
        person.open(bot_positions[0], deal.shares_of(bot_positions[0]))
    secret = person.reveal().secret  # the person, with every public share, reads nothing of it
    for p in bot_positions:
        points = [s.point for s in deal.shares_of(p) if s.seat != 1]
        with pytest.raises(BlindError):
            tile_of(opened(deal.deck[p], [*points, share_of(secret, deal.deck[p])]), 28)


def test_a_bots_draw_opens_for_the_host_and_its_play_carries_the_hosts_share() -> None:
    deal, (host, person) = deal_with_a_bot()
    position = [h.drew(2) for h in (host, person)][0]
    refused = host.draw_share("host", position, 2)
    assert isinstance(refused, Refusal) and "and its bots'" in refused.reason
    share = person.draw_share("host", position, 2)
    assert isinstance(share, Share)
    tile = host.open(position, [share])
    own = host.play(position)
    assert isinstance(own, Share)
    check_play(deal.ctx, deal.deck, 2, position, tile, own, [share], 2, opener=0)
    with pytest.raises(BlindFault, match="seat 1: for seat 3, position .* does not hold"):
        check_play(deal.ctx, deal.deck, 2, position, (tile + 1) % 28, own, [share], 2, opener=0)
