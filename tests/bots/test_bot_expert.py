"""Expert: reproducible with a simulation cap, stops at its time budget, plays for the match."""

from __future__ import annotations

import random
from itertools import count, islice

from bot_positions import deal, opening_position, random_positions

from lanomino.bots.expert import (
    BANK_KEEP,
    Settings,
    TimeBank,
    make_expert,
    match_value,
    search,
    settled,
)
from lanomino.engine import (
    End,
    GameState,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    parse_tile,
)


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


def test_expert_plays_for_the_match_not_the_hand() -> None:
    """All Fives to 150. Ana leads 6-6 (the spinner), Ben plays 6-3: ends 3 and 6-6. Ana can lay
    6-2 on the spinner for 5 points (ends 3, 2 and 6 open on the spinner's arms) or 3-0 for none
    (ends 0 and 6-6, 12). Early in a match the 5 points are worth having. When both sides need
    exactly 10, 5 points do not win, and 6-2 leaves Ben ends to score 10 and take the match, while
    after 3-0 no single tile makes 10: so Expert turns down the points. The roll-outs here are the
    greedy ones, which take points whatever they leave: All Fives' default roll-outs also refuse
    to leave the next seat a match-winning reply, and with both seats that careful the two plays
    come out close (about 0.35 each on most seeds), so only the greedy ones show the match
    value's effect this plainly."""
    state = new_game(Rules.allfives(), 2)
    deal(state, ["2-0 2-2 3-0 5-1 5-5 6-2 6-6", "1-0 1-1 2-1 3-2 3-3 4-2 6-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-3"), End.LEFT))
    shed = Play(parse_tile("3-0"), End.LEFT)
    points = Play(parse_tile("6-2"), End.RIGHT)

    def ranked(scores: list[int]) -> list[tuple[object, float]]:
        state.scores = scores
        obs = observe(state, 0)
        assert set(obs.legal) == {shed, points}
        results = search(
            obs, random.Random(1), budget_s=1.0, max_sims=1500, clock=lambda: 0.0, settle=False,
            rollout="greedy",
        )
        return [(a, v) for a, _, v in sorted(results, key=lambda r: -r[2])]

    early = ranked([0, 0])
    assert early[0][0] == points
    late = ranked([140, 140])
    assert late[0][0] == shed
    assert late[0][1] - late[1][1] > 0.15  # not a coin toss: 6-2 hands Ben the match too often


def test_the_search_settles_early_only_when_the_choice_is_clear() -> None:
    # 400 wins or losses each: 0.7 against 0.3 is settled; 0.51 against 0.49 is not.
    assert settled([400, 400], [0.7 * 400, 0.3 * 400], [0.7 * 400, 0.3 * 400])
    assert not settled([400, 400], [0.51 * 400, 0.49 * 400], [0.51 * 400, 0.49 * 400])
    # A move tried only a few times is never written off.
    assert not settled([800, 5], [0.9 * 800, 0.0], [0.9 * 800, 0.0])


def test_expert_stops_early_on_a_clear_choice_and_not_on_a_close_one() -> None:
    obs = opening_position()
    still = lambda: 0.0  # noqa: E731 - the budget never runs out: only settling can stop it
    clear = search(obs, random.Random(2), budget_s=1.0, max_sims=20_000, clock=still)
    assert sum(v for _, v, _ in clear) < 20_000
    capped = search(obs, random.Random(2), budget_s=1.0, max_sims=600, clock=still, settle=False)
    assert sum(v for _, v, _ in capped) == 600


def test_the_time_bank_lends_what_quick_decisions_saved_and_no_more() -> None:
    bank = TimeBank(0.3)
    assert bank.allowance() == 0.3  # nothing saved yet
    bank.spent(0.05)  # a decision that settled early leaves 0.25 s
    assert abs(bank.allowance() - 0.45) < 1e-9  # 0.3 more at most half the budget, 0.45 s in all
    bank.spent(0.45)  # a close one spent 0.15 s of the savings
    assert abs(bank.saved_s - 0.10) < 1e-9
    assert abs(bank.allowance() - 0.40) < 1e-9
    bank.spent(0.6)  # a decision that overran by more than was saved leaves no debt
    assert bank.saved_s == 0.0 and bank.allowance() == 0.3
    for _ in range(20):
        bank.spent(0.0)
    assert abs(bank.saved_s - BANK_KEEP * 0.3) < 1e-9  # a run of easy decisions is not hoarded
    assert TimeBank(0.4).allowance() == 0.4 and TimeBank(0.5).allowance() == 0.5


def test_a_banking_expert_spends_its_savings_on_a_close_decision() -> None:
    step = [1e-5]
    now = [0.0]

    def clock() -> float:
        now[0] += step[0]  # every reading of the clock is a step later
        return now[0]

    obs = opening_position()
    for banking, thought in ((False, 0.2), (True, 0.3)):
        bot = make_expert(budget_s=0.2, max_sims=500, clock=clock, bank=banking, settle=False)
        step[0] = 1e-5
        bot(obs, random.Random(1))  # 500 simulations in about 0.005 s: 0.195 s saved
        step[0] = 1e-3
        start = now[0]
        bot(obs, random.Random(1))  # a slow clock: the budget, plus half of it when banked
        assert thought <= now[0] - start < thought + 0.01


def test_a_banking_expert_that_plays_two_seats_keeps_a_bank_for_each() -> None:
    now = [0.0]
    step = [1e-5]

    def clock() -> float:
        now[0] += step[0]
        return now[0]

    obs = opening_position()  # seat 0 to play
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 1-1 4-4 1-0 6-4 3-2 3-0", "6-1 6-5 5-4 5-3 5-2 4-3 4-2"])
    apply(state, 0, Play(parse_tile("6-6")))
    other = observe(state, 1)  # seat 1 may lay 6-1 or 6-5
    assert other.is_my_turn and len(other.legal) > 1
    bot = make_expert(budget_s=0.2, max_sims=500, clock=clock, bank=True, settle=False)
    bot(obs, random.Random(1))  # quick: seat 0 saves about 0.195 s
    step[0] = 1e-3
    start = now[0]
    bot(other, random.Random(1))  # seat 1 has saved nothing: its budget alone
    assert 0.2 <= now[0] - start < 0.21


def test_expert_rolls_out_tuned_in_all_fives_and_greedy_elsewhere() -> None:
    still = lambda: 0.0  # noqa: E731 - only the simulation cap stops the search
    for rules, same, other in ((Rules.allfives(), "tuned", "greedy"),
                               (Rules.classic(), "greedy", "tuned")):
        rng = random.Random(5)
        differs = 0
        for _, obs in islice((p for p in random_positions(rules, 2, rng) if len(p[1].legal) > 1),
                             12):
            default = search(obs, random.Random(9), 1.0, 120, still)
            assert default == search(obs, random.Random(9), 1.0, 120, still, rollout=same)
            differs += default != search(obs, random.Random(9), 1.0, 120, still, rollout=other)
        assert differs, rules.game  # the two policies do play differently in these positions
    assert Settings().rollout == "auto"
