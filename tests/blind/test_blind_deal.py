"""A whole locked hand in memory: the deal, what each party can open, draws, plays, the end."""

from __future__ import annotations

import pytest
from blindkit import draw, holders, run_deal

from lanomino.blind.deck import aggregate_key, open_deck, opened, share_of, tile_of
from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.rounds import (
    BlindFault,
    Reveal,
    Share,
    check_play,
    check_reveal,
    open_all,
)
from lanomino.engine import Rules


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_seat_opens_its_own_hand_and_the_hands_are_the_deck(n: int) -> None:
    dealt = run_deal(n)
    reveals = {h.seat: h.reveal() for h in dealt.holders}
    tiles = open_all(dealt.ctx, dealt.deck, {s: r.secret for s, r in reveals.items()})
    for seat, hand in enumerate(dealt.hands):
        assert hand == [tiles[p] for p in dealt.round.layout.dealt[seat]]
        assert len(hand) == Rules.classic().hand_size_for(n)
    assert sorted(tiles) == list(range(28))


def test_the_deck_differs_between_attempts_and_seeds() -> None:
    first = run_deal(3)
    other = run_deal(3, holders(3, tag="again"))
    assert first.deck != other.deck
    assert first.hands != other.hands


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_party_that_tries_every_position_opens_only_its_own(n: int) -> None:
    """The instrumented host (seat 0, or any seat): every public share plus its own key on every
    position of the deck; only its own hand comes out as tiles."""
    dealt = run_deal(n)
    for me in dealt.holders:
        secret = me.reveal().secret
        readable = []
        for position in range(28):
            points = [s.point for s in dealt.round.shares_of(position) if s.seat != me.seat]
            try:
                tile_of(opened(dealt.deck[position], [*points, share_of(secret,
                                                                        dealt.deck[position])]), 28)
            except BlindError:
                continue
            readable.append(position)
        assert readable == list(dealt.round.layout.dealt[me.seat])


def test_all_but_one_holder_pooling_their_keys_read_nothing_of_the_last() -> None:
    dealt = run_deal(4)
    pooled = sum(h.reveal().secret for h in dealt.holders[:3])
    last = dealt.round.layout.dealt[3]
    for position in last:
        c = dealt.deck[position]
        with pytest.raises(BlindError):
            tile_of(opened(c, [share_of(pooled, c)]), 28)


def test_draws_open_the_boneyard_in_order_for_the_drawer_alone() -> None:
    dealt = run_deal(3)
    boneyard = dealt.round.layout.boneyard
    position, tile = draw(dealt, 1)
    assert position == boneyard[0]
    position2, tile2 = draw(dealt, 2)
    assert position2 == boneyard[1]
    tiles = open_all(dealt.ctx, dealt.deck, {h.seat: h.reveal().secret for h in dealt.holders})
    assert (tile, tile2) == (tiles[boneyard[0]], tiles[boneyard[1]])
    # seat 0 saw the shares of seat 1's draw go out; they do not open it for seat 0
    public = [s.point for s in dealt.round.shares_of(position)]
    assert public == []  # a boneyard position has no deal shares at all


def test_a_play_is_checked_against_the_tile_and_a_false_one_names_the_seat() -> None:
    dealt = run_deal(2)
    seat, position = 1, dealt.round.layout.dealt[1][0]
    own = dealt.holders[seat].play(position)
    assert isinstance(own, Share)
    public = dealt.round.shares_of(position)
    check_play(dealt.ctx, dealt.deck, seat, position, dealt.hands[1][0], own, public, 1)
    with pytest.raises(BlindFault, match="seat 2: position .* does not hold the tile"):
        check_play(dealt.ctx, dealt.deck, seat, position, dealt.hands[1][1], own, public, 1)
    with pytest.raises(BlindFault, match="seat 2: played from position .* without its own share"):
        check_play(dealt.ctx, dealt.deck, seat, position, dealt.hands[1][0], public[0], public, 1)
    # seat 0 replays seat 1's play, whose shares are all public now
    zero = next(s for s in public if s.seat == 0)
    with pytest.raises(BlindFault, match="seat 1: played from position .*, which is seat 2's"):
        check_play(dealt.ctx, dealt.deck, 0, position, dealt.hands[1][0], zero, [own], 1)
    assert isinstance(dealt.holders[seat].play(position), Refusal)  # never twice


def test_a_played_tile_of_another_seat_cannot_be_claimed() -> None:
    """Seat 0 claims seat 1's position: its own share there opens nothing."""
    dealt = run_deal(2)
    position = dealt.round.layout.dealt[1][0]
    refused = dealt.holders[0].play(position)
    assert isinstance(refused, Refusal) and "seat 2's" in str(refused)


def test_hand_end_reveals_check_against_keys_and_shuffles() -> None:
    dealt = run_deal(3)
    decks = [t.deck for t in dealt.round.turns]
    starts = [open_deck(aggregate_key(dealt.ctx.keys), 28), *decks[:-1]]
    for h, turn, start in zip(dealt.holders, dealt.round.turns, starts, strict=True):
        check_reveal(dealt.ctx, h.reveal(), start, turn)
    liar = dealt.holders[1].reveal()
    wrong_seed = Reveal(liar.seat, liar.secret, bytes(32))
    with pytest.raises(BlindFault, match="seat 2: its seed does not reproduce"):
        check_reveal(dealt.ctx, wrong_seed, starts[1], dealt.round.turns[1])
    wrong_key = Reveal(liar.seat, liar.secret + 1, liar.seed)
    with pytest.raises(BlindFault, match="seat 2: revealed a secret that is not its key"):
        check_reveal(dealt.ctx, wrong_key, starts[1], dealt.round.turns[1])


def test_a_drawer_needs_one_share_from_each_other_holder() -> None:
    """A host that sends one holder's share twice in place of another's opens nothing."""
    dealt = run_deal(3)
    position = [h.drew(1) for h in dealt.holders][0]
    first = dealt.holders[0].draw_share("host", position, 1)
    assert isinstance(first, Share)
    with pytest.raises(BlindError, match="one share from each of the other holders"):
        dealt.holders[1].open(position, [first, first])
    with pytest.raises(BlindError, match="one share from each of the other holders"):
        dealt.holders[1].open(position, [first])
