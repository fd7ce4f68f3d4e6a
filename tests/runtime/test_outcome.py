"""What a node prints when its match ends (``--json``: runtime/base.py's ``Outcome``): finished
means decided. A match whose host left with more than one side standing, or whose locked deal
failed, ends with nobody able to say who won: that node stopped, it did not finish (before, a
``--no-migration`` seat cut off past its grace period printed "finished": true with no winner)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lanomino.net.session import MatchOver
from lanomino.runtime.base import NodeBase

LEFT = "the host left the table (silent for 4 s)"


def _printed(tmp_path: Path, event: MatchOver) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        node = NodeBase(tmp_path)
        node.done = asyncio.get_running_loop().create_future()
        assert node._ended(event, 1, {})
        await asyncio.sleep(0.2)  # (the play log's note of an abandoned match, in a thread)
        return node.done.result().to_json()

    return asyncio.run(scenario())


def test_a_match_nobody_could_decide_is_stopped_not_finished(tmp_path: Path) -> None:
    why = f"{LEFT}, and no new host was elected to carry the match on"
    out = _printed(tmp_path, MatchOver(None, (10, 20, 5), 2, True, why))
    assert out["event"] == "stopped" and out["finished"] is False, out
    assert out["winner"] is None and out["scores"] == [10, 20, 5] and out["reason"] == why


def test_a_failed_locked_deal_is_stopped_not_finished(tmp_path: Path) -> None:
    why = "the locked deal failed: seat 2 sent a shuffle that does not parse"
    out = _printed(tmp_path, MatchOver(None, (0, 0), 0, False, why))
    assert out["event"] == "stopped" and not out["finished"] and out["reason"] == why, out


def test_the_side_left_standing_wins_and_the_match_is_finished(tmp_path: Path) -> None:
    out = _printed(tmp_path, MatchOver(1, (10, 20), 2, True, LEFT))
    assert out["event"] == "match_over" and out["finished"] and out["winner"] == 1, out


def test_a_match_closed_by_its_host_is_finished(tmp_path: Path) -> None:
    out = _printed(tmp_path, MatchOver(0, (101, 40, 12), 5, True))
    assert out["event"] == "match_over" and out["finished"] and out["winner"] == 0, out
