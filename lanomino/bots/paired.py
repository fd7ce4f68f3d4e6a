"""Expert's paired search: every candidate move is played out in the same sampled worlds.

Theory of operation: the flat search tries one move per sampled world, so two moves are compared
across different deals, and the luck of the deal is noise in their difference. Here each sampled
world is determinized once and every move still in contention is played from a copy of it, each
roll-out drawing from a generator seeded alike (common random numbers), so the deal's luck
cancels out of the differences as far as the hands stay alike after different moves. (Not far,
measured on Draw positions: the difference's variance was about a fifth below that of two
unpaired results; the larger gain is that the budget goes to the moves still in question.)

Every ``CHECK_EVERY`` worlds, a move whose paired difference from the best move is, at
``PRUNE_Z`` standard errors, a loss is dropped and is not played out again: the remaining worlds
go to the close calls. The search ends at the time budget or the simulation cap (counted in
roll-outs), when one move is left, or when every move left is, at ``PRUNE_Z`` standard errors,
within ``EQUAL_MARGIN`` of the best (it does not matter which is played). The move with the best
mean over every world is played; a dropped move is valued by the move it trailed (see
``paired_search``), so that a move dropped early on a few lucky worlds is not mistaken for the
best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import cast

from lanomino.bots.belief import WeightedSampler
from lanomino.bots.chance import seeded
from lanomino.bots.knowledge import HandSampler
from lanomino.bots.playout import play_out, side_values
from lanomino.engine import Action, GameState, Observation, apply
from lanomino.engine.observe import determinize

CHECK_EVERY = 8  # worlds between two looks at the differences
CHECK_MIN = 16  # worlds before the first look
PRUNE_Z = 3.0  # standard errors by which a move must trail the best to be dropped
EQUAL_MARGIN = 0.002  # a difference (of a match won) too small to matter
DIFF_FLOOR = 1e-6  # a variance floor per world, so identical results do not look certain


def paired_search(
    obs: Observation,
    rng: random.Random,
    sampler: HandSampler | WeightedSampler,
    budget_s: float,
    max_sims: int,
    clock: Callable[[], float],
    rollout: str = "auto",
    value: str = "match",
    settle: bool = True,
) -> list[tuple[Action, int, float]]:
    """(action, roll-outs, value) for each legal move: a move still in contention at the end has
    its mean over every world; a dropped move, the value of the move it trailed less the paired
    difference it trailed by, so that every value is on the same footing (the best value is the
    move to play). Without ``settle`` it uses the whole budget, pruning nothing."""
    moves = list(obs.legal)
    results: list[list[float]] = [[] for _ in moves]
    live = list(range(len(moves)))
    side = obs.side_of(obs.seat)
    before = tuple(obs.scores)
    deadline = clock() + budget_s
    sims = 0
    worlds = 0
    dropped: list[tuple[int, int, float]] = []
    while sims + len(live) <= max(max_sims, len(live)) and (worlds == 0 or clock() < deadline):
        world = sampler.sample(rng)
        base = cast(GameState, determinize(obs, world.hands, world.boneyard))
        seed = rng.getrandbits(64)
        for i in live:
            state = base.copy()
            apply(state, obs.seat, moves[i])
            play_out(state, seeded(seed), rollout)
            results[i].append(side_values(state, before, value)[side])
        sims += len(live)
        worlds += 1
        if settle and worlds >= CHECK_MIN and worlds % CHECK_EVERY == 0:
            live, done = prune(results, live, dropped)
            if done:
                break
    values = [sum(r) / len(r) if r else 0.0 for r in results]
    for i, best, trail in reversed(dropped):  # ``best`` was dropped later, or never
        values[i] = values[best] - trail
    return [(m, len(r), v) for m, r, v in zip(moves, results, values, strict=True)]


def prune(
    results: Sequence[Sequence[float]],
    live: list[int],
    dropped: list[tuple[int, int, float]],
) -> tuple[list[int], bool]:
    """The moves still in contention, and whether the search may stop (one left, or the rest
    are, with confidence, as good as the best). Every move in ``live`` has one result for each
    world so far. Appends (move, best move, mean difference) to ``dropped`` for each move
    dropped."""
    best = max(live, key=lambda i: sum(results[i]))
    keep = [best]
    all_equal = True
    for i in live:
        if i == best:
            continue
        mean, se = _paired(results[best], results[i])
        if mean > PRUNE_Z * se:
            dropped.append((i, best, mean))  # clearly worse than the best
            continue
        keep.append(i)
        if mean + PRUNE_Z * se > EQUAL_MARGIN:
            all_equal = False
    keep.sort()
    return keep, len(keep) == 1 or all_equal


def _paired(best: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``best - other``, world by world."""
    total = 0.0
    squares = 0.0
    n = len(best)
    for x, y in zip(best, other, strict=True):
        d = x - y
        total += d
        squares += d * d
    mean = total / n
    if n < 2:
        return mean, 1.0
    variance = max(squares - n * mean * mean, 0.0) / (n - 1)
    return mean, math.sqrt((variance + DIFF_FLOOR) / n)


def best_paired(results: Sequence[tuple[Action, int, float]]) -> Action:
    """The move to play: the best value (a move still in contention: see ``paired_search``),
    ties to the move played out more."""
    return max(results, key=lambda r: (r[2], r[1]))[0]
