#!/usr/bin/env python3
"""``lanomino verify`` of the locked deck's transcripts (``lanomino.transcript/2``) against
today's (``/1``), in one process, for 2, 3 and 4 people.

Each run builds a locked match of 3 hands in memory (tests/blind/blind_match.py: every statement
signed by its seat, the host's points) and a fair match of today's deal with the same number of
players (tests/fair/fairkit.py), and times ``verify_transcript`` of each (CPU time, parse
included), per hand: the median over the runs. It prints both, their ratio, and each format's
bytes per hand. A transcript/2 hand costs the keys' proofs, every shuffle recomputed from its
seed, every position opened, the engine's replay with every tile known and one signature per
statement (keys, shuffles, "not me", moves, reveals); a transcript/1 hand its commitments, echoes,
secrets, the shuffle, move signatures and the replay.

    python scripts/bench_verify2.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for kit in ("tests", "tests/blind", "tests/fair"):
    sys.path.insert(0, str(ROOT / kit))

from blind_match import play_match  # noqa: E402
from fairkit import make_transcript  # noqa: E402

from lanomino.fair.verify import verify_transcript  # noqa: E402

HANDS = 3


def per_hand_ms(text: str, runs: int) -> float:
    """CPU milliseconds ``verify_transcript`` takes per hand of the JSON ``text``."""
    hands = len(json.loads(text)["hands"])
    times = []
    for _ in range(runs):
        start = time.process_time()
        report = verify_transcript(json.loads(text))
        times.append((time.process_time() - start) * 1000 / hands)
        assert report.ok, report.failure
    return statistics.median(times)


def fair_match(n: int) -> dict[str, Any]:
    """Today's deal, a whole short classic match (a transcript cut short does not verify: its
    closing statement counts the hands), timed per hand like the locked one."""
    return make_transcript("classic", n, 1, target=60)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print("lanomino verify, CPU ms per hand (median of runs); bytes per hand of JSON")
    print(f"{'people':>6} {'transcript/2':>13} {'transcript/1':>13} {'ratio':>6} "
          f"{'bytes/2':>8} {'bytes/1':>8}")
    for n in (2, 3, 4):
        locked = json.dumps(play_match(n, hands=HANDS, seed=n))
        fair = json.dumps(fair_match(n))
        two, one = per_hand_ms(locked, args.runs), per_hand_ms(fair, args.runs)
        size2 = len(locked) / len(json.loads(locked)["hands"])
        size1 = len(fair) / len(json.loads(fair)["hands"])
        print(f"{n:>6} {two:>13.1f} {one:>13.2f} {two / one:>6.1f} {size2:>8.0f} {size1:>8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
