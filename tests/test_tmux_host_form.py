"""The client's host form chooses the address to serve on (issue 30 item 15), as ``host --bind``
does: every interface by default, each of this machine's LAN addresses, or 127.0.0.1 for a table
on this machine only. Real client in tmux at 80x24; the table is opened on 127.0.0.1 (nothing
leaves the machine) and its screen gives that address."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_play import ROOT, Tmux, session_ends, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]


def test_the_host_form_serves_on_the_address_chosen(tmp_path: Path) -> None:
    command = f"cd {ROOT} && {sys.executable} -m lanomino play --data-dir {tmp_path}"
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "Host a table on the LAN")
        time.sleep(1.0)  # (the machine's addresses are found off the screen's way)
        tmux.keys("t")
        wait_for(tmux, "What should the other players call you?")  # (asked once: a fresh home)
        tmux.keys("Enter")
        form = wait_for(tmux, "Serve on")
        assert "‹ every interface ›" in form, form
        tmux.keys("Up", "Up", "Left")  # the row above Escrow; back from the first choice
        chosen = wait_for(tmux, "‹ 127.0.0.1 (this machine only) ›")
        assert all(len(line) <= 80 for line in chosen.splitlines())
        tmux.keys("Down", "Down", "Enter")
        waiting = wait_for(tmux, "waiting for players (1/2)", 15)
        shown = re.findall(r"\b(\d+\.\d+\.\d+\.\d+):\d+/", waiting)
        assert shown and set(shown) == {"127.0.0.1"}, waiting
        tmux.keys("q")
        wait_for(tmux, "Host a table on the LAN", 10)
        tmux.keys("q")
        assert session_ends(tmux, 10), "q on the menu did not quit"
    finally:
        tmux.kill()
