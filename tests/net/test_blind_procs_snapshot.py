"""A locked table's snapshot in real processes on 127.0.0.1 (issue 29): a headless
``lanomino host --deal blind`` and three ``lanomino bot`` holders; one bot process is killed
(SIGKILL) in the middle of the first hand and started again on the same data directory (its
identity and its kept secrets) within the host's grace period. It comes back to its seat on a new
connection, rebuilds its hand from the host's snapshot and its own key, and plays on: the hand
it left finishes with it still a holder, and every process ends the match with the same
transcript/2, which ``lanomino verify`` accepts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT  # noqa: E402
from test_blind_procs_leave import ProcTable, verify  # noqa: E402

from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


def restart(table: ProcTable, bot: int) -> subprocess.Popen[str]:
    """Bot ``bot``'s process killed, then the same command started again (same data dir)."""
    old = table.bots[bot]
    old.send_signal(signal.SIGKILL)
    old.wait(timeout=10)
    log = (table.data / f"bot{bot + 1}-again.log").open("w")
    table.logs.append(log)
    new = subprocess.Popen(old.args, cwd=ROOT, env={**os.environ, "LANOMINO_LOG": "DEBUG"},
                           stdout=subprocess.PIPE, stderr=log, text=True)
    table.procs.append(new)
    return new


@pytest.mark.timeout(120)
def test_a_bot_killed_mid_hand_and_started_again_rebuilds_its_hand_and_finishes(
        tmp_path: Path) -> None:
    table = ProcTable(tmp_path, ("--grace", "8", "--set", "target=40"), 3, ("--delay", "0.1"))
    try:
        back = table.seat_all()[0]
        table.wait_moves(1, 4, timeout_s=40)
        again = restart(table, 0)
        seated = json.loads(again.stdout.readline()) if again.stdout else {}
        assert seated.get("event") == "seated" and seated.get("seat") == back, seated
        results = table.results([again, *table.bots[1:], table.host], timeout_s=90)
    finally:
        table.close()
    for result in results:
        assert result["event"] == "match_over" and result["finished"], json.dumps(result)
        assert result["verified"], json.dumps(result)
        assert not [p for p in result["problems"] if p.startswith(("failed.", "caught."))], \
            json.dumps(result)
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in results]
    assert all(doc == docs[0] for doc in docs)
    hands = [parse_blind_hand(h["record"]) for h in docs[0]["hands"]]
    # it held its key through the hand it was killed in: nobody resigned it, its own reveal
    # (with its shuffle seed) closes that hand, and it held keys in the hands after
    assert back in hands[0].holders and not hands[0].resignations
    assert next(r for r in hands[0].reveals if r.seat == back).seed is not None
    assert all(back in h.holders for h in hands)
    log = (tmp_path / "bot1-again.log").read_text(errors="replace")
    assert "'type': 'snapshot'" in log or "snapshot_part" in log
    answer = verify(results[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr
