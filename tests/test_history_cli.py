"""history, stats, replay ID and export through the real command line, with a logged data dir."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "store"))
sys.path.insert(0, str(ROOT / "tests" / "fair"))

from playkit import log_local, play_local  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.store import SCHEMA_VERSION, PlayLog, open_store  # noqa: E402


def _run(*args: str, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LANOMINO_DATA_DIR", None)
    extra = ["--data-dir", str(data)] if data is not None else []
    return subprocess.run([sys.executable, "-m", "lanomino", *args, *extra], capture_output=True,
                          text=True, timeout=60, env=env, cwd=ROOT)


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with three local matches and one LAN transcript, oldest first."""
    from fairkit import make_transcript

    folder = tmp_path_factory.mktemp("data")
    store = open_store(folder)
    log = PlayLog(store)
    log_local(log, play_local(1, level="greedy"), started_at=1_700_000_000.0)
    log_local(log, play_local(2, level="normal"), started_at=1_700_000_100.0)
    log_local(log, play_local(3, Rules.preset("allfives", target=60), players=3),
              started_at=1_700_000_200.0)
    doc = make_transcript("block", players=2, seed=4, target=20)
    log.log_match(doc, uid="lan:" + doc["table"], me=0, table="Kitchen", started_at=1_700_000_300.0)
    store.close()
    return folder


def test_history_lists_newest_first_with_table_players_rules_result_and_check(logged: Path) -> None:
    done = _run("history", data=logged)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:3] == ["ID", "Date", "Table"]
    assert [line.split()[0] for line in lines[1:]] == ["#4", "#3", "#2", "#1"]
    assert "Kitchen" in lines[1] and "verified" in lines[1] and "p0, p1" in lines[1]
    assert "local" in lines[2] and "All Fives 60" in lines[2] and "replays" in lines[2]
    assert "You, Ana, Ben" in lines[2]
    assert all(len(line) <= 80 for line in lines), "history must fit an 80-column terminal"


def test_history_json_and_limit(logged: Path) -> None:
    done = _run("history", "--json", "--limit", "2", data=logged)
    rows = json.loads(done.stdout)
    assert [r["id"] for r in rows] == [4, 3]
    assert rows[0]["table"] == "Kitchen" and rows[0]["verified"] is True
    assert rows[0]["kind"] == "transcript"
    assert rows[1]["players"][1] == {"seat": 1, "peer_id": "bot:random", "name": "Ana",
                                     "level": "random", "you": False}
    assert _run("history", "--limit", "0", data=logged).returncode == 2


def test_stats_json_and_text(logged: Path) -> None:
    stats = json.loads(_run("stats", "--json", data=logged).stdout)
    assert stats["matches"] == 4
    assert {t["key"] for t in stats["levels"]} == {"greedy", "normal", "random"}
    assert any(not t["key"].startswith("bot:") for t in stats["opponents"])  # the LAN peer
    assert stats["hands"] >= 4 and len(stats["most_played_tiles"]) == 5
    text = _run("stats", data=logged).stdout
    assert "Matches 4" in text and "computer level greedy" in text and "p1 (" in text


def test_replay_id_prints_the_same_json_as_the_exported_file(logged: Path, tmp_path: Path) -> None:
    for match_id in ("1", "#3", "4"):
        out = tmp_path / f"m{match_id.strip('#')}.json"
        done = _run("export", match_id, str(out), data=logged)
        assert done.returncode == 0, done.stderr
        from_file = _run("replay", str(out), "--json")
        from_id = _run("replay", match_id, "--json", data=logged)
        assert from_file.returncode == from_id.returncode == 0, from_id.stderr
        assert json.loads(from_id.stdout) == json.loads(from_file.stdout)
    exported = json.loads((tmp_path / "m4.json").read_text())
    assert exported["format"] == "lanomino.transcript/1"
    assert _run("verify", str(tmp_path / "m4.json")).returncode == 0


def test_export_record_turns_a_transcript_into_a_record(logged: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert _run("export", "4", str(out), "--record", data=logged).returncode == 0
    record = json.loads(out.read_text())
    assert record["format"] == "lanomino.record/1"
    assert _run("replay", str(out), "--json").returncode == 0


def test_replay_id_without_a_terminal_narrates(logged: Path) -> None:
    done = _run("replay", "2", data=logged)
    assert done.returncode == 0
    assert done.stdout.startswith("Hand 1:") and "The match is over: " in done.stdout


def test_unknown_ids_are_clear_errors_and_write_nothing(logged: Path, tmp_path: Path) -> None:
    db = logged / "lanomino.sqlite3"
    before = db.read_bytes()
    for args in (("replay", "99"), ("export", "99", str(tmp_path / "x.json")),
                 ("export", "abc", "y.json")):
        done = _run(*args, data=logged)
        assert done.returncode == 2 and done.stderr.startswith(f"lanomino {args[0]}: ")
        assert "Traceback" not in done.stderr
    assert "no logged match has the id 99" in _run("replay", "99", data=logged).stderr
    assert not (tmp_path / "x.json").exists()
    assert db.read_bytes() == before


def test_a_missing_file_that_is_not_an_id_keeps_the_file_error(tmp_path: Path) -> None:
    done = _run("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_an_empty_data_dir_has_no_history_and_gets_no_database(tmp_path: Path) -> None:
    done = _run("history", data=tmp_path)
    assert done.returncode == 0 and "No matches logged yet" in done.stdout
    assert json.loads(_run("stats", "--json", data=tmp_path).stdout)["matches"] == 0
    assert _run("replay", "1", data=tmp_path).returncode == 2
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command",
                         [("history",), ("stats",), ("replay", "1"), ("export", "1", "-")])
def test_a_newer_or_damaged_database_is_refused_unchanged(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    newer, damaged = tmp_path / "newer", tmp_path / "damaged"
    newer.mkdir()
    damaged.mkdir()
    conn = sqlite3.connect(newer / "lanomino.sqlite3")
    conn.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL);"
                       f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION + 1});")
    conn.close()
    (damaged / "lanomino.sqlite3").write_bytes(b"\x00garbage" * 512)
    for folder, words in ((newer, "newer lanomino"), (damaged, "cannot use the database")):
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        done = _run(*command, data=folder)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
