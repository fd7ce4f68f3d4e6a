#!/usr/bin/env python3
"""How good are a bot's single choices? Regret against an oracle, on fixed Draw positions.

Positions come from Hard's self-play (2-player Draw game, match scores drawn at random so that
the match value matters): every decision with at least two legal moves and something still
hidden is a candidate, and ``--positions`` of them are kept. The oracle values each legal move by
a paired flat search (every move played out in the same ``--worlds`` sampled worlds) with a
roll-out policy and Expert's match value (the race of hands, ``odds.py``). Each bot then
chooses ``--tries`` times per position at its own budget; a choice's regret is the oracle's best
value less that of the move chosen, in thousandths of a match. The first bot is the reference
for the others in the same run; a bot is named as in ``bench_bots.py``.

The oracle is a model (sampled worlds that fit the voids, a roll-out policy, the match value), not
the game's true value: a bot that shares the model is judged on its own terms, so run it with
more than one ``--policy``.

    python scripts/bench_regret.py [--bots ismcts:0.3,c=0.4 expert:0.3] [--positions 60]
        [--worlds 2000] [--tries 2] [--policy greedy] [--seed 5] [--clock thread]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

try:  # prefer the installed package: it may carry the compiled engine (see setup.py)
    import lanomino  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bots import CLOCKS, make_bot  # noqa: E402

from lanomino.bots import get_bot  # noqa: E402
from lanomino.bots.knowledge import HandSampler, read_knowledge  # noqa: E402
from lanomino.bots.paired import paired_search  # noqa: E402
from lanomino.bots.playout import ROLLOUTS  # noqa: E402
from lanomino.engine import (  # noqa: E402
    TILES,
    Observation,
    Phase,
    apply,
    new_game,
    observe,
    rules_from_cli,
    start_hand,
)


def positions(count: int, seed: int) -> list[Observation]:
    """``count`` Draw positions from Hard's self-play: searched decisions, random scores."""
    rules = rules_from_cli("classic", [])
    hard = get_bot("hard")
    rng = random.Random(seed)
    out: list[Observation] = []
    while len(out) < count:
        state = new_game(rules, 2)
        state.scores = [rng.randrange(0, 96), rng.randrange(0, 96)]
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, [deck[:7], deck[7:14]], deck[14:])
        candidates = []
        while state.phase is Phase.PLAY:
            obs = observe(state, state.turn)
            if len(obs.legal) > 1 and HandSampler(read_knowledge(obs)).count() > 1:
                candidates.append(obs)
            apply(state, state.turn, hard(obs, rng))
        if candidates:
            out.append(rng.choice(candidates))
    return out


def oracle(obs: Observation, worlds: int, policy: str, seed: int) -> dict[str, float]:
    """Each legal move's value (chance of winning the match), by move text."""
    sampler = HandSampler(read_knowledge(obs))
    found = paired_search(obs, random.Random(seed), sampler, 1e9, worlds * len(obs.legal),
                          time.perf_counter, policy, "odds", False)
    return {str(action): value for action, _, value in found}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["ismcts:0.3,c=0.4", "expert:0.3"])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--tries", type=int, default=2)
    parser.add_argument("--policy", choices=ROLLOUTS, default="greedy")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="thread")
    args = parser.parse_args()
    if args.positions < 1 or args.worlds < 1 or args.tries < 1:
        parser.error("--positions, --worlds and --tries are at least 1")
    try:
        bots = [make_bot(name, lambda sims: None, args.clock) for name in args.bots]
    except (KeyError, TypeError, ValueError) as exc:  # an unknown level, option or value
        parser.error(f"a bot in --bots: {exc}")
    began = time.perf_counter()
    table = positions(args.positions, args.seed)
    values = [oracle(obs, args.worlds, args.policy, args.seed + i) for i, obs in enumerate(table)]
    spread = statistics.mean(max(v.values()) - min(v.values()) for v in values)
    print(f"{len(table)} positions, oracle: {args.worlds} paired worlds a move, {args.policy} "
          f"roll-outs, match value; best less worst move {1000 * spread:.1f} thousandths a "
          f"position on average ({time.perf_counter() - began:.0f} s)")
    reference: list[float] = []
    for name, bot in zip(args.bots, bots, strict=True):
        regrets: list[float] = []
        best = 0
        for i, (obs, value) in enumerate(zip(table, values, strict=True)):
            for t in range(args.tries):
                chosen = str(bot(obs, random.Random(args.seed * 1_000 + i * 10 + t)))
                regret = max(value.values()) - value[chosen]
                regrets.append(1000 * regret)
                best += regret == 0
        mean = statistics.mean(regrets)
        se = statistics.stdev(regrets) / math.sqrt(len(regrets)) if len(regrets) > 1 else 0.0
        line = (f"  {name:24} regret {mean:5.2f} ± {se:4.2f} thousandths, the oracle's best "
                f"{best} of {len(regrets)}")
        if reference:
            diffs = [a - b for a, b in zip(regrets, reference, strict=True)]
            dse = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
            line += f"; against {args.bots[0]}: {statistics.mean(diffs):+.2f} ± {dse:.2f}"
        else:
            reference = regrets
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
