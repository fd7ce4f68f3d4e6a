"""``lanomino watch`` against a real headless table on 127.0.0.1: real sockets, real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lanomino(*args: str) -> list[str]:
    return [sys.executable, "-m", "lanomino", *args]


@pytest.mark.timeout(120)
def test_a_watcher_follows_a_match_to_its_end_with_the_players_transcript(tmp_path: Path) -> None:
    host = subprocess.Popen(lanomino("host", "--headless", "--json", "--seats", "2", "--bind", "127.0.0.1",
                                     "--no-announce", "--bot-delay", "0.01", "--set", "target=30",
                                     "--data-dir", str(tmp_path / "host")),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        address = listening["address"]
        watcher = subprocess.Popen(lanomino("watch", address, "--json", "--interface", "127.0.0.1",
                                            "--data-dir", str(tmp_path / "watcher")),
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert watcher.stdout is not None
        assert json.loads(watcher.stdout.readline())["event"] == "watching"  # in before the seat fills
        bot = subprocess.run(lanomino("bot", address, "--json", "--interface", "127.0.0.1", "--delay", "0.01",
                                      "--data-dir", str(tmp_path / "bot")),
                             cwd=ROOT, capture_output=True, text=True, timeout=90)
        assert bot.returncode == 0, bot.stderr[-2000:]
        out, _ = watcher.communicate(timeout=30)
        assert watcher.returncode == 0
        lines = [json.loads(line) for line in out.splitlines()]
        hands = [line for line in lines if line.get("event") == "hand"]
        outcome = lines[-1]
        assert outcome["finished"] and outcome["verified"] and outcome["seat"] == -1  # (no seat)
        assert hands and all(h["verified"] for h in hands) and len(hands) == outcome["hands"]
        played = json.loads(bot.stdout.splitlines()[-1])
        assert Path(outcome["transcript"]).read_bytes() == Path(played["transcript"]).read_bytes()
    finally:
        host.kill()
        host.wait(timeout=10)
