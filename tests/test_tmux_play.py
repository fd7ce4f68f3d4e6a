"""End to end: the real ``lanomino play`` in a detached tmux at 80x24, one whole hand by keys."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from lanomino.engine import Rules
from lanomino.localgame import LocalMatch, make_config

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

SEED = 8
ROOT = Path(__file__).resolve().parent.parent
TILE = re.compile(r"\[(\d)\|(\d)\]")


class Tmux:
    def __init__(self) -> None:
        self.socket = f"lanomino-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.path = ""

    def __call__(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                             timeout=10, check=True)
        return out.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "play")

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", "play", *keys)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.path:
            Path(self.path).unlink(missing_ok=True)  # tmux leaves its socket file behind


def wait_for(tmux: Tmux, text: str, timeout_s: float = 10.0) -> str:
    deadline = time.monotonic() + timeout_s
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if text in screen:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared; last screen:\n{screen}")


def session_ends(tmux: Tmux, timeout_s: float = 5.0) -> bool:
    """True once the program has exited (its tmux session, and so the server, are gone)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            tmux("list-sessions")
        except subprocess.CalledProcessError:
            return True
        time.sleep(0.05)
    return False


def shown(tile: tuple[int, int], screen: str) -> bool:
    a, b = tile
    return f"[{a}|{b}]" in screen or f"[{b}|{a}]" in screen


def test_a_whole_hand_in_tmux(tmp_path: Path) -> None:
    match = LocalMatch(make_config(Rules.classic(), 2, ("greedy",), "You", SEED))
    match.deal()
    my_tiles = [(t.high, t.low) for t in match.state.hand_of(0)]
    command = (f"cd {ROOT} && {sys.executable} -m lanomino play --seed {SEED} --level greedy "
               f"--pause 0.05 --data-dir {tmp_path}")
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        first = wait_for(tmux, "Your hand")
        for tile in my_tiles:
            assert shown(tile, first), f"{tile} of my hand is not on the first screen"
        screens = [first]
        for _ in range(200):
            screen = tmux.screen()
            screens.append(screen)
            if "Hand 1 is over" in screen:
                break
            footer = screen.rstrip().splitlines()[-1]
            if "Play where" in screen:
                tmux.keys("1")
            elif "d draw" in footer:
                tmux.keys("d")
            elif "p pass" in footer:
                tmux.keys("p")
            elif "your turn" in screen:
                for digit in "123456789":
                    tmux.keys(digit)
                    if "Play where" in tmux.screen():
                        break
            time.sleep(0.1)
        end = wait_for(tmux, "Hand 1 is over", 2)
        assert "Tiles left in each hand:" in end and "Points this hand:" in end
        assert "Match score: You" in end and "Enter: deal the next hand" in end
        reveal = end.split("Tiles left in each hand:")[1].splitlines()
        ana_row = next(line for line in reveal if line.strip().startswith("Ana"))
        ana_left = [(int(a), int(b)) for a, b in TILE.findall(ana_row)]
        assert ana_left, "pick a seed where the opponent still holds tiles at the end"
        # the opponent's tiles were never on screen before the end-of-hand reveal
        for screen in screens[:-1]:
            if "Hand 1 is over" in screen:
                continue
            for tile in ana_left:
                assert not shown(tile, screen), f"opponent's {tile} was visible:\n{screen}"
        # the next hand deals on Enter, and q asks before leaving
        tmux.keys("Enter")
        wait_for(tmux, "Hand 2:")
        tmux.keys("q")
        wait_for(tmux, "Leave the table?")
        tmux.keys("y")
        wait_for(tmux, "Continue the saved game")
        tmux.keys("q")
        assert session_ends(tmux), "q on the menu did not quit"
    finally:
        tmux.kill()
