"""End to end in tmux at 80x24: what a newcomer met on a second evening (issue 30): a new game
asked for on the command line over a saved one, the hint and the footer at the table."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from test_tmux_play import ROOT, Tmux, wait_for

from lanomino.engine import Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import open_store

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def save_a_game(data: Path) -> LocalMatch:
    """A local match saved in ``data`` in the middle of its first hand, as Ctrl-C leaves one."""
    match = LocalMatch(make_config(Rules.classic(), 2, ("greedy",), "You", 3))
    match.deal()
    store = open_store(data)
    try:
        store.save_game(match.to_record())
    finally:
        store.close()
    return match


def start(tmux: Tmux, data: Path, args: str) -> None:
    play = f"cd {ROOT} && {sys.executable} -m lanomino play {args} --data-dir {data}"
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{play}; sleep 30")
    tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()


@pytest.mark.parametrize("args", ["--rules allfives", "--seed 5"])
def test_a_new_game_from_the_command_line_over_a_saved_one_asks_first(tmp_path: Path,
                                                                      args: str) -> None:
    save_a_game(tmp_path)
    tmux = Tmux()
    try:
        start(tmux, tmp_path, args)
        asked = wait_for(tmux, "y start anyway", 20)
        assert "Traceback" not in asked
        assert "A saved game is waiting" in asked
        game = "All Fives to 150" if "allfives" in args else "Draw game to 100"
        assert game in asked, asked
        tmux.keys("n")
        menu = wait_for(tmux, "What would you like to do?", 10)
        assert "Continue the saved game" in menu and "The saved game is kept" in menu
        tmux("respawn-pane", "-k", "-t", "play",
             f"cd {ROOT} && {sys.executable} -m lanomino play {args} --data-dir {tmp_path}")
        wait_for(tmux, "y start anyway", 20)
        tmux.keys("y")
        wait_for(tmux, "Your hand", 20)
    finally:
        tmux.kill()
