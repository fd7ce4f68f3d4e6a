"""Taking a turn: matching ends, doubles, choosing an end, must-play, drawing and passing."""

from __future__ import annotations

import pytest
from enginekit import game, play

from lanomino.engine import (
    DRAW,
    PASS,
    End,
    HandEnded,
    IllegalActionError,
    Passed,
    Play,
    Rules,
    TileDrawn,
    TilePlayed,
    apply,
    fitting_ends,
    legal_actions,
    parse_tile,
)

BLOCK2 = Rules.preset("block", hand_size=2)

# Two seats in turn put all seven sixes on the line; both ends then show a six.
CHAIN_OF_SIXES: list[tuple[int, str, str | None]] = [
    (0, "6-6", None), (1, "6-5", "left"), (0, "5-4", "left"), (1, "4-6", "left"),
    (0, "6-3", "right"), (1, "3-2", "right"), (0, "2-6", "right"), (1, "6-1", "left"),
    (0, "1-0", "left"), (1, "0-6", "left"),
]


def test_playing_five_one_on_the_five_leaves_ends_two_and_one() -> None:
    # No doubles dealt: 5-2 is the heaviest tile and opens; written 2-5 it shows 2 left, 5 right.
    state = game(BLOCK2, ["5-2 1-0", "5-1 3-0"])
    assert state.must_lead == parse_tile("5-2")
    play(state, 0, "5-2", "right")  # its higher number on the right: ends 2 and 5
    assert state.line.ends[:2] == [2, 5]
    events = play(state, 1, "5-1", "right")
    assert events[0] == TilePlayed(1, parse_tile("5-1"), End.RIGHT, False, 1, False)
    assert state.line.ends[:2] == [2, 1]


def test_a_tile_must_match_the_end_it_is_laid_against() -> None:
    state = game(BLOCK2, ["5-2 1-0", "5-1 2-1"])
    play(state, 0, "5-2", "right")  # ends 2 and 5
    with pytest.raises(IllegalActionError, match="does not match the 2"):
        play(state, 1, "5-1", "left")
    assert state.line.ends[:2] == [2, 5] and state.turn == 1


def test_a_blank_matches_only_a_blank() -> None:
    # No doubles: 3-0 and 2-1 weigh 3 each and the higher end (3) leads.
    state = game(BLOCK2, ["3-0 1-0", "2-1 2-0"])
    assert state.must_lead == parse_tile("3-0")
    play(state, 0, "3-0")  # ends 3 and 0
    assert fitting_ends(state, parse_tile("2-1")) == []
    assert fitting_ends(state, parse_tile("2-0")) == [End.RIGHT]
    with pytest.raises(IllegalActionError, match="does not match the 3 or 0"):
        play(state, 1, "2-1")
    play(state, 1, "2-0")
    assert state.line.ends[:2] == [3, 2]


def test_three_three_goes_across_an_open_three_and_the_next_tile_needs_a_three() -> None:
    state = game(Rules.preset("block", hand_size=3), ["5-5 3-1 1-0", "5-3 2-0 2-1", "3-3 4-3 0-0"])
    play(state, 0, "5-5")
    play(state, 1, "5-3")  # ends 3 and 5
    events = play(state, 2, "3-3", "left")
    assert events[0].exposed == 3  # type: ignore[union-attr]
    assert state.line.ends[:2] == [3, 5]
    assert fitting_ends(state, parse_tile("3-1")) == [End.LEFT]
    assert fitting_ends(state, parse_tile("6-4")) == []


def test_a_double_laid_first_is_open_on_both_long_sides() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 2-1", "6-4 6-0"])
    play(state, 0, "6-6")
    assert state.line.ends[:2] == [6, 6]
    apply(state, 1, Play(parse_tile("6-4"), End.LEFT))
    apply(state, 0, PASS)
    assert fitting_ends(state, parse_tile("6-0")) == [End.RIGHT]
    play(state, 1, "6-0")
    assert state.line.ends[:2] == [4, 0]


def test_choosing_the_end_when_a_tile_fits_two_different_numbers() -> None:
    state = game(Rules.preset("block", hand_size=3), ["5-1 3-0 2-0", "6-1 1-0 4-0", "6-6 6-5 4-4"])
    play(state, 2, "6-6")
    apply(state, 0, PASS)
    play(state, 1, "6-1")  # ends 1 and 6
    play(state, 2, "6-5")  # ends 1 and 5
    # seat 0's 5-1 fits both the 1 and the 5
    assert set(map(str, legal_actions(state, 0))) == {"play 5-1 left", "play 5-1 right"}
    with pytest.raises(IllegalActionError, match="must say where 5-1 goes: it fits left and right"):
        play(state, 0, "5-1")
    play(state, 0, "5-1", "left")
    assert state.line.ends[:2] == [5, 5]


def test_no_choice_when_both_ends_show_the_same_number() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 2-1", "6-4 6-0"])
    play(state, 0, "6-6")
    assert set(map(str, legal_actions(state, 1))) == {"play 6-4 left", "play 6-0 left"}
    assert fitting_ends(state, parse_tile("6-4")) == [End.LEFT]
    play(state, 1, "6-4")  # no end needed
    assert sorted(state.line.ends[:2]) == [4, 6]


def test_seat_may_not_pass_while_a_tile_fits() -> None:
    state = game(BLOCK2, ["5-5 1-0", "5-3 2-0"])
    play(state, 0, "5-5")
    assert PASS not in legal_actions(state, 1)
    with pytest.raises(IllegalActionError) as raised:
        apply(state, 1, PASS)
    assert str(raised.value) == "seat 2 may not pass: 5-3 fits the 5"
    assert state.turn == 1 and state.hands[1] == parse_tile("5-3").bit | parse_tile("2-0").bit


def test_seat_may_not_draw_while_a_tile_fits() -> None:
    state = game(Rules.preset("classic", hand_size=2), ["5-5 1-0", "5-3 2-0"])
    play(state, 0, "5-5")
    assert DRAW not in legal_actions(state, 1)
    with pytest.raises(IllegalActionError, match="^seat 2 may not draw: 5-3 fits the 5$"):
        apply(state, 1, DRAW)


def test_draw_one_at_a_time_keep_the_misfits_and_play_the_first_that_fits() -> None:
    state = game(
        Rules.preset("classic", hand_size=2),
        ["5-5 1-0", "6-3 2-0"],
        boneyard_front="4-1 3-3 5-2 5-4",
    )
    play(state, 0, "5-5")
    assert legal_actions(state, 1) == (DRAW,)
    assert apply(state, 1, DRAW)[0] == TileDrawn(1, parse_tile("4-1"), (5,), 23)
    assert state.turn == 1  # still seat 1's turn
    assert apply(state, 1, DRAW)[0] == TileDrawn(1, parse_tile("3-3"), (5,), 22)
    apply(state, 1, DRAW)  # 5-2 fits
    assert state.turn == 1
    assert legal_actions(state, 1) == (Play(parse_tile("5-2"), End.LEFT),)
    with pytest.raises(IllegalActionError, match="5-2 fits the 5"):
        apply(state, 1, DRAW)
    play(state, 1, "5-2")
    assert {str(t) for t in state.hand_of(1)} == {"6-3", "2-0", "4-1", "3-3"}
    assert state.boneyard_left() == 21


def test_no_pass_while_the_boneyard_has_tiles_in_the_draw_game() -> None:
    state = game(Rules.preset("classic", hand_size=2), ["5-5 1-0", "6-3 2-0"])
    play(state, 0, "5-5")
    with pytest.raises(
        IllegalActionError, match="^seat 2 may not pass: the boneyard has tiles to draw$"
    ):
        apply(state, 1, PASS)


def test_nobody_draws_in_the_block_game() -> None:
    state = game(BLOCK2, ["5-5 5-0", "6-3 2-0"])
    play(state, 0, "5-5")
    assert legal_actions(state, 1) == (PASS,)
    with pytest.raises(IllegalActionError, match="nobody draws"):
        apply(state, 1, DRAW)
    assert apply(state, 1, PASS) == [Passed(1, (5,))]
    assert state.turn == 0


def test_pass_when_the_boneyard_is_empty_in_the_draw_game() -> None:
    # 13 tiles each leaves two in the boneyard: draw them, then pass.
    rules = Rules.preset("classic", hand_size=13)
    hands = [
        "6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5 5-4 5-3 5-2 5-1 5-0",
        "4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1",
    ]
    state = game(rules, hands, boneyard_front="1-0 0-0")
    play(state, 0, "6-6")
    apply(state, 1, DRAW)
    apply(state, 1, DRAW)
    assert state.boneyard_left() == 0
    assert legal_actions(state, 1) == (PASS,)
    apply(state, 1, PASS)
    assert state.turn == 0


def test_reserve_of_two_means_pass_when_two_tiles_remain() -> None:
    rules = Rules.preset("classic", hand_size=12, boneyard_reserve=2)
    hands = [
        "6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4 5-3 5-2 5-1 5-0",
        "4-4 4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0",
    ]
    state = game(rules, hands, boneyard_front="1-1 1-0 6-0 0-0")
    play(state, 0, "6-6")
    apply(state, 1, DRAW)  # 1-1
    apply(state, 1, DRAW)  # 1-0; 6-0 and 0-0 stay in the boneyard
    assert state.boneyard_left() == 2
    assert legal_actions(state, 1) == (PASS,)
    with pytest.raises(IllegalActionError, match="the last 2 tiles stay in the boneyard"):
        apply(state, 1, DRAW)
    apply(state, 1, PASS)
    assert state.turn == 0


def test_reserve_of_two_blocks_when_nobody_can_play() -> None:
    # Every six goes on the line and both ends show a six; seat 0 then draws the two drawable
    # tiles, neither fits, and with two tiles left in the boneyard nobody can play: blocked.
    rules = Rules.preset("classic", hand_size=12, boneyard_reserve=2)
    hands = [
        "6-6 5-4 6-3 6-2 1-0 0-0 1-1 2-0 2-1 2-2 3-0 3-1",
        "6-5 6-4 3-2 6-1 6-0 3-3 4-0 4-1 4-2 4-3 4-4 5-0",
    ]
    state = game(rules, hands, boneyard_front="5-1 5-2 5-3 5-5")
    for seat, tile, end in CHAIN_OF_SIXES:
        play(state, seat, tile, end)
    assert state.line.ends[:2] == [6, 6] and state.turn == 0
    apply(state, 0, DRAW)
    events = apply(state, 0, DRAW)
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    assert (ended.end, ended.winner) == ("blocked", 0)
    assert ended.pips_left == (31, 41)
    assert ended.points == (10, 0)
    assert state.boneyard_left() == 2


def test_draw_when_playable_offers_a_draw_while_a_tile_fits() -> None:
    rules = Rules.preset("classic", hand_size=2, draw_when_playable=True)
    state = game(rules, ["5-5 1-0", "5-3 2-0"], boneyard_front="4-1")
    play(state, 0, "5-5")
    assert DRAW in legal_actions(state, 1)
    assert Play(parse_tile("5-3"), End.LEFT) in legal_actions(state, 1)
    apply(state, 1, DRAW)
    assert state.turn == 1 and parse_tile("4-1") in state.hand_of(1)
    with pytest.raises(IllegalActionError, match="may not pass: 5-3 fits the 5"):
        apply(state, 1, PASS)


def test_the_hand_ends_the_moment_a_seat_goes_out() -> None:
    state = game(BLOCK2, ["5-5 5-1", "6-2 3-0"])
    play(state, 0, "5-5")
    apply(state, 1, PASS)
    events = play(state, 0, "5-1")
    assert isinstance(events[1], HandEnded) and events[1].end == "domino"
    assert legal_actions(state, 0) == () and legal_actions(state, 1) == ()
    with pytest.raises(IllegalActionError, match="no hand is in play"):
        apply(state, 1, PASS)


def test_a_tile_cannot_be_played_on_a_short_end_outside_all_fives() -> None:
    # Outside All Fives nothing goes on a double's short ends: up/down do not exist.
    state = game(BLOCK2, ["5-5 6-5", "6-2 3-0"])
    play(state, 0, "5-5")
    apply(state, 1, PASS)
    with pytest.raises(IllegalActionError, match="not open"):
        apply(state, 0, Play(parse_tile("6-5"), End.UP))
    assert state.line.ends == [5, 5, -1, -1] and state.turn == 0


def test_playing_a_tile_not_in_hand_is_refused() -> None:
    state = game(BLOCK2, ["5-5 5-1", "6-2 3-0"])
    play(state, 0, "5-5")
    with pytest.raises(
        IllegalActionError, match="^seat 2 may not play 5-4: it is not in seat 2's hand$"
    ):
        play(state, 1, "5-4")
