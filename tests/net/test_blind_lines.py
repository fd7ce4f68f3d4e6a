"""A person at a locked table (issue 29): a line-mode player joins ``host --headless --deal blind``
over real sockets on 127.0.0.1 and plays the match from what it is told: its own tiles open for
it, draws included, and every hand is checked at its end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lines"))
from linekit import LANOMINO, ROOT, LinePipe, play_match  # noqa: E402

TIMING = ["--heartbeat", "0.3", "--grace", "5"]


def test_a_line_mode_player_plays_a_locked_match(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--deal", "blind", "--bind", "127.0.0.1",
         "--no-announce", "--json", "--level", "greedy", "--data-dir", str(tmp_path / "host"),
         "--seats", "2", "--set", "target=30", *TIMING],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    pipe: LinePipe | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        pipe = LinePipe(["join", address, "--lines", "--player", "Bea",
                         "--data-dir", str(tmp_path / "bea"), *TIMING])
        pipe.until(r"^At the table")
        play_match(pipe, r"^The match is over: ", timeout_s=120)
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"], result
        lines = [s for s in pipe.said if not s.startswith(">>> ")]
        assert any(s.startswith("Hand 1 checked") for s in lines), lines[-20:]
        assert not [s for s in lines if "FAILED" in s or "does not check out" in s]
        # a draw shows its tile to its drawer once its shares open it, as at any table
        assert not [s for s in lines if s.startswith("You drew a tile")]
        # a hand that ended is not "your turn" while its keys are shown
        assert not [s for s in lines if s.startswith("Your hand: no tiles")]
        transcript = json.loads(Path(result["transcript"]).read_text())
        assert transcript["format"] == "lanomino.transcript/2"
    finally:
        if pipe is not None:
            pipe.kill()
        if host.poll() is None:
            host.kill()
            host.communicate(timeout=10)
