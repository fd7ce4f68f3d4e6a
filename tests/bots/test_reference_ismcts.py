"""The benchmark's reference opponent (scripts/ismcts.py): a working SO-ISMCTS, stronger than
Hard."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

from bench_bots import play_match, wilson  # noqa: E402
from bot_positions import deal, opening_position  # noqa: E402
from ismcts import Node, hand_rewards, ismcts, make_ismcts  # noqa: E402

from lanomino.engine import (  # noqa: E402
    DRAW,
    TILES,
    End,
    GameState,
    Play,
    Rules,
    Tile,
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



def _draw_edges(node: Node) -> Iterator[Node]:
    """Every node below ``node`` that a draw leads to."""
    for key, child in node.children.items():
        if key == DRAW:
            yield child
        yield from _draw_edges(child)


def test_the_searchers_own_draw_branches_on_the_tile_and_an_opponents_does_not() -> None:
    """Ana (seat 0) holds nothing for the 6 and 1 showing, so she draws: she will see the tile,
    so below her draw the tree branches on it. Searching for Ben one move earlier, he cannot see
    what Ana draws: her draw is one edge, followed by moves."""
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 5-5 5-4 4-4 3-3 3-2 2-2", "6-1 5-3 5-2 4-3 4-2 4-1 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    bens = observe(state, 1)
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    anas = observe(state, 0)
    assert anas.legal == (DRAW,)
    root = ismcts(anas, random.Random(3), budget_s=1.0, max_iters=300, clock=lambda: 0.0)
    drawn = root.children[DRAW].children
    unseen = set(TILES) - set(anas.hand) - {parse_tile("6-6"), parse_tile("6-1")}
    assert len(drawn) > 1 and set(drawn) <= unseen
    assert sum(c.visits for c in drawn.values()) == root.children[DRAW].visits == 300
    assert all(n.children and all(isinstance(k, Tile) for k in n.children)
               for n in _draw_edges(root) if n.side == 0)
    root = ismcts(bens, random.Random(3), budget_s=1.0, max_iters=300, clock=lambda: 0.0)
    theirs = [n for n in _draw_edges(root) if n.side == 0]
    assert theirs and any(n.children for n in theirs)
    assert all(not any(isinstance(k, Tile) for k in n.children) for n in theirs)
