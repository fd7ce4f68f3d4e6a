"""What the table screen remembers beyond the observation: the match's earlier hands for the log,
the final position of the hand that just ended, and which panel (log, score sheet) is open.

No prompt_toolkit here. ``note`` is called with every new observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lanomino.engine import Event, HandEnded, Observation

PANELS = ("log", "sheet")


@dataclass
class TableView:
    panel: str = ""  # "" (the table), "log" or "sheet"
    scroll: int = 0  # rows scrolled back from the newest (log) or down from the top (sheet)
    final: Observation | None = None  # the last observation of the latest finished hand
    past: list[tuple[Event, ...]] = field(default_factory=list)  # finished hands' public events
    current: tuple[Event, ...] = ()
    current_hand: int = 0

    def note(self, obs: Observation) -> None:
        """Keep what the log and the end-of-hand screen need from ``obs``."""
        new_match = not obs.results and obs.hand_no < self.current_hand
        if len(obs.results) < len(self.past) or new_match:
            self.final, self.past, self.current, self.current_hand = None, [], (), 0  # a new match
        if obs.hand_no != self.current_hand and self.current:
            if any(isinstance(e, HandEnded) for e in self.current):
                self.past.append(self.current)
            self.current = ()
        self.current, self.current_hand = tuple(obs.history), obs.hand_no
        if any(isinstance(e, HandEnded) for e in obs.history):
            self.final = obs

    def final_for(self, hand: int) -> Observation | None:
        """The last observation of hand ``hand``, if this client saw it."""
        obs = self.final
        if obs is None:
            return None
        ended = next((e for e in obs.history if isinstance(e, HandEnded)), None)
        return obs if ended is not None and ended.hand == hand else None

    def events(self) -> list[Event]:
        """Every public event of the match this client has seen, oldest first."""
        out: list[Event] = []
        for hand in self.past:
            out += hand
        return out + list(self.current)

    def toggle(self, panel: str) -> None:
        self.panel = "" if self.panel == panel else panel
        self.scroll = 0
