"""The client's side of the play log: logging a local match, History and stats, a replay, and
a logged match by its id (for ``history``, ``stats``, ``replay`` and ``export``)."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from lanomino.client import ClientError
from lanomino.client.replay import document_view
from lanomino.ui.history import HistoryView, ReplayView

if TYPE_CHECKING:
    from lanomino.localgame import LocalMatch
    from lanomino.store import LoggedMatch, PlayLog, Store

_MATCH_ID = re.compile(r"#?[0-9]{1,12}")


class Logbook:
    """Reads and writes the play log on the store's thread (never on the event loop)."""

    def __init__(self, store: Store, writer: ThreadPoolExecutor, player_id: str) -> None:
        self.store, self.writer, self.player_id = store, writer, player_id

    def log_local(self, match: LocalMatch) -> None:
        """Log the local match as it stands (after a finished hand or match)."""
        document = copy.deepcopy(match.record.to_json())  # a snapshot: the match goes on
        self.writer.submit(self._log, match, document)

    def abandon(self, saved: dict[str, Any]) -> None:
        """On the store's thread: the saved match is given up. History shows it as abandoned,
        logged now if none of its hands was (a damaged save is left out)."""
        from lanomino.localgame import LocalMatch
        from lanomino.store import PlayLog

        uid = saved.get("uid")
        if not isinstance(uid, str) or PlayLog(self.store).mark_abandoned(f"local:{uid}"):
            return
        try:
            match = LocalMatch.from_record(saved)
        except ValueError:
            return
        self._log(match, match.record.to_json())
        PlayLog(self.store).mark_abandoned(f"local:{uid}")

    def _log(self, match: LocalMatch, document: dict[str, Any]) -> None:
        from lanomino.store import Player, PlayLog, bot_player

        c = match.config
        players = [Player(self.player_id, c.names[0]),
                   *(bot_player(c.levels[s], c.names[s]) for s in range(1, c.players))]
        PlayLog(self.store).log_match(document, uid=f"local:{match.uid}", me=0, players=players,
                                      started_at=match.started_at, assists=sorted(match.assists))

    def history(self) -> HistoryView:
        """History and stats, read after every queued write."""
        from lanomino.store import PlayLog

        def load() -> HistoryView:
            log = PlayLog(self.store)
            return HistoryView([m.to_json() for m in log.matches(200)], log.stats().to_json())

        return self.writer.submit(load).result()

    def replay(self, match_id: int) -> ReplayView:
        """The replay viewer for logged match ``match_id``. Raises ValueError (PlayLogError)."""
        from lanomino.store import PlayLog

        logged = self.writer.submit(PlayLog(self.store).get, match_id).result()
        return document_view(logged.document, f"Match #{match_id}")


def is_match_id(text: str) -> bool:
    """'12' or '#12': the id of a logged match."""
    return _MATCH_ID.fullmatch(text) is not None


@contextmanager
def open_log(data_dir: str | None, create: bool = False) -> Iterator[PlayLog | None]:
    """The play log in ``data_dir`` (None when there is no database yet and ``create`` is off).

    Raises ClientError for a database that is newer than this program or damaged."""
    from lanomino.paths import data_dir as folder_of
    from lanomino.store import PlayLog, StoreError, open_store
    from lanomino.store.db import DB_NAME

    try:
        folder = folder_of(data_dir)
    except OSError as exc:
        raise ClientError(f"cannot use the data directory: {exc}") from None
    if not create and not (folder / DB_NAME).exists():
        yield None
        return
    try:
        store = open_store(folder)
    except (StoreError, OSError) as exc:
        raise ClientError(str(exc)) from None
    try:
        yield PlayLog(store)
    finally:
        store.close()


def load_logged(data_dir: str | None, text: str) -> LoggedMatch:
    """The logged match named by ``text`` ('12' or '#12'). Raises ClientError."""
    from lanomino.store import PlayLogError

    match_id = int(text.lstrip("#"))
    with open_log(data_dir) as log:
        if log is None:
            raise ClientError(f"no logged match has the id {match_id} (nothing is logged yet)")
        try:
            return log.get(match_id)
        except PlayLogError as exc:
            raise ClientError(str(exc)) from None
