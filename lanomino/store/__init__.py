"""SQLite storage in the data directory: settings, the saved local game and the play log."""

from __future__ import annotations

from lanomino.store.db import SCHEMA_VERSION, Store, StoreError, open_store
from lanomino.store.facts import PlayLogError
from lanomino.store.playlog import (
    LoggedMatch,
    MatchSummary,
    Player,
    PlayLog,
    UnknownMatchError,
    bot_player,
    local_player_id,
)
from lanomino.store.stats import Stats, Tally

__all__ = [
    "SCHEMA_VERSION", "LoggedMatch", "MatchSummary", "PlayLog", "PlayLogError", "Player", "Stats",
    "Store", "StoreError", "Tally", "UnknownMatchError", "bot_player", "local_player_id",
    "open_store",
]
