"""A match's header as a value: what every seat signs before the first hand (the table, the deal
algorithm, the rules, the players and their keys). Its JSON is the transcript's opening fields and
is written in one place, ``statements.header_of``. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lanomino.fair.commit import TABLE_ID_BYTES as TABLE_ID_BYTES
from lanomino.fair.statements import header_digest, header_of
from lanomino.fair.transcript_model import FORMAT as FORMAT

HEADER_FIELDS = ("format", "algorithm", "table", "rules", "players", "keys")


@dataclass(frozen=True, slots=True)
class MatchHeader:
    table: bytes
    algorithm: str
    rules: dict[str, Any]  # the rules' spec as the host wrote it (``Rules.from_spec`` reads it)
    players: tuple[str, ...]
    keys: tuple[bytes, ...]  # each seat's Ed25519 public key, in seat order

    def to_json(self) -> dict[str, Any]:
        return header_of(self.table, self.algorithm, self.rules, self.players, self.keys)

    def digest(self) -> str:
        """What the seats' header signatures and every move statement name the match by."""
        return header_digest(self.to_json())
