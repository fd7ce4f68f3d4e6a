"""While the full screen is up nothing but the UI writes to the terminal (issue 30 item 3): the
host's log (a joiner's wrong passphrase is a warning) goes to ``lanomino.log`` in the data
directory, and Ctrl-L repaints. Real ``lanomino host`` in tmux at 80x24, its stderr on the
terminal as a person's would be, and a real headless joiner over 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_lan import ADDRESS
from test_tmux_play import ROOT, Tmux, wait_for

LANOMINO = [sys.executable, "-m", "lanomino"]

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
        while time.monotonic() < deadline:  # (the screen is blank a moment, then drawn again)
            screen = tmux.screen()
            if "stray words" not in screen and "waiting for players" in screen:
                break
            time.sleep(0.1)
        assert "stray words" not in screen and "waiting for players (1/2)" in screen, screen
    finally:
        tmux.kill()


def test_the_new_hosts_screen_stays_clean_after_a_migration(tmp_path: Path) -> None:
    """The client takes the table over when its host is killed (it sits in seat 2, the first to
    succeed): the node's warnings ('term 1: this seat hosts the table now') go to the log."""
    host = subprocess.Popen([*LANOMINO, "host", "--headless", "--bind", "127.0.0.1",
                             "--no-announce", "--json", "--seats", "3", "--level", "greedy",
                             "--set", "target=1", "--bot-delay", "0.3",
                             "--data-dir", str(tmp_path / "host")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs = [host]
    tmux = Tmux()
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        me = tmp_path / "me"
        command = (f"cd {ROOT} && {sys.executable} -m lanomino join {address} --player Me "
                   f"--data-dir {me}")
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "2. Me", 20)  # seated first: the first to succeed the host
        bot = subprocess.Popen([*LANOMINO, "bot", address, "--player", "Bo", "--level", "greedy",
                                "--json", "--delay", "0.3", "--data-dir", str(tmp_path / "bot")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
        procs.append(bot)
        wait_for(tmux, "Your hand · Me", 20)
        host.kill()
        host.wait(timeout=5)
        screens = [wait_for(tmux, "Lanomino · you host", 20)]
        deadline = time.monotonic() + 3  # the migration's words, as they come
        while time.monotonic() < deadline:
            screens.append(tmux.screen())
            time.sleep(0.1)
        for screen in screens:
            assert "term 1" not in screen and "this seat hosts" not in screen, screen
            assert screen.startswith(" Lanomino · you host"), screen
        assert "this seat hosts the table now" in _read(me / "lanomino.log")
    finally:
        tmux.kill()
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=5)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""
