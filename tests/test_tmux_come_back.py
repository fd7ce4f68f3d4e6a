"""A player out of time on the move clock comes back in the full screen: a real headless host on
127.0.0.1 with ``--move-time 5``, a player who joins in a detached tmux at 80x24 and does not
move. The screen says the table's bot plays for them and how to come back; ``b`` brings them
back, their next turn waits for them, and the moves they then make by keys are their own: the
transcript they keep lists the host's moves for them first, then theirs (not as the table's)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_tmux_lan import play_until
from test_tmux_play import ROOT, Tmux, wait_for

sys.path.insert(0, str(Path(__file__).parent / "lines"))
from linekit import by_the_table, table_then_own  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]


def flat(screen: str) -> str:
    return " ".join(screen.split())


def first_of(tmux: Tmux, *texts: str, without: str, timeout_s: float = 10.0) -> str:
    """The first screen that shows one of ``texts`` and not ``without`` (flattened)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        screen = flat(tmux.screen())
        if any(text in screen for text in texts) and without not in screen:
            return screen
        time.sleep(0.03)
    raise AssertionError(f"none of {texts} appeared")


@pytest.mark.timeout(180)
def test_a_player_out_of_time_presses_b_and_plays_their_own_turns(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--seats", "2",
         "--bind", "127.0.0.1", "--no-announce", "--level", "greedy", "--bot-delay", "1",
         "--move-time", "5", "--set", "target=15", "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    tmux = Tmux()
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        join = (f"cd {ROOT} && {sys.executable} -m lanomino join {address} --player Bo "
                f"--interface 127.0.0.1 --data-dir {tmp_path / 'bo'}")
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{join}; sleep 30")
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        away = flat(wait_for(tmux, "Your time ran out", 30))  # Bo pressed nothing
        assert ("Your time ran out: the table's bot is playing for you. Press b, or any key that "
                "plays, to come back and play your own turns.") in away, away
        assert "b or any move key: come back and play your turns" in away, away
        tmux.keys("b")
        # the notice goes; "You are back" shows until Bo's turn comes (the host's bot moves
        # within a second)
        first_of(tmux, "You are back: your next turn is yours again.", "your turn",
                 without="Your time ran out")
        turn = wait_for(tmux, "your turn", 15)  # the host's bot moved: Bo's turn waits for Bo
        assert "Your time ran out" not in flat(turn)
        play_until(tmux, "The match is over", [turn], timeout_s=120)
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"], result
        bo = by_the_table(tmp_path / "bo", 1)  # Bo's moves: the table's, or its own
        assert table_then_own(bo), bo
    finally:
        tmux.kill()
        if host.poll() is None:
            host.kill()
        host.communicate(timeout=10)
