"""One voice: the sentences about a game, from the engine's facts, with people's grammar."""

from __future__ import annotations

import pytest
from tablekit import game, play, went_out

from lanomino.engine import (
    RESIGN,
    End,
    HandEnd,
    HandEnded,
    HandTally,
    IllegalActionError,
    MatchEnd,
    MatchEnded,
    Rules,
    apply,
    parse_tile,
)
from lanomino.narrate import (
    Cast,
    event_lines,
    hand_end_sentence,
    hand_points,
    match_end_sentence,
    plural,
    refusal_for,
    seat_label,
    standings,
)
from lanomino.ui.table_words import ends_count

PAIR = ("Tess", "Ana")
FOUR = ("Tess", "Ana", "Ben", "Cleo")


def test_you_went_out_and_score_one_pip_in_your_own_grammar() -> None:
    state, _ = went_out()
    ended = state.results[-1]
    assert ended.end is HandEnd.DOMINO and ended.tally == HandTally(0, 1, 0, 1, 1)
    assert hand_end_sentence(ended, Cast(PAIR, state.rules, you=0)) == (
        "You went out and score the 1 pip Ana has left.")
    assert hand_end_sentence(ended, Cast(PAIR, state.rules, you=1)) == (
        "Tess went out and scores the 1 pip you have left.")


def test_a_player_named_you_gets_you_grammar_in_a_replay() -> None:
    state, events = went_out()
    lines = event_lines(events, Cast(("You", "Ana"), state.rules))
    assert lines == [
        "You opened with 6-6.",
        "Ana passed: no 6.",
        "You played 6-5 on the left: 5 showing.",
        "Hand 1 is over: You went out and score the 1 pip Ana has left.",
    ]


def test_in_partnership_the_one_who_went_out_is_named_and_the_team_scores() -> None:
    rules = Rules.preset("partnership")
    ended = HandEnded(3, HandEnd.DOMINO, 0, (25, 0), (0, 9, 0, 18), ((),) * 4,
                      HandTally(2, 27, 0, 27, 25))
    assert hand_end_sentence(ended, Cast(FOUR, rules, you=0)) == (
        "Ben went out: you and Ben score the 27 pips Ana and Cleo have left, rounded to 25.")
    assert hand_end_sentence(ended, Cast(FOUR, rules, you=1)) == (
        "Ben went out: Tess and Ben score the 27 pips you and Cleo have left, rounded to 25.")
    three = HandEnded(1, HandEnd.DOMINO, 0, (9, 0, 0), (0, 4, 5), ((),) * 3,
                      HandTally(0, 9, 0, 9, 9))
    assert hand_end_sentence(three, Cast(FOUR[:3], Rules.preset("block"), you=0)) == (
        "You went out and score the 9 pips Ana and Ben have left.")
    alone = HandEnded(1, HandEnd.DOMINO, 0, (4, 0, 0), (0, None, 4), ((),) * 3,
                      HandTally(0, 4, 0, 4, 4))  # Ana left the table: only Ben's pips count
    assert hand_end_sentence(alone, Cast(FOUR[:3], Rules.preset("block"), you=0)) == (
        "You went out and score the 4 pips Ben has left.")


def test_a_blocked_hand_says_whose_pips_without_calling_a_person_its() -> None:
    rules = Rules.preset("block")  # the difference is scored
    ended = HandEnded(1, HandEnd.BLOCKED, 0, (2, 0), (25, 27), ((), ()),
                      HandTally(None, 27, 25, 2, 2))
    assert hand_end_sentence(ended, Cast(PAIR, rules, you=0)) == (
        "The line is blocked: you have the fewest pips (25) and score 2: Ana's 27 pips "
        "minus your 25.")
    assert hand_end_sentence(ended, Cast(PAIR, rules, you=1)) == (
        "The line is blocked: Tess has the fewest pips (25) and scores 2: your 27 pips "
        "minus Tess's 25.")
    tie = HandEnded(1, HandEnd.BLOCKED, None, (0, 0), (9, 9), ((), ()),
                    HandTally(None, 0, 9, 0, 0, (0, 1)))
    assert hand_end_sentence(tie, Cast(PAIR, rules, you=0)) == (
        "The line is blocked: you and Ana tie on 9 pips, so nobody scores.")


def test_after_you_resign_the_words_say_you_resigned_and_rank_you_without_a_place() -> None:
    state = game(Rules.preset("partnership"), [
        "6-6 6-3 1-0 0-0 1-1 2-0 5-5", "6-5 3-2 6-0 2-1 2-2 3-1 3-3",
        "5-4 6-2 5-3 5-2 4-4 3-0 4-1", "6-4 6-1 4-0 4-2 4-3 5-0 5-1"])
    state.scores = [9, 0]
    events = apply(state, 0, RESIGN)
    cast = Cast(FOUR, state.rules, you=0)
    ended, outcome = state.results[-1], state.outcome
    assert outcome is not None and outcome.why is MatchEnd.RESIGNED and outcome.winner == 1
    assert hand_end_sentence(ended, cast) == "You resigned, so Ana and Cleo win the match."
    assert match_end_sentence(outcome, cast, [0]) == (
        "The match is over: Ana and Cleo won because you resigned.")
    assert standings(outcome, cast, [0]) == [("1.", "Ana and Cleo", 0),
                                             ("-", "You and Ben (resigned)", 9)]
    assert event_lines(events, cast)[0] == "You resigned and left the table."


def test_the_match_end_says_how_each_seat_left_a_lan_table() -> None:
    """Issue 30 item 7: a host killed ("did not come back") and a player who quit ("left the
    table") were both said to have resigned, two of them "all resigned"."""
    rules = Rules.preset("classic")
    three = ("Zoe", "Bo", "Cy")
    outcome = MatchEnded(1, (0, 4, 0), (1, 0, 2), MatchEnd.RESIGNED)
    lan = Cast(three, rules, you=1, departures=((0, "did not come back"), (2, "left the table")))
    assert match_end_sentence(outcome, lan, [0, 2]) == (
        "The match is over: you won because Zoe did not come back and Cy left the table.")
    assert standings(outcome, lan, [0, 2]) == [
        ("1.", "You", 4), ("-", "Zoe (did not come back)", 0), ("-", "Cy (left the table)", 0)]
    local = Cast(three, rules, you=1)
    assert match_end_sentence(outcome, local, [0, 2]) == (
        "The match is over: you won because Zoe and Cy both resigned.")
    both_gone = Cast(three, rules, you=1, departures=((0, "did not come back"),
                                                       (2, "did not come back")))
    assert match_end_sentence(outcome, both_gone, [0, 2]) == (
        "The match is over: you won because Zoe and Cy did not come back.")


def test_seats_are_counted_from_one_for_people() -> None:
    assert seat_label(0) == "seat 1" and seat_label(2, ("Ana", "")) == "seat 3"
    assert seat_label(1, ("Ana", "Bo")) == "Bo"
    assert plural(1, "pip") == "1 pip" and plural(0, "pip") == "0 pips"


def test_an_engine_refusal_names_seats_from_one_and_the_reader_as_you() -> None:
    state = game(Rules.preset("block", hand_size=2), ["5-5 5-1", "6-2 3-0"])
    play(state, 0, "5-5")
    with pytest.raises(IllegalActionError) as raised:
        play(state, 1, "5-4")
    assert str(raised.value) == "seat 2 may not play 5-4: it is not in seat 2's hand"
    assert refusal_for(1, str(raised.value)) == "you may not play 5-4: it is not in your hand"
    with pytest.raises(IllegalActionError) as raised:
        play(state, 0, "5-1")
    assert refusal_for(1, str(raised.value)) == "seat 1 may not play 5-1: it is your turn"
    assert refusal_for(0, str(raised.value)) == "you may not play 5-1: it is seat 2's turn"


def test_all_fives_points_are_itemised_and_the_ends_counted() -> None:
    rules = Rules.preset("allfives")
    ended = HandEnded(2, HandEnd.DOMINO, 0, (35, 5), (0, 27), ((), ()), HandTally(0, 27, 0, 27, 25))
    assert hand_points(ended, Cast(PAIR, rules, you=0)) == [
        "You 35 (25 for the pips, 10 for the ends)", "Ana 5 (5 for the ends)"]
    state = game(rules, ["6-6 6-4 1-1 0-0 3-3 5-5 4-4", "6-5 4-3 6-2 2-2 0-1 0-2 2-5"])
    assert ends_count(state.line) == ""
    play(state, 0, "6-6")
    assert ends_count(state.line) == "ends 6-6 = 12: no score"  # (a first double counts once)
    play(state, 1, "6-5", End.LEFT)
    assert ends_count(state.line) == "ends 5 + 6-6 = 17: no score"
    events = play(state, 0, "6-4", End.RIGHT)
    assert ends_count(state.line) == "ends 5 + 4 = 9: no score"
    assert event_lines(events, Cast(PAIR, rules, you=0)) == [
        "You played 6-4 on the right: 4 showing."]


def test_a_match_to_a_target_names_the_winner_and_points() -> None:
    ended = MatchEnded(1, (40, 101), (1, 0), MatchEnd.TARGET)
    assert match_end_sentence(ended, Cast(PAIR, Rules.preset("classic"), you=0)) == (
        "The match is over: Ana won with 101 points.")
    assert match_end_sentence(ended, Cast(PAIR, Rules.preset("classic"), you=1)) == (
        "The match is over: you won with 101 points.")


def test_a_headless_seat_reports_the_winner_by_name_not_by_index() -> None:
    from lanomino.narrate import final_result

    classic = Rules.preset("classic")
    assert final_result(2, (10, 40, 61), Cast(("Bo", "Ana", "Cy"), classic, you=1)) == (
        "Cy won: Bo 10, you 40, Cy 61")
    pairs = Rules.preset("partnership")
    assert final_result(1, (30, 100), Cast(FOUR, pairs, you=1)) == (
        "you and Cleo won: Tess and Ben 30, you and Cleo 100")


def test_tiles_and_numbers_can_be_words_for_reading_aloud() -> None:
    state, events = went_out()
    lines = event_lines(events, Cast(PAIR, state.rules, you=1, words=True))
    assert lines[:3] == ["Tess opened with double-six.", "You passed: no six.",
                         "Tess played six-five on the left: five showing."]


def test_a_blocked_tie_broken_by_the_lightest_tile_names_it() -> None:
    rules = Rules.preset("classic", blocked_tie="lightest-tile", blocked_scoring="total")
    ended = HandEnded(1, HandEnd.BLOCKED, 1, (0, 9), (9, 9), ((), ()),
                      HandTally(None, 9, 9, 9, 9, (0, 1), parse_tile("0-1")))
    assert hand_end_sentence(ended, Cast(PAIR, rules, you=0)) == (
        "The line is blocked: you and Ana tie on 9 pips; Ana holds the lightest tile (1-0), "
        "wins and scores your 9 pips.")


def test_the_last_action_of_a_seat_says_what_an_all_fives_play_scored() -> None:
    from lanomino.ui.table_words import last_action

    rules = Rules.preset("allfives")
    state = game(rules, ["6-4 1-1 0-0 3-3 5-5 4-4 2-1", "6-6 4-3 6-2 2-2 0-1 0-2 2-5"])
    play(state, 1, "6-6")
    play(state, 0, "6-4", End.LEFT)  # ends 4 and 6-6: 16
    assert last_action(state.history, 0) == "played 6-4"
    play(state, 1, "4-3", End.LEFT)  # ends 3 and 6-6: 15
    assert last_action(state.history, 1) == "played 4-3, scored 15"


def test_a_name_keeps_its_case_in_lists() -> None:
    cast = Cast(("you", "youssef", "random bot"), Rules.preset("classic"), you=0)
    assert [cast.name(s) for s in range(3)] == ["You", "youssef", "random bot"]


def test_facts_missing_from_a_peer_are_worded_not_a_crash() -> None:
    rules = Rules.preset("classic")
    for end in HandEnd:
        ended = HandEnded(1, end, None, (0, 0), (3, 4), ((), ()), HandTally(None, 7, 3, 0, 0))
        assert hand_end_sentence(ended, Cast(PAIR, rules, you=0)).endswith(".")
