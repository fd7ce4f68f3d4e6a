"""A local match against computer players: the deal, the moves and the save.

``LocalMatch`` is the synchronous core: the game state, a seeded shuffle per hand and the move log
that a save is made of (a save is the config plus the moves, replayed on load: no pickles, and the
position comes back exactly). ``lanomino.client.local.LocalTable`` drives it for the client.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, TypedDict

from lanomino.engine import (
    RESIGN,
    Action,
    Draw,
    End,
    Event,
    GameState,
    IllegalActionError,
    Observation,
    Pass,
    Phase,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    parse_tile,
    start_hand,
)
from lanomino.engine.tiles import TILES
from lanomino.record.writer import RecordBuilder

SAVE_VERSION = 1
LogEntry = str | list[int | str]  # "deal", or [seat, move text]


class SavedGame(TypedDict):
    """A local match as the store keeps it (``LocalMatch.to_record``, read by ``from_record``)."""

    version: int
    rules: dict[str, object]
    players: int
    levels: list[str]
    names: list[str]
    seed: int | None
    log: list[LogEntry]
    uid: str
    started_at: float
    assists: list[str]
HUMAN = 0
BOT_NAMES = ("Ana", "Ben", "Cleo")


@dataclass(frozen=True, slots=True)
class MatchConfig:
    rules: Rules
    players: int
    levels: tuple[str, ...]  # per seat; "" for the human seat
    names: tuple[str, ...]
    seed: int


def make_config(rules: Rules, players: int, bot_levels: tuple[str, ...], human_name: str,
                seed: int) -> MatchConfig:
    """A config with the human in seat 0 and named computer players after it. Raises RulesError."""
    rules.check_players(players)
    levels = ("", *(bot_levels[i % len(bot_levels)] for i in range(players - 1)))
    names = (human_name, *(BOT_NAMES[i] for i in range(players - 1)))
    return MatchConfig(rules, players, levels, names, seed)


def encode_action(action: Action) -> str:
    return str(action)


def decode_action(text: str) -> Action:
    """The inverse of ``str(action)``. Raises ValueError."""
    parts = text.split()
    if parts == ["draw"]:
        return Draw()
    if parts == ["pass"]:
        return Pass()
    if parts == ["resign"]:
        return RESIGN
    if len(parts) in (2, 3) and parts[0] == "play":
        end = End.parse(parts[2]) if len(parts) == 3 else None
        return Play(parse_tile(parts[1]), end)
    raise ValueError(f"not a move: {text!r}")


class LocalMatch:
    """The state of one local match and the log of everything done in it."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.state: GameState = new_game(config.rules, config.players)
        self.log: list[LogEntry] = []
        self.uid = secrets.token_hex(8)  # names the match in the play log
        self.started_at = time.time()
        self.record = RecordBuilder(config.rules, config.names)  # the lanomino.record/1 form
        self.assists: set[str] = set()  # "hint", "undo": help the player had (history says so)

    # ----- moves ----------------------------------------------------------------------------

    def deal(self) -> list[Event]:
        """Deal the next hand from this hand's seeded shuffle (again, if the deal is void)."""
        events: list[Event] = []
        while self.state.phase is Phase.DEAL:
            tiles = list(TILES)
            seed = f"lanomino-deal/{self.config.seed}/{self.state.hand_no + 1}"
            random.Random(seed).shuffle(tiles)
            size = self.config.rules.hand_size_for(self.config.players)
            deal: list[list[Any]] = []
            for seat in range(self.config.players):
                take = size if self.state.active[seat] else 0
                deal.append(tiles[:take])
                tiles = tiles[take:]
            self.record.start_hand(deal, tiles)
            events += start_hand(self.state, deal, tiles)
        self.log.append("deal")  # one entry per call: replaying it redoes any void deals too
        return events

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a move and log it. Raises IllegalActionError."""
        events = apply(self.state, seat, action)
        self.log.append([seat, encode_action(action)])
        self.record.add(seat, action)
        return events

    def observe(self, seat: int = HUMAN) -> Observation:
        return observe(self.state, seat)

    def bot_to_move(self) -> int | None:
        """The computer seat whose turn it is, if any."""
        s = self.state
        if s.phase is Phase.PLAY and s.turn != HUMAN and s.active[s.turn]:
            return s.turn
        return None

    def bot_rng(self) -> random.Random:
        """The random source for the next bot move: fixed by the seed and the move number."""
        return random.Random(f"lanomino-bot/{self.config.seed}/{len(self.log)}")

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.OVER

    # ----- saving ---------------------------------------------------------------------------

    def to_record(self) -> SavedGame:
        c = self.config
        return {
            "version": SAVE_VERSION, "rules": c.rules.to_spec(), "players": c.players,
            "levels": list(c.levels), "names": list(c.names), "seed": c.seed, "log": list(self.log),
            "uid": self.uid, "started_at": self.started_at, "assists": sorted(self.assists),
        }

    def without_last_move(self, seat: int = HUMAN) -> LocalMatch:
        """The match as it stood before ``seat``'s last move of this hand (every move after it
        goes too). Raises ValueError when this hand has no move of that seat to take back."""
        for i in range(len(self.log) - 1, -1, -1):
            entry = self.log[i]
            if entry == "deal":
                break
            if entry[0] == seat and entry[1] != "resign":
                return LocalMatch.from_record({**self.to_record(), "log": self.log[:i]})
        raise ValueError("there is no move of yours to take back in this hand")

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> LocalMatch:
        """Rebuild a match by replaying its log. Raises ValueError on a damaged save."""
        try:
            if data.get("version") != SAVE_VERSION:
                raise ValueError(f"unknown save version {data.get('version')!r}")
            config = MatchConfig(
                Rules.from_spec(dict(data["rules"])), int(data["players"]),
                tuple(str(x) for x in data["levels"]), tuple(str(x) for x in data["names"]),
                int(data["seed"]),
            )
            if len(config.levels) != config.players or len(config.names) != config.players:
                raise ValueError("the save's seats do not add up")
            match = cls(config)
            match.uid = str(data.get("uid", match.uid))
            started = data.get("started_at", match.started_at)
            if isinstance(started, int | float):
                match.started_at = float(started)
            match.assists = {a for a in data.get("assists", []) if a in ("hint", "undo")}
            for entry in data["log"]:
                if entry == "deal":
                    if match.state.phase is not Phase.DEAL:
                        raise ValueError("a deal in the middle of a hand")
                    match.deal()
                else:
                    seat, text = entry
                    match.apply(int(seat), decode_action(str(text)))
        except (KeyError, TypeError, IllegalActionError) as exc:
            raise ValueError(f"the saved game is damaged: {exc}") from exc
        return match
