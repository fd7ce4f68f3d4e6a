"""The line mode on a real terminal (a detached tmux, 80x24): it never takes over the screen
(no alternate screen), shows a prompt, and what was typed stays on screen above its answer; quit
leaves with the one line saying how to resume the match, and no prompt after it."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_tmux_play import ROOT, Tmux, wait_for  # noqa: E402


def test_line_mode_in_a_terminal(tmp_path: Path) -> None:
    command = (f"cd {ROOT} && {sys.executable} -m lanomino play --lines --seed 5 --players 3 "
               f"--pause 0 --data-dir {tmp_path}; echo lanomino ended $?; sleep 30")
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
        your_turn_again(tmux)  # (quit typed while the others move would be echoed amid their lines)
        tmux.keys("quit", "Enter")
        screen = wait_for(tmux, "lanomino ended 0")  # (the shell's line: the program has ended)
        after = screen.split("> quit\n", 1)[1]
        said = after.replace("\n", "")  # (the line wraps at the terminal's 80 columns)
        assert said.startswith("The game is saved: ")
        assert "play --lines --continue resumes it." in said
        assert not re.search(r"^>", after, re.M), after  # no prompt once quit was said
    finally:
        tmux.kill()


def your_turn_again(tmux: Tmux, timeout_s: float = 10.0) -> None:
    """Wait until the others have moved since the reader's opening and the prompt is back."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if "Your turn" in screen.split("You opened with")[-1] and screen.rstrip().endswith(">"):
            return
        time.sleep(0.1)
    raise AssertionError(f"the prompt did not come back:\n{tmux.screen()}")
