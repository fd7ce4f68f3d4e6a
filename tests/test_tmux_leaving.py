"""Leaving is deliberate, end to end in tmux at 80x24: Ctrl-C out of a local game says it is
saved, and the next start of the client offers to continue it."""

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
        gone = wait_for(tmux, "The game is saved", 10)
        assert "lanomino play --continue" in gone
        tmux("respawn-pane", "-k", "-t", "play", f"{play.replace(' --seed 3', '')}; sleep 30")
        menu = wait_for(tmux, "What would you like to do?", 20)
        assert "Continue the saved game" in menu
    finally:
        tmux.kill()
