"""The new local game form: its rows, its choices and the rules they make (plain state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lanomino.engine import PRESETS, Rules

TARGETS = (0, 50, 61, 100, 150, 200, 250)


@dataclass
class SetupForm:
    """The new local game form. ``row`` is the highlighted row."""

    players: int = 2
    levels: list[str] = field(default_factory=list)  # per computer seat (3 kept)
    preset: str = "classic"
    target: int | None = None  # None: the preset's
    boneyard_reserve: int = 0
    draw_when_playable: bool = False
    bigger_hands: bool = False  # three or four players take seven tiles
    next_opener: str | None = None  # who opens hands after the first; None: the preset's
    row: int = 0

    def rows(self) -> list[str]:
        """The row keys shown, in order (the computer rows follow the number of players)."""
        keys = ["players", *(f"level{i}" for i in range(self.players - 1)), "preset", "target"]
        rules = Rules.preset(self.preset)
        if rules.draws:
            keys += ["boneyard_reserve", "draw_when_playable"]
        if self.players > 2 and not rules.partnership:
            keys.append("bigger_hands")
        keys += ["next_opener", "start"]
        return keys

    def rules(self) -> Rules:
        """The rules chosen. Raises RulesError."""
        overrides: dict[str, Any] = {}
        base = Rules.preset(self.preset)
        if self.target is not None:
            overrides["target"] = self.target
        if base.draws:
            overrides["boneyard_reserve"] = self.boneyard_reserve
            overrides["draw_when_playable"] = self.draw_when_playable
        if self.bigger_hands and self.players > 2 and not base.partnership:
            overrides["hand_size"] = 7
        if self.next_opener is not None:
            overrides["next_opener"] = self.next_opener
        return Rules.preset(self.preset, **overrides)

    def change(self, delta: int, levels: list[str]) -> None:
        """Step the highlighted row's value by ``delta`` (wrapping)."""
        key = self.rows()[self.row]
        if key == "players":
            self.players = 2 + (self.players - 2 + delta) % 3
            if Rules.preset(self.preset).partnership and self.players != 4:
                self.preset = "classic"
        elif key.startswith("level") and levels:
            i = int(key[5:])
            self.levels[i] = _step(levels, self.levels[i], delta)
        elif key == "preset":
            self.preset = _step(list(PRESETS), self.preset, delta)
            self.target = self.next_opener = None
            if Rules.preset(self.preset).partnership:
                self.players = 4
        elif key == "target":
            current = self.target if self.target is not None else Rules.preset(self.preset).target
            options = sorted({*TARGETS, current})
            self.target = _step(options, current, delta)
        elif key == "boneyard_reserve":
            self.boneyard_reserve = 2 - self.boneyard_reserve
        elif key == "draw_when_playable":
            self.draw_when_playable = not self.draw_when_playable
        elif key == "bigger_hands":
            self.bigger_hands = not self.bigger_hands
        elif key == "next_opener":
            opener = self.next_opener or Rules.preset(self.preset).next_opener
            self.next_opener = _step(["winner", "highest-double", "alternate"], opener, delta)
        self.row = min(self.row, len(self.rows()) - 1)


def _step(options: list[Any], current: Any, delta: int) -> Any:
    i = options.index(current) if current in options else 0
    return options[(i + delta) % len(options)]
