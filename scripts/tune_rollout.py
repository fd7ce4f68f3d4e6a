#!/usr/bin/env python3
"""Tune the weights of Expert's greedy roll-out policy (``playout.Weights``) by self-play.

Both players of a 2-player hand follow ``playout.greedy_choice`` and see the next seat's hand, as
every seat does in a roll-out. A candidate plays the current weights on the same deals twice,
seats swapped (duplicate hands), and is kept when it scores more than ``--keep`` points a hand
more. A coordinate hill climb: each weight is moved up and down by its step; when a round keeps
nothing, every step is halved. At the end the result plays the starting weights on fresh deals.

    python scripts/tune_rollout.py [--rules classic] [--deals 10000] [--rounds 8] [--from greedy]
        [--check WEIGHTS]

``--check`` skips the climb and plays the comma-separated weights (in ``Weights`` field order;
the All Fives pair may be left out)
against ``--from``. Deterministic for its arguments: every duel's deals and tie-breaks are seeded.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

try:  # prefer the installed package: it may carry the compiled engine (see setup.py)
    import lanomino  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lanomino.bots.playout import GREEDY, TUNED, Weights, greedy_choice  # noqa: E402
from lanomino.engine import (  # noqa: E402
    TILES,
    Action,
    GameState,
    HandEnded,
    Phase,
    Tile,
    apply,
    legal_actions,
    new_game,
    rules_from_cli,
    start_hand,
)
from lanomino.engine.rules import Rules  # noqa: E402

Policy = Callable[[GameState, Sequence[Action], random.Random], Action]
STEPS = Weights(pips=0.5, double=2.0, block=3.0, keep=2.0, fits=1.0, control=1.0, noise=0.5,
                fives=0.5, reply=0.5)
STARTS = {"greedy": GREEDY, "tuned": TUNED}


def policy(w: Weights) -> Policy:
    return lambda state, actions, rng: greedy_choice(state, actions, rng, w, True)


def hand_margin(rules: Rules, deck: list[Tile], first: Policy, second: Policy,
                rng: random.Random) -> int:
    """Seat 0's points less seat 1's after one hand of ``deck``'s deal."""
    state = new_game(rules, 2)
    size = rules.hand_size_for(2)
    start_hand(state, [deck[:size], deck[size : 2 * size]], deck[2 * size :])
    policies = (first, second)
    while state.phase is Phase.PLAY:
        seat = state.turn
        actions = legal_actions(state, seat)
        action = actions[0] if len(actions) == 1 else policies[seat](state, actions, rng)
        apply(state, seat, action)
    ended = [r for r in state.results if isinstance(r, HandEnded)][-1]
    return ended.points[0] - ended.points[1]


def duel(a: Weights, b: Weights, rules: Rules, deals: int, seed: int) -> float:
    """A's mean points margin per hand over ``deals`` deals, each played twice, seats swapped."""
    pa, pb = policy(a), policy(b)
    rng = random.Random(seed)
    total = 0
    for i in range(deals):
        deck = list(TILES)
        random.Random(seed * 1_000_003 + i).shuffle(deck)
        total += hand_margin(rules, deck, pa, pb, rng) - hand_margin(rules, deck, pb, pa, rng)
    return total / (2 * deals)


def climb(start: Weights, rules: Rules, deals: int, rounds: int, keep: float) -> Weights:
    best = start
    steps = STEPS
    names = [f.name for f in dataclasses.fields(Weights)]
    for r in range(rounds):
        kept = False
        for name in names:
            for sign in (1.0, -1.0):
                moved = getattr(best, name) + sign * getattr(steps, name)
                candidate = dataclasses.replace(best, **{name: moved})
                margin = duel(candidate, best, rules, deals, 100 + r)
                if margin > keep:
                    print(f"round {r}: {name} {getattr(best, name):g} -> {moved:g}, "
                          f"{margin:+.2f} points a hand", flush=True)
                    best, kept = candidate, True
                    break
        if not kept:
            steps = Weights(*(getattr(steps, n) / 2 for n in names))
            print(f"round {r}: nothing kept, steps halved", flush=True)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--keep", type=float, default=0.15, help="points a hand to keep a step")
    parser.add_argument("--from", dest="start", choices=sorted(STARTS), default="greedy")
    parser.add_argument("--check", help="comma-separated weights to play against --from")
    args = parser.parse_args()
    rules = rules_from_cli(args.rules, [])
    start = STARTS[args.start]
    began = time.perf_counter()
    if args.check:
        try:
            found = Weights(*(float(x) for x in args.check.split(",")))
        except (TypeError, ValueError) as exc:
            names = ", ".join(f.name for f in dataclasses.fields(Weights))
            parser.error(f"--check takes the weights {names} (the last two may be left out): "
                         f"{exc}")
    else:
        found = climb(start, rules, args.deals, args.rounds, args.keep)
    margin = duel(found, start, rules, 4 * args.deals, 99)
    print(f"{found}\n  against {args.start} on {4 * args.deals} fresh deals: {margin:+.2f} points "
          f"a hand ({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
