"""``lanomino verify``: exit codes, output lines, --json, malformed input without tracebacks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fairkit import host_signs_again, identities, make_transcript

from lanomino.cli import main

LINE = re.compile(r"hand \d+: fair: shuffled by \d+ players, 28 tiles, \d+ draws?, "
                  r"match totals \d+-\d+-\d+")
NO_CLOCK = "Move clock: none: every move must be signed by its own seat."
OLD_CLOCK = ("Move clock: not in the header (an older transcript): a move or resignation the host "
             "signed for a seat is accepted, as it was then, and listed.")
OLD = Path(__file__).parent / "data" / "transcript-before-move-clock.json"


@pytest.fixture(scope="module")
def fair_doc() -> dict[str, Any]:
    return make_transcript("classic", 3, 1, target=30)


def write(tmp_path: Path, doc: Any, name: str = "t.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_fair_transcript_exits_0_with_a_line_per_hand(
    tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, fair_doc)]) == 0
    lines = capsys.readouterr().out.splitlines()
    hands = len(fair_doc["hands"])
    assert len(lines) == hands + 2
    assert all(LINE.fullmatch(line) for line in lines[:hands]), lines
    assert lines[hands:] == [NO_CLOCK, f"Verdict: fair: every check of {hands} hands holds."]


def test_a_transcript_written_before_the_move_clock_verifies_and_says_so(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """Every transcript format we wrote still verifies: this one (no move_clock in its header)
    has a resignation the host signed, accepted as it was then, and listed."""
    assert main(["verify", str(OLD)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("signed by the host, not by the seat: move 9 (seat 3 resigns: the "
                             "host says seat 3 had left, which could not be checked)")
    assert lines[-2:] == [OLD_CLOCK, "Verdict: fair: every check of 4 hands holds; 1 move "
                          "signed by the host for a seat (listed above)."]


def _wrong_secret(fair_doc: dict[str, Any], host_signs: bool) -> dict[str, Any]:
    """Seat 3's secret in hand 2 changed: in the file, or by the host before it signed the log."""
    doc = json.loads(json.dumps(fair_doc))
    secret = doc["hands"][1]["deals"][0]["secrets"][2]
    doc["hands"][1]["deals"][0]["secrets"][2] = ("0" if secret[0] != "0" else "1") + secret[1:]
    if host_signs:
        host_signs_again(doc, identities(3))
    return doc


def test_a_tampered_transcript_exits_1_naming_hand_check_and_blame(
    tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, _wrong_secret(fair_doc, host_signs=True))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert LINE.fullmatch(out[0])
    assert out[1:] == [
        "NOT FAIR: hand 2: the host published a secret for seat 3 that does not open seat 3's "
        "signed commitment [check: secret; blame: the host (seat 1)]",
        NO_CLOCK,
        "Verdict: NOT FAIR: the secret check failed in hand 2; to blame: the host (seat 1)."]


def test_a_file_changed_after_it_was_signed_blames_no_seat(
    tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, _wrong_secret(fair_doc, host_signs=False))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("NOT FAIR: hand 2: the host's signature over the hand's log does not verify: "
                      "the file was changed after it was signed "
                      "[check: log; blame: whoever changed the file]")
    assert out[-1] == ("Verdict: NOT FAIR: the log check failed in hand 2; "
                       "to blame: whoever changed the file.")


def test_a_game_record_is_named_as_one(
    tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from lanomino.fair.verify import to_record

    assert main(["verify", write(tmp_path, to_record(fair_doc))]) == 2
    err = capsys.readouterr().err
    assert "t.json is a game record (lanomino.record/1), not a transcript" in err
    assert "only matches played over the LAN have transcripts" in err and "missing" not in err


def test_json_output(
    tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", write(tmp_path, fair_doc), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True and result["failure"] is None
    assert [h["hand"] for h in result["hands"]] == list(range(1, len(fair_doc["hands"]) + 1))
    assert result["hands"][-1]["scores"] == fair_doc["hands"][-1]["scores"]
    hands = len(fair_doc["hands"])
    assert result["verdict"] == f"Verdict: fair: every check of {hands} hands holds."
    doc = json.loads(json.dumps(fair_doc))
    doc["hands"][0]["points"][0] += 1
    host_signs_again(doc, identities(3))
    assert main(["verify", write(tmp_path, doc), "--json"]) == 1
    failure = json.loads(capsys.readouterr().out)["failure"]
    blamed = (failure["check"], failure["hand"], failure["blame"])
    assert blamed == ("score", 1, "the host (seat 1)")
    assert failure["seat"] == 0  # the blamed seat's index, counted from 0 as JSON does


def test_json_keeps_seat_indices_from_0_and_says_so_while_its_words_count_from_1(
        tmp_path: Path, fair_doc: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    doc = _wrong_secret(fair_doc, host_signs=True)
    assert main(["verify", write(tmp_path, doc), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["seats_from"] == 0
    failure = result["failure"]
    assert (failure["seat"], failure["blame"]) == (0, "the host (seat 1)")
    assert "a secret for seat 3" in failure["message"]


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", '{"format": "lanomino.transcript/1"}',
                                     "\udcff", "[" * 100_000])
def test_malformed_input_exits_2_without_a_traceback(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lanomino verify: ") and "Traceback" not in err
    assert main(["verify", str(path), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_selfplay_writes_transcripts_that_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "transcripts"
    args = ["--players", "3", "--games", "2", "--seed", "3", "--transcripts", str(out)]
    assert main(["selfplay", *args]) == 0
    files = sorted(out.iterdir())
    assert len(files) == 2
    capsys.readouterr()
    for path in files:
        assert main(["verify", str(path)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert all(LINE.fullmatch(line) for line in lines[:-2]) and len(lines) > 2
        assert lines[-1].startswith("Verdict: fair: every check of ")
        doc = json.loads(path.read_text())
        assert len(set(doc["keys"])) == 3  # every seat its own identity
