"""How hands end and what they score: going out, blocked hands, ties, partnerships, matches."""

from __future__ import annotations

import pytest
from enginekit import PARTNERSHIP_BLOCK_MOVES, deal_hand, game, partnership_hands, play

from lanomino.engine import (
    PASS,
    HandEnded,
    MatchEnd,
    MatchEnded,
    Phase,
    PointsScored,
    Rules,
    apply,
    legal_actions,
    new_game,
)


def _ended(events: list[object]) -> HandEnded:
    return next(e for e in events if isinstance(e, HandEnded))


def test_going_out_scores_both_opponents_pips_six_two_three_blank_and_five_four_make_20() -> None:
    state = game(Rules.preset("block", hand_size=2), ["5-5 5-1", "6-2 3-0", "5-4 5-3"])
    play(state, 0, "5-5")
    apply(state, 1, PASS)
    play(state, 2, "5-3", "left")  # seat 2 keeps its 5-4
    ended = _ended(play(state, 0, "5-1"))
    assert (ended.end, ended.winner) == ("domino", 0)
    assert ended.pips_left == (0, 11, 9)
    assert ended.points == (20, 0, 0)
    assert state.scores == [20, 0, 0]


def test_tiles_worth_10_10_and_3_left_over_score_23() -> None:
    # seed 001's example with four players: the opener leads its only tile and has dominoed.
    state = game(Rules.preset("classic", hand_size=1), ["6-6", "6-4", "5-5", "2-1"])
    ended = _ended(play(state, 0, "6-6"))
    assert ended.pips_left == (0, 10, 10, 3)
    assert ended.points == (23, 0, 0, 0)


def test_the_boneyard_never_counts() -> None:
    state = game(Rules.preset("classic", hand_size=1), ["6-6", "1-0"])
    ended = _ended(play(state, 0, "6-6"))
    assert ended.points == (1, 0)  # not the 155 pips of the 26 tiles in the boneyard


def _blocked_four_against_fifteen(**options: object) -> HandEnded:
    """Seat 0 leads the 6-6, nobody holds another six: blocked with 4 pips against 15."""
    state = game(Rules.preset("block", hand_size=2, **options), ["6-6 3-1", "5-5 4-1"])
    return _ended(play(state, 0, "6-6"))


def test_blocked_two_player_hand_four_against_fifteen_scores_eleven() -> None:
    ended = _blocked_four_against_fifteen()
    assert (ended.end, ended.winner, ended.pips_left) == ("blocked", 0, (4, 15))
    assert ended.points == (11, 0)


def test_blocked_hand_with_total_scoring_pays_the_others_pips() -> None:
    ended = _blocked_four_against_fifteen(blocked_scoring="total")
    assert ended.points == (15, 0)


def test_blocked_three_player_hand_scores_others_minus_own() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 1-0", "5-5 4-1", "3-3 2-0"])
    ended = _ended(play(state, 0, "6-6"))
    assert ended.pips_left == (1, 15, 8)
    assert ended.points == (15 + 8 - 1, 0, 0)


def test_blocked_hand_tie_scores_nobody() -> None:
    state = game(Rules.preset("block", hand_size=2), ["6-6 2-0", "1-1 0-0", "1-0 2-1"])
    ended = _ended(play(state, 0, "6-6"))
    assert ended.pips_left == (2, 2, 4)
    assert (ended.winner, ended.points) == (None, (0, 0, 0))


def test_blocked_tie_goes_to_the_lightest_single_tile_when_chosen() -> None:
    # seats 0 and 1 both hold 6 pips; seat 1's 0-0 is the lightest tile.
    rules = Rules.preset("block", hand_size=3, blocked_tie="lightest-tile")
    state = game(rules, ["6-6 4-0 1-1", "3-0 2-1 0-0"])
    ended = _ended(play(state, 0, "6-6"))
    assert ended.pips_left == (6, 6)
    assert ended.winner == 1
    assert ended.points == (0, 0)  # difference: 6 - 6
    state = game(
        Rules.preset("block", hand_size=3, blocked_tie="lightest-tile", blocked_scoring="total"),
        ["6-6 4-0 1-1", "3-0 2-1 0-0"],
    )
    assert _ended(play(state, 0, "6-6")).points == (0, 6)


def test_partnership_blocked_hand_adds_both_partners_and_the_lower_team_scores_the_opponents() -> (
    None
):
    state = new_game(Rules.preset("partnership"), 4)
    deal_hand(state, partnership_hands(equal=False))
    events: list[object] = []
    for seat, tile, end in PARTNERSHIP_BLOCK_MOVES:
        events = play(state, seat, tile, end)
    ended = _ended(events)
    assert ended.end == "blocked"
    assert ended.pips_left == (10, 21, 31, 28)
    assert ended.winner == 0  # team 0: 41 pips, team 1: 49
    assert ended.points == (49, 0)  # the opponents' pips; its own do not count
    assert state.scores == [49, 0]


def test_partnership_blocked_with_equal_team_totals_scores_nobody() -> None:
    state = new_game(Rules.preset("partnership"), 4)
    deal_hand(state, partnership_hands(equal=True))
    events: list[object] = []
    for seat, tile, end in PARTNERSHIP_BLOCK_MOVES:
        events = play(state, seat, tile, end)
    ended = _ended(events)
    assert ended.end == "blocked"
    assert (ended.winner, ended.points) == (None, (0, 0))


def test_partnership_blocked_hand_with_difference_scoring() -> None:
    state = new_game(Rules.preset("partnership", blocked_scoring="difference"), 4)
    deal_hand(state, partnership_hands(equal=False))
    events: list[object] = []
    for seat, tile, end in PARTNERSHIP_BLOCK_MOVES:
        events = play(state, seat, tile, end)
    assert _ended(events).points == (49 - 41, 0)


def test_match_goes_on_until_a_seat_reaches_the_target_at_the_end_of_a_hand() -> None:
    state = new_game(Rules.preset("block", hand_size=2, target=10), 3)
    deal_hand(state, ["6-6 6-5", "1-0 2-0", "1-1 2-1"])
    play(state, 0, "6-6")
    apply(state, 1, PASS)
    apply(state, 2, PASS)
    ended = _ended(play(state, 0, "6-5"))
    assert ended.points == (8, 0, 0)
    assert state.phase is Phase.DEAL and state.outcome is None
    deal_hand(state, ["3-0 4-4", "6-6 5-5", "0-0 3-3"])
    assert (state.opener, state.must_lead) == (0, None)  # the winner opens with any tile
    play(state, 0, "3-0")
    apply(state, 1, PASS)
    play(state, 2, "3-3", "left")
    apply(state, 0, PASS)
    apply(state, 1, PASS)
    events = play(state, 2, "0-0")
    assert _ended(events).points == (0, 0, 30)
    outcome = events[-1]
    assert outcome == MatchEnded(2, (8, 0, 30), (2, 0, 1), MatchEnd.TARGET)
    assert state.phase is Phase.OVER and state.outcome == outcome
    assert all(legal_actions(state, s) == () for s in range(3))


def test_single_hand_match_ends_after_one_hand_with_its_winner() -> None:
    state = game(Rules.preset("classic", hand_size=1, target=0), ["6-6", "1-0"])
    events = play(state, 0, "6-6")
    assert isinstance(events[-1], MatchEnded) and events[-1].winner == 0


def test_single_hand_blocked_tie_ends_the_match_without_a_winner() -> None:
    state = game(Rules.preset("block", hand_size=2, target=0), ["6-6 2-0", "1-1 0-0"])
    events = play(state, 0, "6-6")
    assert isinstance(events[-1], MatchEnded) and events[-1].winner is None


@pytest.mark.parametrize(
    ("points", "rounded"), [(12, 10), (13, 15), (10, 10), (2, 0), (3, 5), (0, 0)]
)
def test_round_to_nearest_five(points: int, rounded: int) -> None:
    from lanomino.engine.scoring import round_to_5

    assert round_to_5(points) == rounded


def test_no_points_scored_event_outside_all_fives() -> None:
    state = game(Rules.preset("classic", hand_size=1), ["5-5", "1-0"])
    assert not any(
        isinstance(e, PointsScored) and e.reason == "fives" for e in play(state, 0, "5-5")
    )
