"""Disputes and evidence in real processes on 127.0.0.1 (issue 28): a patched host process
(tests/net/disputing_host.py) and ``lanomino bot`` seats over ZeroMQ. The seat the host played for
while it was there disputes the move, every seat's saved transcript keeps the dispute and
``lanomino verify`` lists it; the seats that catch a host moving for a seat vote it out, finish
under a new host, and every saved transcript names the host ("Caught: ...")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT, play_match  # noqa: E402

HOST = Path(__file__).resolve().parent / "disputing_host.py"


def play(tmp_path: Path, cheat: str, seats: int) -> list[dict[str, object]]:
    """The patched host and ``seats - 1`` bots play to the end; each bot's result line."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    _, bots = play_match([sys.executable, str(HOST), cheat, str(tmp_path / "host"), str(seats)],
                         [("--delay", "0.05")] * (seats - 1), tmp_path, env=env, wait_host=False)
    return bots


def verify(path: object) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "lanomino", "verify", str(path)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


@pytest.mark.timeout(240)
def test_a_seat_the_host_played_for_disputes_it_and_every_saved_transcript_keeps_it(
        tmp_path: Path) -> None:
    results = play(tmp_path, "away", 3)
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        doc = json.loads(Path(str(result["transcript"])).read_text())
        disputed = [(h["hand"], d["seat"]) for h in doc["hands"] for d in h.get("disputes", [])]
        assert disputed and {seat for _, seat in disputed} == {1}, disputed
        lines = verify(result["transcript"])
        assert any("DISPUTED by seat 2, who says it was there in time" in line for line in lines)
        assert "disputed by their seat" in lines[-1]


@pytest.mark.timeout(240)
def test_seats_that_vote_out_a_host_moving_for_a_seat_keep_the_proof_and_verify_names_it(
        tmp_path: Path) -> None:
    results = play(tmp_path, "move", 4)
    for result in results:
        assert result["event"] == "match_over" and result["finished"] and result["verified"]
        lines = verify(result["transcript"])
        caught = [line for line in lines if line.startswith("Caught: ")]
        assert len(caught) == 1 and caught[0].startswith(
            "Caught: the host (seat 1) signed a move for seat 3 at a table without a move clock")
        assert lines[-1].endswith("a host was caught cheating (proof above).")
