"""`lanomino bot` says how the match ended in people's words: names, "you", seats from 1."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]


def test_a_headless_bot_names_the_winner_instead_of_an_index(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--level", "greedy", "--player", "Hal", "--data-dir", str(tmp_path / "host"),
         "--seats", "2", "--set", "target=1", "--heartbeat", "0.3", "--grace", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        bot = subprocess.run(
            [*LANOMINO, "bot", listening["address"], "--level", "greedy", "--player", "Bea",
             "--data-dir", str(tmp_path / "bea"), "--heartbeat", "0.3", "--grace", "5"],
            capture_output=True, text=True, timeout=120)
        assert bot.returncode == 0, bot.stderr
        host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    line = bot.stdout.strip().splitlines()[-1]
    said = r"match over: (you|Hal) won: Hal \d+, you \d+; (1 hand|\d+ hands), "
    assert re.match(said, line), line
    assert "winner" not in line
