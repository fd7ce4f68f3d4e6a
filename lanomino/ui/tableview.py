"""What the table screen remembers beyond the observation: the match's earlier hands for the log,
the final position of the hand that just ended, and which panel (log, score sheet) is open.

No prompt_toolkit here. ``note`` is called with every new observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lanomino.engine import (
    Event,
    HandEnded,
    Observation,
    Passed,
    Resigned,
    TileDrawn,
    TilePlayed,
)

PANELS = ("log", "sheet")


@dataclass
class TableView:
    panel: str = ""  # "" (the table), "log" or "sheet"
    scroll: int = 0  # rows scrolled back from the newest (log) or down from the top (sheet)
    final: Observation | None = None  # the last observation of the latest finished hand
    past: list[tuple[Event, ...]] = field(default_factory=list)  # finished hands' public events
    current: tuple[Event, ...] = ()
    current_hand: int = 0
    # which of ``past`` and ``current``'s events (their places in ``events()``) the table's bot
    # made for this seat while its player was out of time: the log says so, not "you played"
    bot_made: set[int] = field(default_factory=set)
    # the hand in play dealt again under its number (a locked table: someone left it before it
    # could be scored): (hand, the seats that left it), for the table to say so; and who was
    # still in the match at the last observation, to tell who left
    redealt: tuple[int, tuple[int, ...]] | None = None
    active: tuple[bool, ...] = ()

    def note(self, obs: Observation, away: bool = False) -> None:
        """Keep what the log and the end-of-hand screen need from ``obs`` (``away``: this seat's
        player is out of time, so its new moves are the table's bot's)."""
        new_match = not obs.results and obs.hand_no < self.current_hand
        if len(obs.results) < len(self.past) or new_match:
            self.final, self.past, self.current, self.current_hand = None, [], (), 0  # a new match
            self.bot_made, self.redealt = set(), None
        # who left: since the last observation, or during the deal given up (a holder lost in
        # its round of passes after a block nobody could see: resigned as a move of it)
        resigned = {e.seat for e in self.current if isinstance(e, Resigned)}
        gone = tuple(s for s, was in enumerate(self.active) if s < len(obs.active)
                     and not obs.active[s] and (was or s in resigned))
        if gone and obs.hand_no == self.current_hand and self.current and obs.history \
                and obs.history[0] != self.current[0]:  # dealt again: its moves are void
            self.redealt = (obs.hand_no, gone)
            self.bot_made = {i for i in self.bot_made if i < self._before_current()}
            self.current = ()
        elif self.redealt is not None and (self.redealt[0] != obs.hand_no or any(
                isinstance(e, HandEnded) for e in obs.history)):
            self.redealt = None  # (said for the rest of that deal only)
        self.active = tuple(obs.active)
        seen = len(self.current)
        if obs.hand_no != self.current_hand and self.current:
            if any(isinstance(e, HandEnded) for e in self.current):
                self.past.append(self.current)
            else:  # an unfinished hand dropped from the log: so are its marks
                self.bot_made = {i for i in self.bot_made if i < self._before_current()}
            self.current, seen = (), 0
        before = self._before_current()
        self.current, self.current_hand = tuple(obs.history), obs.hand_no
        if away:
            self.bot_made |= {before + i for i, e in enumerate(self.current) if i >= seen and
                              isinstance(e, TilePlayed | TileDrawn | Passed) and e.seat == obs.seat}
        if any(isinstance(e, HandEnded) for e in obs.history):
            self.final = obs

    def final_for(self, hand: int) -> Observation | None:
        """The last observation of hand ``hand``, if this client saw it."""
        obs = self.final
        if obs is None:
            return None
        ended = next((e for e in obs.history if isinstance(e, HandEnded)), None)
        return obs if ended is not None and ended.hand == hand else None

    def _before_current(self) -> int:
        return sum(len(hand) for hand in self.past)

    def current_bot_made(self) -> frozenset[int]:
        """``bot_made`` as places in ``current`` (the hand in play's history)."""
        before = self._before_current()
        return frozenset(i - before for i in self.bot_made if i >= before)

    def events(self) -> list[Event]:
        """Every public event of the match this client has seen, oldest first."""
        out: list[Event] = []
        for hand in self.past:
            out += hand
        return out + list(self.current)

    def toggle(self, panel: str) -> None:
        self.panel = "" if self.panel == panel else panel
        self.scroll = 0
