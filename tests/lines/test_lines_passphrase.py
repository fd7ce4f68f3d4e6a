"""A table joined by its address that needs a passphrase (or got a wrong one) asks for it right
there, in the full screen and in the line mode, without opening the LAN lobby's search (issue 30
item 14). A real headless host with a passphrase on 127.0.0.1; the joiner is the real client in
tmux at 80x24, then the line mode over pipes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from linekit import LinePipe

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_tmux_play import ROOT, Tmux, wait_for  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]

PASSPHRASE = "red fox jumps"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[str]:
    """A headless table of two with a passphrase: its HOST:PORT/KEY."""
    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--bind", "127.0.0.1",
         "--no-announce", "--name", "Den", "--passphrase", PASSPHRASE, "--bot-delay", "0.3",
         "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        yield str(json.loads(host.stdout.readline())["address"])
    finally:
        host.kill()
        host.wait(timeout=10)


def test_the_client_asks_for_the_passphrase_where_it_is(table: str, tmp_path: Path) -> None:
    command = (f"cd {ROOT} && {sys.executable} -m lanomino join {table} --player Bea "
               f"--data-dir {tmp_path / 'bea'}")
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        asked = wait_for(tmux, "Passphrase:", 15)
        assert asked.startswith(" Join Den ") and "needs a passphrase" in asked, asked
        assert "searching" not in asked and "Join a table on the LAN" not in asked, asked
        tmux("send-keys", "-t", "play", "-l", "wrong")
        tmux.keys("Enter")
        again = wait_for(tmux, "wrong passphrase", 15)
        assert "Passphrase:" in again and "searching" not in again, again
        time.sleep(0.5)  # (nothing else turns up meanwhile: no LAN search started)
        assert "searching" not in tmux.screen()
        tmux("send-keys", "-t", "play", "-l", PASSPHRASE)
        tmux.keys("Enter")
        seated = wait_for(tmux, "Bea", 15)
        assert "Passphrase:" not in seated, seated
    finally:
        tmux.kill()


def test_the_line_mode_takes_the_next_line_as_the_passphrase(table: str, tmp_path: Path) -> None:
    pipe = LinePipe(["join", table, "--lines", "--player", "Bea", "--data-dir",
                     str(tmp_path / "bea")])
    try:
        pipe.until("needs a passphrase")
        pipe.until("Type the passphrase")
        pipe.send("wrong")
        pipe.until("Wrong passphrase")
        pipe.until("Type the passphrase")
        pipe.send(PASSPHRASE)
        pipe.until("At the table:.*Bea")
        assert not any("Looking for tables" in line or "command" in line for line in pipe.said)
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        pipe.kill()


def test_menu_gives_the_passphrase_up_so_the_next_join_is_not_asked_for_it(table: str,
                                                                          tmp_path: Path) -> None:
    pipe = LinePipe(["join", table, "--lines", "--player", "Bea", "--data-dir",
                     str(tmp_path / "bea")])
    try:
        pipe.until("Type the passphrase")
        pipe.send("menu")  # give up: back to the menu
        pipe.until("Type new to play")
        start = len(pipe.said)
        pipe.send(f"join {table}")  # (by its address again, without the passphrase this time)
        pipe.until("This table needs a passphrase")
        between = pipe.said[start:-1]  # asked who it is, then joined: no question meanwhile
        assert not any("Type the passphrase" in line for line in between), between
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        pipe.kill()


def test_the_line_mode_says_what_is_wrong_with_an_address(tmp_path: Path) -> None:
    """Issue 30 item 14: a port that is no number, or none at all, is named, not searched for."""
    pipe = LinePipe(["play", "--lines", "--data-dir", str(tmp_path)])
    try:
        pipe.until("Type new to play")
        pipe.send("join 127.0.0.1:abc")
        pipe.until(r"'127\.0\.0\.1:abc': the port must be a number")
        pipe.send("join 127.0.0.1/abcd1234")
        pipe.until(r"127\.0\.0\.1 needs the table's port too: HOST:PORT/abcd1234")
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        assert not any("Looking for tables" in line for line in pipe.said)
    finally:
        pipe.kill()
