"""Expert's tree search over information sets (single observer).

Theory of operation: every simulation samples one world (the hidden hands and the boneyard order)
from the ``HandSampler`` and walks a tree whose nodes are Expert's information sets: one edge per
move as Expert would see it made, so an opponent's draw is one edge whichever tile it took, while
below Expert's own draw the tree branches on the tile drawn (Expert will see it). At a
node, a move legal in this world that has no child yet is tried first; once every legal move has
one, UCB1 picks among them, counting for each child only the simulations in which its move was
legal (its availability). Each seat chooses on its own side's values. Below the tree the world is
played out with ``playout``'s policy, or solved exactly when its endgame is small, and every side's
value (its chance of winning the match, by default) is backed up. The root's most visited move is
played.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import cast

from lanomino.bots.belief import WeightedSampler
from lanomino.bots.knowledge import HandSampler
from lanomino.bots.playout import TooBig, can_solve, play_out, rollout_choice, side_values, solve
from lanomino.engine import (
    Action,
    Draw,
    GameState,
    Observation,
    Phase,
    Tile,
    apply,
    legal_actions,
)
from lanomino.engine.observe import determinize

TREE_EXPLORE = 0.5  # UCB1 constant; values lie in [0, 1]
# With ``adapt``: the exploration term scales with the values' spread, since the match value of a
# hand moves by 0.3 near a close finish but by 0.01 when one side all but has the match won, and
# one constant cannot suit both. ADAPT_START is the spread assumed before any value is seen,
# ADAPT_FLOOR the least spread used, so that a decided match still explores a little.
ADAPT_START = 0.2
ADAPT_FLOOR = 0.01
SOLVE_LIMIT = 4000  # positions an exact endgame may visit before it falls back to a rollout


class Node:
    """One of Expert's information sets, reached by a move of ``side``."""

    __slots__ = ("children", "visits", "avail", "total", "side")

    def __init__(self, side: int) -> None:
        # Keyed by move; below Expert's own draw, by the tile drawn.
        self.children: dict[Action | Tile, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.side = side


def tree_search(
    obs: Observation,
    rng: random.Random,
    sampler: HandSampler | WeightedSampler,
    budget_s: float,
    max_sims: int,
    clock: Callable[[], float] = time.perf_counter,
    explore: float = TREE_EXPLORE,
    rollout: str = "auto",
    value: str = "match",
    endgame: int = 0,
    adapt: bool = False,
    prior: bool = False,
) -> list[tuple[Action, int, float]]:
    """(action, simulations, mean value) for each legal move at the root, after searching.

    With ``adapt`` the exploration term is ``explore`` times the standard deviation of the
    values seen so far (see ``spread``), instead of ``explore`` alone; with ``prior`` a node's
    moves are first tried in the order the roll-out policy prefers (see ``_descend``)."""
    root = Node(-1)
    before = tuple(obs.scores)
    side = obs.side_of(obs.seat)
    deadline = clock() + budget_s
    sims = 0
    total = squares = 0.0
    c = explore * ADAPT_START if adapt else explore
    while sims < max_sims and (sims < len(obs.legal) or clock() < deadline):
        world = sampler.sample(rng)
        state = cast(GameState, determinize(obs, world.hands, world.boneyard))
        path = _descend(root, state, rng, c, obs.seat, prior)
        values = _finish(state, rng, rollout, value, endgame, side, before)
        for node in path:
            node.visits += 1
            node.total += values[node.side]
        sims += 1
        if adapt:
            got = values[side]
            total += got
            squares += got * got
            c = explore * spread(total, squares, sims)
    out = []
    for action in obs.legal:
        child = root.children.get(action)
        visits = child.visits if child else 0
        out.append((action, visits, child.total / visits if child and visits else 0.0))
    return out


def spread(total: float, squares: float, n: int) -> float:
    """The standard deviation of ``n`` values with this sum and sum of squares, at least
    ``ADAPT_FLOOR``; ``ADAPT_START`` before two values are in."""
    if n < 2:
        return ADAPT_START
    mean = total / n
    return max(ADAPT_FLOOR, math.sqrt(max(squares / n - mean * mean, 0.0)))


def _descend(
    root: Node, state: GameState, rng: random.Random, explore: float, me: int = -1,
    prior: bool = False,
) -> list[Node]:
    """Walk (and grow by one node) the tree along ``state``'s world; the nodes passed. Below a
    draw by seat ``me`` (the searcher) the next node is that of the tile drawn. A new node is
    for a move chosen at random among those not tried yet, or with ``prior`` the one the
    roll-out policy would choose."""
    node = root
    path: list[Node] = []
    while state.phase is Phase.PLAY:
        seat = state.turn
        legal = legal_actions(state, seat)
        children = node.children
        untried = [a for a in legal if a not in children]
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.avail += 1
        grown = bool(untried)
        if grown:
            if len(untried) == 1:
                action = untried[0]
            else:
                action = rollout_choice(state, untried, rng) if prior else rng.choice(untried)
            node = children[action] = Node(state.side_of(seat))
        else:
            action = _ucb(children, legal, explore)
            node = children[action]
        drawn = state.boneyard[state.drawn] if seat == me and isinstance(action, Draw) else None
        apply(state, seat, action)
        path.append(node)
        if drawn is not None:
            outcome = node.children.get(drawn)
            if outcome is None:
                outcome = node.children[drawn] = Node(node.side)
                grown = True
            node = outcome
            path.append(node)
        if grown:
            return path
    return path


def _ucb(children: dict[Action | Tile, Node], legal: Sequence[Action], explore: float) -> Action:
    best = legal[0]
    best_score = -1.0
    for a in legal:
        c = children[a]
        score = c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
        if score > best_score:
            best, best_score = a, score
    return best


def _finish(state: GameState, rng: random.Random, rollout: str, value: str, endgame: int,
            side: int, before: Sequence[int]) -> list[float]:
    """Every side's value once ``state``'s hand is played out (or solved)."""
    if endgame and can_solve(state, endgame):
        try:
            v = solve(state, side, value, before, SOLVE_LIMIT)
        except TooBig:
            pass
        else:
            return [v, 1.0 - v] if side == 0 else [1.0 - v, v]
    play_out(state, rng, rollout)
    return side_values(state, before, value)
