"""A match with a host migration whose hand was re-shuffled (issue 30 item 9): History counts
every hand, and ``replay`` (the words, the JSON, the viewer) goes through every hand, the
re-shuffled one from its re-shuffle on, from what the transcript holds. The match is the real
thing from an in-memory table (tests/net/test_session_reshuffle.py) logged in a real SQLite
store."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from lanomino.client.replay import RESHUFFLED, document_view  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402
from lanomino.ui.history import draw_replay  # noqa: E402
from lanomino.ui.render import Canvas  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def match() -> dict[str, Any]:
    from test_session_reshuffle import lose_host_and_a_holder

    table, _, _ = lose_host_and_a_holder(3)
    table.run(table.over)
    host = table.by_seat(2).host
    assert host is not None and host.doc is not None
    doc: dict[str, Any] = copy.deepcopy(host.doc)
    assert any("reshuffled" in hand for hand in doc["hands"]), "no hand was re-shuffled"
    return doc


def _reshuffled(doc: dict[str, Any]) -> int:
    """The number of the re-shuffled hand (each hand here was dealt once)."""
    return int(next(h["hand"] for h in doc["hands"] if "reshuffled" in h))


def test_the_viewer_steps_through_every_hand(match: dict[str, Any]) -> None:
    view = document_view(match, "Match #1")
    assert len(view.hands) == len(match["hands"])
    hand = match["hands"][_reshuffled(match) - 1]
    frames = view.hands[_reshuffled(match) - 1]
    assert frames[0].text == (RESHUFFLED,) and frames[0].move == hand["reshuffled"]["at"]
    assert len(frames) == 1 + len(hand["moves"]) - hand["reshuffled"]["at"]
    assert list(view.hands[-1][-1].scores) == match["end"]["scores"]
    view.hand = _reshuffled(match) - 1
    canvas = Canvas(80, 24)
    draw_replay(view, canvas, False)
    at, moves = hand["reshuffled"]["at"], len(hand["moves"])
    assert f"move {at}/{moves}" in canvas.text().splitlines()[0]


def test_history_counts_every_hand_and_replay_tells_them_all(match: dict[str, Any],
                                                             tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        match_id = PlayLog(store).log_match(match, uid="lan:x", me=2, table="Porch")
    finally:
        store.close()
    hands = len(match["hands"])
    listed = _run("history", "--json", "--data-dir", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    row = json.loads(listed.stdout)[0]
    assert row["hands"] == hands and row["verification"] == "verified", row
    told = _run("replay", str(match_id), "--data-dir", str(tmp_path))
    assert told.returncode == 0, told.stderr
    said = told.stdout
    assert "re-shuffled" in said and "does not verify" not in told.stderr
    assert all(f"Hand {n} is over" in said for n in range(1, hands + 1)), said
    raw = _run("replay", str(match_id), "--json", "--data-dir", str(tmp_path))
    result = json.loads(raw.stdout)
    assert len(result["hands"]) == hands and result["scores"] == match["end"]["scores"]
    assert result["finished"] is True


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lanomino", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
