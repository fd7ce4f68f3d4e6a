"""The real CLI replays every golden record to the hand-worked expected result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RECORDS = sorted(HERE.glob("*.record.json"))


def _replay(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "lanomino", "replay", str(path), *extra],
        capture_output=True, text=True, timeout=60, env=env, cwd=ROOT,
    )


def _expected(record: Path) -> Any:
    """The golden result stored beside ``record``."""
    return json.loads(record.with_name(record.name.replace(".record.", ".expected.")).read_text())


def test_there_are_golden_records_for_every_required_case() -> None:
    names = {p.name.removesuffix(".record.json") for p in RECORDS}
    assert {"classic_three_players_domino", "block_two_players_blocked", "allfives_spinner",
            "partnership_blocked", "illegal_pass", "malformed_end"} <= names
    for name in names:
        assert (HERE / f"{name}.expected.json").exists(), name


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name.removesuffix(".record.json"))
def test_replay_json_matches_the_golden_result(record: Path) -> None:
    expected = _expected(record)
    done = _replay(record, "--json")
    assert done.returncode == expected["exit"], done.stderr
    assert "Traceback" not in done.stderr
    if expected["exit"] == 0:
        assert json.loads(done.stdout) == expected["json"]
        assert done.stderr == ""
    else:
        assert done.stderr.strip() == f"lanomino replay: {record}: {expected['stderr']}"


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.name.removesuffix(".record.json"))
def test_plain_replay_tells_the_same_story(record: Path) -> None:
    expected = _expected(record)
    done = _replay(record)
    assert done.returncode == expected["exit"]
    assert "Traceback" not in done.stderr
    if expected["exit"] == 0:
        assert "Hand 1:" in done.stdout
        if expected["json"]["finished"]:
            players = json.loads(record.read_text())["players"]
            winner = players[expected["json"]["winner"]]
            assert f"The match is over: {winner} won" in done.stdout
        else:
            assert "The match is not finished" in done.stdout


def test_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "lanomino.record/1", ')
    done = _replay(bad, "--json")
    assert done.returncode == 2
    assert "is not valid JSON" in done.stderr and "Traceback" not in done.stderr


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    done = _replay(tmp_path / "nowhere.json")
    assert done.returncode == 2
    assert "cannot read" in done.stderr and "Traceback" not in done.stderr
