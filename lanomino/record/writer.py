"""Building a record while a match is played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanomino.engine import Action, Play, Rules, Tile
from lanomino.record.format import FORMAT, action_to_json


class RecordBuilder:
    """Collects deals and moves; ``to_json()`` gives a ``lanomino.record/1`` document."""

    def __init__(self, rules: Rules, players: Sequence[str], preset: str | None = None) -> None:
        self.rules_spec = rules.to_spec(preset)
        self.players = list(players)
        self.hands: list[dict[str, Any]] = []
        self._opened = False

    def start_hand(self, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
        self.hands.append({"deal": [[str(t) for t in hand] for hand in deal],
                           "boneyard": [str(t) for t in boneyard], "moves": []})
        self._opened = False

    def add(self, seat: int, action: Action) -> None:
        first = isinstance(action, Play) and not self._opened
        self.hands[-1]["moves"].append(action_to_json(seat, action, first))
        self._opened = self._opened or first

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": self.rules_spec, "players": self.players,
                "hands": self.hands}
