"""The move clock at a locked table in real processes on 127.0.0.1: ``lanomino host --headless
--deal blind --move-time 1`` with one ``lanomino bot`` holder that thinks far longer than the clock
allows, so the table's bot in its own program plays it; every seat verifies every hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT, play_match  # noqa: E402

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


@pytest.mark.timeout(150)
def test_a_slow_holder_at_a_locked_clock_table_is_played_by_its_own_program(
        tmp_path: Path) -> None:
    host, bots = play_match(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--deal", "blind",
         "--move-time", "1", "--seats", "3", "--bind", "127.0.0.1", "--no-announce", "--set",
         "target=40", "--data-dir", str(tmp_path / "host")],
        [("--delay", "0"), ("--delay", "100")], tmp_path, bots_s=90)
    assert host is not None
    results = [host, *bots]
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
    assert results[0]["problems"].get("move_clock.away", 0) >= 1, results[0]  # the clock ran out
    assert not results[1]["problems"] and not results[2]["problems"], results[1:]
    assert len({tuple(r["scores"]) for r in results}) == 1
    verify = subprocess.run([sys.executable, "-m", "lanomino", "verify", results[0]["transcript"]],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
