#!/usr/bin/env python3
"""Strength ladder: whole matches between two bot levels, with Wilson 95% intervals.

Bot A and bot B play matches to the preset's target; seats alternate from match to match (and
with them who holds the lead), and in a 4-seat game A's seats are 0 and 2 (a partnership) or 1
and 3. Prints A's match and hand win rates with Wilson 95% intervals and the mean and largest think
time per move for each level. A level may carry an Expert budget: ``expert:0.1``.

    python scripts/bench_bots.py --a normal --b easy --matches 1000 [--rules classic] [--players 2]
        [--set k=v ...] [--workers 2] [--seed 1] [--sims N]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

try:  # prefer the installed package: it may carry the compiled engine (see setup.py)
    import lanomino  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lanomino.bots import Bot, get_bot  # noqa: E402
from lanomino.bots.expert import DEFAULT_MAX_SIMS, make_expert  # noqa: E402
from lanomino.engine import (  # noqa: E402
    TILES,
    HandEnded,
    Phase,
    Rules,
    apply,
    new_game,
    observe,
    rules_from_cli,
    start_hand,
)


def make_bot(level: str, sims: int) -> Bot:
    name, _, budget = level.partition(":")
    if name == "expert":
        return make_expert(budget_s=float(budget) if budget else 0.3, max_sims=sims)
    return get_bot(name)


@dataclass(frozen=True)
class MatchOutcome:
    a_won: float  # 1, 0, or 0.5 when nobody won
    hands: int
    a_hands: int  # hands won by A's side
    think: dict[str, list[float]]  # "a"/"b" -> seconds per decision


def play_match(rules: Rules, players: int, a: str, b: str, index: int, seed: int, sims: int) -> MatchOutcome:
    """Match ``index``: A sits in the even seats on even matches and the odd seats on odd ones."""
    rng = random.Random(seed * 1_000_003 + index)
    a_seats = {s for s in range(players) if s % 2 == index % 2} if players == 4 else {index % players}
    bots = {"a": make_bot(a, sims), "b": make_bot(b, sims)}
    owner = ["a" if s in a_seats else "b" for s in range(players)]
    seat_rngs = [random.Random(rng.getrandbits(64)) for _ in range(players)]
    think: dict[str, list[float]] = {"a": [], "b": []}
    state = new_game(rules, players)
    size = rules.hand_size_for(players)
    while state.phase is not Phase.OVER:
        deck = list(TILES)
        rng.shuffle(deck)
        deal = [deck[i * size : (i + 1) * size] for i in range(players)]
        start_hand(state, deal, deck[players * size :])
        while state.phase is Phase.PLAY:
            seat = state.turn
            obs = observe(state, seat)
            started = time.perf_counter()
            action = bots[owner[seat]](obs, seat_rngs[seat])
            think[owner[seat]].append(time.perf_counter() - started)
            apply(state, seat, action)
    assert state.outcome is not None
    a_sides = {state.side_of(s) for s in a_seats}
    winner = state.outcome.winner
    a_hands = sum(1 for r in state.results if isinstance(r, HandEnded) and r.winner in a_sides)
    a_won = 0.5 if winner is None else float(winner in a_sides)
    return MatchOutcome(a_won, len(state.results), a_hands, think)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _job(args: tuple[Rules, int, str, str, int, int, int]) -> MatchOutcome:
    return play_match(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="level of bot A (easy, normal, hard, expert[:budget_s])")
    parser.add_argument("--b", required=True, help="level of bot B")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--set", action="append", default=[], metavar="K=V")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sims", type=int, default=DEFAULT_MAX_SIMS, help="Expert's simulation cap")
    args = parser.parse_args()
    rules = rules_from_cli(args.rules, args.set)
    players = args.players or (4 if rules.partnership else 2)
    jobs = [(rules, players, args.a, args.b, i, args.seed, args.sims) for i in range(args.matches)]
    started = time.perf_counter()
    outcomes: list[MatchOutcome] = []
    with multiprocessing.Pool(args.workers) as pool:
        for outcome in pool.imap(_job, jobs, chunksize=1):
            outcomes.append(outcome)
            done = len(outcomes)
            if done % max(1, args.matches // 20) == 0:  # progress on stderr, about every 5%
                won = sum(o.a_won for o in outcomes)
                plo, phi = wilson(won, done)
                print(f"  {done}/{args.matches} matches, A {won / done:.1%} [{plo:.1%}, {phi:.1%}], "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    n = len(outcomes)
    wins = sum(o.a_won for o in outcomes)
    hands = sum(o.hands for o in outcomes)
    a_hands = sum(o.a_hands for o in outcomes)
    lo, hi = wilson(wins, n)
    hlo, hhi = wilson(a_hands, hands)
    print(f"{args.a} vs {args.b}, {args.rules} {' '.join(args.set)}, {players} players, {n} matches to {rules.target}")
    print(f"  A match wins {wins / n:6.1%}  95% [{lo:.1%}, {hi:.1%}]")
    print(f"  A hand wins  {a_hands / hands:6.1%}  95% [{hlo:.1%}, {hhi:.1%}]  ({hands} hands)")
    for key, level in (("a", args.a), ("b", args.b)):
        times = [t for o in outcomes for t in o.think[key]]
        if times:
            print(f"  {level:>12}: mean {1000 * sum(times) / len(times):7.2f} ms/move, "
                  f"max {1000 * max(times):7.1f} ms over {len(times)} moves")
    print(f"  wall {wall:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
