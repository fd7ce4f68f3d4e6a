"""Expert's paired search (every move in contention is played out in the same sampled worlds, a
clearly worse move is dropped, the search stops once the choice is made) and its exact solving
of endgames of perfect information."""

from __future__ import annotations

import random

from bot_positions import deal, opening_position

from lanomino.bots.expert import Settings, analyse, make_expert
from lanomino.bots.knowledge import HandSampler, read_knowledge
from lanomino.bots.paired import CHECK_MIN, best_paired, paired_search, prune
from lanomino.bots.playout import solve_moves
from lanomino.engine import End, GameState, Play, Rules, apply, new_game, observe, parse_tile


def still() -> float:
    return 0.0  # a clock that never advances: only the cap or the choice being made stops it


def test_every_move_is_played_in_the_same_worlds_until_one_is_dropped() -> None:
    obs = opening_position()
    sampler = HandSampler(read_knowledge(obs))
    first = paired_search(obs, random.Random(3), sampler, 1.0, 4 * CHECK_MIN, still)
    # The cap allows CHECK_MIN worlds: nothing is dropped before then, so every move has one
    # roll-out per world.
    assert [n for _, n, _ in first] == [CHECK_MIN] * len(obs.legal)
    again = paired_search(obs, random.Random(3), sampler, 1.0, 4 * CHECK_MIN, still)
    assert first == again


def test_a_clearly_worse_move_is_dropped_and_a_close_one_kept() -> None:
    rng = random.Random(1)
    good = [0.6 + 0.2 * rng.random() for _ in range(64)]
    close = [x - 0.01 + 0.02 * rng.random() for x in good]  # as good, world by world
    bad = [x - 0.1 for x in good]  # always 0.1 worse in the same world
    dropped: list[tuple[int, int, float]] = []
    live, done = prune([good, close, bad], [0, 1, 2], dropped)
    assert live == [0, 1] and not done
    assert [i for i, _, _ in dropped] == [2]
    # By how much it trailed the best of the other two, world by world.
    assert abs(dropped[0][2] - 0.1) < 0.01
    # Alone, the best move is the choice: the search may stop.
    assert prune([good, bad], [0, 1], []) == ([0], True)
    # Two moves that give the very same result in every world: either will do.
    assert prune([good, list(good)], [0, 1], [])[1]


def test_a_dropped_move_is_valued_below_the_move_it_trailed() -> None:
    obs = opening_position()
    sampler = HandSampler(read_knowledge(obs))
    results = paired_search(obs, random.Random(1), sampler, 1.0, 2000, still)
    most = max(n for _, n, _ in results)
    live = [(a, v) for a, n, v in results if n == most]
    dropped = [(a, v) for a, n, v in results if n < most]
    assert dropped and live
    best = max(v for _, v in live)
    assert all(v < best for _, v in dropped)
    assert best_paired(results) in {a for a, v in live if v == best}
    # Ties in value go to the move played out in more worlds.
    one, two = Play(parse_tile("6-6")), Play(parse_tile("5-5"))
    assert best_paired([(one, 16, 0.5), (two, 80, 0.5)]) == two


def test_a_clear_choice_ends_the_search_early() -> None:
    obs = opening_position()
    sampler = HandSampler(read_knowledge(obs))
    results = paired_search(obs, random.Random(2), sampler, 1.0, 20_000, still)
    assert sum(n for _, n, _ in results) < 20_000
    capped = paired_search(obs, random.Random(2), sampler, 1.0, 400, still, settle=False)
    assert [n for _, n, _ in capped] == [100] * 4  # the whole budget, nothing dropped


def test_the_paired_expert_plays_for_the_match() -> None:
    """All Fives to 150 (tests/bots/test_bot_expert.py has the story): take 6-2's 5 points
    early, turn them down when both sides need exactly 10 (with greedy roll-outs, as there)."""
    state = new_game(Rules.allfives(), 2)
    deal(state, ["2-0 2-2 3-0 5-1 5-5 6-2 6-6", "1-0 1-1 2-1 3-2 3-3 4-2 6-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-3"), End.LEFT))
    shed, points = Play(parse_tile("3-0"), End.LEFT), Play(parse_tile("6-2"), End.RIGHT)
    expert = make_expert(budget_s=1.0, max_sims=1500, clock=still, paired=True, rollout="greedy")
    state.scores = [0, 0]
    assert expert(observe(state, 0), random.Random(1)) == points
    state.scores = [140, 140]
    assert expert(observe(state, 0), random.Random(1)) == shed


def known_endgame() -> GameState:
    """Block with every tile dealt (14 each), so each seat can work out the other's hand: a game
    of perfect information. Twenty plays in, the ends are 4 and 5; Ana holds 1-0 5-2 6-2 6-5,
    Ben 2-0 2-1 4-1 5-1. 6-5 sheds 11 pips and shows a 6, which Ben lacks: his one play is
    4-1. 5-2 shows a 2, and Ben holds two of them."""
    state = new_game(Rules.preset("block", hand_size=14), 2)
    deal(state, ["1-0 5-2 6-2 6-5 6-6 3-3 5-5 4-4 6-4 1-1 3-1 2-2 4-3 3-0",
                 "2-0 2-1 4-1 5-1 6-3 5-3 5-4 6-1 6-0 0-0 3-2 4-2 4-0 5-0"])
    plays = ("6-6 L 6-3 L 3-3 L 5-3 L 5-5 L 5-4 L 4-4 L 6-1 R 6-4 L 6-0 L 1-1 R 0-0 L 3-1 R "
             "3-2 R 2-2 R 4-2 R 4-3 R 4-0 L 3-0 R 5-0 R").split()
    for i in range(0, len(plays), 2):
        end = End.LEFT if plays[i + 1] == "L" else End.RIGHT
        apply(state, state.turn, Play(parse_tile(plays[i]), end if i else None))
    return state


def test_a_perfect_information_endgame_is_solved_exactly() -> None:
    state = known_endgame()
    obs = observe(state, 0)
    shed, opens = Play(parse_tile("6-5"), End.RIGHT), Play(parse_tile("5-2"), End.RIGHT)
    assert set(obs.legal) == {shed, opens}
    results = analyse(obs, random.Random(1), 1.0, 300, still, Settings(exact=True))
    # Solved, not sampled: one "visit" each, and the values are the minimax values.
    assert {a: n for a, n, _ in results} == {shed: 1, opens: 1}
    values = solve_moves(state, obs.legal, 0, Settings().value, (0, 0), 100_000)
    assert [v for _, _, v in results] == values
    assert dict(zip(obs.legal, values, strict=True))[shed] > dict(
        zip(obs.legal, values, strict=True))[opens]
    assert make_expert(clock=still, exact=True)(obs, random.Random(1)) == shed
    # Too big for the budget (a solver allowed no positions): it searches instead.
    tiny = analyse(obs, random.Random(1), 1e-9, 300, still, Settings(exact=True))
    assert sum(n for _, n, _ in tiny) > 2


def test_exact_solving_waits_until_one_world_is_left() -> None:
    obs = opening_position()  # 14 tiles unseen: many worlds
    results = analyse(obs, random.Random(1), 1.0, 200, still, Settings(exact=True))
    assert sum(n for _, n, _ in results) == 200
