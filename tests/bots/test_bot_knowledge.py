"""Knowledge: voids from draws and passes, the opening, counting, and soundness in every preset."""

from __future__ import annotations

import random

import pytest
from bot_positions import PRESET_CASES, deal, random_positions

from lanomino.bots.knowledge import HandSampler, read_knowledge
from lanomino.engine import DRAW, PASS, End, Play, Rules, apply, new_game, observe, parse_tile


def test_draws_show_the_drawer_lacks_the_ends_and_kept_tiles_are_remembered() -> None:
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 6-1 4-3 5-5 2-2 2-0 0-0", "5-4 5-3 5-2 5-1 4-4 4-2 4-1"], "5-0 6-3")
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, DRAW)  # 5-0 does not fit: kept
    apply(state, 1, DRAW)  # 6-3 fits and must be played
    apply(state, 1, Play(parse_tile("6-3"), End.LEFT))
    know = read_knowledge(observe(state, 0))
    assert know.lacks(1, 6)
    assert not know.lacks(1, 3) and not know.lacks(1, 0)
    assert know.hand_sizes[1] == 8 and know.boneyard == 12
    # 6-6 and 6-3 are on the table and 6-1 in seat 0's hand: four 6s are unseen.
    assert know.unseen_with(6) == 4
    assert know.is_consistent([state.hand_of(0), state.hand_of(1)])


def test_a_pass_shows_the_passer_lacks_every_number_showing() -> None:
    state = new_game(Rules.block(), 2)
    deal(state, ["6-6 6-1 4-3 5-5 2-2 2-0 0-0", "5-4 5-3 5-2 5-1 4-4 4-2 4-1"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, PASS)
    apply(state, 0, Play(parse_tile("6-1"), End.RIGHT))
    know = read_knowledge(observe(state, 0))
    assert know.lacks(1, 6) and not know.lacks(1, 1)
    assert know.voids(1) == frozenset({6})


def test_the_opening_double_rules_out_higher_doubles_until_a_draw_is_kept() -> None:
    state = new_game(Rules.classic(), 2)
    deal(state, ["5-5 6-1 3-1 3-3 2-2 2-0 0-0", "5-4 5-3 5-2 5-1 4-4 4-2 4-1"], "6-6 1-0 5-0")
    know = read_knowledge(observe(state, 1))
    assert not know.possible(0) >> parse_tile("6-6").index & 1
    apply(state, 0, Play(parse_tile("5-5")))
    apply(state, 1, Play(parse_tile("5-4"), End.LEFT))
    apply(state, 0, DRAW)  # ends 4 and 5: 6-6 does not fit and is kept
    know = read_knowledge(observe(state, 1))
    assert know.possible(0) >> parse_tile("6-6").index & 1
    assert know.lacks(0, 4) and know.lacks(0, 5)


def test_drawing_proves_nothing_when_drawing_is_always_allowed() -> None:
    state = new_game(Rules.classic(draw_when_playable=True), 2)
    deal(state, ["6-6 6-1 4-3 5-5 2-2 2-0 0-0", "6-5 5-3 5-2 5-1 4-4 4-2 4-1"], "5-0")
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, DRAW)  # seat 1 holds 6-5 but draws anyway
    know = read_knowledge(observe(state, 0))
    assert not know.lacks(1, 6)
    assert know.is_consistent([state.hand_of(0), state.hand_of(1)])


VARIANTS = [(name, players, {}) for name, players in PRESET_CASES] + [
    ("classic", 2, {"draw_when_playable": True}),
    ("classic", 3, {"boneyard_reserve": 2}),
    ("allfives", 3, {"draw_when_playable": True}),
]


@pytest.mark.parametrize(("preset", "players", "options"), VARIANTS)
def test_true_hands_are_always_possible_and_samples_fit_the_observation(
    preset: str, players: int, options: dict[str, object]
) -> None:
    from lanomino.engine import legal_actions
    from lanomino.engine.observe import determinize

    rules = Rules.preset(preset, **options)
    rng = random.Random(hash((preset, players)) & 0xFFFF)
    checked = 0
    for _ in range(12):
        for state, obs in random_positions(rules, players, rng):
            know = read_knowledge(obs)
            truth = [state.hand_of(s) for s in range(players)]
            assert know.is_consistent(truth), (preset, obs.history)
            sampler = HandSampler(know)
            assert not sampler.relaxed and sampler.count() > 0
            world = sampler.sample(rng)
            assert know.is_consistent(world.hands)
            assert len(world.boneyard) == obs.boneyard
            guess = determinize(obs, world.hands, world.boneyard)
            assert list(legal_actions(guess, obs.seat)) == list(obs.legal)  # type: ignore[arg-type]
            checked += 1
    assert checked > 50
