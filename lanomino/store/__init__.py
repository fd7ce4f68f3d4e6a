"""SQLite storage in the data directory: settings and the saved local game (more to come)."""

from __future__ import annotations

from lanomino.store.db import SCHEMA_VERSION, Store, StoreError, open_store

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "open_store"]
