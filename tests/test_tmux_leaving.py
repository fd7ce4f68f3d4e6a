"""End to end in tmux at 80x24: Ctrl-C out of a local game says it is saved and the next start
offers to continue it; `lanomino join HOST:PORT` shows the table and its fingerprint, asks, and
sits down at the table by its name."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from test_tmux_play import ROOT, Tmux, wait_for

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def test_ctrl_c_in_a_local_game_says_the_game_is_saved(tmp_path: Path) -> None:
    play = f"cd {ROOT} && {sys.executable} -m lanomino play --seed 3 --data-dir {tmp_path}"
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{play}; sleep 30")
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "Your hand", 20)
        tmux.keys("C-c")
        wait_for(tmux, "The game is saved", 10)
        # The sentence is printed after the full screen closes, so the terminal wraps it where
        # the interpreter's path is long (CI's checkout); -J joins the wrapped lines back.
        gone = tmux("capture-pane", "-p", "-J", "-t", "play")
        assert "lanomino play --continue" in gone
        tmux("respawn-pane", "-k", "-t", "play", f"{play.replace(' --seed 3', '')}; sleep 30")
        menu = wait_for(tmux, "What would you like to do?", 20)
        assert "Continue the saved game" in menu
    finally:
        tmux.kill()


def test_join_by_host_and_port_asks_with_the_fingerprint_then_plays(tmp_path: Path) -> None:
    import json
    import subprocess

    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--bind", "127.0.0.1",
         "--no-announce", "--json", "--name", "Porch", "--set", "target=1", "--bot-delay", "0.3",
         "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    tmux = Tmux()
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        join = (f"cd {ROOT} && {sys.executable} -m lanomino join 127.0.0.1:{listening['port']} "
                f"--player Zed --data-dir {tmp_path / 'zed'}")
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{join}; sleep 30")
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        asked = wait_for(tmux, "Join this table? [y/N]", 20)
        assert "'Porch'" in asked and listening["fingerprint"] in asked.replace("\n", "")
        tmux.keys("y", "Enter")
        table = wait_for(tmux, "Your hand · Zed", 20)
        assert table.splitlines()[0].lstrip().startswith("Porch · ")
    finally:
        tmux.kill()
        host.kill()
        host.wait(timeout=10)
