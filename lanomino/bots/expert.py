"""Expert: information-set Monte Carlo over hidden hands sampled from what the table has shown.

Theory of operation: at each decision Expert reads its ``Knowledge`` and builds a ``HandSampler``.
Each simulation samples a fresh world (the other hands and the boneyard order, uniformly among
those consistent with the voids, counts and opening), picks a root move with UCB1, plays the rest of
the hand out with a quick greedy policy for every seat (in All Fives with the tuned weights, which
also count what the next seat could score after a play, and never hand it the match), and scores
the result by its value for the *match*: the chance that Expert's side wins it from the new
scores, counted as a race of the hands still to come (``odds.py``), so points matter more when
they decide the match. Because every simulation uses a new world, no move is chosen on a guess at
the boneyard order. It stops at the time budget or the simulation cap, or earlier once the choice
is settled, and plays the move with the best mean value. When the table has shown everything (one
world is possible and nothing is left to draw) the hand is a game of perfect information, and
Expert solves it exactly instead (``solve_known``).

``Settings`` also reaches the variants the benchmarks compared and did not keep (README): a tree
over Expert's information sets (``tree.py``), the paired search (``paired.py``), worlds
weighted by the opponents' past plays (``belief.py``), sampled worlds' endgames solved exactly,
Hard's policy, random play, a greedy policy that does not look at the next hand or one with
tuned weights in the roll-outs, a points margin or the rule of thumb of ``playout.match_value``
instead of the race of hands to come for the match value, and in the tree an exploration term
scaled to the spread of the values and new moves tried in the roll-out policy's order.

The clock is injected, so a test with a simulation cap and a clock that never advances is exactly
reproducible from the seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from lanomino.bots.base import Bot
from lanomino.bots.belief import WeightedSampler, past_choices
from lanomino.bots.knowledge import HandSampler, read_knowledge
from lanomino.bots.odds import odds_for
from lanomino.bots.paired import best_paired, paired_search
from lanomino.bots.playout import (
    ROLLOUTS,
    VALUES,
    TooBig,
    can_solve,
    match_value,
    play_out,
    rollout_choice,
    side_values,
    solve_moves,
)
from lanomino.bots.tree import TREE_EXPLORE, tree_search
from lanomino.engine import TILES, Action, GameState, Observation, apply
from lanomino.engine.observe import determinize

__all__ = [
    "Settings", "TimeBank", "analyse", "best_move", "make_expert", "match_value", "rollout_choice",
    "search", "settled",
]

DEFAULT_BUDGET_S = 0.3
DEFAULT_MAX_SIMS = 20_000
EXPLORE = 0.4  # UCB1 exploration constant; values lie in [0, 1]
# Early stop: every SETTLE_EVERY simulations after SETTLE_MIN, stop when the best move is, at
# SETTLE_Z standard errors, within SETTLE_MARGIN (of a match won) of every other move or better.
SETTLE_MIN = 256
SETTLE_EVERY = 64
SETTLE_VISITS = 16
SETTLE_Z = 3.0
SETTLE_MARGIN = 0.002
SETTLE_FLOOR = 0.0025  # a variance floor per visit, so a few equal results do not look certain
EXACT_RATE = 13_000  # positions the exact solver may visit per second of budget (pure Python)
# The time bank (``bank``): what a searched decision leaves of its budget is saved, and a
# decision not settled at its budget may go on with the savings, up to BANK_EXTRA times the
# budget more and never past BANK_CAP_S in all (the 0.5 s a decision may take, less a margin).
BANK_EXTRA = 0.5
BANK_CAP_S = 0.45
BANK_KEEP = 3.0  # at most this many budgets saved, so a run of easy decisions is not hoarded


def search(
    obs: Observation,
    rng: random.Random,
    budget_s: float = DEFAULT_BUDGET_S,
    max_sims: int = DEFAULT_MAX_SIMS,
    clock: Callable[[], float] = time.perf_counter,
    settle: bool = True,
    rollout: str = "auto",
    value: str = "match",
    sampler: HandSampler | WeightedSampler | None = None,
) -> list[tuple[Action, int, float]]:
    """(action, simulations, mean value) for each legal move, after a flat search (one level).

    With ``settle`` the search also stops early once the choice is settled (see ``settled``)."""
    moves = list(obs.legal)
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    squares = [0.0] * len(moves)
    sampler = sampler or HandSampler(read_knowledge(obs))
    side = obs.side_of(obs.seat)
    before = tuple(obs.scores)
    deadline = clock() + budget_s
    sims = 0
    while sims < max_sims and (sims < len(moves) or clock() < deadline):
        world = sampler.sample(rng)
        state = cast(GameState, determinize(obs, world.hands, world.boneyard))
        i = _pick(visits, totals, sims)
        apply(state, obs.seat, moves[i])
        play_out(state, rng, rollout)
        got = side_values(state, before, value)[side]
        visits[i] += 1
        totals[i] += got
        squares[i] += got * got
        sims += 1
        due = settle and sims >= SETTLE_MIN and sims % SETTLE_EVERY == 0
        if due and settled(visits, totals, squares):
            break
    return [(m, v, t / v if v else 0.0) for m, v, t in zip(moves, visits, totals, strict=True)]


def settled(visits: Sequence[int], totals: Sequence[float], squares: Sequence[float]) -> bool:
    """True when, with high confidence, the move with the best mean is no more than
    ``SETTLE_MARGIN`` worse than every other move: more simulations would not change the play
    in a way that matters. Uses each move's sample variance (a normal approximation)."""
    means = [t / v for t, v in zip(totals, visits, strict=True)]
    variances = [
        max(q / v - m * m, 0.0) / v for q, v, m in zip(squares, visits, means, strict=True)
    ]
    best = max(range(len(means)), key=means.__getitem__)
    for i in range(len(means)):
        if i == best:
            continue
        if visits[i] < SETTLE_VISITS:
            return False
        spread = SETTLE_Z * math.sqrt(variances[best] + variances[i] + SETTLE_FLOOR / visits[i])
        if spread > means[best] - means[i] + SETTLE_MARGIN:
            return False
    return True


def _pick(visits: list[int], totals: list[float], sims: int) -> int:
    for i, v in enumerate(visits):
        if v == 0:
            return i
    log_n = math.log(sims)
    scores = [t / v + EXPLORE * math.sqrt(log_n / v) for t, v in zip(totals, visits, strict=True)]
    return max(range(len(scores)), key=scores.__getitem__)


@dataclass(frozen=True, slots=True)
class Settings:
    """How Expert searches; the defaults are the variants that won in the benchmarks (README).

    ``tree``: the information-set tree (``tree.py``) instead of the flat search; ``paired``: the
    paired search (``paired.py``: every move in contention played in the same worlds) instead;
    ``exact``: when the table leaves only one world possible and nothing to draw, solve the
    hand exactly instead of searching (``solve_known``); ``settle``: let a flat or paired search
    stop early once its choice is settled; ``rollout``: the policy below the search
    (see ``playout.ROLLOUTS``); ``value``: what a finished hand is worth (``playout.VALUES``);
    ``endgame``: solve worlds exactly once at most this many tiles are in the hands (0: never);
    ``explore``: the tree's UCB1 constant; ``weigh``: sample this many worlds and keep one by how
    likely the opponents' past plays were in it (``belief.py``; 0 or 1: plain uniform worlds);
    ``adapt``: the tree's exploration scales with the spread of the values, ``prior``: it tries
    new moves in the roll-out policy's order first (both ``tree.py``); ``bank``: keep what
    searched decisions leave of their budget for the close ones (``TimeBank``).
    Raises ValueError for an unknown rollout or value."""

    tree: bool = False
    paired: bool = False
    exact: bool = True
    settle: bool = True
    rollout: str = "auto"
    value: str = "odds"
    endgame: int = 0
    explore: float = TREE_EXPLORE
    weigh: int = 0
    adapt: bool = False
    prior: bool = False
    bank: bool = False

    def __post_init__(self) -> None:
        if self.rollout not in ROLLOUTS or self.value not in VALUES:
            raise ValueError(f"rollout is one of {ROLLOUTS} and value one of {VALUES}")


def analyse(
    obs: Observation,
    rng: random.Random,
    budget_s: float = DEFAULT_BUDGET_S,
    max_sims: int = DEFAULT_MAX_SIMS,
    clock: Callable[[], float] = time.perf_counter,
    settings: Settings = Settings(),
) -> list[tuple[Action, int, float]]:
    """(action, simulations, mean value) for each legal move, searched as ``settings`` say."""
    started = clock()
    if settings.value == "odds":
        odds_for(obs.rules, obs.players)  # built once per rules, on this decision's clock
    plain = HandSampler(read_knowledge(obs))
    if settings.exact:
        known = solve_known(obs, rng, plain, settings.value, int(budget_s * EXACT_RATE))
        if known is not None:
            return known
    budget_s -= clock() - started
    sampler: HandSampler | WeightedSampler = plain
    if settings.weigh > 1:
        sampler = WeightedSampler(plain, past_choices(obs), settings.weigh)
    if settings.paired:
        return paired_search(obs, rng, sampler, budget_s, max_sims, clock, settings.rollout,
                             settings.value, settings.settle)
    if settings.tree:
        return tree_search(obs, rng, sampler, budget_s, max_sims, clock, settings.explore,
                           settings.rollout, settings.value, settings.endgame,
                           settings.adapt, settings.prior)
    return search(obs, rng, budget_s, max_sims, clock, settings.settle, settings.rollout,
                  settings.value, sampler)


def solve_known(obs: Observation, rng: random.Random, sampler: HandSampler, value: str,
                limit: int) -> list[tuple[Action, int, float]] | None:
    """(action, 1, exact value) for each legal move when what the table has shown leaves one
    world (every hidden tile placed, nothing to draw: a game of perfect information) small
    enough to solve in ``limit`` positions; else None."""
    if sampler.relaxed or sampler.count() != 1:
        return None
    world = sampler.sample(rng)
    state = cast(GameState, determinize(obs, world.hands, world.boneyard))
    if not can_solve(state, len(TILES)):
        return None
    try:
        values = solve_moves(state, obs.legal, obs.side_of(obs.seat), value, obs.scores, limit)
    except TooBig:
        return None
    return [(m, 1, v) for m, v in zip(obs.legal, values, strict=True)]


def best_move(results: Sequence[tuple[Action, int, float]], settings: Settings) -> Action:
    """The move to play: the most visited in a tree (its most trusted), else the best mean."""
    if settings.paired:
        return best_paired(results)
    if settings.tree:
        return max(results, key=lambda r: (r[1], r[2]))[0]
    return max(results, key=lambda r: (r[2], r[1]))[0]


class TimeBank:
    """Thinking time saved by searched decisions (those that stopped early, were solved exactly
    or settled), spent by later ones that are still close at their budget. The mean time of the
    searched decisions stays within the budget; no single one takes more than ``BANK_CAP_S``."""

    __slots__ = ("budget_s", "saved_s")

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s
        self.saved_s = 0.0

    def allowance(self) -> float:
        """The most the next searched decision may think: its budget and part of the savings."""
        extra = min(self.saved_s, BANK_EXTRA * self.budget_s, BANK_CAP_S - self.budget_s)
        return self.budget_s + max(0.0, extra)

    def spent(self, used_s: float) -> None:
        """A searched decision took ``used_s``: keep what it left of the budget, or pay for
        what it took beyond it."""
        self.saved_s = min(self.saved_s + self.budget_s - used_s, BANK_KEEP * self.budget_s)
        self.saved_s = max(self.saved_s, 0.0)


def make_expert(
    budget_s: float = DEFAULT_BUDGET_S,
    max_sims: int = DEFAULT_MAX_SIMS,
    clock: Callable[[], float] = time.perf_counter,
    on_search: Callable[[int], None] | None = None,
    **options: Any,
) -> Bot:
    """An Expert that thinks for at most ``budget_s`` seconds or ``max_sims`` simulations a move;
    ``on_search`` (for benchmarks) is told how many simulations each search ran; ``options``
    are ``Settings`` fields. Raises TypeError or ValueError for a bad option."""
    settings = Settings(**options)
    banks: dict[int, TimeBank] = {}  # one a seat: a bot that plays two seats keeps two banks

    def expert(obs: Observation, rng: random.Random) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        if not settings.bank:
            results = analyse(obs, rng, budget_s, max_sims, clock, settings)
        else:
            bank = banks.setdefault(obs.seat, TimeBank(budget_s))
            started = clock()
            results = analyse(obs, rng, bank.allowance(), max_sims, clock, settings)
            bank.spent(clock() - started)
        if on_search is not None:
            on_search(sum(r[1] for r in results))
        return best_move(results, settings)

    return expert


expert_bot = make_expert()
