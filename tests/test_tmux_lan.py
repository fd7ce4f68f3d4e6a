"""End to end over the LAN code path on loopback: the real ``lanomino host`` opens the client in a
detached tmux at 80x24, a headless ``lanomino bot`` joins over 127.0.0.1 by the HOST:PORT/KEY read
off the host's screen, and the host's seat plays the match (to 1 point: one hand, or more when a
hand scores nothing) by keys."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_play import ROOT, TILE, Tmux, session_ends, shown, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]

ADDRESS = re.compile(r"127\.0\.0\.1:\d+/[a-z2-7]{52}")
HAND = re.compile(r"· hand (\d+) ·")


def hand_of(screen: str) -> int | None:
    """The hand number in a table screen's header, or None for any other screen."""
    found = HAND.search(screen.split("\n", 1)[0])
    return int(found.group(1)) if found else None


def play_until(tmux: Tmux, done: str, screens: list[str], timeout_s: float = 30.0) -> str:
    """Make the host seat's moves by keys until ``done`` shows; every screen seen is kept."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        screen = tmux.screen()
        screens.append(screen)
        if done in screen:
            return screen
        footer = screen.rstrip().splitlines()[-1]
        if "is over" in screen:
            # The match's end may arrive just after its last hand's: give it a moment before
            # Enter (which, once the match is over, leaves for the menu).
            time.sleep(1.0)
            screen = tmux.screen()
            screens.append(screen)
            if done in screen:
                return screen
            tmux.keys("Enter")  # a hand ended without deciding the match: on to the next
        elif "Play where" in screen:
            tmux.keys("1")
        elif "d draw" in footer:
            tmux.keys("d")
        elif "p pass" in footer:
            tmux.keys("p")
        elif "your turn" in screen:
            tmux.keys("Enter")  # a turn starts with the first tile that fits selected
            time.sleep(0.1)
            for _ in range(20):  # else walk the hand until a tile is played
                if "your turn" not in tmux.screen() or "Play where" in tmux.screen():
                    break
                tmux.keys("Right", "Enter")
                time.sleep(0.05)
        time.sleep(0.1)
    distinct = [s for i, s in enumerate(screens) if i == 0 or s != screens[i - 1]]
    last = "\n-----\n".join(distinct[-4:])
    raise AssertionError(f"{done!r} never appeared; last screens:\n{last}")


def leave_for_menu(tmux: Tmux) -> str:
    """Enter on the match's result, again if it came too recently for Enter to count."""
    for _ in range(3):
        tmux.keys("Enter")
        try:
            return wait_for(tmux, "Host a table on the LAN", 2)
        except AssertionError:
            continue
    return wait_for(tmux, "Host a table on the LAN")


def test_host_in_the_client_and_a_headless_bot_play_over_loopback(tmp_path: Path) -> None:
    command = (f"cd {ROOT} && {sys.executable} -m lanomino host --bind 127.0.0.1 --no-announce "
               f"--name Den --player Me --set target=1 --data-dir {tmp_path / 'host'} "
               f"2>{tmp_path / 'host.err'}")
    tmux = Tmux()
    bot: subprocess.Popen[str] | None = None
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", command)
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        waiting = wait_for(tmux, "waiting for players (1/2)")
        assert "1. Me (host)" in waiting and "2. (free)" in waiting
        address = ADDRESS.search(waiting)
        assert address is not None, waiting
        bot = subprocess.Popen(
            [sys.executable, "-m", "lanomino", "bot", address.group(0), "--level", "random",
             "--json", "--data-dir", str(tmp_path / "bot")], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        first = wait_for(tmux, "Your hand · Me", 15)
        assert "Den · Block game" in first or "Den · Draw game" in first
        screens = [first]
        end = play_until(tmux, "The match is over", screens)
        assert "Deal check: verified ✓" in end and "Tiles left in each hand:" in end
        out, err = bot.communicate(timeout=15)
        result = json.loads(out.strip().splitlines()[-1])
        assert bot.returncode == 0, err
        assert result["finished"] and result["verified"] and result["seat"] == 1
        # the bot's last tiles were never on the host's screen before the reveal. A hand that
        # scores nothing (a tie when blocked) does not decide the match to 1: the tiles revealed
        # are the last hand's, so only that hand's screens are checked.
        reveal = end.split("Tiles left in each hand:")[1].splitlines()
        bot_row = next(line for line in reveal if "random bot" in line)
        last_hand = max(n for n in map(hand_of, screens) if n is not None)
        last_screens = [s for s in screens[:-1] if hand_of(s) == last_hand]
        assert last_screens, "no screen of the last hand was seen"
        for tile in [(int(a), int(b)) for a, b in TILE.findall(bot_row)]:
            for screen in last_screens:
                if "Tiles left in each hand:" not in screen:
                    assert not shown(tile, screen), f"the bot's {tile} was visible:\n{screen}"
        leave_for_menu(tmux)
        tmux.keys("q")
        assert session_ends(tmux), "q on the menu did not quit"
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.communicate(timeout=5)
        tmux.kill()
