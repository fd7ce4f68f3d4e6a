"""What the player chose in Settings, stored as JSON in the data directory, and the defaults a
player starts with (a name from their account, the usual bot level)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lanomino.engine import PRESETS


@dataclass(frozen=True, slots=True)
class Settings:
    """What the player chose in Settings; stored as JSON in the data directory."""

    name: str = "You"
    colour: bool = True  # a colour per pip number
    sound: bool = False  # terminal bell on your turn and at hand end
    auto_draw: bool = False  # draw until playable (and pass when nothing is left)
    level: str = ""  # default level for computer opponents; "" = the best default there is
    preset: str = "classic"
    pause_s: float = 0.6  # how long a computer opponent "thinks" before its move shows
    lines: bool = False  # start in the line mode (lanomino.lines) instead of full screen
    words: bool = False  # the line mode says tiles as words ("five-three")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "colour": self.colour, "sound": self.sound,
            "auto_draw": self.auto_draw, "level": self.level, "preset": self.preset,
            "pause_s": self.pause_s, "lines": self.lines, "words": self.words,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Settings from stored values; a missing or wrong-typed value keeps its default."""
        base = cls()
        kw: dict[str, Any] = {}
        for key, kind in (("name", str), ("colour", bool), ("sound", bool), ("auto_draw", bool),
                          ("level", str), ("preset", str), ("lines", bool), ("words", bool)):
            if isinstance(data.get(key), kind):
                kw[key] = data[key]
        pause = data.get("pause_s")
        if isinstance(pause, int | float) and not isinstance(pause, bool) and 0 <= pause <= 5:
            kw["pause_s"] = float(pause)
        kw["name"] = clean_name(kw.get("name", "")) or account_name()
        if kw.get("preset") not in PRESETS:
            kw.pop("preset", None)
        return replace(base, **kw)


def account_name() -> str:
    """The name a player gets until they choose one: their account's ("Player" for root)."""
    import getpass

    try:
        login = clean_name(getpass.getuser())
    except (OSError, KeyError):
        login = ""
    return login.capitalize() if login and login != "root" else "Player"


def clean_name(text: str) -> str:
    """A player name: printable, at most 16 characters."""
    return "".join(ch for ch in text if ch.isprintable()).strip()[:16]


def default_level(levels: list[str]) -> str:
    for name in ("normal", "greedy"):
        if name in levels:
            return name
    return levels[0] if levels else "random"


def start_level(settings: Settings, levels: list[str]) -> str:
    """The computer level a new match or a new table starts with: the settings' own while this
    build has it, else the usual default."""
    return settings.level if settings.level in levels else default_level(levels)


def table_name(settings: Settings) -> str:
    """The name a table the player hosts starts with: "Ann's table" ("Lanomino" for a player
    still called You)."""
    return (f"{settings.name}'s table" if settings.name != "You" else "Lanomino")[:32]
