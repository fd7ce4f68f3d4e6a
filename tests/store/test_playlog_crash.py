"""A writer killed in the middle of logging leaves the previous state: never half a game."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from lanomino.record import parse_record, replay
from lanomino.store import PlayLog, open_store

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# Logs one match after its first hand, then again when it is over; with "pause" it stops inside
# the second write transaction (the match row already rewritten, its facts not yet) and waits.
WRITER = """
import sys, time
from pathlib import Path
from lanomino.engine import Rules
from lanomino.store import PlayLog, open_store
from lanomino.store import playlog
sys.path.insert(0, sys.argv[3])
from playkit import log_local, play_local

store = open_store(Path(sys.argv[1]))
log = PlayLog(store)
rules = Rules.classic(target=150)
if sys.argv[2] == "pause":
    partial, whole = play_local(4, rules, stop_after_hands=1), play_local(4, rules)
    partial.uid = whole.uid
    log_local(log, partial)
    original = playlog.PlayLog._write_facts
    def stalled(self, conn, match_id, players, derived):
        original(self, conn, match_id, players, derived)
        print("inside", flush=True)
        time.sleep(60)
    playlog.PlayLog._write_facts = stalled
    log_local(log, whole)
else:
    seed = 0
    while True:
        seed += 1
        log_local(log, play_local(seed))
        if seed == 1:
            print("ready", flush=True)
"""


def _run_and_kill(folder: Path, mode: str, wait_for: bytes, extra_s: float) -> None:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), mode, str(HERE)],
                            stdout=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == wait_for
        time.sleep(extra_s)
    finally:
        proc.kill()
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()


def _check_consistent(folder: Path) -> list[int]:
    """Every logged match's facts agree with its document; returns the hands per match."""
    conn = sqlite3.connect(folder / "lanomino.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    store = open_store(folder)
    log = PlayLog(store)
    hands = []
    for summary in log.matches():
        doc = log.get(summary.id).document
        result = replay(parse_record(doc))
        played = [h for h in result.hands if h.end not in ("void", "unfinished")]
        assert summary.hands == len(played) and summary.scores == result.scores
        assert summary.finished == result.finished
        with store.reading() as c:
            match = (summary.id,)
            rows = c.execute("SELECT COUNT(*) FROM hand WHERE match_id = ?", match).fetchone()
            tiles = c.execute("SELECT COUNT(*) FROM hand_tile WHERE match_id = ?",
                              match).fetchone()
        assert rows[0] == len(played)
        plays = sum(1 for hand in doc["hands"] for move in hand["moves"] if "play" in move)
        assert tiles[0] == plays
        hands.append(summary.hands)
    store.close()
    return hands


def test_killed_inside_the_write_transaction_the_previous_hand_stands(tmp_path: Path) -> None:
    _run_and_kill(tmp_path, "pause", b"inside", 0.0)
    assert _check_consistent(tmp_path) == [1]  # the entry after the first hand, whole


def test_killed_at_random_moments_the_log_stays_whole(tmp_path: Path) -> None:
    for attempt in range(3):
        _run_and_kill(tmp_path, "loop", b"ready", 0.1 + 0.15 * attempt)
        assert len(_check_consistent(tmp_path)) >= 1
    store = open_store(tmp_path)
    log = PlayLog(store)
    assert json.loads(json.dumps(log.stats().to_json()))["matches"] >= 1
    store.close()
