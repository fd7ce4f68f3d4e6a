from __future__ import annotations

import copy
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from lanomino.engine import Rules
from lanomino.record import parse_record, replay
from lanomino.store import (
    SCHEMA_VERSION,
    Player,
    PlayLog,
    PlayLogError,
    StoreError,
    UnknownMatchError,
    local_player_id,
    open_store,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playkit import local_players, log_local, play_local  # noqa: E402


def test_a_finished_local_match_is_logged_with_its_record_players_and_result(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    match = play_local(3, level="greedy")
    mid = log_local(log, match)
    logged = log.get(mid)
    expected = replay(parse_record(match.record.to_json()))
    s = logged.summary
    assert logged.document == match.record.to_json()
    assert s.table == "local" and s.kind == "record" and s.finished
    assert s.scores == expected.scores and s.winner == expected.winner
    assert s.hands == len([h for h in expected.hands if h.end != "void"])
    assert [p.peer_id for p in s.players] == ["local:me", "bot:greedy"]
    assert [p.name for p in s.players] == ["You", "Ana"]
    assert s.verified is True and s.verification == "replays"
    assert s.you_won == (expected.winner == 0)
    store.close()


def test_logging_again_after_each_hand_replaces_the_entry(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    rules = Rules.classic(target=150)
    partial = play_local(4, rules, stop_after_hands=1)
    whole = play_local(4, rules)
    assert partial.uid != whole.uid
    partial.uid = whole.uid  # the same match, logged after its first hand and at its end
    first = log_local(log, partial)
    assert log.get(first).summary.hands == 1 and not log.get(first).summary.finished
    assert log_local(log, whole) == first
    assert len(log.matches()) == 1
    assert log.get(first).summary.finished and log.get(first).summary.hands > 1
    store.close()


def test_history_is_newest_first_and_limited(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    ids = [log_local(log, play_local(seed), started_at=1000.0 + seed) for seed in (7, 5, 6)]
    assert [m.id for m in log.matches()] == [ids[0], ids[2], ids[1]]
    assert [m.id for m in log.matches(limit=2)] == [ids[0], ids[2]]
    store.close()


def test_stats_count_wins_hands_tiles_and_streaks(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    matches = [play_local(seed, level="random" if seed % 2 else "greedy", you="greedy")
               for seed in range(6)]
    for i, m in enumerate(matches):
        log_local(log, m, started_at=100.0 + i)
    stats = log.stats()
    results = [replay(parse_record(m.record.to_json())) for m in matches]
    wins = [r.winner == 0 for r in results]
    assert stats.matches == 6 and stats.wins == sum(wins)
    streak = best = 0
    for w in wins:
        streak = streak + 1 if w else 0
        best = max(best, streak)
    assert stats.longest_streak == best
    by_level = {t.key: (t.matches, t.wins) for t in stats.levels}
    assert by_level == {
        "random": (3, sum(w for i, w in enumerate(wins) if i % 2)),
        "greedy": (3, sum(w for i, w in enumerate(wins) if not i % 2)),
    }
    assert {t.key for t in stats.opponents} == {"bot:random", "bot:greedy"}
    hands = [h for r in results for h in r.hands if h.end != "void"]
    assert stats.hands == len(hands)
    assert stats.won_by_domino == sum(1 for h in hands if h.winner == 0 and h.end == "domino")
    assert stats.won_by_block == sum(1 for h in hands if h.winner == 0 and h.end == "blocked")
    assert stats.points_per_hand == pytest.approx(sum(h.points[0] for h in hands) / len(hands))
    mine: dict[str, int] = {}
    for m in matches:
        for hand in m.record.to_json()["hands"]:
            for move in hand["moves"]:
                if move["seat"] == 0 and "play" in move:
                    t = "-".join(sorted(move["play"].split("-"), reverse=True))
                    mine[t] = mine.get(t, 0) + 1
    top = max(mine.values())
    assert stats.tiles[0][1] == top and mine[stats.tiles[0][0]] == top
    six = sum(n for t, n in mine.items() if "6" in t.split("-"))
    assert dict(stats.numbers).get(6, six) == six
    store.close()


def test_partners_are_not_opponents(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    match = play_local(2, Rules.preset("partnership", target=20), players=4)
    people = [Player("me", "Me"), Player("p1", "Pia"), Player("p2", "Pat"), Player("p3", "Pol")]
    log.log_match(match.record.to_json(), uid="a", me=0, players=people, table="Kitchen")
    log_local(log, match)  # the same deal, against computers: one level, counted once per match
    stats = log.stats()
    assert stats.matches == 2
    assert {t.key: t.matches for t in stats.opponents} == {"p1": 1, "p3": 1, "bot:random": 1}
    assert [(t.key, t.matches) for t in stats.levels] == [("random", 1)]
    assert log.matches()[0].table in ("Kitchen", "local")
    store.close()


def test_a_bad_document_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    match = play_local(8)
    doc = copy.deepcopy(match.record.to_json())
    doc["hands"][0]["moves"][0]["play"] = "9-9"
    with pytest.raises(PlayLogError, match="damaged record"):
        log.log_match(doc, uid="x", me=0, players=local_players(match))
    with pytest.raises(PlayLogError, match="players"):
        log.log_match(match.record.to_json(), uid="x", me=0, players=[Player("a", "A")])
    with pytest.raises(PlayLogError):
        log.log_match({"format": "something else"}, uid="x", me=0)
    assert log.matches() == []
    with pytest.raises(UnknownMatchError):
        log.get(99)
    store.close()


def test_a_damaged_stored_document_gives_a_clear_error(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    mid = log_local(PlayLog(store), play_local(9))
    store.close()
    conn = sqlite3.connect(tmp_path / "lanomino.sqlite3")
    conn.execute("UPDATE match SET document = '{broken' WHERE id = ?", (mid,))
    conn.commit()
    conn.close()
    store = open_store(tmp_path)
    with pytest.raises(PlayLogError, match="damaged"):
        PlayLog(store).get(mid)
    store.close()


def test_the_local_player_id_is_made_once_and_the_identity_key_wins(tmp_path: Path) -> None:
    from lanomino.fair.keystore import load_or_create_identity

    store = open_store(tmp_path)
    first = local_player_id(store, tmp_path)
    assert first.startswith("local:") and local_player_id(store, tmp_path) == first
    identity = load_or_create_identity(tmp_path)
    assert local_player_id(store, tmp_path) == identity.peer_id
    store.close()


def test_an_older_database_is_migrated_keeping_its_settings(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "lanomino.sqlite3")
    conn.executescript(
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (1);"
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE saved_game (slot TEXT PRIMARY KEY, saved_at REAL NOT NULL, "
        "data TEXT NOT NULL);"
        "INSERT INTO settings VALUES ('name', '\"Rosa\"');")
    conn.close()
    store = open_store(tmp_path)
    assert store.settings() == {"name": "Rosa"}
    log_local(PlayLog(store), play_local(1))
    assert len(PlayLog(store).matches()) == 1
    store.close()
    conn = sqlite3.connect(tmp_path / "lanomino.sqlite3")
    version = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    assert version == SCHEMA_VERSION == 3
    conn.close()


def test_a_newer_or_damaged_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    newer = tmp_path / "newer"
    newer.mkdir()
    conn = sqlite3.connect(newer / "lanomino.sqlite3")
    conn.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL);"
                       f"INSERT INTO schema_version VALUES ({SCHEMA_VERSION + 1});")
    conn.close()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "lanomino.sqlite3").write_bytes(b"this is not a database" * 100)
    for folder, message in ((newer, "newer lanomino"), (damaged, "cannot use")):
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        with pytest.raises(StoreError, match=message):
            open_store(folder)
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_json_of_a_summary_names_players_and_you(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    log = PlayLog(store)
    mid = log_local(log, play_local(12))
    doc = log.get(mid).summary.to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert [p["you"] for p in doc["players"]] == [True, False]
    assert doc["date"].endswith("Z") and doc["table"] == "local"
    store.close()


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fair"))


def test_a_transcript_is_logged_with_peer_ids_from_its_keys_and_verified(tmp_path: Path) -> None:
    from fairkit import make_transcript

    from lanomino.fair import peer_id, to_record

    doc = make_transcript("block", players=3, seed=2, target=20)
    store = open_store(tmp_path)
    log = PlayLog(store)
    mid = log.log_match(doc, uid="lan:" + doc["table"], me=1, table="Kitchen")
    s = log.get(mid).summary
    assert s.kind == "transcript" and s.table == "Kitchen" and s.verified is True
    assert [p.peer_id for p in s.players] == [peer_id(bytes.fromhex(k)) for k in doc["keys"]]
    assert [p.name for p in s.players] == ["p0", "p1", "p2"]
    result = replay(parse_record(to_record(doc)))
    assert s.scores == result.scores
    assert s.hands == len([h for h in result.hands if h.end != "void"])
    assert log.get(mid).document == doc
    store.close()


def test_a_transcript_that_does_not_verify_is_logged_as_not_verified(tmp_path: Path) -> None:
    from fairkit import make_transcript

    doc = make_transcript("block", players=2, seed=3, target=20)
    first = doc["hands"][0]["moves"][0]
    first["seat"] = 1 - first["seat"]  # breaks a signature
    store = open_store(tmp_path)
    log = PlayLog(store)
    s = log.get(log.log_match(doc, uid="lan:x", me=0, table="Den")).summary
    assert s.verified is False and "does not verify" in s.verification
    assert s.hands == 0  # nothing is derived from a transcript that does not verify
    store.close()
