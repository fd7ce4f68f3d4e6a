"""While the full screen is up nothing but the UI writes to the terminal (issue 30 item 3): the
host's log (a joiner's wrong passphrase is a warning) goes to ``lanomino.log`` in the data
directory, and Ctrl-L repaints. Real ``lanomino host`` in tmux at 80x24, its stderr on the
terminal as a person's would be, and a real headless joiner over 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_lan import ADDRESS
from test_tmux_play import ROOT, Tmux, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]


def test_a_wrong_passphrase_leaves_the_hosts_screen_clean(tmp_path: Path) -> None:
    home = tmp_path / "host"
    command = (f"cd {ROOT} && {sys.executable} -m lanomino host --bind 127.0.0.1 --no-announce "
               f"--name Den --player Me --passphrase 'red fox jumps' --data-dir {home}")
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        waiting = wait_for(tmux, "waiting for players (1/2)")
        address = ADDRESS.search(waiting)
        assert address is not None, waiting
        joiner = subprocess.run(
            [sys.executable, "-m", "lanomino", "join", address.group(0), "--headless",
             "--passphrase", "wrong", "--data-dir", str(tmp_path / "joiner")],
            cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert joiner.returncode != 0 and "wrong passphrase" in joiner.stdout + joiner.stderr
        time.sleep(1.0)
        screen = tmux.screen()
        assert "refused" not in screen and "passphrase" not in screen, screen
        assert screen.startswith(" Table Den "), screen
        assert "waiting for players (1/2)" in screen, screen
        log = home / "lanomino.log"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "passphrase" not in _read(log):
            time.sleep(0.1)
        assert "passphrase" in _read(log), "the refusal was not logged to the file"
        # another program writes on the terminal (as a stray write would): Ctrl-L repaints
        tty = tmux("display-message", "-p", "-t", "play", "#{pane_tty}").strip()
        with open(tty, "w") as terminal:
            terminal.write("\x1b[5;3Hstray words from elsewhere")
        wait_for(tmux, "stray words from elsewhere", 3)
        tmux.keys("C-l")
        deadline = time.monotonic() + 5
        while "stray words" in (screen := tmux.screen()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "stray words" not in screen and "waiting for players (1/2)" in screen, screen
    finally:
        tmux.kill()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""
