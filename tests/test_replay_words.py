"""`lanomino replay FILE`: the record in the narration's words, and a reader that stops early."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "golden" / "classic_three_players_domino.record.json"


def _replay(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "lanomino", "replay", *args], capture_output=True,
                          text=True, timeout=60, env=env, cwd=ROOT)


def test_replay_speaks_with_the_narration_and_counts_seats_from_one() -> None:
    done = _replay(str(RECORD))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Hand 1: ") and " to open" in lines[0]
    assert all(" opens" not in line and "seat 0" not in line for line in lines)
    assert any(line.startswith("  ") and " played " in line for line in lines)
    assert "Hand 1 is over: " in done.stdout


def test_replay_into_a_pipe_closed_early_ends_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "lanomino", "replay", str(RECORD)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # like `| head` that has read enough: before the child writes a line
    try:
        err = child.stderr.read().decode()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        child.wait()
    assert "Traceback" not in err and "BrokenPipeError" not in err
