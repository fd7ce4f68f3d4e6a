"""Dealing, who opens the first hand, and who opens the hands after it."""

from __future__ import annotations

import pytest
from enginekit import PARTNERSHIP_BLOCK_MOVES, deal_hand, game, partnership_hands, play, tiles

from lanomino.engine import (
    TILES,
    DealVoided,
    End,
    HandEnded,
    HandStarted,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    legal_actions,
    new_game,
    parse_tile,
    start_hand,
)
from lanomino.engine.dealing import deal_for


@pytest.mark.parametrize(("players", "hand", "boneyard"), [(2, 7, 14), (3, 5, 13), (4, 5, 8)])
def test_deal_sizes_leave_the_seed_003_boneyard(players: int, hand: int, boneyard: int) -> None:
    state = new_game(Rules.preset("classic"), players)
    deal, rest = deal_for(state, list(reversed(TILES)))
    events = start_hand(state, deal, rest)
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.hand_sizes == (hand,) * players
    assert started.boneyard == boneyard
    assert state.boneyard_left() == boneyard


def test_partnership_deals_all_28_tiles_and_leaves_no_boneyard() -> None:
    state = new_game(Rules.preset("partnership"), 4)
    deal, rest = deal_for(state, list(TILES))
    assert rest == []
    started = start_hand(state, deal, rest)[0]
    assert isinstance(started, HandStarted)
    assert started.hand_sizes == (7, 7, 7, 7)
    assert started.boneyard == 0


def test_a_deal_missing_a_tile_or_with_a_wrong_hand_size_is_refused() -> None:
    state = new_game(Rules.preset("classic"), 2)
    with pytest.raises(IllegalActionError, match="missing 0-0"):
        start_hand(state, [list(TILES[1:8]), list(TILES[8:15])], list(TILES[15:]))
    with pytest.raises(IllegalActionError, match="dealt 6 tiles"):
        start_hand(state, [list(TILES[:6]), list(TILES[6:13])], list(TILES[13:]))
    assert state.phase is Phase.DEAL


def test_highest_double_opens_the_first_hand_and_must_be_led() -> None:
    state = game(
        Rules.preset("classic"),
        ["5-4 1-0 2-0 3-1 4-4", "6-3 2-1 0-0 3-0 4-0", "6-6 5-5 6-5 1-1 4-1"],
    )
    assert (state.opener, state.turn, state.must_lead) == (2, 2, parse_tile("6-6"))
    assert list(legal_actions(state, 2)) == [Play(parse_tile("6-6"), End.LEFT)]
    assert legal_actions(state, 0) == ()
    with pytest.raises(IllegalActionError, match="must be opened with 6-6"):
        play(state, 2, "5-5")
    with pytest.raises(IllegalActionError, match="^seat 1 may not play 5-4: it is seat 3's turn$"):
        play(state, 0, "5-4")


def test_without_the_six_six_the_five_five_holder_opens() -> None:
    state = game(
        Rules.preset("classic"),
        ["5-4 1-0 2-0 3-1 4-4", "6-3 2-1 5-5 3-0 4-0", "6-5 1-1 4-1 6-4 6-1"],
    )
    assert (state.opener, state.must_lead) == (1, parse_tile("5-5"))


def test_with_no_double_dealt_the_heaviest_tile_opens_and_six_three_beats_five_four() -> None:
    state = game(
        Rules.preset("classic"),
        ["5-4 1-0 2-0 2-1 3-0 3-1 3-2", "6-3 4-0 4-1 4-2 4-3 5-0 5-1"],
    )
    assert (state.opener, state.must_lead) == (1, parse_tile("6-3"))


def test_reshuffle_voids_a_deal_with_no_double_and_the_next_deal_counts() -> None:
    rules = Rules.preset("classic", no_double="reshuffle")
    state = new_game(rules, 2)
    events = deal_hand(state, ["5-4 1-0 2-0 2-1 3-0 3-1 3-2", "6-3 4-0 4-1 4-2 4-3 5-0 5-1"])
    assert events == [DealVoided(1)]
    assert state.phase is Phase.DEAL
    assert legal_actions(state, 0) == () and legal_actions(state, 1) == ()
    events = deal_hand(state, ["5-4 1-0 2-0 2-1 3-0 3-1 3-2", "6-3 4-0 4-1 4-2 4-3 5-0 1-1"])
    started = events[0]
    assert isinstance(started, HandStarted)
    assert (started.hand, started.opener, started.must_lead) == (2, 1, parse_tile("1-1"))
    assert state.dealt_hands == 0  # void deals are not hands played


def test_play_goes_clockwise_from_the_opener() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-1 5-1", "6-6 6-2", "6-3 6-4", "6-5 2-1"])
    order = []
    for seat, tile in [(1, "6-6"), (2, "6-3"), (3, "6-5"), (0, "5-1")]:
        assert state.turn == seat
        order.append(seat)
        play(state, seat, tile)
    assert order == [1, 2, 3, 0]
    assert state.turn == 1


# ----- later hands -----------------------------------------------------------------------------
# With hand_size=1 the opener goes out with the tile it leads: a whole hand in one move.


def _quick_hand(state: object, hands: list[str], lead: str) -> HandEnded:
    from lanomino.engine import GameState

    assert isinstance(state, GameState)
    deal_hand(state, hands)
    events = play(state, state.opener, lead)
    ended = next(e for e in events if isinstance(e, HandEnded))
    return ended


def test_winner_of_the_last_hand_opens_the_next_with_any_tile() -> None:
    state = new_game(Rules.preset("classic", hand_size=1), 2)
    assert _quick_hand(state, ["1-0", "6-6"], "6-6").winner == 1
    deal_hand(state, ["6-6", "2-0"])
    assert (state.opener, state.must_lead) == (1, None)
    assert {str(a) for a in legal_actions(state, 1)} == {"play 2-0 left"}


def test_alternate_opener_swaps_every_hand_as_in_seed_004() -> None:
    state = new_game(Rules.preset("classic", hand_size=1, next_opener="alternate"), 2)
    assert _quick_hand(state, ["6-6", "1-0"], "6-6").winner == 0
    deal_hand(state, ["6-6", "2-0"])  # seat 0 won and holds the 6-6, yet seat 1 opens
    assert (state.opener, state.must_lead) == (1, None)
    play(state, 1, "2-0")
    deal_hand(state, ["3-0", "6-6"])
    assert (state.opener, state.must_lead) == (0, None)


def test_highest_double_opens_every_hand_as_in_seed_001() -> None:
    state = new_game(Rules.preset("classic", hand_size=1, next_opener="highest-double"), 3)
    assert _quick_hand(state, ["6-6", "1-0", "2-0"], "6-6").winner == 0
    deal_hand(state, ["5-5", "1-0", "6-6"])
    assert (state.opener, state.must_lead) == (2, parse_tile("6-6"))


def _blocked_tie_hand(state: object) -> HandEnded:
    """Opener (the 6-6 holder) leads it; nobody holds another six: blocked with 2 pips each."""
    from lanomino.engine import GameState

    assert isinstance(state, GameState)
    events = play(state, state.opener, "6-6")
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert (ended.end, ended.winner) == ("blocked", None)
    return ended


def test_after_a_tied_block_the_first_hand_rule_decides_the_opener_by_default() -> None:
    state = new_game(Rules.preset("block", hand_size=2), 2)
    deal_hand(state, ["6-6 2-0", "1-1 0-0"])
    ended = _blocked_tie_hand(state)
    assert ended.points == (0, 0)
    deal_hand(state, ["2-0 1-0", "5-5 0-0"])
    assert (state.opener, state.must_lead) == (1, parse_tile("5-5"))


def test_after_a_tied_block_the_lead_moves_on_as_in_seed_000() -> None:
    state = new_game(Rules.preset("block", hand_size=2, no_winner_opener="next-seat"), 3)
    deal_hand(state, ["6-6 2-0", "1-1 0-0", "1-0 2-1"])
    # seats 0 and 1 tie on 2 pips, seat 2 holds 4: no winner
    _blocked_tie_hand(state)
    deal_hand(state, ["5-5 1-0", "2-0 0-0", "6-6 3-1"])
    assert (state.opener, state.must_lead) == (1, None)
    assert {str(a) for a in legal_actions(state, 1)} == {"play 2-0 left", "play 0-0 left"}


def _partnership_block(state: object, shift: int) -> HandEnded:
    """The ten-tile block of test_engine_scoring, dealt so that seat ``shift`` opens."""
    from lanomino.engine import GameState

    assert isinstance(state, GameState)
    hands = partnership_hands(equal=False)
    deal_hand(state, [hands[(s - shift) % 4] for s in range(4)])
    events = []
    for seat, tile, end in PARTNERSHIP_BLOCK_MOVES:
        events = play(state, (seat + shift) % 4, tile, end)
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    return ended


def test_partnership_opens_with_six_six_then_left_of_last_opener() -> None:
    state = new_game(Rules.preset("partnership"), 4)
    _partnership_block(state, shift=2)
    assert state.last_opener == 2
    # Hand 2: seat 0 holds the 6-6, but seat 3 (left of the last opener) opens with any tile.
    deal_hand(state, ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
                      "4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"])
    assert (state.opener, state.must_lead) == (3, None)
    assert len(legal_actions(state, 3)) == 7


def test_must_lead_tile_is_not_required_after_the_first_hand() -> None:
    state = new_game(Rules.preset("classic", hand_size=1), 2)
    _quick_hand(state, ["6-6", "1-0"], "6-6")
    deal_hand(state, ["2-0", "6-6"])
    assert state.opener == 0 and state.must_lead is None
    assert tiles("2-0") == [a.tile for a in legal_actions(state, 0) if isinstance(a, Play)]
