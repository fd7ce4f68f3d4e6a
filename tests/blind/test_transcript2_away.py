"""Moves a seat's own bot made at a locked table with a move clock (issue 29), in
``lanomino.transcript/2``: the record marks each ``away``, the seat signs the mark with the move,
and ``lanomino verify`` lists them as it lists transcript/1's table moves; a mark nobody signed,
or one at a table without a move clock, names the host."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from blind_match import (
    away_hand,
    away_match,
    host_signs_again,
    identities,
    seat_signs_again,
    write_match,
)

from lanomino.blind.hand_record import format_blind_hand
from lanomino.cli import main
from lanomino.fair import to_record
from lanomino.fair.verify import verify_transcript


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return away_match()


def _marked(doc: dict[str, Any]) -> list[int]:
    return [i for i, m in enumerate(doc["hands"][0]["record"]["moves"]) if m.get("away")]


def test_away_moves_are_marked_signed_and_listed(doc: dict[str, Any]) -> None:
    marked = _marked(doc)
    assert len(marked) >= 2
    report = verify_transcript(doc)
    assert report.ok, report.failure
    hand = report.hands[0]
    assert [(a.index, a.seat) for a in hand.away] == [(i, 1) for i in marked]  # (no resignations)
    line = report.lines()[0]
    assert ("the table's move for a seat out of time, made by that seat's own client and signed "
            f"by it: move {marked[0] + 1} (seat 2: ") in line
    assert report.lines()[-2] == ("Move clock: 1 s a move: a seat out of time is played by its "
                                  "own client, which signs those moves; they are listed.")
    assert report.verdict() == (f"Verdict: fair: every check of 1 hand holds; {len(marked)} moves "
                                "made by a seat's own client for it out of time (listed above).")
    assert report.to_json()["hands"][0]["away"] == [{"index": i, "seat": 1} for i in marked]


def test_a_mark_its_seat_did_not_sign_names_the_host(doc: dict[str, Any]) -> None:
    ids = identities(3)
    moves = doc["hands"][0]["record"]["moves"]
    for change in ("drop", "add"):
        bad = json.loads(json.dumps(doc))
        m = bad["hands"][0]["record"]["moves"]
        if change == "drop":
            del m[_marked(doc)[0]]["away"]
        else:
            m[next(i for i, x in enumerate(moves) if not x.get("away"))]["away"] = True
        report = verify_transcript(host_signs_again(bad, ids[0]))
        f = report.failure
        assert f is not None and (f.check, f.blame) == ("signature", "the host (seat 1)"), f
        assert "did not sign" in f.message


def test_a_mark_at_a_table_without_a_move_clock_names_the_host() -> None:
    """Every seat signs the marked moves and the host its points: the table had no move clock,
    so no bot moved for anyone there, and the host, which runs the clock, let the marks in."""
    record = away_hand()
    doc = write_match(3, [replace(record, moves=tuple(replace(m, away=False)
                                                      for m in record.moves))])
    doc["hands"][0]["record"] = format_blind_hand(record)
    report = verify_transcript(seat_signs_again(doc, 1, identities(3)))
    f = report.failure
    assert f is not None and (f.check, f.blame) == ("moves", "the host (seat 1)"), f
    assert "without a move clock" in f.message


def test_lanomino_verify_and_replay_read_it(doc: dict[str, Any], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "away.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "made by that seat's own client and signed by it: move" in out
    record = to_record(doc)  # the game record has no such mark: the moves as played
    assert [m for m in record["hands"][0]["moves"] if "away" in m] == []
    assert len(record["hands"][0]["moves"]) == len(doc["hands"][0]["record"]["moves"])
