#!/usr/bin/env python3
"""Strength ladder: whole matches between two bots, as duplicate pairs, with Wilson 95% intervals.

Matches come in duplicate pairs: match 2k and match 2k+1 get the same deals, hand by hand, with
the seats swapped (A in seat 0 then seat 1; in a 4-seat game A holds seats 0 and 2, then 1 and
3), so the luck of the deal cancels out of a pair. A bot is named ``level[:budget_s][@sims]``
plus ``,key=value`` options: ``expert:0.3`` (0.3 s a move), ``ismcts@200`` (200 iterations a
move, no clock), ``ismcts:0.1,c=0.5,reward=win``, ``expert:0.1,settle=0``. ``ismcts`` is the
reference single-observer ISMCTS in ``scripts/ismcts.py``. Both bots get the same clock, so
``--a expert:0.3 --b ismcts:0.3`` is equal time per decision: wall time by default, or with
``--clock thread`` the CPU time of the thread that thinks, which other jobs on a loaded machine
cannot take from either side (so a run at ``nice -n 19`` is still fair between the two bots;
only the whole run takes longer).

Prints A's match and hand win rates with Wilson 95% intervals, how the duplicate pairs split,
points per hand for each side, simulations per searched decision and think time per decision.

    python scripts/bench_bots.py --a expert:0.3 --b ismcts:0.3 --matches 400 [--rules classic]
        [--players 2] [--set k=v ...] [--workers 2] [--seed 1] [--clock wall|cpu|thread]
        [--minutes M] [--save FILE]

``--minutes`` (or ^C) stops a long run and reports the duplicate pairs finished so far.
``--save FILE`` keeps every finished match in FILE (JSON lines) and, run again with the same
bots, rules, seed, clock and code, plays only the matches FILE does not hold yet and reports
them all: a run of several CPU-hours can be taken in parts, on this machine or another. A change
to the bots', the engine's or the reference's code starts a new series in the same file.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

try:  # prefer the installed package: it may carry the compiled engine (see setup.py)
    import lanomino  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ismcts import EXPLORE, make_ismcts  # noqa: E402

from lanomino.bots import Bot, get_bot  # noqa: E402
from lanomino.bots.expert import Settings, make_expert  # noqa: E402
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

NO_CLOCK_S = 1e9  # the budget of a bot given only a simulation count


def parse_level(level: str) -> tuple[str, float | None, int | None, dict[str, str]]:
    """``name[:budget_s][@sims][,k=v...]`` -> (name, budget, sims, options). Raises ValueError."""
    head, *opts = level.split(",")
    head, _, sims = head.partition("@")
    name, _, budget = head.partition(":")
    options = dict(o.split("=", 1) for o in opts)
    return name, float(budget) if budget else None, int(sims) if sims else None, options


# "thread" is the calling thread's CPU time: what the bot itself computed, whatever else the
# machine (or this process's other threads) did meanwhile. Under load, at any nice level, both
# bots of a match then get the same thinking per decision; "cpu" (the process's CPU time) is
# the same in a single-threaded worker.
CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
    "thread": time.thread_time,
}


def make_bot(level: str, on_search: Callable[[int], None], clock: str = "wall") -> Bot:
    """The bot named by ``level`` (see the module docstring); it reports simulations per search
    and times itself by ``clock``: "wall", "cpu" (this process's CPU time) or "thread" (this
    thread's CPU time), so that other jobs on a shared machine do not shorten its thinking."""
    name, budget, sims, options = parse_level(level)
    budget_s = budget if budget is not None else (NO_CLOCK_S if sims else 0.3)
    if name == "ismcts":
        unknown = set(options) - {"c", "reward"}
        if unknown:
            raise ValueError(f"ismcts takes c= and reward=, not {', '.join(sorted(unknown))}")
        return make_ismcts(
            budget_s=budget_s,
            max_iters=sims or 10_000_000,
            explore=float(options.get("c", EXPLORE)),
            reward=options.get("reward", "points"),
            on_search=on_search,
            clock=CLOCKS[clock],
        )
    if name == "expert":
        flags = {f.name for f in fields(Settings) if isinstance(f.default, bool)}
        kwargs: dict[str, Any] = {
            k: bool(_number(v)) if k in flags else _number(v) for k, v in options.items()
        }
        if sims:
            kwargs["max_sims"] = sims
        return make_expert(
            budget_s=budget_s, on_search=on_search, clock=CLOCKS[clock], **kwargs
        )
    return get_bot(name)


def _number(text: str) -> float | int | str:
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text


@dataclass
class MatchOutcome:
    a_won: float  # 1, 0, or 0.5 when nobody won
    hands: int
    a_hands: int  # hands won by A's side
    a_points: int  # points A's side scored, all hands
    b_points: int  # points the best other side scored
    think: dict[str, list[float]] = field(default_factory=dict)  # "a"/"b" -> s per decision
    sims: dict[str, list[int]] = field(default_factory=dict)  # "a"/"b" -> sims per search


def play_match(
    rules: Rules, players: int, a: str, b: str, index: int, seed: int, clock: str
) -> MatchOutcome:
    """Match ``index``: the deals of pair ``index // 2``; A in the even seats on even matches."""
    deck_rng = random.Random(seed * 1_000_003 + index // 2)
    seat_rng = random.Random(seed * 7_000_001 + index)
    a_seats = {s for s in range(players) if s % 2 == index % 2} if players == 4 else {index % 2}
    sims: dict[str, list[int]] = {"a": [], "b": []}
    bots = {"a": make_bot(a, sims["a"].append, clock), "b": make_bot(b, sims["b"].append, clock)}
    owner = ["a" if s in a_seats else "b" for s in range(players)]
    seat_rngs = [random.Random(seat_rng.getrandbits(64)) for _ in range(players)]
    think: dict[str, list[float]] = {"a": [], "b": []}
    timer = CLOCKS[clock]
    state = new_game(rules, players)
    size = rules.hand_size_for(players)
    while state.phase is not Phase.OVER:
        deck = list(TILES)
        deck_rng.shuffle(deck)
        deal = [deck[i * size : (i + 1) * size] for i in range(players)]
        start_hand(state, deal, deck[players * size :])
        while state.phase is Phase.PLAY:
            seat = state.turn
            obs = observe(state, seat)
            started = timer()
            action = bots[owner[seat]](obs, seat_rngs[seat])
            think[owner[seat]].append(timer() - started)
            apply(state, seat, action)
    assert state.outcome is not None
    a_sides = {state.side_of(s) for s in a_seats}
    winner = state.outcome.winner
    ended = [r for r in state.results if isinstance(r, HandEnded)]
    a_hands = sum(1 for r in ended if r.winner in a_sides)
    a_points = sum(p for r in ended for s, p in enumerate(r.points) if s in a_sides)
    others = [s for s in range(state.sides) if s not in a_sides]
    b_points = max(sum(r.points[s] for r in ended) for s in others)
    a_won = 0.5 if winner is None else float(winner in a_sides)
    return MatchOutcome(a_won, len(ended), a_hands, a_points, b_points, think, sims)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _job(args: tuple[Rules, int, str, str, int, int, str]) -> MatchOutcome:
    return play_match(*args)


def report(outcomes: list[MatchOutcome], a: str, b: str, clock: str) -> list[str]:
    """The figures for a finished run, one line each."""
    n = len(outcomes)
    wins = sum(o.a_won for o in outcomes)
    hands = sum(o.hands for o in outcomes)
    a_hands = sum(o.a_hands for o in outcomes)
    lo, hi = wilson(wins, n)
    hlo, hhi = wilson(a_hands, hands)
    pairs = [outcomes[i].a_won + outcomes[i + 1].a_won for i in range(0, n - 1, 2)]
    lines = [
        f"  A match wins {wins / n:6.1%}  95% [{lo:.1%}, {hi:.1%}]  ({wins:g} of {n} matches)",
        f"  A hand wins  {a_hands / hands:6.1%}  95% [{hlo:.1%}, {hhi:.1%}]  "
        f"({a_hands} of {hands} hands)",
        f"  duplicate pairs: A won both {sum(p == 2 for p in pairs)}, split "
        f"{sum(0 < p < 2 for p in pairs)}, B won both {sum(p == 0 for p in pairs)}",
        f"  points per hand: A {sum(o.a_points for o in outcomes) / hands:.2f}, "
        f"B {sum(o.b_points for o in outcomes) / hands:.2f}",
    ]
    for key, level in (("a", a), ("b", b)):
        times = [t for o in outcomes for t in o.think[key]]
        sims = [s for o in outcomes for s in o.sims[key]]
        line = f"  {level:>16}: {clock} think mean {1000 * sum(times) / len(times):7.2f} ms, " \
               f"max {1000 * max(times):7.1f} ms over {len(times)} decisions"
        if sims:
            line += f"; {sum(sims) / len(sims):.0f} sims per searched decision ({len(sims)})"
        lines.append(line)
    return lines


def run(
    jobs: list[tuple[Rules, int, str, str, int, int, str]],
    workers: int,
    started: float,
    minutes: float | None,
    each: Callable[[int, MatchOutcome], None] | None = None,
) -> list[MatchOutcome]:
    """The outcomes in match order, until every job is done, ``minutes`` have passed, or ^C;
    ``each(match index, outcome)`` is called as each one comes in."""
    outcomes: list[MatchOutcome] = []
    total = len(jobs)
    pool = multiprocessing.Pool(workers)
    try:
        for job, outcome in zip(jobs, pool.imap(_job, jobs, chunksize=1), strict=True):
            outcomes.append(outcome)
            if each is not None:
                each(job[4], outcome)
            done = len(outcomes)
            elapsed = time.perf_counter() - started
            if done % max(2, total // 20) == 0:  # progress on stderr, about every 5%
                won = sum(o.a_won for o in outcomes)
                plo, phi = wilson(won, done)
                print(f"  {done}/{total} matches, A {won / done:.1%} [{plo:.1%}, {phi:.1%}], "
                      f"{elapsed:.0f} s", file=sys.stderr, flush=True)
            if minutes is not None and elapsed > 60 * minutes and done % 2 == 0:
                break
    except KeyboardInterrupt:
        print("  interrupted: reporting the pairs finished", file=sys.stderr)
    finally:
        pool.terminate()
        pool.join()
    return outcomes


def code_digest() -> str:
    """What the outcome of a match depends on: the code of the bots, the engine and the
    reference, and whether the bots run compiled (mypyc). A short hex digest of each module's
    syntax tree without its docstrings, so that rewording a comment or a docstring, or
    rewrapping a line, keeps a series going."""
    import lanomino.bots
    import lanomino.engine

    digest = hashlib.sha256()
    folders = [Path(m.__file__ or "").parent for m in (lanomino.bots, lanomino.engine)]
    sources = sorted(p for f in folders for p in f.glob("*.py"))
    for path in [*sources, Path(__file__).parent / "ismcts.py"]:
        digest.update(f"{path.parent.name}/{path.name}".encode() + b"\0" + _code_of(path))
    compiled = any(True for pattern in ("*.so", "*.pyd") for _ in folders[0].glob(pattern))
    digest.update(b"compiled" if compiled else b"pure")
    return digest.hexdigest()[:16]


def _code_of(path: Path) -> bytes:
    """``path``'s syntax tree with every docstring left out, dumped (no line numbers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if not isinstance(node, kinds) or not node.body:
            continue
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and isinstance(first.value.value, str):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree).encode()


def load_saved(path: Path, key: dict[str, Any]) -> dict[int, MatchOutcome]:
    """The matches of series ``key`` that ``path`` holds, by index (none if there is no file).
    Raises ValueError naming the line for a line that is not a saved match."""
    saved: dict[int, MatchOutcome] = {}
    if not path.exists():
        return saved
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            if entry["key"] != key:
                continue
            index, o = int(entry["index"]), entry["outcome"]
            saved[index] = MatchOutcome(
                float(o["a_won"]), int(o["hands"]), int(o["a_hands"]), int(o["a_points"]),
                int(o["b_points"]),
                {k: [float(t) for t in o["think"][k]] for k in ("a", "b")},
                {k: [int(n) for n in o["sims"][k]] for k in ("a", "b")},
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}, line {number}: not a saved match ({exc!r})") from None
    return saved


def save_one(path: Path, key: dict[str, Any], index: int, o: MatchOutcome) -> None:
    """Append match ``index`` of series ``key`` to ``path`` (one JSON line, flushed)."""
    entry = {"key": key, "index": index, "outcome": {
        "a_won": o.a_won, "hands": o.hands, "a_hands": o.a_hands, "a_points": o.a_points,
        "b_points": o.b_points,
        "think": {k: [round(t, 6) for t in v] for k, v in o.think.items()}, "sims": o.sims}}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry, separators=(",", ":")) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="bot A, e.g. hard, expert:0.3, ismcts@200")
    parser.add_argument("--b", required=True, help="bot B")
    parser.add_argument("--matches", type=int, default=100, help="an even number (pairs)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--set", action="append", default=[], metavar="K=V")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this much wall time and report the pairs finished")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what budgets and think times count: wall time, this process's CPU "
                        "time, or this thread's CPU time (fair under load: use it with nice)")
    parser.add_argument("--save", type=Path, default=None, metavar="FILE",
                        help="keep each finished match in FILE and play only those not kept yet")
    args = parser.parse_args()
    rules = rules_from_cli(args.rules, args.set)
    players = args.players or (4 if rules.partnership else 2)
    matches = args.matches + args.matches % 2
    for level in (args.a, args.b):
        make_bot(level, lambda _sims: None, args.clock)  # a bad level fails here, not in a worker
    key = {"a": args.a, "b": args.b, "rules": args.rules, "set": sorted(args.set),
           "players": players, "seed": args.seed, "clock": args.clock, "code": code_digest()}
    try:
        saved = load_saved(args.save, key) if args.save else {}
    except (OSError, ValueError) as exc:
        print(f"bench_bots: cannot read --save file: {exc}", file=sys.stderr)
        return 2
    if saved:
        print(f"  {len(saved)} matches of this series already in {args.save}", file=sys.stderr)
    jobs = [(rules, players, args.a, args.b, i, args.seed, args.clock)
            for i in range(matches) if i not in saved]

    def keep(index: int, outcome: MatchOutcome) -> None:
        saved[index] = outcome
        if args.save:
            save_one(args.save, key, index, outcome)

    started = time.perf_counter()
    run(jobs, args.workers, started, args.minutes, keep)
    stopped = any(i not in saved for i in range(matches))
    # Whole duplicate pairs only, in match order.
    outcomes = [saved[i] for p in range(0, matches, 2) if {p, p + 1} <= saved.keys()
                for i in (p, p + 1)]
    if not outcomes:
        print("no duplicate pair finished", file=sys.stderr)
        return 1
    wall = time.perf_counter() - started
    played = len(outcomes)
    print(f"{args.a} vs {args.b}, {args.rules} {' '.join(args.set)}, {players} players, "
          f"{played} matches to {rules.target} ({played // 2} duplicate pairs, seed {args.seed}"
          f"{f', stopped early of {matches}' if stopped else ''}), {args.clock} clock")
    print("\n".join(report(outcomes, args.a, args.b, args.clock)))
    print(f"  wall {wall:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
