#!/usr/bin/env python3
"""Fair-deal benchmark: the protocol's cost per hand per peer, and ``verify`` throughput.

For 2, 3 and 4 seats it times, median of several runs:
  commit   one peer: make a secret, compute and sign its commitment
  set      the host signs the set; one peer checks its own entry and signs its echo
  reveal   one peer checks every revealed secret against its commitment
  shuffle  the whole shuffle part of a hand: every commitment, the seed, Fisher–Yates, the deal
  sign     one peer signs one move
  verify   `verify` of a whole signed one-hand transcript (every signature, the replay, scores)
and then verify throughput in hands per second over whole matches.

Goals: shuffle < 1 ms per hand; a signed 4-player hand verified < 30 ms.

    python scripts/bench_fair.py [--runs 5]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lanomino.bots.simple import random_bot  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.commit import (  # noqa: E402
    DealContext,
    check_own_in_set,
    commit_statement,
    commitment,
    echo_statement,
    new_secret,
    opens,
    set_digest,
    set_statement,
)
from lanomino.fair.fair_match import play_fair_match  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.shuffle import derive_deal  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402

CTX = DealContext(bytes(range(16)), 1, 1)
HEADER = "00" * 32


def per_call_ms(fn: Callable[[], object], runs: int, min_s: float = 0.05) -> float:
    """Median over ``runs`` of the mean time of one call, in milliseconds."""
    calls = 1
    while True:  # calibrate so each run lasts at least min_s
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        if time.perf_counter() - start >= min_s:
            break
        calls *= 2
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1000)
    return statistics.median(samples)


def ids(n: int) -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(f"bench {s}".encode()).digest()) for s in range(n)]


def bench_seats(n: int, runs: int) -> dict[str, float]:
    keys = ids(n)
    rules = Rules.classic()
    secrets = [(s, new_secret()) for s in range(n)]
    commits = [(s, commitment(CTX, s, r)) for s, r in secrets]
    statement = set_statement(HEADER, CTX, 0, commits)

    def commit() -> None:
        c = commitment(CTX, 1, new_secret())
        keys[1].sign_statement(commit_statement(HEADER, CTX, 1, c))

    def set_round() -> None:
        keys[0].sign_statement(statement)
        check_own_in_set(statement, 1, commits[1][1])
        keys[1].sign_statement(echo_statement(HEADER, CTX, 1, set_digest(statement)))

    def reveal() -> None:
        for (s, r), (_, c) in zip(secrets, commits, strict=True):
            assert opens(CTX, s, r, c)

    def shuffle() -> None:
        for s, r in secrets:
            commitment(CTX, s, r)
        derive_deal(CTX, secrets, rules, [True] * n)

    def sign() -> None:
        keys[1].sign_statement({"type": "lanomino.move/1", "header": HEADER, "hand": 1, "index": 7,
                                "move": {"seat": 1, "play": "6-4", "end": "left"}})

    one_hand = play_fair_match(rules, [f"p{s}" for s in range(n)], [random_bot] * n,
                               [random.Random(s) for s in range(n)], identities=keys,
                               max_hands=1).transcript
    text = json.dumps(one_hand)

    def verify() -> None:
        assert verify_transcript(json.loads(text)).ok

    return {name: per_call_ms(fn, runs) for name, fn in [
        ("commit", commit), ("set", set_round), ("reveal", reveal), ("shuffle", shuffle),
        ("sign", sign), ("verify", verify)]} | {"moves": float(len(one_hand["hands"][0]["moves"]))}


def throughput(n: int, runs: int) -> float:
    def transcript(g: int) -> str:
        rngs = [random.Random(g * 10 + s) for s in range(n)]
        players = [f"p{s}" for s in range(n)]
        fair = play_fair_match(Rules.classic(), players, [random_bot] * n, rngs, identities=ids(n))
        return json.dumps(fair.transcript)

    docs = [transcript(g) for g in range(5)]
    hands = sum(len(json.loads(d)["hands"]) for d in docs)
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for d in docs:
            assert verify_transcript(json.loads(d)).ok
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("per hand per peer, milliseconds (median of runs)")
    print(f"{'seats':>5} {'commit':>8} {'set':>8} {'reveal':>8} {'shuffle':>8} {'sign/move':>10} "
          f"{'verify hand':>12} {'moves':>6}")
    results = {}
    for n in (2, 3, 4):
        r = bench_seats(n, args.runs)
        results[n] = r
        print(f"{n:>5} {r['commit']:>8.3f} {r['set']:>8.3f} {r['reveal']:>8.3f} "
              f"{r['shuffle']:>8.3f} {r['sign']:>10.3f} {r['verify']:>12.2f} {int(r['moves']):>6}")
    print("verify throughput (whole classic matches, parse included)")
    for n in (2, 3, 4):
        print(f"  {n} seats: {throughput(n, args.runs):,.0f} hands per second")
    shuffle_ok = all(r["shuffle"] < 1.0 for r in results.values())
    verify_ok = results[4]["verify"] < 30.0
    print(f"goal shuffle < 1 ms per hand: {'met' if shuffle_ok else 'MISSED'} "
          f"(4 seats {results[4]['shuffle']:.3f} ms)")
    print(f"goal signed 4-player hand verified < 30 ms: {'met' if verify_ok else 'MISSED'} "
          f"({results[4]['verify']:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
