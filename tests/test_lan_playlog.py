"""LAN games join the play log: a headless table and a bot over 127.0.0.1, then `history` and
`stats` on both sides show the match as verified."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]


def test_a_lan_match_is_logged_on_every_peer(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--level", "greedy", "--data-dir", str(tmp_path / "host"), "--name", "Porch",
         "--seats", "2", "--set", "target=30", "--heartbeat", "0.3", "--grace", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        bot = subprocess.run(
            [*LANOMINO, "bot", listening["address"], "--json", "--level", "greedy",
             "--player", "Bea", "--data-dir", str(tmp_path / "bea"), "--heartbeat", "0.3",
             "--grace", "5"],
            capture_output=True, text=True, timeout=120,
        )
        assert bot.returncode == 0, bot.stderr
        host_out, host_err = host.communicate(timeout=60)
        assert host.returncode == 0, host_err
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    for who, seat in (("host", 0), ("bea", 1)):
        history = subprocess.run([*LANOMINO, "history", "--json", "--data-dir",
                                  str(tmp_path / who)], capture_output=True, text=True, timeout=60)
        assert history.returncode == 0, history.stderr
        [match] = json.loads(history.stdout)
        assert match["kind"] == "transcript" and match["finished"] is True
        assert match["verified"] is True
        assert [p["name"] for p in match["players"]] == ["host", "Bea"]
        assert [p["you"] for p in match["players"]] == [seat == 0, seat == 1]
        assert match["rules"] == {"preset": "classic", "target": 30}
        if who == "host":
            assert match["table"] == "Porch"
