"""End to end: ``lanomino watch`` in a detached tmux at 80x24 follows a headless table on
127.0.0.1 from no seat, full screen, to the match's end."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_lan import leave_for_menu
from test_tmux_play import ROOT, Tmux, session_ends, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]

DRAWN_TILE = re.compile(r"\[\d\|\d\]")


def test_watch_shows_the_table_from_no_seat_and_never_a_hand(tmp_path: Path) -> None:
    host = subprocess.Popen([sys.executable, "-m", "lanomino", "host", "--headless", "--json",
                             "--seats", "2", "--bind", "127.0.0.1", "--no-announce",
                             "--bot-delay", "0.15",
                             "--set", "target=20", "--data-dir", str(tmp_path / "host")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    tmux = Tmux()
    bot: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        command = (f"cd {ROOT} && {sys.executable} -m lanomino watch {address} --player Wes "
                   f"--data-dir {tmp_path / 'watcher'} 2>{tmp_path / 'watch.err'}")
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "waiting for players (1/2)", 15)
        bot = subprocess.Popen([sys.executable, "-m", "lanomino", "bot", address, "--json",
                                "--delay", "0.15", "--data-dir", str(tmp_path / "bot")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
        first = wait_for(tmux, "Watching · no seat", 20)
        assert "1 watching" in first and "Your hand" not in first
        screens = [first]
        deadline = time.monotonic() + 60
        while "The match is over" not in screens[-1] and time.monotonic() < deadline:
            time.sleep(0.1)
            screens.append(tmux.screen())
            if "is over" in screens[-1] and "The match is over" not in screens[-1]:
                tmux.keys("Enter")  # a hand's summary: back to the table
        assert "The match is over" in screens[-1], screens[-1]
        tables = [s for s in screens if "Watching · no seat" in s]
        assert len(tables) > 3
        for screen in tables:  # below the watcher's own row there is no hand: no tile drawn there
            below = screen.split("Watching · no seat", 1)[1]
            assert not DRAWN_TILE.search(below), screen
            assert "watching: every hand is shown when it ends" in screen
        out, _ = bot.communicate(timeout=30)
        assert json.loads(out.splitlines()[-1])["finished"]
        leave_for_menu(tmux)  # (an Enter within 0.5 s of the match's end waits: it presses again)
        tmux.keys("q")
        assert session_ends(tmux), "q on the menu did not quit"
    finally:
        for proc in (bot, host):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        tmux.kill()
