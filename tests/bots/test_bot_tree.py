"""Expert's parts beyond the flat search: the information-set tree, exact endgames, and weighing
sampled worlds by the opponents' past plays."""

from __future__ import annotations

import random

from bot_positions import deal, opening_position, random_positions

from lanomino.bots.belief import past_choices, weight
from lanomino.bots.expert import Settings, make_expert
from lanomino.bots.knowledge import HandSampler, World, read_knowledge
from lanomino.bots.playout import can_solve, rollout_choice, side_values, solve
from lanomino.bots.tree import ADAPT_FLOOR, ADAPT_START, Node, _descend, spread, tree_search
from lanomino.engine import (
    DRAW,
    End,
    GameState,
    Observation,
    Phase,
    Play,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    observe,
    parse_tile,
)


def test_the_tree_is_reproducible_and_grows_below_the_root() -> None:
    obs = opening_position()
    sampler = HandSampler(read_knowledge(obs))
    first = tree_search(obs, random.Random(4), sampler, 1.0, 400, clock=lambda: 0.0)
    again = tree_search(obs, random.Random(4), sampler, 1.0, 400, clock=lambda: 0.0)
    assert first == again
    assert sum(v for _, v, _ in first) == 400 and all(v > 0 for _, v, _ in first)
    # Grown by hand: after as many simulations as moves, the next ones reach a second level.
    root = Node(-1)
    depths = []
    for _ in range(60):
        state = observe_world(obs, sampler)
        path = _descend(root, state, random.Random(len(depths)), 0.5)
        for node in path:
            node.visits += 1
            node.total += 0.5
        depths.append(len(path))
    assert max(depths) >= 3
    # Seat 1's replies are nodes of seat 1's side; Expert's own moves of side 0.
    assert {c.side for c in root.children.values()} == {0}
    assert {g.side for c in root.children.values() for g in c.children.values()} <= {1}


def test_the_default_expert_still_plays_for_the_match() -> None:
    """The All Fives position of test_expert_plays_for_the_match_not_the_hand, searched the
    default way and with weighted worlds: take 5 points early, turn them down when both need 10."""
    state = new_game(Rules.allfives(), 2)
    deal(state, ["2-0 2-2 3-0 5-1 5-5 6-2 6-6", "1-0 1-1 2-1 3-2 3-3 4-2 6-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-3"), End.LEFT))
    shed, points = Play(parse_tile("3-0"), End.LEFT), Play(parse_tile("6-2"), End.RIGHT)
    for weigh in (0, 4):
        expert = make_expert(budget_s=1.0, max_sims=1500, clock=lambda: 0.0, weigh=weigh)
        state.scores = [0, 0]
        assert expert(observe(state, 0), random.Random(1)) == points
        state.scores = [140, 140]
        assert expert(observe(state, 0), random.Random(1)) == shed
    # The variants that did not win are off; exact solving (sound by construction) is on.
    assert Settings() == Settings(tree=False, paired=False, exact=True, weigh=0)


def observe_world(
    obs: Observation, sampler: HandSampler, rng: random.Random | None = None
) -> GameState:
    from lanomino.engine.observe import determinize

    world = sampler.sample(rng or random.Random(9))
    state = determinize(obs, world.hands, world.boneyard)
    assert isinstance(state, GameState)
    return state


def naive_value(state: GameState, side: int, before: tuple[int, ...]) -> float:
    """Minimax by brute force, no memo: the reference the solver must agree with."""
    if state.phase is not Phase.PLAY:
        return side_values(state, before, "match")[side]
    seat = state.turn
    values = []
    for action in legal_actions(state, seat):
        child = state.copy()
        apply(child, seat, action)
        values.append(naive_value(child, side, before))
    return max(values) if state.side_of(seat) == side else min(values)


def test_the_endgame_solver_agrees_with_brute_force() -> None:
    rng = random.Random(12)
    checked = 0
    for preset, players in (("block", 2), ("partnership", 4)):
        for _ in range(12):
            for state, _obs in random_positions(Rules.preset(preset), players, rng):
                if can_solve(state, 7):
                    before = tuple(state.scores)
                    side = state.side_of(state.turn)
                    got = solve(state.copy(), side, "match", before, 100_000)
                    assert abs(got - naive_value(state.copy(), side, before)) < 1e-12
                    checked += 1
                    break
    assert checked >= 15


def test_a_world_where_the_opponent_passed_over_heavier_tiles_weighs_less() -> None:
    """Ben plays 6-1 on Ana's 6-6. In a world where he also held 6-5 and 6-4 (heavier, and they
    fitted too), that choice was less likely than in one where 6-1 was his only 6."""
    state = new_game(Rules.block(), 2)
    deal(state, ["6-6 1-1 3-2 1-0 2-2 3-0 0-0", "6-1 5-4 5-3 5-2 4-3 4-2 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    obs = observe(state, 0)
    choices = past_choices(obs)
    assert [(c.seat, c.chosen) for c in choices] == [(1, parse_tile("6-1").index)]
    mine = tuple(obs.hand)
    heavy = tuple(parse_tile(t) for t in "6-5 6-4 5-5 4-4 3-3 1-2".split())
    light = tuple(parse_tile(t) for t in "5-5 4-4 3-3 1-2 5-1 4-1".split())
    w_heavy = weight(World((mine, heavy), ()), choices)
    w_light = weight(World((mine, light), ()), choices)
    assert w_light == 1.0 > w_heavy


def test_below_experts_own_draw_the_tree_branches_on_the_tile() -> None:
    """Ana holds nothing for the 6 and 1 showing and must draw; she will see the tile, so the
    node after her draw depends on it. Searching for Ben one move earlier, Ana's draws (hidden
    from him) stay one edge."""
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 5-5 5-4 4-4 3-3 3-2 2-2", "6-1 5-3 5-2 4-3 4-2 4-1 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    bens = observe(state, 1)
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    anas = observe(state, 0)
    assert anas.legal == (DRAW,)
    root = grow(anas, 300)
    drawn = root.children[DRAW].children
    assert len(drawn) > 1 and all(isinstance(t, Tile) for t in drawn)
    assert sum(c.visits for c in drawn.values()) == 300
    root = grow(bens, 300)
    anas_draws = [c for n in _walk(root) for k, c in n.children.items() if k == DRAW and not c.side]
    assert anas_draws and any(n.children for n in anas_draws)
    assert not any(isinstance(k, Tile) for n in anas_draws for k in n.children)


def grow(obs: Observation, simulations: int) -> Node:
    """A tree for ``obs``'s seat after ``simulations`` descents (every value 0.5)."""
    sampler = HandSampler(read_knowledge(obs))
    root = Node(-1)
    rng = random.Random(6)
    for _ in range(simulations):
        for node in _descend(root, observe_world(obs, sampler, rng), rng, 0.5, me=obs.seat):
            node.visits += 1
            node.total += 0.5
    return root


def _walk(node: Node) -> list[Node]:
    out = [node]
    for child in node.children.values():
        out += _walk(child)
    return out


def test_the_trees_exploration_follows_the_spread_of_the_values() -> None:
    """With ``adapt`` the tree explores in proportion to how much the values move: when the
    match is all but decided (94 to 14) the values barely move, and a fixed constant would
    spread the simulations evenly, while the adapted one leans to the best move."""
    assert spread(0.0, 0.0, 1) == ADAPT_START
    assert abs(spread(1.0, 1.0, 2) - 0.5) < 1e-12  # the values 0 and 1
    assert spread(2.0, 2.0, 2) == ADAPT_FLOOR  # equal values
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 1-1 6-5 1-0 6-4 3-2 3-0", "6-1 5-4 5-3 5-2 4-3 4-2 2-0"])
    state.scores = [94, 14]
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    obs = observe(state, 0)  # opening_position's, at 94 to 14
    sampler = HandSampler(read_knowledge(obs))

    def top_share(adapt: bool) -> float:
        found = tree_search(obs, random.Random(3), sampler, 1.0, 600, clock=lambda: 0.0,
                            explore=1.8 if adapt else 0.5, adapt=adapt)
        return max(v for _, v, _ in found) / sum(v for _, v, _ in found)

    assert top_share(True) > top_share(False) + 0.05


def test_with_a_prior_the_tree_first_tries_the_move_the_roll_outs_prefer() -> None:
    obs = opening_position()
    sampler = HandSampler(read_knowledge(obs))
    firsts = set()
    for seed in range(12):
        world = observe_world(obs, sampler, random.Random(seed))
        preferred = rollout_choice(world.copy(), legal_actions(world, 0), random.Random(seed))
        root = Node(-1)
        _descend(root, world.copy(), random.Random(seed), 0.5, me=0, prior=True)
        assert list(root.children) == [preferred]
        plain = Node(-1)
        _descend(plain, world, random.Random(seed), 0.5, me=0)
        firsts.add(next(iter(plain.children)))
    assert len(firsts) > 1  # without the prior, the first move tried is drawn at random
