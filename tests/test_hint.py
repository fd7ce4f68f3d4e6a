"""``lanomino hint``: Expert's advice at a point of a record, from the mover's view only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lanomino.cli import main
from lanomino.engine import TILES, parse_tile
from lanomino.record import FORMAT

ANA = ["6-6", "1-1", "6-5", "1-0", "6-4", "3-2", "3-0"]
BEN = ["6-1", "5-4", "5-3", "5-2", "4-3", "4-2", "2-0"]
# Ben's tiles other than the 6-1 he plays, traded for seven tiles Ana cannot see either.
BEN_OTHER = ["6-1", "2-2", "3-3", "4-4", "5-5", "5-1", "4-1"]
MOVES = [{"seat": 0, "play": "6-6"}, {"seat": 1, "play": "6-1", "end": "left"}]


def record(tmp_path: Path, ben: list[str] = BEN, moves: list[dict[str, Any]] = MOVES,
           name: str = "r.json") -> Path:
    used = {parse_tile(t) for t in ANA + ben}
    doc = {
        "format": FORMAT,
        "rules": {"preset": "classic"},
        "players": ["Ana", "Ben"],
        "hands": [{"deal": [ANA, ben], "boneyard": [str(t) for t in TILES if t not in used],
                   "moves": moves}],
    }
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def hint(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["hint", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_at_the_end_of_the_record_names_the_mover_and_ranks_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = hint(capsys, str(record(tmp_path)), "--json", "--sims", "300", "--budget", "60",
                        "--seed", "4")
    assert code == 0
    got = json.loads(out)
    assert (got["hand"], got["move"], got["seat"], got["player"]) == (1, 3, 0, "Ana")
    assert got["ends"] == [1, 6]
    assert got["simulations"] == 300
    assert got["recorded"] is None
    chances = [m["win_chance"] for m in got["moves"]]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert got["best"] == got["moves"][0]["move"]
    # Ana's legal plays on ends 1 and 6.
    legal = {"1-1", "1-0", "6-5", "6-4"}
    assert {m["move"]["play"] for m in got["moves"]} <= legal


def test_hint_sees_only_the_movers_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two records that differ only in Ben's hidden tiles give Ana the same advice, to the digit."""
    argv = ("--json", "--sims", "200", "--budget", "60", "--seed", "9", "--top", "4")
    _, first, _ = hint(capsys, str(record(tmp_path, BEN, name="a.json")), *argv)
    _, second, _ = hint(capsys, str(record(tmp_path, BEN_OTHER, name="b.json")), *argv)
    assert json.loads(first) == json.loads(second)


def test_hint_before_a_recorded_move_shows_what_was_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = hint(capsys, str(record(tmp_path)), "--move", "2", "--seat", "ben",
                        "--sims", "50", "--budget", "60", "--seed", "1")
    assert code == 0
    assert "Hand 1, move 2: Ben (seat 2) to move." in out
    assert "Expert would play 6-1 on the left." in out  # the only tile that fits the 6-6
    assert "The record has Ben play 6-1 on the left here." in out


def test_seats_are_numbered_from_one_in_words_and_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("--move", "2", "--sims", "20", "--budget", "60", "--seed", "1")
    code, out, _ = hint(capsys, str(record(tmp_path)), "--seat", "2", *argv)
    assert code == 0 and "Ben (seat 2) to move" in out
    code, out, _ = hint(capsys, str(record(tmp_path)), "--seat", "2", "--json", *argv)
    assert code == 0 and json.loads(out)["seat"] == 1  # JSON keeps the record's 0-based seat


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--seat", "Ben"), "it is Ana's turn (seat 1), not Ben's"),
        (("--seat", "7"), "no seat '7'"),
        (("--move", "4"), "--move must be between 1 and 3"),
        (("--hand", "2"), "--hand must be between 1 and 1"),
        (("--sims", "0"), "--sims must be at least 1"),
    ],
)
def test_bad_arguments_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], message: str
) -> None:
    code, out, err = hint(capsys, str(record(tmp_path)), *extra)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_a_finished_hand_or_a_bad_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    used = {"6-6", "1-1"}
    blocked = {
        "format": FORMAT, "rules": {"preset": "block", "hand_size": 1}, "players": ["A", "B"],
        "hands": [{"deal": [["6-6"], ["1-1"]],
                   "boneyard": [str(t) for t in TILES if str(t) not in used],
                   "moves": [{"seat": 0, "play": "6-6"}]}],
    }
    path = tmp_path / "over.json"
    path.write_text(json.dumps(blocked))
    code, _, err = hint(capsys, str(path), "--move", "2")
    assert code == 2 and "hand 1 is over after 1 move:" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = hint(capsys, str(bad))
    assert code == 2 and "not valid JSON" in err
    code, _, err = hint(capsys, str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    illegal = record(tmp_path, moves=[{"seat": 0, "play": "1-1"}], name="illegal.json")
    code, _, err = hint(capsys, str(illegal))
    assert code == 2 and "hand 1, move 1" in err


def test_hint_takes_a_transcript_as_replay_does_and_says_what_the_record_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay`` turns a transcript into a record; ``hint`` used to refuse one (issue 31)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "fair"))
    from fairkit import make_transcript

    from lanomino.fair import to_record

    doc = make_transcript("block", players=2, seed=4, target=20)
    transcript, converted = tmp_path / "t.json", tmp_path / "r.json"
    transcript.write_text(json.dumps(doc))
    converted.write_text(json.dumps(to_record(doc)))
    assert main(["replay", str(transcript), "--json"]) == 0
    capsys.readouterr()
    args = ["--hand", "1", "--move", "1", "--json", "--sims", "50", "--budget", "60", "--seed", "2"]
    code, out, err = hint(capsys, str(transcript), *args)
    assert code == 0, err
    assert json.loads(out) == json.loads(hint(capsys, str(converted), *args)[1])
    doc["hands"][0]["move_signatures"][0] = "00" * 64  # a move its seat did not sign
    transcript.write_text(json.dumps(doc))
    code, out, err = hint(capsys, str(transcript), *args)
    assert code == 2 and out == "" and "does not verify" in err


def test_on_a_finished_match_the_default_is_the_moment_before_its_last_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30 item 21: the documented default worked only on an unfinished record."""
    one = {"format": FORMAT, "rules": {"preset": "block", "hand_size": 2}, "players": ["A", "B"],
           "hands": [{"deal": [["6-6", "6-5"], ["1-1", "6-4"]],
                      "boneyard": [str(t) for t in TILES
                                   if str(t) not in {"6-6", "6-5", "1-1", "6-4"}],
                      "moves": [{"seat": 0, "play": "6-6"}, {"seat": 1, "play": "6-4",
                                                             "end": "left"},
                                {"seat": 0, "play": "6-5", "end": "right"}]}]}
    path = tmp_path / "over.json"
    path.write_text(json.dumps(one))
    args = ("--json", "--sims", "50", "--budget", "60", "--seed", "1")
    code, out, err = hint(capsys, str(path), *args)
    assert code == 0, err
    got = json.loads(out)
    assert (got["hand"], got["move"], got["player"]) == (1, 3, "A")
    assert got["recorded"] == {"play": "6-5", "end": "right"}
    code, out, err = hint(capsys, str(path), *args, "--seat", "B")  # B's last turn
    assert code == 0, err
    assert (json.loads(out)["move"], json.loads(out)["player"]) == (2, "B")


def test_the_words_wrap_to_the_terminal_with_their_lines_indented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    code, out, _ = hint(capsys, str(record(tmp_path)), "--sims", "50", "--budget", "60")
    assert code == 0
    lines = out.splitlines()
    assert all(len(line) <= 50 for line in lines), out
    heads = ("Hand ", "Expert would", "The record has")
    assert all(line.startswith(heads) or line.startswith("  ") for line in lines), out
    assert any(line.startswith("    ") for line in lines), out  # a continuation, indented
