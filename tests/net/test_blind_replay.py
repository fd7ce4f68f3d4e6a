"""A locked match in which a person left mid-hand, read back afterwards (issue 29): the hand was
re-shuffled blind, so no single deal holds it, yet ``lanomino replay``, the History screen's
viewer and the play log's facts walk it from its re-shuffle on, as the verifier does
(``fair/walk2.py``), instead of refusing it or logging a match with no hands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_blind_escrow_table import last_transcript, leave_mid_hand  # noqa: E402

from lanomino.client.replay import RESHUFFLED_BLIND, document_view, has_reshuffle  # noqa: E402
from lanomino.engine import TilePlayed  # noqa: E402
from lanomino.fair.walk2 import walk_locked  # noqa: E402
from lanomino.store.facts import derive  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reshuffled() -> dict[str, Any]:
    """A finished 3-person locked match without escrow: a person quit hand 1 after 4 moves."""
    table = leave_mid_hand(3, 1, 4, 3, escrow=False)
    doc = last_transcript(table.host_events)
    assert doc["format"] == "lanomino.transcript/2" and doc["end"]["finished"]
    assert "unheld" in doc["hands"][0]["record"] and len(doc["hands"]) > 1
    return doc


def _replay(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lanomino", "replay", str(path), *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_the_replay_command_tells_the_match_through_the_re_shuffle(
        reshuffled: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(reshuffled))
    told = _replay(path)
    assert told.returncode == 0, told.stderr
    lines = told.stdout.splitlines()
    said = lines.index(f"  {RESHUFFLED_BLIND}")
    assert any("resigned" in line for line in lines[:said])  # (the person who left)
    assert lines[0].startswith("Hand 1:")
    assert sum(line.startswith("Hand ") and " is over" not in line for line in lines) == len(
        reshuffled["hands"])
    assert any(line.startswith("  Hand 1 is over") for line in lines[said:])

    as_json = _replay(path, "--json")
    assert as_json.returncode == 0, as_json.stderr
    out = json.loads(as_json.stdout)
    assert len(out["hands"]) == len(reshuffled["hands"])
    assert out["scores"] == reshuffled["end"]["scores"] and out["finished"]


def test_a_changed_file_is_refused_not_replayed(reshuffled: dict[str, Any],
                                                tmp_path: Path) -> None:
    doc = json.loads(json.dumps(reshuffled))
    doc["end"]["scores"][0] += 1
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    told = _replay(path)
    assert told.returncode == 1 and "does not verify" in told.stderr and not told.stdout


def test_the_viewer_steps_through_every_hand(reshuffled: dict[str, Any]) -> None:
    assert has_reshuffle(reshuffled)
    view = document_view(reshuffled, "a locked match")
    assert len(view.hands) == len(reshuffled["hands"])
    first = view.hands[0]
    assert first[0].text == (RESHUFFLED_BLIND,) and first[0].move > 0
    # (the re-shuffle's frame: the tiles played before the loss are on the board)
    assert sum(isinstance(e, TilePlayed) for e in first[0].line) == sum(
        "play" in m for m in reshuffled["hands"][0]["record"]["moves"][:first[0].move])
    assert first[-1].turn is None  # the hand's end
    assert view.hands[-1][-1].scores == tuple(reshuffled["end"]["scores"])


def test_the_play_log_keeps_every_hand_of_it(reshuffled: dict[str, Any]) -> None:
    facts = derive(reshuffled)
    assert facts.verified and facts.finished
    assert len(facts.hands) == len(reshuffled["hands"])
    assert facts.scores == tuple(reshuffled["end"]["scores"])
    played = [tile for _, tile in facts.hands[0].played]
    before = reshuffled["hands"][0]["record"]["moves"][:4]
    assert played[:4] == [m["play"] for m in before if "play" in m]


def test_a_locked_match_with_no_re_shuffle_walks_to_its_transcripts_end() -> None:
    """The walk and the record path agree: same hands, same final scores."""
    table = leave_mid_hand(3, 1, 4, 3, escrow=True)  # (escrow: the hand plays on, no re-shuffle)
    doc = last_transcript(table.host_events)
    assert not has_reshuffle(doc)
    starts: list[int] = []
    state = walk_locked(doc, lambda h, m, s, events: starts.append(h) if m == 0 else None)
    assert list(state.scores) == doc["end"]["scores"]
    assert len(starts) == len(doc["hands"]) == len(derive(doc).hands)


def test_a_record_of_it_is_refused_with_where_to_see_it_instead(
        reshuffled: dict[str, Any]) -> None:
    """``export --record`` and ``hint`` want a record, which cannot hold the re-shuffled hand:
    they say so, and where the match can be seen."""
    from lanomino.fair.transcript import TranscriptError
    from lanomino.fair.verify import to_record

    with pytest.raises(TranscriptError, match=r"hand 1 was re-shuffled blind after a player "
                       r"left: .*no single deal to write as a record \(lanomino replay shows"):
        to_record(reshuffled)
