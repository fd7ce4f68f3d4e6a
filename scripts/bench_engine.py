#!/usr/bin/env python3
"""Engine benchmark: random-play hands per second, median of several runs.

Measures lanomino's engine for 2-, 3- and 4-player Draw, Block, All Fives and the partnership
game, and compares it in the same run with the PyPI ``dominoes`` package on the only game that
package plays (4-player partnership Block): our ``partnership`` preset, plain random play. The
package is installed into a throwaway directory for this run only; lanomino does not depend on it.

    python scripts/bench_engine.py [--seconds 1.0] [--runs 5] [--no-reference]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lanomino.engine import TILES, Phase, Rules, apply, legal_actions, new_game, start_hand  # noqa: E402
from lanomino.engine.dealing import deal_for  # noqa: E402

# Hands are played inside whole matches to each preset's target, as at a real table.
CASES = [
    ("draw", 2, Rules.classic()),
    ("draw", 3, Rules.classic()),
    ("draw", 4, Rules.classic()),
    ("block", 2, Rules.block()),
    ("block", 3, Rules.block()),
    ("block", 4, Rules.block()),
    ("allfives", 2, Rules.allfives()),
    ("allfives", 4, Rules.allfives()),
    ("partnership block", 4, Rules.partnership_game()),
]

REFERENCE = r'''
import random, sys, time, statistics
import dominoes
seconds, runs = float(sys.argv[1]), int(sys.argv[2])
rates = []
for _ in range(runs):
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = dominoes.Game.new()
        while game.result is None:
            game.make_move(*random.choice(game.valid_moves))
        hands += 1
    rates.append(hands / (time.perf_counter() - start))
print(statistics.median(rates))
'''


def our_rate(rules: Rules, players: int, seconds: float, rng: random.Random) -> float:
    hands = 0
    deck = list(TILES)
    state = new_game(rules, players)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.phase is Phase.OVER:
            state = new_game(rules, players)
        rng.shuffle(deck)
        deal, boneyard = deal_for(state, deck)
        start_hand(state, deal, boneyard)
        while state.phase is Phase.PLAY:
            seat = state.turn
            apply(state, seat, rng.choice(legal_actions(state, seat)))
        hands += 1
    return hands / (time.perf_counter() - start)


def reference_rate(seconds: float, runs: int) -> float | None:
    with tempfile.TemporaryDirectory() as tmp:
        install = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--target", tmp, "dominoes"],
            capture_output=True, text=True,
        )
        if install.returncode != 0:
            print(f"reference unavailable: pip install dominoes failed: {install.stderr.strip()[-300:]}")
            return None
        out = subprocess.run(
            [sys.executable, "-c", REFERENCE, str(seconds), str(runs)],
            capture_output=True, text=True, env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"},
        )
        if out.returncode != 0:
            print(f"reference failed: {out.stderr.strip()[-300:]}")
            return None
        return float(out.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per case (median reported)")
    parser.add_argument("--no-reference", action="store_true", help="skip the dominoes package")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(2026)
    results: dict[str, float] = {}
    for name, players, rules in CASES:
        rates = [our_rate(rules, players, args.seconds, rng) for _ in range(args.runs)]
        results[f"{name} {players}p"] = statistics.median(rates)
        if not args.json:
            print(f"lanomino  {name:18} {players} players: {statistics.median(rates):9.0f} hands/s")
    ratio = None
    if not args.no_reference:
        ref = reference_rate(args.seconds, args.runs)
        if ref is not None:
            ours = results["partnership block 4p"]
            ratio = ours / ref
            results["dominoes package partnership block 4p"] = ref
            if not args.json:
                print(f"dominoes  partnership block   4 players: {ref:9.0f} hands/s")
                print(f"ratio (lanomino / dominoes) on partnership block: {ratio:.2f}x (goal >= 3x)")
    if args.json:
        print(json.dumps({"hands_per_second": results, "ratio": ratio}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
