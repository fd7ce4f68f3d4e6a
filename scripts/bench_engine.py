#!/usr/bin/env python3
"""Engine benchmark: random-play hands per second, median of several runs.

Measures lanomino's engine for 2-, 3- and 4-player Draw, Block, All Fives and the partnership
game, and compares it in the same run with the PyPI ``dominoes`` package on the only game that
package plays (4-player partnership Block): our ``partnership`` preset, plain random play. The
package is installed into a throwaway directory for this run only; lanomino does not depend on it.

Then whole processes, as a user runs them: ``lanomino selfplay`` with four random bots on
partnership Block, one hand per match, against a process that plays the same number of hands with
the package's own random play; the two alternate (A B A B) and the medians of their CPU time
(user + system) and wall time are compared.

With ``--expert`` it also prints what Expert's search makes of the engine's speed: simulations
per decision at its default budget, and per CPU second, on 12 fixed mid-hand positions.

    python scripts/bench_engine.py [--seconds 1.0] [--runs 5] [--no-reference]
        [--hands 6000] [--process-runs 3] [--no-process] [--expert]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:  # prefer the installed package: it may carry the compiled engine (see setup.py)
    import lanomino
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import lanomino

from lanomino.engine import (  # noqa: E402
    TILES,
    Observation,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game,
    observe,
    start_hand,
)
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

# Both loops pick a move uniformly with int(random() * n), which costs a third of random.choice:
# the figures then measure the engines rather than the random module. The package deals (and
# shuffles) in Game.new(), as our loop shuffles a deck for each hand.
#
# The reference loop
# It reads one line per run ("go") on stdin so that its runs interleave with ours in time.
REFERENCE = r'''
import random, sys, time
import dominoes
seconds = float(sys.argv[1])
for line in sys.stdin:
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = dominoes.Game.new()
        while game.result is None:
            moves = game.valid_moves
            game.make_move(*moves[int(random.random() * len(moves))])
        hands += 1
    print(hands / (time.process_time() - start), flush=True)
'''

# The package's random play as a whole process: argv[1] hands, then exit.
REFERENCE_PROCESS = r'''
import random, sys
import dominoes
for _ in range(int(sys.argv[1])):
    game = dominoes.Game.new()
    while game.result is None:
        moves = game.valid_moves
        game.make_move(*moves[int(random.random() * len(moves))])
'''


def our_rate(rules: Rules, players: int, seconds: float, rng: random.Random) -> float:
    hands = 0
    deck = list(TILES)
    state = new_game(rules, players)
    playing = Phase.PLAY
    start = time.process_time()
    while time.process_time() - start < seconds:
        if state.phase is Phase.OVER:
            state = new_game(rules, players)
        rng.shuffle(deck)
        deal, boneyard = deal_for(state, deck)
        start_hand(state, deal, boneyard)
        while state.phase is playing:
            seat = state.turn
            moves = legal_actions(state, seat)
            apply(state, seat, moves[int(rng.random() * len(moves))])
        hands += 1
    return hands / (time.process_time() - start)


class Reference:
    """The ``dominoes`` package in a child process with its own throwaway install."""

    def __init__(self, seconds: float) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        install = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--target", self.tmp.name, "dominoes"],
            capture_output=True, text=True,
        )
        if install.returncode != 0:
            raise RuntimeError(f"pip install dominoes failed: {install.stderr.strip()[-300:]}")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", REFERENCE, str(seconds)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=self.env(),
        )

    def env(self) -> dict[str, str]:
        return {"PYTHONPATH": self.tmp.name, "PATH": "/usr/bin:/bin"}

    def rate(self) -> float:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the reference process died")
        return float(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.tmp.cleanup()


def whole_processes(reference: Reference, hands: int, runs: int) -> dict[str, float]:
    """``lanomino selfplay`` (this script's lanomino) against the package's random play, as whole
    processes, interleaved; medians of CPU and wall seconds."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_startup import compare

    env = {**os.environ, "PYTHONPATH": str(Path(lanomino.__file__).resolve().parent.parent)}
    ours = [sys.executable, "-m", "lanomino", "selfplay", "--rules", "partnership", "--set",
            "target=0", "--players", "4", "--games", str(hands), "--seed", "1", "--bots",
            "random,random,random,random"]
    theirs = [sys.executable, "-c", REFERENCE_PROCESS, str(hands)]
    # compare() gives ours/reference; here the ratio that matters is reference time / ours.
    return compare(ours, theirs, runs, env, reference.env())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per case (median reported)")
    parser.add_argument("--no-reference", action="store_true", help="skip the dominoes package")
    parser.add_argument("--hands", type=int, default=6000, help="hands per whole-process run")
    parser.add_argument("--process-runs", type=int, default=3, help="whole-process runs of each")
    parser.add_argument("--no-process", action="store_true", help="skip the whole-process runs")
    parser.add_argument("--expert", action="store_true", help="also Expert's simulations per move")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(2026)
    results: dict[str, float] = {}
    import lanomino.engine.state as engine_state

    compiled = not engine_state.__file__.endswith(".py")
    if not args.json:
        kind = "compiled with mypyc" if compiled else "pure Python"
        print(f"engine: {kind} ({engine_state.__file__})")
    for name, players, rules in CASES:
        rates = [our_rate(rules, players, args.seconds, rng) for _ in range(args.runs)]
        results[f"{name} {players}p"] = statistics.median(rates)
        if not args.json:
            print(f"lanomino  {name:18} {players} players: {statistics.median(rates):9.0f} hands/s")
    ratio = None
    if not args.no_reference:
        try:
            reference = Reference(args.seconds)
        except RuntimeError as exc:
            print(f"reference unavailable: {exc}")
        else:
            # Interleave our runs with the package's so that both see the same machine load.
            ours_runs, ref_runs = [], []
            partnership = Rules.partnership_game()
            process = None
            try:
                for _ in range(args.runs):
                    ours_runs.append(our_rate(partnership, 4, args.seconds, rng))
                    ref_runs.append(reference.rate())
                if not args.no_process:
                    process = whole_processes(reference, args.hands, args.process_runs)
            finally:
                reference.close()
            ours, ref = statistics.median(ours_runs), statistics.median(ref_runs)
            ratio = ours / ref
            results["interleaved partnership block 4p"] = ours
            results["dominoes package partnership block 4p"] = ref
            if not args.json:
                game = "partnership block"
                print(f"lanomino  {game}   4 players: {ours:9.0f} hands/s (interleaved runs)")
                print(f"dominoes  {game}   4 players: {ref:9.0f} hands/s (interleaved runs)")
                print(f"ratio (lanomino / dominoes) on {game}: {ratio:.2f}x (goal >= 3x)")
            if process is not None:
                results["process cpu s"] = process["ours_cpu"]
                results["dominoes process cpu s"] = process["ref_cpu"]
                process_ratio = process["ref_cpu"] / process["ours_cpu"]
                if not args.json:
                    print_process(process, args.hands, args.process_runs, ratio, process_ratio)
    if args.expert:
        per_decision, per_second = expert_sims()
        results["expert sims per decision"] = per_decision
        results["expert sims per cpu second"] = per_second
        if not args.json:
            print(f"Expert at its default budget: {per_decision:.0f} simulations per decision "
                  f"(median of 12), {per_second:.0f} per CPU second")
    if args.json:
        print(json.dumps({"hands_per_second": results, "ratio": ratio, "compiled": compiled}))
    return 0


def expert_positions(rules: Rules, players: int, seed: int, count: int) -> list[Observation]:
    """Observations of ``count`` positions a few random moves into a hand, with a choice to make."""
    rng = random.Random(seed)
    found: list[Observation] = []
    while len(found) < count:
        state = new_game(rules, players)
        deck = list(TILES)
        rng.shuffle(deck)
        start_hand(state, *deal_for(state, deck))
        for _ in range(rng.randrange(2, 9)):
            if state.phase is not Phase.PLAY:
                break
            moves = legal_actions(state, state.turn)
            apply(state, state.turn, moves[rng.randrange(len(moves))])
        if state.phase is Phase.PLAY and len(legal_actions(state, state.turn)) > 1:
            found.append(observe(state, state.turn))
    return found


def expert_sims() -> tuple[float, float]:
    """(median simulations per decision, simulations per CPU second) of Expert's search at its
    default budget over fixed Draw, partnership and All Fives positions."""
    from lanomino.bots.expert import DEFAULT_BUDGET_S, search

    sims: list[int] = []
    start = time.process_time()
    games = ((Rules.classic(), 2), (Rules.partnership_game(), 4), (Rules.allfives(), 3))
    for rules, players in games:
        for obs in expert_positions(rules, players, 7, 4):
            results = search(obs, random.Random(1), DEFAULT_BUDGET_S)
            sims.append(sum(visits for _, visits, _ in results))
    return statistics.median(sims), sum(sims) / (time.process_time() - start)


def print_process(p: dict[str, float], hands: int, runs: int, loop: float, ratio: float) -> None:
    print(f"whole processes, {hands} hands of partnership block, 4 random players "
          f"(median of {runs}, interleaved):")
    print(f"  lanomino selfplay   {p['ours_cpu']:6.2f} s CPU {p['ours_wall']:6.2f} s wall "
          f"({hands / p['ours_cpu']:.0f} hands per CPU second)")
    print(f"  dominoes            {p['ref_cpu']:6.2f} s CPU {p['ref_wall']:6.2f} s wall "
          f"({hands / p['ref_cpu']:.0f} hands per CPU second)")
    print(f"ratio (dominoes time / lanomino time): {ratio:.2f}x CPU, "
          f"{p['ref_wall'] / p['ours_wall']:.2f}x wall (goal >= 3x compiled, >= 1.5x pure); "
          f"engine loop {loop:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
