"""A seat at a local match against the computer (a ``client.seam.Table``).

``LocalTable`` drives a ``LocalMatch`` from the asyncio loop: it takes the player's moves, runs the
bots in a worker thread after a short readable pause, saves after every move and logs every
finished hand. After the player resigns at a table of three or four it deals the next hands by
itself, and ``finish`` plays the rest of the match out at once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from lanomino.bots import get_bot
from lanomino.client.seam import Frontend
from lanomino.engine import (
    RESIGN,
    Action,
    Draw,
    Event,
    HandEnded,
    IllegalActionError,
    MatchEnded,
    Phase,
    Play,
)
from lanomino.localgame import HUMAN, LocalMatch, SavedGame
from lanomino.narrate import refusal_for
from lanomino.ui.state import Screen, UiState, on_new_observation, point_at

Save = Callable[[SavedGame | None], None]  # the game to keep, or None: nothing to continue
HINT_LEVEL = "expert"


class LocalTable:
    """Runs a ``LocalMatch`` for the UI: intents in, observations out, bots off the loop."""

    def __init__(self, match: LocalMatch, ui: UiState, save: Save, frontend: Frontend,
                 log: Callable[[LocalMatch], None] | None = None) -> None:
        self.match, self.ui, self.save, self.frontend = match, ui, save, frontend
        self.log = log  # called after every finished hand and match (the play log)
        self.version = 0  # bumped by every move, so a stale bot answer is dropped
        self._task: asyncio.Task[None] | None = None
        self._dealer: asyncio.TimerHandle | None = None  # the next deal while the player watches
        self._finisher: asyncio.Future[None] | None = None  # the match being played out
        self._hint: asyncio.Future[None] | None = None  # Expert thinking for the player

    def start(self) -> None:
        """Show the table; deal if the match waits for its first hand."""
        ui, state = self.ui, self.match.state
        ui.names, ui.seat_levels = self.match.config.names, self.match.config.levels
        ui.screen, ui.message, ui.confirm_quit = Screen.TABLE, "", False
        ui.obs = ui.hand_result = ui.match_result = None
        ui.resigned, ui.finishing = not state.active[HUMAN] and not self.match.is_over, False
        if state.phase is Phase.DEAL and not state.results:
            self.match.deal()
            self._saved()
        elif state.phase is Phase.DEAL:
            ui.hand_result = state.results[-1]
        self._refresh([])

    # ----- the Table protocol -----------------------------------------------------------------

    def submit(self, action: Action) -> None:
        """The human's move. An illegal one only sets a message."""
        try:
            events = self.match.apply(HUMAN, action)
        except IllegalActionError as exc:
            self.ui.message = refusal_for(HUMAN, str(exc))
            self.frontend.redraw()
            return
        self._after_move(events)

    def next_hand(self) -> None:
        if self.match.is_over or self.match.state.phase is not Phase.DEAL:
            return
        self.ui.hand_result = None
        self._after_move(self.match.deal())

    def resign(self) -> bool:
        """With three or four players the others play on and this seat watches."""
        self._after_move(self.match.apply(HUMAN, RESIGN))
        self.ui.resigned = not self.match.is_over
        return True

    def finish(self) -> None:
        """Play the rest of the match out in a worker thread, then show the standings."""
        match = self.match
        if match.is_over or match.state.active[HUMAN] or self.ui.finishing:
            return
        self.stop()
        self.ui.finishing, self.ui.thinking = True, None

        async def run() -> None:
            events = await asyncio.to_thread(play_out, match)
            self.ui.finishing, self.ui.hand_result = False, None
            self._after_move(events)  # saves (clears), logs and shows the standings

        self._finisher = asyncio.ensure_future(run())

    def hint(self) -> None:
        """Expert's move for this seat, thought out in a worker thread; the match is marked."""
        obs = self.match.observe()
        if not obs.is_my_turn or obs.phase != "play":
            self.ui.message = "a hint comes when it is your turn"
            return
        self._assisted("hint")
        self.ui.message = "Expert is thinking…"
        version = self.version
        rng = random.Random(f"lanomino-hint/{self.match.config.seed}/{len(self.match.log)}")

        async def think() -> None:
            action = await asyncio.to_thread(get_bot(HINT_LEVEL), obs, rng)
            if version == self.version:  # (nobody moved meanwhile)
                self.ui.message = f"Expert would {action_words(action)}"
                point_at(self.ui, action)
                self.frontend.redraw()

        self._hint = asyncio.ensure_future(think())

    def come_back(self) -> None:
        """No move clock against the computer: the player's seat is never played for them."""

    def undo(self) -> None:
        """Take back this seat's last move of the hand, and the computer's answers to it."""
        try:
            match = self.match.without_last_move()
        except ValueError as exc:
            self.ui.message = str(exc)
            return
        self.stop()
        self.version += 1
        self.match = match
        self._assisted("undo")
        self.ui.hand_result = self.ui.match_result = None
        self._refresh([])
        self.ui.message = "Your last move is taken back."

    def _assisted(self, how: str) -> None:
        """Mark the match as played with help: in the save and, once logged, in the play log."""
        self.match.assists.add(how)
        self._saved()
        if self.log is not None and self.match.state.results:
            self.log(self.match)

    def leave(self) -> str:
        self.stop()
        if self._finisher is not None:
            self._finisher.cancel()
            self._finisher = None
        self.ui.resigned = self.ui.finishing = False
        return "" if self.match.is_over else "The game is saved: choose Continue to resume it."

    async def shutdown(self) -> None:
        self.stop()

    def stop(self) -> None:
        """No more automatic moves, deals or hints."""
        for pending in (self._task, self._dealer, self._hint):
            if pending is not None:
                pending.cancel()
        self._task = self._dealer = self._hint = None

    # ----- the loop -------------------------------------------------------------------------

    def _after_move(self, events: list[Event]) -> None:
        self.version += 1
        self._saved()
        if self.log is not None and any(isinstance(e, HandEnded | MatchEnded) for e in events):
            self.log(self.match)
        self._refresh(events)

    def _saved(self) -> None:
        self.save(None if self.match.is_over else self.match.to_record())

    def _refresh(self, events: list[Event]) -> None:
        ui = self.ui
        was_my_turn = ui.obs is not None and ui.obs.is_my_turn
        obs = self.match.observe()
        on_new_observation(ui, obs)
        for event in events:
            if isinstance(event, HandEnded):
                ui.hand_result = event
                self._bell()
            elif isinstance(event, MatchEnded):
                ui.match_result = event
        if obs.is_my_turn and not was_my_turn:
            self._bell()
        self.frontend.redraw()
        if ui.resigned and ui.hand_result is not None and ui.match_result is None:
            self._deal_soon()
        self._ensure_running()

    def _bell(self) -> None:
        if self.ui.settings.sound:
            self.frontend.bell()

    def _deal_soon(self) -> None:
        """A seat that resigned sees the next hand dealt by itself after a moment."""
        if self._dealer is not None or self.ui.finishing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay_s = max(1.5, 3 * self.ui.settings.pause_s)
        self._dealer = loop.call_later(delay_s, self._deal_for_watcher)

    def _deal_for_watcher(self) -> None:
        self._dealer = None
        if self.ui.resigned and not self.ui.finishing and self.ui.hand_result is not None:
            self.next_hand()

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
        """Make the next automatic move (a bot's, or the human's auto-draw). False when none is
        due. A stale answer (someone moved while it was thought out) is dropped and True is
        returned, so the loop looks again: the move made meanwhile found this loop still running
        and started none, so stopping here would leave a computer seat that never moves."""
        version = self.version
        seat, action = await self._next_automatic()
        if seat is None or action is None:
            return version != self.version
        self._after_move(self.match.apply(seat, action))
        return True

    async def _next_automatic(self) -> tuple[int | None, Action | None]:
        match, ui = self.match, self.ui
        pause_s = ui.settings.pause_s
        seat = match.bot_to_move()
        version = self.version
        if seat is None:
            obs = match.observe()
            stuck = not any(isinstance(a, Play) for a in obs.legal)
            if ui.settings.auto_draw and obs.is_my_turn and stuck:
                await asyncio.sleep(pause_s / 2)
                return (HUMAN, obs.legal[0]) if version == self.version else (None, None)
            return None, None
        ui.thinking = seat
        self.frontend.redraw()
        try:
            bot = get_bot(match.config.levels[seat])
            obs = match.observe(seat)
            rng = match.bot_rng()
            await asyncio.sleep(pause_s)
            action = await asyncio.to_thread(bot, obs, rng)
        finally:
            ui.thinking = None
        if version != self.version:
            return None, None  # stale: the human moved or resigned meanwhile (step looks again)
        return seat, action


def action_words(action: Action) -> str:
    """'play 6-4 on the left', 'draw', 'pass': a move as a hint says it."""
    if isinstance(action, Play):
        return f"play {action.tile}" + (f" on the {action.end}" if action.end is not None else "")
    return "draw" if isinstance(action, Draw) else "pass"


def play_out(match: LocalMatch) -> list[Event]:
    """Play a match the human seat resigned from to its end with the computer seats (a worker
    thread runs this); the events of every move, in order."""
    events: list[Event] = []
    while not match.is_over:
        if match.state.phase is Phase.DEAL:
            events += match.deal()
            continue
        seat = match.bot_to_move()
        if seat is None:
            break
        bot = get_bot(match.config.levels[seat])
        events += match.apply(seat, bot(match.observe(seat), match.bot_rng()))
    return events
