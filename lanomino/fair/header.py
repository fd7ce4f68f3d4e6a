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
MAX_MOVE_CLOCK_MS = 86_400_000  # (the header's ``move_clock``: null, or ms a move)


@dataclass(frozen=True, slots=True)
class MatchHeader:
    table: bytes
    algorithm: str
    rules: dict[str, Any]  # the rules' spec as the host wrote it (``Rules.from_spec`` reads it)
    players: tuple[str, ...]
    keys: tuple[bytes, ...]  # each seat's Ed25519 public key, in seat order
    # ms a move (None: no move clock: only a seat moves or resigns itself, a seat that left aside)
    move_clock: int | None = None

    def to_json(self) -> dict[str, Any]:
        # (a table without a move clock says so, null: verify then refuses a move the host signed
        # for a seat, and lists the resignation of a seat that left, which it cannot sign)
        return header_of(self.table, self.algorithm, self.rules, self.players, self.keys,
                         self.move_clock)

    def digest(self) -> str:
        """What the seats' header signatures and every move statement name the match by."""
        return header_digest(self.to_json())
