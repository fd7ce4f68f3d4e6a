from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lanomino.store import SCHEMA_VERSION, StoreError, open_store


def test_settings_round_trip(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.set_settings({"name": "Rosa", "colour": False, "pause_s": 0.3})
    store.close()
    again = open_store(tmp_path)
    assert again.settings() == {"name": "Rosa", "colour": False, "pause_s": 0.3}
    again.close()


def test_saved_game_round_trip_and_clear(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    assert store.load_game() is None and not store.has_saved_game()
    store.save_game({"log": ["deal", [0, "play 6-6"]], "seed": 3})
    store.save_game({"log": ["deal", [0, "play 6-6"], [1, "draw"]], "seed": 3})
    assert store.load_game() == {"log": ["deal", [0, "play 6-6"], [1, "draw"]], "seed": 3}
    store.clear_game()
    assert store.load_game() is None
    store.close()


def test_schema_version_is_recorded_and_a_newer_database_is_refused(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    conn = sqlite3.connect(tmp_path / "lanomino.sqlite3")
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="version"):
        open_store(tmp_path)


WRITER = """
import sys
from pathlib import Path
from lanomino.store import open_store
store = open_store(Path(sys.argv[1]))
n = 0
print("ready", flush=True)
while True:
    n += 1
    store.save_game({"n": n, "payload": "x" * (n % 5000) + str(n), "log": list(range(n % 300))})
"""


def test_a_writer_killed_mid_write_leaves_a_whole_save(tmp_path: Path) -> None:
    for attempt in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                                stdout=subprocess.PIPE)
        try:
            assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
            time.sleep(0.2 + 0.1 * attempt)
        finally:
            proc.kill()
            proc.wait()
            assert proc.stdout is not None
            proc.stdout.close()
        store = open_store(tmp_path)
        data = store.load_game()
        store.close()
        assert data is not None
        n = data["n"]
        assert n > 0
        assert data["payload"] == "x" * (n % 5000) + str(n)
        assert data["log"] == list(range(n % 300))
