"""A locked table in real processes on 127.0.0.1: ``lanomino host --headless --deal blind`` and two
``lanomino bot`` holders play a match to its end over ZeroMQ, every seat verifying every hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT, play_match  # noqa: E402

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


@pytest.mark.timeout(180)
def test_a_headless_host_and_two_bot_holders_finish_a_locked_match(tmp_path: Path) -> None:
    host, bots = play_match(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--deal", "blind",
         "--seats", "3", "--bind", "127.0.0.1", "--no-announce", "--set", "target=40",
         "--data-dir", str(tmp_path / "host")],
        [(), ()], tmp_path)
    assert host is not None
    results = [host, *bots]
    for result in results:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"] and not result["problems"], result
    assert len({tuple(r["scores"]) for r in results}) == 1
    assert max(results[0]["scores"]) >= 40
    # every seat stored the same lanomino.transcript/2, and lanomino verify accepts it
    texts = [Path(r["transcript"]).read_text() for r in results]
    docs = [json.loads(text) for text in texts]
    assert all(doc == docs[0] for doc in docs)
    assert docs[0]["format"] == "lanomino.transcript/2" and docs[0]["end"]["finished"]
    verify = subprocess.run([sys.executable, "-m", "lanomino", "verify", results[0]["transcript"]],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
