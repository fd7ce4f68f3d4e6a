"""A person who leaves a locked hand at a table without escrow, in real processes on 127.0.0.1
(issue 29): ``lanomino host --headless --deal blind`` and three ``lanomino bot`` holders
(``test_blind_procs_leave.ProcTable``); one bot quits (SIGTERM) or is killed (SIGKILL, gone
past its grace period) while the first hand is in play. The host resigns it (``left``), the
others re-shuffle blind the tiles nobody holds, and the host and the two bots left finish the
match with the same transcript/2, which ``lanomino verify`` accepts."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_blind_procs_leave import PACE, ProcTable, verify  # noqa: E402

from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


def finished_alike(stayed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every process left finished the match verified, with the same transcript: those."""
    for result in stayed:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in stayed]
    assert all(doc == docs[0] for doc in docs)
    return docs


@pytest.mark.timeout(150)
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["quits", "silent"])
def test_a_bot_that_leaves_a_locked_hand_without_escrow_is_re_shuffled_blind(
        tmp_path: Path, how: signal.Signals) -> None:
    table = ProcTable(tmp_path, ("--set", "target=50"), 3, PACE)
    try:
        gone = table.seat_all()[0]
        table.leave_mid_hand(how)
        stayed = table.results([*table.bots[1:], table.host], timeout_s=90)
    finally:
        table.close()
    docs = finished_alike(stayed)
    first = parse_blind_hand(docs[0]["hands"][0]["record"])
    assert [(r.seat, r.by) for r in first.resignations] == [(gone, "left")]
    assert first.unheld is not None and first.unheld.lost == (gone,)
    assert gone not in [r.seat for r in first.reveals]  # its key went with it
    answer = verify(stayed[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert "before the blind re-shuffle" in answer.stdout  # (said as not checked)


@pytest.mark.timeout(150)
def test_a_bot_that_leaves_a_hand_already_re_shuffled_has_it_dealt_again(tmp_path: Path) -> None:
    """The first bot quits mid-hand (the hand is re-shuffled blind), the second quits once a
    move came after that: the hand is given up and dealt again among the host and the bot left,
    both departures in that hand's entry, and both finish with the same verified transcript."""
    table = ProcTable(tmp_path, ("--set", "target=50"), 3, PACE)
    try:
        first, second = table.seat_all()[:2]
        table.leave_mid_hand(signal.SIGTERM)
        table.bots[0].wait(timeout=20)
        table.wait_moves(1, table.moves(1) + 1, timeout_s=40)  # (after the re-shuffle)
        table.bots[1].send_signal(signal.SIGTERM)
        stayed = table.results([table.bots[2], table.host], timeout_s=90)
    finally:
        table.close()
    docs = finished_alike(stayed)
    entry = docs[0]["hands"][0]
    assert [(d["seat"], d["by"]) for d in entry["departures"]] == [(first, "left"),
                                                                  (second, "left")]
    assert entry["record"]["attempt"] == 2 and "unheld" not in entry["record"]
    answer = verify(stayed[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr
