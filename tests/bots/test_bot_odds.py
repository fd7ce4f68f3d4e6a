"""The match-win chance by the race of hands to come (``odds.py``), and Expert playing on it."""

from __future__ import annotations

import random

from bot_positions import deal

from lanomino.bots.expert import make_expert
from lanomino.bots.odds import hand_gains, odds_for, race_table
from lanomino.bots.playout import match_value, side_values
from lanomino.engine import End, GameState, Play, Rules, apply, new_game, observe, parse_tile


def test_a_race_of_one_point_hands_to_two_is_counted_exactly() -> None:
    # Each hand gives one side a point, either side alike; the first to 2 wins. From 1-0 side 0
    # wins at once half the time, else it is 1-1, a coin toss: 3/4.
    table = race_table(2, 1, [(1, 0, 0.5), (0, 1, 0.5)])
    assert abs(table.chance(1, 0) - 0.75) < 1e-12
    assert abs(table.chance(0, 1) - 0.25) < 1e-12
    assert abs(table.chance(0, 0) - 0.5) < 1e-12
    # Hands that score nothing change no chance; a side that scores faster is favoured.
    idle = race_table(2, 1, [(1, 0, 0.25), (0, 1, 0.25), (0, 0, 0.5)])
    assert abs(idle.chance(1, 0) - 0.75) < 1e-12
    fast = race_table(4, 1, [(2, 0, 0.5), (0, 1, 0.5)])
    assert fast.chance(0, 0) > 0.6


def test_a_gain_between_grid_points_keeps_its_mean() -> None:
    # On a grid of 2 points a 3-point hand counts half as a 2 and half as a 4; a score between
    # two grid points gets a chance between theirs.
    table = race_table(4, 2, [(3, 0, 0.5), (0, 3, 0.5)])
    low, mid, high = table.chance(0, 0), table.chance(1, 0), table.chance(2, 0)
    assert abs(low - 0.5) < 1e-12 and low < mid < high


def test_the_measured_hands_favour_neither_side_and_are_reproducible() -> None:
    gains = hand_gains(Rules.classic(), 2, hands=50)
    assert gains == hand_gains(Rules.classic(), 2, hands=50)
    assert abs(sum(p for _, _, p in gains) - 1.0) < 1e-9
    shares = {(x, y): p for x, y, p in gains}
    assert all(abs(shares[y, x] - p) < 1e-12 for (x, y), p in shares.items())
    # In the Draw game only the hand's winner scores.
    assert all(x == 0 or y == 0 for x, y in shares)


def test_near_the_target_the_next_hand_decides_not_the_points() -> None:
    classic = odds_for(Rules.classic(), 2)
    assert classic is not None
    for a, b in ((0, 0), (60, 30), (98, 90)):
        assert abs(classic.chance(a, b) + classic.chance(b, a) - 1.0) < 1e-9
    assert classic.chance(50, 0) > classic.chance(40, 0) > classic.chance(40, 10) > 0.5
    # 98-90 to 100: either side takes the match with its next hand won. The rule of thumb
    # (points still needed, squared) calls it nearly won; the race of hands does not.
    state = GameState(Rules.classic(), 2)
    state.scores = [98, 90]
    assert match_value(state, 0) > 0.9
    assert 0.5 < classic.chance(98, 90) < 0.7
    assert abs(side_values(state, [98, 90], "odds")[0] - classic.chance(98, 90)) < 1e-12
    # Block hands bring fewer points, so the same lead is worth more there.
    block = odds_for(Rules.preset("block"), 2)
    assert block is not None and block.chance(50, 0) > classic.chance(50, 0) + 0.05


def test_only_two_sided_matches_to_a_target_get_a_table() -> None:
    assert odds_for(Rules.classic(), 3) is None
    assert odds_for(Rules.preset("partnership"), 4) is not None
    # Three sides: the value falls back to the rule of thumb.
    state = GameState(Rules.classic(), 3)
    state.scores = [80, 40, 10]
    assert side_values(state, [80, 40, 10], "odds") == side_values(state, [80, 40, 10], "match")


def test_expert_on_the_race_of_hands_still_plays_for_the_match() -> None:
    """test_expert_plays_for_the_match_not_the_hand's All Fives position: take 5 points early,
    turn them down when both need 10 and they would hand Ben the ends to take the match."""
    state = new_game(Rules.allfives(), 2)
    deal(state, ["2-0 2-2 3-0 5-1 5-5 6-2 6-6", "1-0 1-1 2-1 3-2 3-3 4-2 6-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-3"), End.LEFT))
    shed, points = Play(parse_tile("3-0"), End.LEFT), Play(parse_tile("6-2"), End.RIGHT)
    expert = make_expert(budget_s=1.0, max_sims=1500, clock=lambda: 0.0, value="odds")
    state.scores = [0, 0]
    assert expert(observe(state, 0), random.Random(1)) == points
    state.scores = [140, 140]
    assert expert(observe(state, 0), random.Random(1)) == shed
