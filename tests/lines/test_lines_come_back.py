"""A player out of time on the move clock comes back, in the line mode over pipes, at a real host
on 127.0.0.1 (``host --move-time``): the line mode says the table's bot plays for them and how to
come back; ``back`` brings them back, and their next moves are their own, signed into the hand's
log as theirs (not listed as the table's). At a fair table the host played for them; at a locked
table (``--deal blind``) their own program did, and coming back stops it too."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from linekit import (  # noqa: E402
    LANOMINO,
    ROOT,
    LinePipe,
    answer,
    by_the_table,
    play_match,
    stop_all,
    table_then_own,
)

OVER = r"^The match is over: "
AWAY = ("Your time ran out: the table's bot plays for you. Type back, or any move, to come back "
        "and play your own turns.")
BACK = "You are back: your next turn is yours again."


@pytest.mark.timeout(180)
@pytest.mark.parametrize("deal", ["fair", "blind"])
def test_a_player_out_of_time_types_back_and_plays_their_own_moves(tmp_path: Path,
                                                                    deal: str) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--json", "--seats", "2", "--bind", "127.0.0.1",
         "--no-announce", "--level", "greedy", "--bot-delay", "0.1", "--move-time", "5",
         "--deal", deal, "--set", "target=20", "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pipe: LinePipe | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        pipe = LinePipe(["join", address, "--lines", "--player", "Bo", "--interface",
                         "127.0.0.1", "--data-dir", str(tmp_path / "bo")])
        pipe.until(r"^Your turn\.$", timeout_s=30)  # ... and Bo says nothing
        pipe.until(rf"^{AWAY}$", timeout_s=30)
        pipe.send("back")
        pipe.until(rf"^{BACK}$", timeout_s=30)
        # Bo's next turn is its own: the tile it types is the tile played (at a locked table its
        # program's bot would have moved at once, and the typed move been refused)
        prompt = pipe.until(r"Playable: |^Nothing fits", timeout_s=30)
        reply = answer(prompt)
        assert reply is not None
        pipe.send(reply)
        said = pipe.until(r"^You (opened with|played|drew|passed)", timeout_s=30)
        if reply.startswith("play "):
            number = reply.split()[1]
            tile = re.search(rf"\b{number}: (\d-\d)", prompt.split("Playable:", 1)[1])
            assert tile is not None and f" {tile[1]}" in said, (prompt, reply, said)
        play_match(pipe, OVER, timeout_s=120)  # from now on Bo answers every turn
        said_all = [s for s in pipe.said if not s.startswith(">>> ")]
        assert said_all.count(AWAY) >= 1 and said_all.count(BACK) >= 1  # (once, unless slow)
        assert not [s for s in said_all if "Bo is out of time" in s or "Bo is back" in s]
        refused = r"not yours|not your turn|not been confirmed|not a legal move"
        assert not [s for s in said_all if re.search(refused, s)], pipe.transcript()
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"], result
        assert result["problems"].get("move_clock.away", 0) >= 1, result
        # the log lists the moves made for Bo as the table's (at a locked table by Bo's own
        # program, which signs them so)
        bo = by_the_table(tmp_path / "bo", 1)  # Bo's moves: the table's, or its own
        assert table_then_own(bo), bo
    finally:
        stop_all(pipe, [host])
