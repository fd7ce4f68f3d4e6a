"""Expert: reproducible with a simulation cap, stops at its time budget, plays for the match."""

from __future__ import annotations

import random
from itertools import count

from bot_positions import deal

from lanomino.bots.expert import match_value, search
from lanomino.engine import (
    End,
    GameState,
    Observation,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    parse_tile,
)


def opening_position() -> Observation:
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 1-1 6-5 1-0 6-4 3-2 3-0", "6-1 5-4 5-3 5-2 4-3 4-2 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    return observe(state, 0)


def test_expert_is_reproducible_with_a_simulation_cap_and_a_still_clock() -> None:
    obs = opening_position()
    first = search(obs, random.Random(3), budget_s=1.0, max_sims=60, clock=lambda: 0.0)
    again = search(obs, random.Random(3), budget_s=1.0, max_sims=60, clock=lambda: 0.0)
    assert first == again
    assert sum(visits for _, visits, _ in first) == 60


def test_expert_stops_at_its_time_budget() -> None:
    ticks = count()
    clock = lambda: next(ticks) * 0.1  # noqa: E731 - every reading of the clock is 0.1 s later
    obs = opening_position()
    results = search(obs, random.Random(1), budget_s=0.5, max_sims=10_000, clock=clock)
    # Every move is tried once, then it stops as soon as the clock has passed 0.5 s.
    assert len(obs.legal) <= sum(visits for _, visits, _ in results) <= len(obs.legal) + 5


def test_match_value_prefers_points_that_win_the_match() -> None:
    state = GameState(Rules.classic(), 2)
    state.scores = [90, 50]
    leading = match_value(state, 0)
    state.scores = [50, 90]
    trailing = match_value(state, 0)
    state.scores = [70, 70]
    level = match_value(state, 0)
    assert trailing < level == 0.5 < leading
    assert abs(leading + trailing - 1.0) < 1e-9
