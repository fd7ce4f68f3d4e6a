"""The move clock at a locked table in real processes on 127.0.0.1: ``lanomino host --headless
--deal blind --move-time 1`` with one ``lanomino bot`` holder that thinks far longer than the clock
allows, so the table's bot in its own program plays it; every seat verifies every hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(150)
def test_a_slow_holder_at_a_locked_clock_table_is_played_by_its_own_program(
        tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--deal", "blind",
         "--move-time", "1", "--seats", "3", "--bind", "127.0.0.1", "--no-announce", "--set",
         "target=40", "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    bots: list[subprocess.Popen[str]] = []
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        bots = [subprocess.Popen(
            [sys.executable, "-m", "lanomino", "bot", address, "--json", "--interface",
             "127.0.0.1", "--data-dir", str(tmp_path / f"bot{i}"), "--delay", delay],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for i, delay in ((1, "0"), (2, "100"))]
        done = [bot.communicate(timeout=90) for bot in bots]
        out, _ = host.communicate(timeout=30)
    finally:
        for proc in (host, *bots):
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=10)
    results = [json.loads(text.strip().splitlines()[-1]) for text in (out, *(d[0] for d in done))]
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
    assert results[0]["problems"].get("move_clock.away", 0) >= 1, results[0]  # the clock ran out
    assert not results[1]["problems"] and not results[2]["problems"], results[1:]
    assert len({tuple(r["scores"]) for r in results}) == 1
    verify = subprocess.run([sys.executable, "-m", "lanomino", "verify", results[0]["transcript"]],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
