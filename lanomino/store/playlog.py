"""The play log: every finished hand and match, with its record or transcript (history, stats).

How to log a match (local games do it in ``lanomino/client/logbook.py``; LAN nodes call the same)::

    from lanomino.store import PlayLog, Player, open_store
    log = PlayLog(open_store(data_dir))
    match_id = log.log_match(
        document,                 # a lanomino.record/1 or lanomino.transcript/1 dict, as it stands
        uid="lan:" + table_id,    # stable per match: logging again replaces the earlier entry
        me=my_seat,               # the user's seat, or None when the user only watched
        table="Kitchen",          # the LAN table's name, or "local"
        players=None,             # transcripts: derived from the keys (peer ids) and names;
                                  # records: one Player(peer_id, name, level) per seat
        verified=None,            # None: checked here (transcripts verified, records replayed)
    )

Call it after every finished hand (the document then holds the hands so far) and once more when
the match ends: each call rewrites that match's entry and the facts derived from it (hands,
points, tiles played) in one transaction, so a crash leaves the previous state, never half of one.
Computer players have the pseudo peer id ``bot:<level>``; the local human has ``local_player_id()``.

Raises ``PlayLogError`` for a document that cannot be logged (nothing is written then).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lanomino.store.db import Store
from lanomino.store.facts import (
    TRANSCRIPT_FORMATS,
    Derived,
    PlayLogError,
    derive,
    rules_of,
)

if TYPE_CHECKING:
    from lanomino.engine import Rules
    from lanomino.fair.report import Report
    from lanomino.store.stats import Stats

PLAYER_ID_SETTING = "player_id"


class UnknownMatchError(PlayLogError):
    """No logged match has this id."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's player: a peer id (``bot:<level>`` for a computer player) and a display name."""

    peer_id: str
    name: str
    level: str = ""  # the computer level for a bot seat; "" for a person

    def __post_init__(self) -> None:
        if not self.peer_id or not self.name:
            raise PlayLogError("a player needs a peer id and a name")


def bot_player(level: str, name: str) -> Player:
    return Player(f"bot:{level}", name, level)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One line of history."""

    id: int
    started_at: float
    table: str
    players: tuple[Player, ...]
    me: int | None
    me_side: int | None
    rules_spec: dict[str, Any]
    kind: str  # record | transcript
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    verified: bool | None
    verification: str
    abandoned: bool = False  # left for good before its end
    assists: tuple[str, ...] = ()  # "hint", "undo": the player had help

    @property
    def decided(self) -> bool:
        """Finished, or left by its host at a table of two and decided by this seat's node."""
        return self.finished or (self.abandoned and self.winner is not None)

    @property
    def you_won(self) -> bool | None:
        if not self.decided or self.me_side is None:
            return None
        return self.winner == self.me_side

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "date": _iso(self.started_at), "started_at": self.started_at,
            "table": self.table,
            "players": [{"seat": s, "peer_id": p.peer_id, "name": p.name, "level": p.level,
                         "you": s == self.me} for s, p in enumerate(self.players)],
            "rules": self.rules_spec, "kind": self.kind, "finished": self.finished,
            "winner": self.winner, "scores": list(self.scores), "hands": self.hands,
            "you_won": self.you_won, "verified": self.verified, "verification": self.verification,
            "abandoned": self.abandoned, "assists": list(self.assists),
        }


@dataclass(frozen=True, slots=True)
class LoggedMatch:
    summary: MatchSummary
    document: dict[str, Any]


class PlayLog:
    """The play log in a ``Store``'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def log_match(
        self,
        document: Mapping[str, object],
        *,
        uid: str,
        me: int | None,
        table: str = "local",
        players: Sequence[Player] | None = None,
        verified: bool | None = None,
        started_at: float | None = None,
        assists: Sequence[str] = (),
        check: Callable[[Any], Report] | None = None,
    ) -> int:
        """Log (or re-log) a match as it stands; returns its id (``check``: how a transcript
        is checked, ``derive``'s). Raises PlayLogError."""
        derived = derive(document, verified, check)
        seats = len(derived.names)
        if players is None:
            if not derived.keys:
                raise PlayLogError("a record needs its players (peer ids and names)")
            players = [Player(_peer_id(key), name)
                       for key, name in zip(derived.keys, derived.names, strict=True)]
        if len(players) != seats:
            raise PlayLogError(f"{len(players)} players given for {seats} seats")
        if me is not None and not 0 <= me < seats:
            raise PlayLogError(f"seat index {me} (counted from 0) is not at this table")
        partnership = rules_of(derived.rules_spec).partnership
        me_side = None if me is None else (me % 2 if partnership else me)
        text = json.dumps(document, separators=(",", ":"))
        now = time.time()
        with self.store.writing() as conn:
            row = conn.execute("SELECT id FROM match WHERE uid = ?", (uid,)).fetchone()
            values = (now, table, json.dumps(derived.rules_spec), _kind(document), text,
                      int(derived.finished), derived.winner, json.dumps(list(derived.scores)),
                      len(derived.hands), me, me_side, _flag(derived.verified),
                      derived.verification, ",".join(sorted(set(assists))))
            if row is None:
                cur = conn.execute(
                    "INSERT INTO match (uid, started_at, logged_at, table_name, rules, kind, "
                    "document, finished, winner, scores, hands, me, me_side, verified, "
                    "verification, assists) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (uid, started_at if started_at is not None else now, *values),
                )
                match_id = int(cur.lastrowid or 0)
            else:
                match_id = int(row[0])
                conn.execute(
                    "UPDATE match SET logged_at = ?, table_name = ?, rules = ?, kind = ?, "
                    "document = ?, finished = ?, winner = ?, scores = ?, hands = ?, me = ?, "
                    "me_side = ?, verified = ?, verification = ?, assists = ? WHERE id = ?",
                    (*values, match_id))
                for name in ("match_player", "hand", "hand_tile"):
                    conn.execute(f"DELETE FROM {name} WHERE match_id = ?", (match_id,))
            self._write_facts(conn, match_id, players, derived)
        return match_id

    def _write_facts(self, conn: sqlite3.Connection, match_id: int, players: Sequence[Player],
                     derived: Derived) -> None:
        conn.executemany(
            "INSERT INTO match_player (match_id, seat, peer_id, name, level) "
            "VALUES (?, ?, ?, ?, ?)",
            [(match_id, seat, p.peer_id, p.name, p.level) for seat, p in enumerate(players)])
        conn.executemany(
            "INSERT INTO hand (match_id, hand_no, end_kind, winner, points) VALUES (?, ?, ?, ?, ?)",
            [(match_id, h.hand, h.end, h.winner, json.dumps(list(h.points)))
             for h in derived.hands])
        conn.executemany(
            "INSERT INTO hand_tile (match_id, hand_no, seat, tile) VALUES (?, ?, ?, ?)",
            [(match_id, h.hand, seat, tile) for h in derived.hands for seat, tile in h.played])

    def keep_abandoned(self, uid: str, rules: Rules, seats: Sequence[tuple[str, bytes]],
                       me: int, table: str, winner: int | None = None,
                       scores: Sequence[int] = ()) -> None:
        """A LAN match that ended without its host's closing statement (the host left, or this
        seat lost touch) stays in History as abandoned; logged here, with no hand, when none
        of its hands was. ``seats``: each seat's name and identity key, in seat order.
        ``winner`` (a side) and ``scores``: the outcome this seat's node decided when the host
        left a table of two for good: History and stats count it as won or lost."""
        from lanomino.record.writer import RecordBuilder

        with self.store.reading() as conn:
            known = conn.execute("SELECT 1 FROM match WHERE uid = ?", (uid,)).fetchone()
        if known is None:
            names = [name for name, _ in seats]
            players = [Player(_peer_id(key.hex()), name) for name, key in seats]
            self.log_match(RecordBuilder(rules, names).to_json(), uid=uid, me=me, table=table,
                           players=players)
        self.mark_abandoned(uid)
        if winner is not None:
            with self.store.writing() as conn:
                conn.execute("UPDATE match SET winner = ?, scores = ? "
                             "WHERE uid = ? AND finished = 0",
                             (winner, json.dumps(list(scores)), uid))

    def mark_abandoned(self, uid: str) -> bool:
        """Mark the unfinished match ``uid`` as left for good; False when there is none."""
        with self.store.writing() as conn:
            cur = conn.execute("UPDATE match SET abandoned = 1 WHERE uid = ? AND finished = 0",
                               (uid,))
            return cur.rowcount > 0

    # ----- reading ----------------------------------------------------------------------------

    def matches(self, limit: int | None = None) -> list[MatchSummary]:
        """Logged matches, newest first."""
        with self.store.reading() as conn:
            rows = conn.execute(
                f"SELECT {_SUMMARY_COLUMNS} FROM match ORDER BY started_at DESC, id DESC LIMIT ?",
                (-1 if limit is None else limit,)).fetchall()
            return [self._summary(conn, row) for row in rows]

    def get(self, match_id: int) -> LoggedMatch:
        """One logged match with its document. Raises UnknownMatchError, PlayLogError (damaged)."""
        with self.store.reading() as conn:
            row = conn.execute(f"SELECT {_SUMMARY_COLUMNS}, document FROM match WHERE id = ?",
                               (match_id,)).fetchone()
            if row is None:
                raise UnknownMatchError(f"no logged match has the id {match_id}")
            summary = self._summary(conn, row[:-1])
        try:
            document = json.loads(row[-1])
        except ValueError as exc:
            raise PlayLogError(f"logged match {match_id} is damaged: {exc}") from None
        if not isinstance(document, dict):
            raise PlayLogError(f"logged match {match_id} is damaged: not a JSON object")
        return LoggedMatch(summary, document)

    def _summary(self, conn: sqlite3.Connection, row: Sequence[Any]) -> MatchSummary:
        (mid, started, table, rules, kind, finished, winner, scores, hands, me, me_side,
         verified, verification, abandoned, assists) = row
        players = tuple(Player(p, n, lv) for p, n, lv in conn.execute(
            "SELECT peer_id, name, level FROM match_player WHERE match_id = ? ORDER BY seat",
            (mid,)))
        return MatchSummary(
            int(mid), float(started), str(table), players, me, me_side, _loads(rules, {}),
            str(kind),
            bool(finished), winner, tuple(_loads(scores, [])), int(hands),
            None if verified is None else bool(verified), str(verification), bool(abandoned),
            tuple(a for a in str(assists).split(",") if a))

    def stats(self) -> Stats:
        """Your results: per opponent and computer level, hands, tiles, streaks."""
        from lanomino.store.stats import compute_stats

        with self.store.reading() as conn:
            return compute_stats(conn)


_SUMMARY_COLUMNS = ("id, started_at, table_name, rules, kind, finished, winner, scores, hands, me, "
                    "me_side, verified, verification, abandoned, assists")


# ----- deriving the facts from a document -----------------------------------------------------


# ----- small helpers ----------------------------------------------------------------------------


def local_player_id(store: Store, data_dir: Path) -> str:
    """The local user's peer id: the identity key's when there is one in ``data_dir``, else a
    generated ``local:<hex>`` id kept in the settings."""
    from lanomino.fair.keystore import KEY_FILE, KeyStoreError, load_or_create_identity

    if (data_dir / KEY_FILE).is_file():
        try:
            return load_or_create_identity(data_dir).peer_id
        except KeyStoreError:
            pass
    stored = store.settings().get(PLAYER_ID_SETTING)
    if isinstance(stored, str) and stored:
        return stored
    new = f"local:{secrets.token_hex(8)}"
    store.set_settings({PLAYER_ID_SETTING: new})
    return new


def _peer_id(key_hex: str) -> str:
    from lanomino.fair.identity import peer_id

    return peer_id(bytes.fromhex(key_hex))


def _kind(document: Mapping[str, object]) -> str:
    return "transcript" if document.get("format") in TRANSCRIPT_FORMATS else "record"


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _loads(text: Any, default: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def _iso(timestamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))
