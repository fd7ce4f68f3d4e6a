"""A local match against computer players: the deal, the bots, saving, and the UI's driver.

``LocalMatch`` is the synchronous core: the game state, a seeded shuffle per hand and the move log
that a save is made of (a save is the config plus the moves, replayed on load: no pickles, and the
position comes back exactly). ``LocalTable`` drives it from the asyncio loop: it takes the UI's
intents, runs bots in a worker thread after a short readable pause, and saves after every move.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lanomino.bots import get_bot
from lanomino.engine import (
    RESIGN,
    Action,
    Draw,
    End,
    Event,
    GameState,
    HandEnded,
    IllegalActionError,
    MatchEnded,
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
        self.log: list[Any] = []  # "deal" or [seat, move text]
        self.uid = secrets.token_hex(8)  # names the match in the play log
        self.started_at = time.time()
        self.record = RecordBuilder(config.rules, config.names)  # the lanomino.record/1 form

    # ----- moves ----------------------------------------------------------------------------

    def deal(self) -> list[Event]:
        """Deal the next hand from this hand's seeded shuffle (again, if the deal is void)."""
        events: list[Event] = []
        while self.state.phase is Phase.DEAL:
            tiles = list(TILES)
            random.Random(f"lanomino-deal/{self.config.seed}/{self.state.hand_no + 1}").shuffle(tiles)
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

    def to_record(self) -> dict[str, Any]:
        c = self.config
        return {
            "version": SAVE_VERSION, "rules": c.rules.to_spec(), "players": c.players,
            "levels": list(c.levels), "names": list(c.names), "seed": c.seed, "log": list(self.log),
            "uid": self.uid, "started_at": self.started_at,
        }

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
            match.started_at = float(started) if isinstance(started, int | float) else match.started_at
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


class LocalTable:
    """Runs a ``LocalMatch`` for the UI: intents in, observations out, bots off the loop."""

    def __init__(
        self,
        match: LocalMatch,
        ui: Any,  # lanomino.ui.state.UiState (kept loose: the driver only sets its fields)
        save: Callable[[dict[str, Any] | None], None],
        redraw: Callable[[], None],
        bell: Callable[[], None] = lambda: None,
        log: Callable[[LocalMatch], None] | None = None,
    ) -> None:
        self.match = match
        self.log = log  # called after every finished hand and match (the play log)
        self.ui = ui
        self.save = save
        self.redraw = redraw
        self.bell = bell
        self.version = 0  # bumped by every move, so a stale bot answer is dropped
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Show the table; deal if the match waits for its first hand."""
        from lanomino.ui.state import Screen

        ui = self.ui
        ui.names, ui.seat_levels = self.match.config.names, self.match.config.levels
        ui.screen, ui.message, ui.confirm_quit = Screen.TABLE, "", False
        ui.hand_result = ui.match_result = None
        if self.match.state.phase is Phase.DEAL and not self.match.state.results:
            self.match.deal()
            self._saved()
        elif self.match.state.phase is Phase.DEAL:
            ui.hand_result = self.match.state.results[-1]
        self._refresh([])

    # ----- intents from the UI --------------------------------------------------------------

    def submit(self, action: Action) -> None:
        """The human's move. An illegal one only sets a message."""
        try:
            events = self.match.apply(HUMAN, action)
        except IllegalActionError as exc:
            self.ui.message = str(exc).replace(f"seat {HUMAN} ", "you ")
            self.redraw()
            return
        self._after_move(events)

    def next_hand(self) -> None:
        if self.match.is_over or self.match.state.phase is not Phase.DEAL:
            return
        self.ui.hand_result = None
        events = self.match.deal()
        self._after_move(events)

    def resign(self) -> None:
        events = self.match.apply(HUMAN, RESIGN)
        self._after_move(events)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    # ----- the loop -------------------------------------------------------------------------

    def _after_move(self, events: list[Event]) -> None:
        self.version += 1
        self._saved()
        if self.log is not None and any(isinstance(e, HandEnded | MatchEnded) for e in events):
            self.log(self.match)
        self._refresh(events)

    def _saved(self) -> None:
        self.save(None if self.match.is_over or not self.match.state.active[HUMAN] else self.match.to_record())

    def _refresh(self, events: list[Event]) -> None:
        from lanomino.ui.state import on_new_observation

        ui = self.ui
        was_my_turn = ui.obs is not None and ui.obs.is_my_turn
        on_new_observation(ui, self.match.observe())
        for event in events:
            if isinstance(event, HandEnded):
                ui.hand_result = event
                self.bell_if_wanted()
            elif isinstance(event, MatchEnded):
                ui.match_result = event
        if ui.obs.is_my_turn and not was_my_turn:
            self.bell_if_wanted()
        self.redraw()
        self._ensure_running()

    def bell_if_wanted(self) -> None:
        if self.ui.settings.sound:
            self.bell()

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop (tests driving the table by hand): call step() instead
            self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while await self.step():
            pass

    async def step(self) -> bool:
        """Make the next automatic move (a bot's, or the human's auto-draw). False when none."""
        seat, action = await self._next_automatic()
        if seat is None or action is None:
            return False
        self._after_move(self.match.apply(seat, action))
        return True

    async def _next_automatic(self) -> tuple[int | None, Action | None]:
        match, ui = self.match, self.ui
        pause_s = ui.settings.pause_s
        seat = match.bot_to_move()
        if seat is None:
            obs = match.observe()
            if ui.settings.auto_draw and obs.is_my_turn and not any(isinstance(a, Play) for a in obs.legal):
                version = self.version
                await asyncio.sleep(pause_s / 2)
                return (HUMAN, obs.legal[0]) if version == self.version else (None, None)
            return None, None
        version = self.version
        ui.thinking = seat
        self.redraw()
        try:
            bot = get_bot(match.config.levels[seat])
            obs = match.observe(seat)
            rng = match.bot_rng()
            await asyncio.sleep(pause_s)
            action = await asyncio.to_thread(bot, obs, rng)
        finally:
            ui.thinking = None
        if version != self.version:
            return None, None  # the human resigned or left meanwhile
        return seat, action
