"""Rule options and the presets built from them.

``Rules`` is one frozen value. Its field names are also the keys used in game records and by
``--set name=value`` on the command line. Presets are named constructors; ``Rules.from_spec``
reads the ``{"preset": ..., option: value}`` form used in records.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from lanomino.engine.errors import RulesError

GAMES = ("draw", "block", "allfives")
NO_DOUBLE = ("heaviest", "reshuffle")
NEXT_OPENER = ("winner", "highest-double", "alternate", "left-of-last")
NO_WINNER_OPENER = ("first-hand", "next-seat")
BLOCKED_SCORING = ("difference", "total")
BLOCKED_TIE = ("nobody", "lightest-tile")

_CHOICES: dict[str, tuple[str, ...]] = {
    "game": GAMES,
    "no_double": NO_DOUBLE,
    "next_opener": NEXT_OPENER,
    "no_winner_opener": NO_WINNER_OPENER,
    "blocked_scoring": BLOCKED_SCORING,
    "blocked_tie": BLOCKED_TIE,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option as a named field; see the README for what each one means."""

    game: str = "draw"
    partnership: bool = False
    target: int = 100
    hand_size: int | None = None
    no_double: str = "heaviest"
    next_opener: str = "winner"
    no_winner_opener: str = "first-hand"
    blocked_scoring: str = "difference"
    blocked_tie: str = "nobody"
    boneyard_reserve: int = 0
    draw_when_playable: bool = False
    round_to_5: bool = False

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
        for name in ("partnership", "draw_when_playable", "round_to_5"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if not _is_int(self.target) or self.target < 0:
            raise RulesError(f"target must be a whole number >= 0, not {self.target!r}")
        if self.hand_size is not None and (
            not _is_int(self.hand_size) or not 1 <= self.hand_size <= 14
        ):
            raise RulesError(f"hand_size must be 1..14 or null, not {self.hand_size!r}")
        if self.boneyard_reserve not in (0, 2) or not _is_int(self.boneyard_reserve):
            raise RulesError(f"boneyard_reserve must be 0 or 2, not {self.boneyard_reserve!r}")
        if self.partnership and self.hand_size not in (None, 7):
            raise RulesError("a partnership game deals all 28 tiles: hand_size must be 7")
        if self.partnership and self.game == "draw":
            raise RulesError(
                "a partnership game has no boneyard to draw from: use game=block or game=allfives"
            )
        if self.game == "block" and self.draw_when_playable:
            raise RulesError("draw_when_playable needs a game with drawing (draw or allfives)")
        if self.round_to_5 and self.game != "allfives":
            raise RulesError("round_to_5 applies only to game=allfives")

    # ----- presets -------------------------------------------------------------------------

    @classmethod
    def classic(cls, **overrides: Any) -> Rules:
        """The Draw game: draw when stuck, first to 100."""
        return cls.from_options({"game": "draw", "target": 100, **overrides})

    @classmethod
    def block(cls, **overrides: Any) -> Rules:
        """The Block game: nobody draws, pass when stuck, first to 100."""
        return cls.from_options({"game": "block", "target": 100, **overrides})

    @classmethod
    def allfives(cls, **overrides: Any) -> Rules:
        """All Fives: the Draw game plus points for multiples of five on the ends, a spinner,
        hand scores rounded to the nearest five, first to 150."""
        return cls.from_options(
            {"game": "allfives", "target": 150, "round_to_5": True, **overrides}
        )

    @classmethod
    def partnership_game(cls, **overrides: Any) -> Rules:
        """Four players in two teams, all 28 tiles dealt, pass when stuck, first team to 100."""
        base = {
            "game": "block",
            "partnership": True,
            "target": 100,
            "next_opener": "left-of-last",
            "blocked_scoring": "total",
        }
        return cls.from_options({**base, **overrides})

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Rules:
        unknown = sorted(set(options) - OPTION_NAMES)
        if unknown:
            raise RulesError(
                f"unknown rule option {unknown[0]!r}; options: {', '.join(sorted(OPTION_NAMES))}"
            )
        try:
            return cls(**options)
        except TypeError as exc:  # pragma: no cover - guarded by the name check above
            raise RulesError(str(exc)) from exc

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset called ``name`` with ``overrides``. Raises RulesError."""
        try:
            make = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None
        return make(**overrides)

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> Rules:
        """Rules from the record form ``{"preset": NAME, option: value, ...}``."""
        options = dict(spec)
        name = options.pop("preset", "classic")
        if not isinstance(name, str):
            raise RulesError(f"preset must be a name, not {name!r}")
        return cls.preset(name, **options)

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickled as its constructor call: compiled (setup.py), a frozen class cannot be
        rebuilt field by field, and the benchmarks hand rules to worker processes."""
        return Rules, tuple(getattr(self, f.name) for f in fields(self))

    def short_name(self) -> str:
        """'Draw 100', 'Pairs Block 100', 'All Fives 1 hand': the rules in a column (History,
        the lobby, ``lanomino tables``)."""
        name = ("Pairs " if self.partnership else "") + GAME_SHORT.get(self.game, self.game)
        return f"{name} {self.target}" if self.target else f"{name} 1 hand"

    def to_spec(self, preset: str | None = None) -> dict[str, Any]:
        """The record form: a preset plus the options that differ from it."""
        name = preset or self.closest_preset()
        base = asdict(Rules.preset(name))
        mine = asdict(self)
        return {"preset": name, **{k: v for k, v in mine.items() if base[k] != v}}

    def closest_preset(self) -> str:
        mine = asdict(self)

        def distance(name: str) -> int:
            return sum(1 for k, v in asdict(Rules.preset(name)).items() if mine[k] != v)

        return min(PRESETS, key=distance)

    def with_options(self, **options: Any) -> Rules:
        unknown = sorted(set(options) - OPTION_NAMES)
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r}")
        return replace(self, **options)

    # ----- derived answers -------------------------------------------------------------------

    @property
    def draws(self) -> bool:
        """True when stuck players draw from the boneyard."""
        return self.game != "block"

    @property
    def fives(self) -> bool:
        return self.game == "allfives"

    def hand_size_for(self, players: int) -> int:
        if self.hand_size is not None:
            return self.hand_size
        if self.partnership or players == 2:
            return 7
        return 5

    def check_players(self, players: int, set_size: int = 28) -> None:
        """Raise RulesError unless these rules can be played by ``players`` seats."""
        if not _is_int(players) or not 2 <= players <= 4:
            raise RulesError(f"a table seats 2 to 4 players, not {players!r}")
        if self.partnership and players != 4:
            raise RulesError("a partnership game needs exactly 4 players")
        size = self.hand_size_for(players)
        dealt = players * size
        if dealt > set_size:
            raise RulesError(
                f"{players} hands of {size} need {dealt} tiles; the set has {set_size}"
            )
        if self.draws and dealt + self.boneyard_reserve > set_size:
            raise RulesError("the boneyard is smaller than the reserve")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


GAME_SHORT = {"draw": "Draw", "block": "Block", "allfives": "All Fives"}

OPTION_NAMES = frozenset(f.name for f in fields(Rules))

PRESETS = {
    "classic": Rules.classic,
    "block": Rules.block,
    "allfives": Rules.allfives,
    "partnership": Rules.partnership_game,
}


def parse_option(name: str, text: str) -> Any:
    """Turn the text of ``--set name=text`` into the option's value. Raises RulesError."""
    if name not in OPTION_NAMES:
        raise RulesError(
            f"unknown rule option {name!r}; options: {', '.join(sorted(OPTION_NAMES))}"
        )
    if name in ("partnership", "draw_when_playable", "round_to_5"):
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"{name} must be true or false, not {text!r}")
    if name in ("target", "boneyard_reserve", "hand_size"):
        if name == "hand_size" and text.lower() in ("null", "none", "default"):
            return None
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"{name} must be a whole number, not {text!r}") from None
    return text


def rules_from_cli(preset: str, settings: list[str]) -> Rules:
    """Rules from ``--rules NAME`` and a list of ``name=value`` strings. Raises RulesError."""
    overrides: dict[str, Any] = {}
    for item in settings:
        name, sep, text = item.partition("=")
        if not sep:
            raise RulesError(f"--set takes name=value, not {item!r}")
        overrides[name.strip()] = parse_option(name.strip(), text.strip())
    return Rules.preset(preset, **overrides)
