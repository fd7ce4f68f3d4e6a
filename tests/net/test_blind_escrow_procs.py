"""A person who leaves a locked hand at an ``--escrow`` table, in real processes on 127.0.0.1:
``lanomino host --headless --deal blind --escrow`` and three ``lanomino bot`` holders; one bot is
killed (SIGKILL) in the middle of the first hand. Past its grace period the host resigns it, the
others stand in for its key, and the match finishes at every remaining seat with the same
verified transcript, which ``lanomino verify`` accepts."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT  # noqa: E402

TIMING = ["--grace", "2", "--heartbeat", "0.25"]


def _last(text: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return result


@pytest.mark.timeout(240)
def test_a_bot_killed_mid_hand_at_an_escrow_table_does_not_end_the_match(tmp_path: Path
                                                                         ) -> None:
    python = [sys.executable, "-m", "lanomino"]
    host = subprocess.Popen(
        [*python, "host", "--headless", "--json", "--deal", "blind", "--escrow", "--seats", "4",
         "--bind", "127.0.0.1", "--no-announce", "--set", "target=30",
         "--data-dir", str(tmp_path / "host"), *TIMING],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs = [host]
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        procs += [subprocess.Popen(
            [*python, "bot", address, "--json", "--interface", "127.0.0.1", "--delay", "150",
             "--data-dir", str(tmp_path / f"bot{i}"), *TIMING],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for i in range(1, 4)]
        time.sleep(2.5)  # (joined, dealt, a few moves of the first hand played)
        procs[3].kill()
        outs = [bot.communicate(timeout=180)[0] for bot in procs[1:3]]
        host_out = host.communicate(timeout=30)[0]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.communicate(timeout=10)
    results = [_last(host_out), *(_last(out) for out in outs)]
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
    assert len({tuple(r["scores"]) for r in results}) == 1
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in results]
    assert all(doc == docs[0] for doc in docs)
    first = docs[0]["hands"][0]["record"]
    assert [r["by"] for r in first.get("resignations", [])] == ["left"], first
    verify = subprocess.run([*python, "verify", results[0]["transcript"]],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
