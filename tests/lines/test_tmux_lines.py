"""The line mode on a real terminal (a detached tmux, 80x24): it never takes over the screen
(no alternate screen), shows a prompt, and what was typed stays on screen above its answer."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_tmux_play import ROOT, Tmux, session_ends, wait_for  # noqa: E402


def test_line_mode_in_a_terminal(tmp_path: Path) -> None:
    command = (f"cd {ROOT} && {sys.executable} -m lanomino play --lines --seed 5 --players 3 "
               f"--pause 0 --data-dir {tmp_path}")
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        screen = wait_for(tmux, "Playable: 5: 6-6.\n>")  # the prompt waits after the turn's lines
        assert tmux("display-message", "-p", "-t", "play", "#{alternate_on}").strip() == "0"
        assert screen.rstrip().endswith(">")
        assert not re.search(r"[\u2500-\u257f]", screen)
        tmux.keys("hand", "Enter")
        screen = wait_for(tmux, "> hand\nYour hand: 1: ")  # the answer right below the command
        tmux.keys("play 9-9", "Enter")
        screen = wait_for(tmux, "There is no tile 9-9")
        assert "> play 9-9\nThere is no tile 9-9" in screen
        choice = re.findall(r"Playable: (\d+):", screen)[-1]
        tmux.keys(f"play {choice}", "Enter")
        screen = wait_for(tmux, "You opened with")
        assert tmux("display-message", "-p", "-t", "play", "#{alternate_on}").strip() == "0"
        tmux.keys("quit", "Enter")
        assert session_ends(tmux), "quit did not end the program"
    finally:
        tmux.kill()
