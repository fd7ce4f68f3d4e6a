"""``lanomino verify`` on transcripts a seat saved after a host cheated (issue 28): the proof kept
against a host voted out names it ("Caught: ...") with the verdict; a disputed move is listed and
the verdict does not call the transcript simply fair; a proof the file does not bear out fails
naming no seat."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from hostile import false_score, plays_for  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from test_disputes import CLOCK, marks_away_and_plays  # noqa: E402

from lanomino.cli import main  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import TranscriptUpdated  # noqa: E402


def saved(table: MigratingTable, seat: int, tmp_path: Path) -> Path:
    """The transcript ``seat``'s node saved last (what the runtime writes on TranscriptUpdated)."""
    event = next(e for e in reversed(table.by_seat(seat).events)
                 if isinstance(e, TranscriptUpdated))
    path = tmp_path / f"{event.table}.json"
    path.write_text(json.dumps(event.transcript, indent=1))
    return path


def played(cheat: Any, timings: Any = None) -> MigratingTable:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=23,
                           **({} if timings is None else {"timings": timings}))
    host = table.by_seat(0).host
    assert host is not None
    assert cheat(host) is not None
    table.run(lambda: all((m.host is not None and m.host.phase.value == "over")
                          or (m.peer is not None and m.peer.phase.value in ("over", "closed"))
                          for m in table.machines if m.seat != 0), max_time=900)
    return table


def test_verify_names_the_host_a_seats_saved_transcript_holds_proof_against(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = played(lambda host: plays_for(host, 2, away=False, limit=1))
    for seat in (2, 3):  # a seat that caught the host, and the seat that hosts after it (2)
        path = saved(table, seat, tmp_path)
        assert main(["verify", str(path)]) == 0
        out = capsys.readouterr().out.splitlines()
        caught = [line for line in out if line.startswith("Caught: ")]
        assert len(caught) == 1 and caught[0].startswith(
            "Caught: the host (seat 1) signed a move for seat 3 at a table without a move clock "
            "(hand 1, move ")
        assert caught[0].endswith(": proof in the file.")
        assert out[-1].startswith("Verdict: fair: every check of ")
        assert out[-1].endswith("a host was caught cheating (proof above).")
        assert main(["verify", str(path), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["caught"] == [c.removeprefix("Caught: ").removesuffix(".") for c in caught]


def test_verify_names_the_host_whose_refuted_hand_log_a_seat_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = played(false_score)
    path = saved(table, 3, tmp_path)
    doc = json.loads(path.read_text())
    assert [p["kind"] for p in doc["evidence"]] == ["log"]
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("Caught: the host (seat 1) signed a log of a hand that the rules refute (hand 1): "
            "proof in the file.") in out
    # the same log with the host's points put right no longer convicts it: the check fails,
    # naming nobody's seat (nobody signs an accusation)
    honest = next(h for h in doc["hands"] if h["hand"] == 1)
    doc["evidence"][0]["entry"] = honest
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("NOT FAIR: proof 1, that the host (seat 1) signed a log of a hand "
                               "that the rules refute (hand 1), does not hold [check: evidence; "
                               "blame: whoever changed the file]") for line in out), out
    assert out[-1] == ("Verdict: NOT FAIR: the evidence check failed; to blame: whoever changed "
                       "the file.")


def test_a_refuted_log_of_a_later_hand_is_checked_alike_hand_by_hand_and_whole() -> None:
    """The attack row 'wrong draw' lost a seat one run in eight: a proof that the host signed a
    refuted log of hand 2 or later holds only after the file's hands before it, and the seats'
    hand-by-hand verifier checked the evidence before any hand, so it found the new host's
    transcript 'does not hold together', voted that honest host out too, and left the match."""
    from lanomino.fair.verify import StreamVerifier, verify_transcript

    table = played(lambda host: false_score(host, at_hand=2))
    survivors = [m for m in table.machines if m.seat != 0]
    for m in survivors:
        doc = m.host.doc if m.host is not None else m.peer.doc  # type: ignore[union-attr]
        assert doc is not None and doc["end"]["finished"], m.seat
        assert [(p["kind"], p["hand"]) for p in doc["evidence"]] == [("log", 2)]
        assert verify_transcript(doc).ok
        assert StreamVerifier().check(doc).failure is None
    caught = [m.seat for m in survivors for e in m.events
              if e.__class__.__name__ == "HostCaught" and e.evidence.get("host") != 0]
    assert caught == []  # nobody caught the honest new host


def test_verify_lists_a_disputed_move_and_does_not_call_the_transcript_simply_fair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = played(lambda host: marks_away_and_plays(host, 2), CLOCK)
    path = saved(table, 1, tmp_path)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert any("DISPUTED by seat 3, who says it was there in time" in line for line in out)
    assert "disputed by their seat" in out[-1]

