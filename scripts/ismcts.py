"""The reference opponent for bench_bots.py: a textbook single-observer ISMCTS.

Written from Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE
TCIAIG 4(2), 2012), algorithm SO-ISMCTS, and not from the Expert's code. Each iteration:

1. Determinize: sample the hidden tiles (the other hands and the boneyard order) uniformly from
   those consistent with the observation, the voids that draws and passes revealed included. The
   sampler is ``lanomino.bots.knowledge.HandSampler``, the project's one observation-consistent
   sampler; nothing else here comes from the bots.
2. Select: from the root, while every move legal in this determinization already has a node,
   take the child maximising ``mean + C * sqrt(ln(availability) / visits)``, where a child's
   availability counts the iterations in which its move was legal at its parent. The tree's nodes
   are the searching player's information sets: an opponent's draw is one edge whatever tile it
   took, and opponents choose in the same tree on their own rewards. The searching player's own
   draw is a chance event it sees the outcome of: below its draw edge the tree branches on the
   tile drawn (one child per tile, chosen by the determinization, never by UCB1).
3. Expand one untried move (chosen at random), then roll out to the end of the hand with
   uniformly random legal moves.
4. Back up each side's reward into the nodes, each node keeping the reward of the side that moved
   into it, and raise the availability of every sibling that was legal.

The move played is the root child with the most visits. The reward of a finished hand is
``0.5 + margin / (2 * POINTS_SCALE)`` clipped to [0, 1], the margin being the side's points this
hand less the best other side's: points decide a match to 100, so a bare win/loss reward throws
most of the result away. The pilot runs that chose ``EXPLORE`` and the reward are in the README.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import cast

from lanomino.bots.knowledge import HandSampler, read_knowledge
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

EXPLORE = 0.4  # UCB1 constant C (rewards lie in [0, 1]); tuned on pilot runs (README)
POINTS_SCALE = 40.0  # a margin of this many points is a full win (reward 1) or loss (0)
REWARDS = ("points", "win")


class Node:
    """One information set of the searching player, reached by ``side``'s move."""

    __slots__ = ("children", "visits", "avail", "total", "side")

    def __init__(self, side: int) -> None:
        # Keyed by move; below the searcher's own draw, by the tile it drew.
        self.children: dict[Action | Tile, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.side = side


def hand_rewards(state: GameState, before: tuple[int, ...], reward: str) -> list[float]:
    """Every side's reward for the hand just finished in ``state``."""
    sides = len(before)
    if reward == "win":
        last = state.results[-1] if state.results else None
        winner = last.winner if last is not None else None
        if winner is None:
            return [0.5] * sides
        return [1.0 if s == winner else 0.0 for s in range(sides)]
    gains = [state.scores[s] - before[s] for s in range(sides)]
    out = []
    for s in range(sides):
        best_other = max(gains[o] for o in range(sides) if o != s)
        out.append(min(1.0, max(0.0, 0.5 + (gains[s] - best_other) / (2 * POINTS_SCALE))))
    return out


def ismcts(
    obs: Observation,
    rng: random.Random,
    budget_s: float,
    max_iters: int,
    explore: float = EXPLORE,
    reward: str = "points",
    clock: Callable[[], float] = time.perf_counter,
) -> Node:
    """Search from ``obs`` for ``budget_s`` seconds or ``max_iters`` iterations; the root."""
    sampler = HandSampler(read_knowledge(obs))
    root = Node(-1)
    before = tuple(obs.scores)
    deadline = clock() + budget_s
    iters = 0
    while iters < max_iters and (iters == 0 or clock() < deadline):
        world = sampler.sample(rng)
        state = cast(GameState, determinize(obs, world.hands, world.boneyard))
        node = root
        path = [root]
        while state.phase is Phase.PLAY:
            seat = state.turn
            legal = legal_actions(state, seat)
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            expanded = bool(untried)
            if expanded:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                node = children[action] = Node(state.side_of(seat))
                node.avail = 1  # available in this iteration, which tries it
            else:
                action = _ucb_choice(children, legal, explore)
                node = children[action]
            drawn = _own_draw(state, obs.seat, seat, action)
            apply(state, seat, action)
            path.append(node)
            if drawn is not None:  # the chance node's outcome: the tile the searcher drew
                outcome = node.children.get(drawn)
                if outcome is None:
                    outcome = node.children[drawn] = Node(node.side)
                    expanded = True
                path.append(outcome)
                node = outcome
            if expanded:
                break
        while state.phase is Phase.PLAY:
            seat = state.turn
            legal = legal_actions(state, seat)
            apply(state, seat, legal[0] if len(legal) == 1 else rng.choice(legal))
        rewards = hand_rewards(state, before, reward)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += rewards[visited.side]
        iters += 1
    root.visits = iters
    return root


def _own_draw(state: GameState, searcher: int, seat: int, action: Action) -> Tile | None:
    """The tile ``action`` draws when it is the searcher's own draw (it sees that tile), else
    None: an opponent's draw stays one edge, whatever it took."""
    if seat != searcher or not isinstance(action, Draw):
        return None
    return state.boneyard[state.drawn]


def _ucb_choice(
    children: dict[Action | Tile, Node], legal: Sequence[Action], explore: float
) -> Action:
    best = legal[0]
    best_score = -1.0
    for a in legal:
        c = children[a]
        score = c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
        if score > best_score:
            best, best_score = a, score
    return best


def make_ismcts(
    budget_s: float = 0.3,
    max_iters: int = 1_000_000,
    explore: float = EXPLORE,
    reward: str = "points",
    clock: Callable[[], float] = time.perf_counter,
    on_search: Callable[[int], None] | None = None,
) -> Callable[[Observation, random.Random], Action]:
    """The reference bot: SO-ISMCTS for ``budget_s`` seconds (or ``max_iters``) a move."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")

    def bot(obs: Observation, rng: random.Random) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        root = ismcts(obs, rng, budget_s, max_iters, explore, reward, clock)
        if on_search is not None:
            on_search(root.visits)
        legal = set(obs.legal)
        ranked = [(c.visits, -i, a) for i, (a, c) in enumerate(root.children.items()) if a in legal]
        return max(ranked)[2]

    return bot
