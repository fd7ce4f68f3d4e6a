"""A player out of time on the move clock comes back in the full screen: a real headless host on
127.0.0.1 with ``--move-time 3``, a player who joins in a detached tmux at 80x24 and does not
move. The screen says the table's bot plays for them and how to come back; ``b`` brings them
back, their next turn waits for them, and the moves they then make by keys are their own: the
transcript they keep lists the host's moves for them first, then theirs (not as the table's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_tmux_lan import play_until
from test_tmux_play import ROOT, Tmux, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]


def flat(screen: str) -> str:
    return " ".join(screen.split())


@pytest.mark.timeout(180)
def test_a_player_out_of_time_presses_b_and_plays_their_own_turns(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--seats", "2",
         "--bind", "127.0.0.1", "--no-announce", "--level", "greedy", "--bot-delay", "1",
         "--move-time", "3", "--set", "target=15", "--data-dir", str(tmp_path / "host")],
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
        back = flat(wait_for(tmux, "You are back", 5))
        assert "Your time ran out" not in back, back
        turn = wait_for(tmux, "your turn", 15)  # the host's bot moved: Bo's turn waits for Bo
        assert "Your time ran out" not in flat(turn)
        play_until(tmux, "The match is over", [turn], timeout_s=120)
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"], result
        [kept] = (tmp_path / "bo" / "transcripts").glob("*.json")
        hands = json.loads(kept.read_text())["hands"]
        bo = [i in hand.get("away", ()) for hand in hands  # Bo's moves: the table's or its own
              for i, move in enumerate(hand["moves"]) if move["seat"] == 1]
        first_own = bo.index(False)
        assert first_own > 0 and all(bo[:first_own]), bo
    finally:
        tmux.kill()
        if host.poll() is None:
            host.kill()
        host.communicate(timeout=10)
