"""The one sqlite3 adapter: a schema version table, settings, the saved local game, the play log.

Every write is one transaction, so a process killed mid-write leaves the previous value in place
(SQLite's journal guarantees it). Values are JSON text, never pickles. Later issues add tables by
appending to ``_MIGRATIONS``; ``schema_version`` says how far a database has come.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DB_NAME = "lanomino.sqlite3"

# _MIGRATIONS[i] takes a database from version i to version i + 1.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE saved_game (
        slot TEXT PRIMARY KEY,
        saved_at REAL NOT NULL,
        data TEXT NOT NULL
    );
    """,
    # 1 -> 2: the play log (see lanomino/store/playlog.py). ``document`` is the whole record or
    # transcript; the other tables are facts derived from it, rewritten with it in one transaction.
    """
    CREATE TABLE match (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uid TEXT NOT NULL UNIQUE,
        started_at REAL NOT NULL,
        logged_at REAL NOT NULL,
        table_name TEXT NOT NULL,
        rules TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('record', 'transcript')),
        document TEXT NOT NULL,
        finished INTEGER NOT NULL,
        winner INTEGER,
        scores TEXT NOT NULL,
        hands INTEGER NOT NULL,
        me INTEGER,
        me_side INTEGER,
        verified INTEGER,
        verification TEXT NOT NULL
    );
    CREATE INDEX match_started ON match (started_at);
    CREATE TABLE match_player (
        match_id INTEGER NOT NULL REFERENCES match (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        peer_id TEXT NOT NULL,
        name TEXT NOT NULL,
        level TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_player_peer ON match_player (peer_id);
    CREATE TABLE hand (
        match_id INTEGER NOT NULL REFERENCES match (id) ON DELETE CASCADE,
        hand_no INTEGER NOT NULL,
        end_kind TEXT NOT NULL,
        winner INTEGER,
        points TEXT NOT NULL,
        PRIMARY KEY (match_id, hand_no)
    );
    CREATE TABLE hand_tile (
        match_id INTEGER NOT NULL REFERENCES match (id) ON DELETE CASCADE,
        hand_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        tile TEXT NOT NULL
    );
    CREATE INDEX hand_tile_match ON hand_tile (match_id, seat);
    """,
    # 2 -> 3: marks on a logged match (left for good; played with hints or undos) and the hosts
    # a player has joined by address (lanomino/store/known_hosts.py), by their identity key.
    """
    ALTER TABLE match ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE match ADD COLUMN assists TEXT NOT NULL DEFAULT '';
    CREATE TABLE known_host (
        identity TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        name TEXT NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL
    );
    CREATE INDEX known_host_host ON known_host (host, last_seen);
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used (newer than this program, or damaged)."""


class Store:
    """Settings and the saved game. Safe to call from one thread at a time per method."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    # ----- settings -----------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        """Every stored setting; a value that is not valid JSON is skipped."""
        with self._lock:
            rows = self._conn.execute("SELECT key, value FROM settings").fetchall()
        out: dict[str, Any] = {}
        for key, value in rows:
            try:
                out[str(key)] = json.loads(value)
            except (TypeError, ValueError):
                continue
        return out

    def set_settings(self, values: dict[str, Any]) -> None:
        """Store ``values`` (JSON-able) in one transaction."""
        rows = [(key, json.dumps(value)) for key, value in values.items()]
        with self._lock, _transaction(self._conn):
            self._conn.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                rows,
            )

    # ----- the saved local game -----------------------------------------------------------

    def save_game(self, data: Mapping[str, object], slot: str = "local") -> None:
        """Replace the saved game in ``slot`` with ``data`` (JSON-able), atomically."""
        text = json.dumps(data, separators=(",", ":"))
        with self._lock, _transaction(self._conn):
            self._conn.execute(
                "INSERT INTO saved_game (slot, saved_at, data) VALUES (?, ?, ?) "
                "ON CONFLICT(slot) DO UPDATE SET saved_at = excluded.saved_at, "
                "data = excluded.data",
                (slot, time.time(), text),
            )

    def load_game(self, slot: str = "local") -> dict[str, Any] | None:
        """The saved game in ``slot``, or None when there is none (or it is unreadable)."""
        with self._lock:
            row = self._conn.execute("SELECT data FROM saved_game WHERE slot = ?",
                                     (slot,)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except (TypeError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def has_saved_game(self, slot: str = "local") -> bool:
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM saved_game WHERE slot = ?", (slot,)).fetchone()
        return row is not None

    def clear_game(self, slot: str = "local") -> None:
        with self._lock, _transaction(self._conn):
            self._conn.execute("DELETE FROM saved_game WHERE slot = ?", (slot,))

    # ----- for the play log (lanomino/store/playlog.py) ------------------------------------

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """The connection inside one write transaction (all of the body's writes, or none)."""
        with self._lock, _transaction(self._conn):
            yield self._conn

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection inside one read transaction (one consistent snapshot)."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def open_store(directory: Path, name: str = DB_NAME) -> Store:
    """Open (creating and migrating as needed) the database in ``directory``. Raises StoreError."""
    directory.mkdir(parents=True, exist_ok=True)
    try:
        # isolation_level=None: we open transactions ourselves, DDL included (see _transaction).
        conn = sqlite3.connect(
            directory / name, timeout=5.0, check_same_thread=False, isolation_level=None
        )
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot use the database in {directory}: {exc}") from exc
    try:
        # Look before touching anything: a newer or damaged database is left exactly as it is.
        version = _stored_version(conn)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database in {directory} is version {version}; this lanomino knows up to "
                f"{SCHEMA_VERSION} (use a newer lanomino, or another --data-dir)"
            )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        _migrate(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"cannot use the database in {directory}: {exc}") from exc
    except StoreError:
        conn.close()
        raise
    return Store(conn)


def _stored_version(conn: sqlite3.Connection) -> int:
    """The schema version of the database as it is, without writing (0 for a new one)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if row is None:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def schema_version(conn: sqlite3.Connection) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _migrate(conn: sqlite3.Connection) -> None:
    with _transaction(conn):
        version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database is version {version}; this lanomino knows up to {SCHEMA_VERSION}"
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        with _transaction(conn):  # each step: all of it or none of it
            for statement in _MIGRATIONS[target - 1].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the body raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
