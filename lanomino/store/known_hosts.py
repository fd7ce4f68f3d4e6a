"""The hosts a player has joined by address, remembered by their identity key.

Joining ``HOST:PORT`` without a code, the client asks the person to compare fingerprints the
first time; after that the same identity is trusted. An address that answered with another
identity before is a loud warning: someone else may be answering there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from lanomino.store.db import Store


@dataclass(frozen=True, slots=True)
class HostCheck:
    """What the log of known hosts says about an identity seen at an address."""

    known: bool  # this identity was trusted before
    previous: bytes | None = None  # another identity this address answered with last time
    name: str = ""  # the table name it had when last trusted


class KnownHosts:
    """Known hosts in a ``Store``'s database (call from the store's thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def check(self, host: str, identity: bytes) -> HostCheck:
        with self.store.reading() as conn:
            row = conn.execute("SELECT name FROM known_host WHERE identity = ?",
                               (identity.hex(),)).fetchone()
            if row is not None:
                return HostCheck(True, name=str(row[0]))
            other = conn.execute("SELECT identity FROM known_host WHERE host = ? "
                                 "ORDER BY last_seen DESC LIMIT 1", (host,)).fetchone()
        return HostCheck(False, bytes.fromhex(other[0]) if other is not None else None)

    def remember(self, host: str, identity: bytes, name: str) -> None:
        """Trust ``identity`` from now on (it was last seen at ``host`` as table ``name``)."""
        now = time.time()
        with self.store.writing() as conn:
            conn.execute(
                "INSERT INTO known_host (identity, host, name, first_seen, last_seen) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(identity) DO UPDATE SET host = excluded.host, "
                "name = excluded.name, last_seen = excluded.last_seen",
                (identity.hex(), host, name, now, now))
