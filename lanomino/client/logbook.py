"""The client's side of the play log: logging a local match, History and stats, a replay."""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from lanomino.ui.history import HistoryView, ReplayView

if TYPE_CHECKING:
    from lanomino.localgame import LocalMatch
    from lanomino.store import Store


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
        return logged_replay(logged.document, f"Match #{match_id}")


def logged_replay(document: object, title: str) -> ReplayView:
    """The replay viewer for a logged record or transcript (JSON as stored: checked here). Raises
    ValueError when it cannot be replayed (a damaged document, or a transcript that does not
    verify)."""
    from lanomino.commands.replay import replay_view
    from lanomino.record import parse_record

    if isinstance(document, dict) and document.get("format") == "lanomino.transcript/1":
        from lanomino.fair import to_record

        document = to_record(document)
    view: ReplayView = replay_view(parse_record(document), title)
    return view
