#!/usr/bin/env python3
"""CPU time a node spends logging its match in the play log after each hand, as a locked match
grows (runtime/match_log.py; issue 29).

A node logs its match after every hand (history and stats), and the play log checks the
transcript it is given. A locked match of 4 people (``lanomino.transcript/2``, written by the
writer the sessions call, every statement signed; the tests' ``blind_match``) is logged hand by
hand, as its transcript stood after each hand, into a fresh SQLite play log, two ways measured in
the same run:

  stream   the node's way: one ``TranscriptStream`` for the match checks each hand once;
  fresh    the reference: each log checks the whole transcript again (``verify_transcript``),
           as every node did before (which then checked it a second time for the record, so
           it cost about twice this column).

Printed: the CPU time (``time.process_time``) of the log after hands 1, 5, 10, ... and in all.

    python scripts/bench_playlog.py [--hands 20]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "blind"))

from blind_match import write_match  # noqa: E402
from blindkit import play_hand  # noqa: E402

from lanomino.blind.hand_check import judge_blind_hand  # noqa: E402
from lanomino.blind.hand_record import BlindHand  # noqa: E402
from lanomino.engine import GameState, Rules, new_game  # noqa: E402
from lanomino.fair.stream2 import TranscriptStream  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402


def locked_match(hands: int) -> list[dict[str, object]]:
    """A locked match of 4 people to a target no hand reaches, as it stood after each hand."""
    spec = {"preset": "classic", "target": 10_000}
    state: GameState = new_game(Rules.from_spec(spec), 4)
    records: list[BlindHand] = []
    for number in range(1, hands + 1):
        record, before = play_hand(4, rng_seed=70 + number, tag="bench", hand=number,
                                   before=state)
        records.append(record)
        state = judge_blind_hand(record, before, clock=False)[1]
    return [write_match(4, records[:n], rules=spec) for n in range(1, hands + 1)]


def log_each(docs: list[dict[str, object]], fresh: bool, folder: Path) -> list[float]:
    """The CPU seconds of each hand's log of ``docs`` into a play log in ``folder``."""
    stream = TranscriptStream()
    check = verify_transcript if fresh else stream.check
    store = open_store(folder)
    times = []
    try:
        log = PlayLog(store)
        for doc in docs:
            started = time.process_time()
            log.log_match(doc, uid="lan:bench", me=0, table="bench", verified=True, check=check)
            times.append(time.process_time() - started)
    finally:
        store.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    docs = locked_match(args.hands)
    with tempfile.TemporaryDirectory() as tmp:
        stream = log_each(docs, False, Path(tmp) / "stream")
        fresh = log_each(docs, True, Path(tmp) / "fresh")
    print(f"a locked match of 4 people, {len(docs)} hands, logged after each hand (CPU ms)")
    print("after hand   stream    fresh")
    for n in sorted({1, *range(5, len(docs) + 1, 5), len(docs)}):
        print(f"{n:>10}  {stream[n - 1] * 1000:>7.1f}  {fresh[n - 1] * 1000:>7.1f}")
    print(f"{'in all':>10}  {sum(stream) * 1000:>7.1f}  {sum(fresh) * 1000:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
