"""All Fives: points for multiples of five during play, the spinner, rounding, target mid-hand."""

from __future__ import annotations

import pytest
from enginekit import game, play

from lanomino.engine import (
    DRAW,
    End,
    GameState,
    HandEnded,
    IllegalActionError,
    MatchEnded,
    Phase,
    Play,
    PointsScored,
    Rules,
    apply,
    legal_actions,
    parse_tile,
)

FIVES = Rules.preset("allfives")


def _fives(events: list[object]) -> list[tuple[int, int]]:
    return [
        (e.side, e.points) for e in events if isinstance(e, PointsScored) and e.reason == "fives"
    ]


def _spinner_game() -> GameState:
    return game(Rules.preset("allfives", hand_size=4), ["5-5 5-1 5-3 2-2", "5-0 5-4 6-1 1-0"])


def test_five_five_laid_first_counts_once_and_scores_10() -> None:
    state = _spinner_game()
    assert _fives(play(state, 0, "5-5")) == [(0, 10)]


def test_five_five_across_one_end_and_a_blank_at_the_other_scores_10() -> None:
    state = _spinner_game()
    play(state, 0, "5-5")
    assert _fives(play(state, 1, "5-0", "left")) == [(1, 10)]
    assert state.line.ends[:2] == [0, 5]


def test_spinner_short_ends_open_only_after_both_long_sides_hold_a_tile() -> None:
    state = _spinner_game()
    assert play(state, 0, "5-5")[0].spinner
    play(state, 1, "5-0", "left")
    assert state.line.ends[2:] == [-1, -1]
    assert not any(
        isinstance(a, Play) and a.end in (End.UP, End.DOWN) for a in legal_actions(state, 0)
    )
    with pytest.raises(IllegalActionError, match="not open"):
        apply(state, 0, Play(parse_tile("5-1"), End.UP))
    # Both long sides covered: the short ends open, showing a 5 that does not count yet (0 + 1).
    assert _fives(play(state, 0, "5-1", "right")) == []
    assert state.line.ends == [0, 1, 5, 5]
    # A 5 on a short end: the same place up or down, so it is offered once.
    assert set(map(str, legal_actions(state, 1))) == {
        "play 5-4 up", "play 1-0 left", "play 1-0 right", "play 6-1 right"
    }


def test_short_end_counts_only_once_a_tile_is_on_it() -> None:
    state = _spinner_game()
    play(state, 0, "5-5")
    play(state, 1, "5-0", "left")
    play(state, 0, "5-1", "right")
    # 0 + 1 + 4 on the covered up end; the open down end does not count: 5, not 10
    assert _fives(play(state, 1, "5-4", "up")) == [(1, 5)]
    assert _fives(play(state, 0, "5-3", "down")) == []  # 0+1+4+3 = 8
    assert state.scores == [10, 15]


def test_only_the_first_double_is_a_spinner() -> None:
    state = game(Rules.preset("allfives", hand_size=3), ["5-5 5-2 1-0", "5-0 2-2 6-1"])
    play(state, 0, "5-5")
    play(state, 1, "5-0", "left")
    play(state, 0, "5-2", "right")  # ends 0 and 2, arms open on 5
    events = play(state, 1, "2-2", "right")
    assert events[0].spinner is False
    assert state.line.spinner == parse_tile("5-5")
    assert state.line.ends == [0, 2, 5, 5]
    # a double at an end counts both halves: 0 + 2 + 2 = 4, nothing scored
    assert _fives(events) == []


def test_a_double_played_later_becomes_the_spinner_and_opens_after_its_far_side() -> None:
    rules = Rules.preset("allfives", hand_size=2)
    state = game(rules, ["6-4 1-0", "3-2 2-1"], boneyard_front="4-4 4-3")
    assert state.must_lead == parse_tile("6-4")
    assert _fives(play(state, 0, "6-4")) == [(0, 10)]
    apply(state, 1, DRAW)  # the 4-4 fits
    events = play(state, 1, "4-4")
    assert events[0].spinner is True
    assert _fives(events) == []  # 6 + 4 + 4 = 14
    assert state.line.ends[2:] == [-1, -1]
    apply(state, 0, DRAW)  # the 4-3 fits
    play(state, 0, "4-3")
    assert state.line.ends == [6, 3, 4, 4]


@pytest.mark.parametrize(("drawn", "left", "rounded"), [("1-0 6-1", 12, 10), ("1-1 6-0", 13, 15)])
def test_hand_score_is_rounded_to_the_nearest_five(drawn: str, left: int, rounded: int) -> None:
    state = game(FIVES.with_options(hand_size=2), ["6-6 6-3", "5-4 2-0"], boneyard_front=drawn)
    play(state, 0, "6-6")  # 12: nothing
    apply(state, 1, DRAW)
    apply(state, 1, DRAW)
    play(state, 1, drawn.split()[1])  # 1 + 12 = 13 / 0 + 12 = 12: nothing
    events = play(state, 0, "6-3")
    ended = events[-1]
    assert isinstance(ended, HandEnded) and ended.end == "domino"
    assert ended.pips_left == (0, left)
    assert ended.points == (rounded, 0)


def test_without_round_to_5_the_hand_score_is_exact() -> None:
    rules = FIVES.with_options(hand_size=2, round_to_5=False)
    state = game(rules, ["6-6 6-3", "5-4 2-0"], boneyard_front="1-0 6-1")
    play(state, 0, "6-6")
    apply(state, 1, DRAW)
    apply(state, 1, DRAW)
    play(state, 1, "6-1")
    assert play(state, 0, "6-3")[-1].points == (12, 0)


def test_match_ends_mid_hand_the_moment_the_target_is_reached() -> None:
    state = game(
        Rules.preset("allfives", hand_size=4, target=10), ["5-5 5-1 5-3 2-2", "5-0 5-4 6-1 1-0"]
    )
    events = play(state, 0, "5-5")
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["TilePlayed", "PointsScored", "HandEnded", "MatchEnded"]
    ended, outcome = events[2], events[3]
    assert isinstance(ended, HandEnded) and isinstance(outcome, MatchEnded)
    assert (ended.end, ended.winner, ended.points) == ("target", 0, (10, 0))
    assert ended.pips_left == (18, 22)
    assert (outcome.winner, outcome.scores) == (0, (10, 0))
    assert state.phase is Phase.OVER


def test_fives_scored_during_a_hand_count_in_its_points() -> None:
    state = game(
        Rules.preset("allfives", hand_size=2), ["5-5 5-0", "6-1 2-1"], boneyard_front="5-2"
    )
    assert _fives(play(state, 0, "5-5")) == [(0, 10)]
    apply(state, 1, DRAW)
    assert _fives(play(state, 1, "5-2")) == []  # 2 + 10 = 12
    events = play(state, 0, "5-0")  # 2 + 0: nothing; seat 0 is out, seat 1 holds 10
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    assert ended.points == (20, 0)
    assert state.scores == [20, 0]
