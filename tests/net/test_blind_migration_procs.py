"""A locked table's host killed in the middle of a hand, in real processes on 127.0.0.1 (issue
29): ``lanomino host --headless --deal blind --escrow`` and three ``lanomino bot`` holders. The
host is SIGKILLed once the first hand has a few moves; the bots elect a new host among
themselves (addresses from the roster: no zeroconf here), which carries the hand on (the lost
host's key stood in for, rebuilt at the hand's end), and each bot finishes the match with the
same transcript/2, which ``lanomino verify`` accepts; also when the host died between its
updates of one move to two members (their logs differ: the new host catches the one behind up,
or takes the longer log from the one ahead, net/host/locked_log.py)."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_blind_procs_leave import PACE, ProcTable, verify  # noqa: E402

from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("escrow", [True, False], ids=["escrow", "no-escrow"])
def test_a_locked_host_killed_mid_hand_is_replaced_and_the_match_finishes(
        tmp_path: Path, escrow: bool) -> None:
    table = ProcTable(tmp_path, (*(("--escrow",) if escrow else ()), "--set", "target=50"), 3, PACE,
                      bot_log="DEBUG")
    try:
        table.seat_all()
        table.wait_moves(1, 3, timeout_s=40)  # the first hand is in play
        table.host.send_signal(signal.SIGKILL)
        results = table.results(table.bots, timeout_s=90)
    finally:
        table.close()
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
        assert len(set(result["hosts"].values())) == 2, result  # the lost host, then one more
    assert len({tuple(r["scores"]) for r in results}) == 1
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in results]
    assert all(doc == docs[0] for doc in docs)
    checked = verify(results[0]["transcript"])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    first = parse_blind_hand(docs[0]["hands"][0]["record"])
    assert first.host != 0  # closed by the new host
    assert [(r.seat, r.by) for r in first.resignations] == [(0, "left")]
