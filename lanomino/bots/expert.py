"""Expert: information-set Monte Carlo over hidden hands sampled from what the table has shown.

Theory of operation: at each decision Expert reads its ``Knowledge`` and builds a ``HandSampler``.
Each simulation samples a fresh world (the other hands and the boneyard order, uniformly among
those consistent with the voids, counts and opening), picks a root move with UCB1, plays the rest
of the hand out with a quick greedy policy for every seat, and scores the result by its value for
the *match*: the estimated chance that Expert's side wins it from the new scores, so points
matter more when they decide the match. Because every simulation uses a new world, no move is
chosen on a guess at the boneyard order. It stops at the time budget or the simulation cap,
whichever comes first, and plays the move with the best mean value.

The clock is injected, so a test with a simulation cap and a clock that never advances is exactly
reproducible from the seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import cast

from lanomino.bots.base import Bot
from lanomino.bots.knowledge import HandSampler, read_knowledge
from lanomino.engine import TILES, Action, GameState, Observation, Phase, Play, apply, legal_actions
from lanomino.engine.observe import determinize

DEFAULT_BUDGET_S = 0.3
DEFAULT_MAX_SIMS = 20_000
EXPLORE = 0.4  # UCB1 exploration constant; values lie in [0, 1]
NEED_POWER = 2.0  # how sharply "points still needed" turns into a chance of winning the match
_PIPS = tuple(t.pips for t in TILES)
_WITH = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))
# Early stop: every SETTLE_EVERY simulations after SETTLE_MIN, stop when the best move is, at
# SETTLE_Z standard errors, within SETTLE_MARGIN (of a match won) of every other move or better.
SETTLE_MIN = 256
SETTLE_EVERY = 64
SETTLE_VISITS = 16
SETTLE_Z = 3.0
SETTLE_MARGIN = 0.002
SETTLE_FLOOR = 0.0025  # a variance floor per visit, so a few equal results do not look certain
BLOCK_BONUS = 6.0  # rollouts: the next seat has nothing for the ends left showing
KEEP_BONUS = 2.0  # rollouts: the mover keeps a tile for the ends


def match_value(state: GameState, side: int) -> float:
    """The estimated chance that ``side`` wins the match from ``state`` (between hands)."""
    if state.outcome is not None:
        winner = state.outcome.winner
        return 1.0 if winner == side else 0.5 if winner is None else 0.0
    target = max(1, state.rules.target)
    live = {state.side_of(s) for s in range(state.players) if state.active[s]}
    weights = {x: 1.0 / max(1, target - state.scores[x]) ** NEED_POWER for x in live}
    return float(weights.get(side, 0.0) / sum(weights.values()))


def rollout_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """The quick policy every seat follows in a simulation: shed weight, score fives, and leave
    ends the next seat cannot play on while keeping one for itself."""
    best: Action = actions[0]
    best_score = -1e9
    fives = state.rules.fives
    line = state.line
    seat = state.turn
    mine = state.hands[seat]
    nxt = state.hands[state.next_seat[seat]]
    same_side = state.side_of(state.next_seat[seat]) == state.side_of(seat)
    for action in actions:
        if not isinstance(action, Play):
            continue
        tile = action.tile
        score = _PIPS[tile.index] + (3.0 if tile.is_double else 0.0) + rng.random()
        if fives:
            if action.end is not None and line.tiles:
                trial = line.copy()
                trial.place(tile, action.end.value)
                count = trial.fives_count()
                if count % 5 == 0:
                    score += 1.5 * count
        elif action.end is not None and line.tiles:
            e = action.end.value
            shown = tile.other(line.ends[e])
            kept = line.ends[1 - e]
            fits = _WITH[shown] | _WITH[kept]
            if not nxt & fits:
                score += -BLOCK_BONUS if same_side else BLOCK_BONUS
            if mine & ~tile.bit & fits:
                score += KEEP_BONUS
        if score > best_score:
            best, best_score = action, score
    return best


def play_out(state: GameState, rng: random.Random) -> None:
    """Play ``state`` to the end of the hand with the rollout policy."""
    while state.phase is Phase.PLAY:
        seat = state.turn
        actions = legal_actions(state, seat)
        action = actions[0] if len(actions) == 1 else rollout_choice(state, actions, rng)
        apply(state, seat, action)


def search(
    obs: Observation,
    rng: random.Random,
    budget_s: float = DEFAULT_BUDGET_S,
    max_sims: int = DEFAULT_MAX_SIMS,
    clock: Callable[[], float] = time.perf_counter,
    settle: bool = True,
) -> list[tuple[Action, int, float]]:
    """(action, simulations, mean value) for each legal move, after searching.

    With ``settle`` the search also stops early once the choice is settled (see ``settled``)."""
    moves = list(obs.legal)
    visits = [0] * len(moves)
    totals = [0.0] * len(moves)
    squares = [0.0] * len(moves)
    sampler = HandSampler(read_knowledge(obs))
    side = obs.side_of(obs.seat)
    deadline = clock() + budget_s
    sims = 0
    while sims < max_sims and (sims < len(moves) or clock() < deadline):
        world = sampler.sample(rng)
        state = cast(GameState, determinize(obs, world.hands, world.boneyard))
        i = _pick(visits, totals, sims)
        apply(state, obs.seat, moves[i])
        play_out(state, rng)
        value = match_value(state, side)
        visits[i] += 1
        totals[i] += value
        squares[i] += value * value
        sims += 1
        if settle and sims >= SETTLE_MIN and sims % SETTLE_EVERY == 0 and settled(visits, totals, squares):
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


def make_expert(
    budget_s: float = DEFAULT_BUDGET_S,
    max_sims: int = DEFAULT_MAX_SIMS,
    clock: Callable[[], float] = time.perf_counter,
) -> Bot:
    """An Expert that thinks for at most ``budget_s`` seconds or ``max_sims`` simulations a move."""

    def expert(obs: Observation, rng: random.Random) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        results = search(obs, rng, budget_s, max_sims, clock)
        return max(results, key=lambda r: (r[2], r[1]))[0]

    return expert


expert_bot = make_expert()
