"""The benchmark's reference opponent (scripts/ismcts.py): a working SO-ISMCTS, stronger than
Hard."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from bench_bots import play_match, wilson  # noqa: E402
from bot_positions import deal, opening_position  # noqa: E402
from ismcts import hand_rewards, ismcts, make_ismcts  # noqa: E402

from lanomino.engine import (  # noqa: E402
    GameState,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    parse_tile,
)


def test_the_tree_counts_every_iteration_once_at_the_root() -> None:
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 1-1 6-5 1-0 6-4 3-2 3-0", "6-1 5-4 5-3 5-2 4-3 4-2 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    obs = observe(state, 1)
    root = ismcts(obs, random.Random(2), budget_s=1.0, max_iters=300, clock=lambda: 0.0)
    assert root.visits == 300 == sum(c.visits for c in root.children.values())
    assert set(root.children) == set(obs.legal)
    # Every root move is legal in every determinization, so each was available every time.
    assert all(c.avail == 300 for c in root.children.values())
    # The opponent's replies form a second level, and each node keeps its mover's side.
    assert all(c.side == 1 for c in root.children.values())
    deeper = [g for c in root.children.values() for g in c.children.values()]
    assert deeper and all(g.side == 0 for g in deeper)
    again = ismcts(obs, random.Random(2), budget_s=1.0, max_iters=300, clock=lambda: 0.0)
    assert {a: c.visits for a, c in again.children.items()} == {
        a: c.visits for a, c in root.children.items()
    }


def test_rewards_follow_the_points_margin_and_the_winner() -> None:
    state = GameState(Rules.classic(), 2)
    state.scores = [30, 10]
    points = hand_rewards(state, (10, 10), "points")
    assert points[0] == 1.0 - points[1] and points[0] > 0.5
    state.scores = [14, 10]
    assert 0.5 < hand_rewards(state, (10, 10), "points")[0] < points[0]


def test_the_reference_returns_its_most_visited_legal_move() -> None:
    obs = opening_position()
    seen: list[int] = []
    bot = make_ismcts(budget_s=1.0, max_iters=120, clock=lambda: 0.0, on_search=seen.append)
    action = bot(obs, random.Random(5))
    assert action in obs.legal and seen == [120]
    with pytest.raises(ValueError, match="reward"):
        make_ismcts(reward="margin")


@pytest.mark.slow
@pytest.mark.timeout(1200)  # about 80 s of one idle core; a shared machine may give it far less
def test_the_reference_beats_hard() -> None:
    """40 whole matches to 100 (20 duplicate pairs) at 100 iterations a move, no clock. Its
    Wilson 95% interval must lie above one half."""
    rules = Rules.classic()
    outcomes = [play_match(rules, 2, "ismcts@100", "hard", i, 11, "wall") for i in range(40)]
    wins = sum(o.a_won for o in outcomes)
    low, _high = wilson(wins, len(outcomes))
    assert low > 0.5, f"the reference won {wins} of {len(outcomes)} matches against Hard"
