"""The engine's public view (``engine/public.py``), against the full engine: random hands of
every preset where the view, fed the public part of a full-information game, shows what the
engine shows move by move (the line, counts, boneyard, turn, each seat's legal moves from its own
tiles, the end of the hand as the table can tell it), resignations included; and what it refuses
on the spot, keeps as claims, and decides from passes. (The scores after the reveal, and a locked
hand end to end: tests/blind/test_blind_public_hand.py.)"""

from __future__ import annotations

import random

import pytest
from publickit import deal, play_hand, playouts

from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    TILES,
    End,
    GameState,
    HandEnd,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    TileDrawn,
    new_game,
    parse_tile,
)
from lanomino.engine.public import PublicEnd, PublicHand, public_opener


@playouts(150)
def test_the_public_view_shows_what_the_full_engine_shows(
    match: GameState, rng: random.Random
) -> None:
    before = match
    for _ in range(3):  # a few hands: later hands open by the public rules
        table, full = deal(before, rng)
        if table is not None:
            play_hand(table, rng)
            outcome, ended = table.view.outcome, full.results[-1]
            assert outcome is not None and outcome.end is ended.end
            if ended.end in (HandEnd.DOMINO, HandEnd.TARGET):
                assert outcome.seat == ended.tally.seat
        if full.phase is Phase.OVER:
            break
        before = full  # between hands nothing is hidden


@playouts(80)
def test_resignations_agree_with_the_full_engine(match: GameState, rng: random.Random) -> None:
    table, full = deal(match, rng)
    if table is None:
        return
    play_hand(table, rng, resign=True)
    ended, outcome = full.results[-1], table.view.outcome
    assert outcome is not None and outcome.end is ended.end
    if ended.end is HandEnd.RESIGNED:
        assert outcome.winner == ended.winner and outcome.seat == full.departed[-1]


def test_the_public_view_refuses_what_the_table_can_see_and_keeps_claims() -> None:
    """What public facts decide is refused on the spot, in the engine's words; an "I cannot
    play, so I draw" is kept as a claim and the drawn tile stays out of the log."""
    view = PublicHand(new_game(Rules.classic(), 2), 0, TILES[27])
    with pytest.raises(IllegalActionError, match="seat 1 may not draw: the hand has not been"):
        view.apply(0, DRAW)
    with pytest.raises(IllegalActionError, match="must be opened with 6-6"):
        view.apply(0, Play(TILES[26], End.LEFT))
    view.apply(0, Play(TILES[27], End.LEFT))
    with pytest.raises(IllegalActionError, match="seat 2 may not pass: the boneyard has tiles"):
        view.apply(1, PASS)
    with pytest.raises(IllegalActionError, match="seat 2 may not play 6-6: it is on the line"):
        view.apply(1, Play(TILES[27], End.LEFT))
    with pytest.raises(IllegalActionError, match="5-4 left: it does not match the 6"):
        view.apply(1, Play(parse_tile("5-4"), End.LEFT))
    with pytest.raises(IllegalActionError, match="it is seat 2's turn"):
        view.apply(0, DRAW)
    view.apply(1, DRAW)
    assert view.counts == [6, 8] and view.boneyard_left() == 13 and view.turn == 1
    assert [str(c) for c in view.claims] == ["seat 2 drew at move 2: no tile with 6"]
    assert isinstance(view.log[-1], TileDrawn) and view.log[-1].tile is None


def test_a_hand_is_blocked_once_every_seat_has_passed_in_turn() -> None:
    view = PublicHand(new_game(Rules.block(hand_size=2), 3), 1)
    view.apply(1, Play(parse_tile("6-6"), End.LEFT))
    view.apply(2, PASS)
    view.apply(0, Play(parse_tile("6-5"), End.LEFT))  # a play starts the round of passes again
    for seat in (1, 2):
        view.apply(seat, PASS)
        assert view.outcome is None
    view.apply(0, PASS)
    assert view.outcome == PublicEnd(HandEnd.BLOCKED)
    assert [(c.seat, c.move, c.ends) for c in view.claims] == [
        (2, 1, (6,)), (1, 3, (5, 6)), (2, 4, (5, 6)), (0, 5, (5, 6))]
    with pytest.raises(IllegalActionError, match="the hand is over"):
        view.apply(1, PASS)


def test_a_seat_that_leaves_ends_the_passes_round_or_the_hand() -> None:
    view = PublicHand(new_game(Rules.block(hand_size=2), 3), 0)
    view.apply(0, Play(parse_tile("3-3"), End.LEFT))
    view.apply(1, PASS)
    view.apply(2, PASS)
    view.apply(0, RESIGN)  # the two left have passed since the last play: blocked
    assert view.outcome == PublicEnd(HandEnd.BLOCKED) and view.counts[0] == 0
    two = PublicHand(new_game(Rules.block(), 2), 1)
    two.apply(0, RESIGN)  # one side left: it wins
    assert two.outcome == PublicEnd(HandEnd.RESIGNED, 0, 1)


def test_a_play_that_empties_a_count_ends_the_hand_by_domino() -> None:
    view = PublicHand(new_game(Rules.block(hand_size=1), 2), 0)
    view.apply(0, Play(parse_tile("4-2"), End.LEFT))
    assert view.outcome == PublicEnd(HandEnd.DOMINO, 0) and view.counts == [0, 1]


def test_the_opener_is_public_unless_the_engine_reads_the_hands() -> None:
    state = new_game(Rules.classic(), 3)
    with pytest.raises(IllegalActionError, match="depends on the hands"):
        public_opener(state)  # the first hand: the highest double leads
    state.dealt_hands, state.last_opener, state.last_winner_seat = 1, 0, 2
    assert public_opener(state) == (2, None)  # the winner leads
    state.last_winner_seat = None  # a hand nobody won: the first hand's rule again
    with pytest.raises(IllegalActionError, match="depends on the hands"):
        public_opener(state)
    with pytest.raises(IllegalActionError, match="seat 4 is not in the match"):
        PublicHand(new_game(Rules.classic(), 3), 3)


def test_a_seat_asks_its_own_legal_moves_from_the_view() -> None:
    view = PublicHand(new_game(Rules.classic(), 2), 0, TILES[27])
    mine = [parse_tile("6-6"), parse_tile("1-0")]
    assert view.legal_for(0, mine) == (Play(TILES[27], End.LEFT),)
    view.apply(0, Play(TILES[27], End.LEFT))
    assert view.legal_for(1, [parse_tile("6-2"), parse_tile("2-1")]) == (
        Play(parse_tile("6-2"), End.LEFT),)
    assert view.legal_for(1, [parse_tile("2-1")]) == (DRAW,)
