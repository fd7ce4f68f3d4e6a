"""A seat's deadlines on its host's progress (``Timings``: relay_s, bot_budget_s, margin_s). Pure.

A host that keeps its heartbeats going but stops the table is as good as lost. Every seat times:

- its own move, from when it went out: the host passes it on (or refuses it) within ``relay_s``;
- a host-side bot's turn, from when this seat saw it begin: the bot moves within its budget
  (``move_s`` at a table with a move clock, else ``bot_budget_s``) plus ``bot_delay_s`` and
  ``margin_s``;
- at a table with a move clock, the host's own seat likewise (a human host at a table without one
  may think as long as they like);
- each dispute this seat sent (net/peer/disputes.py), from when it went out: the host passes it on
  to everyone (this seat gets it back) within ``relay_s``, as it passes a move on;
- at a locked table, each round this seat waits for (net/peer/blind.py: the deal's steps, the
  opening's rounds, a draw's shares, the reveals, the host's points, then the next hand's deal,
  which comes only after those points): the host moves it on
  within ``answer_s`` and ``relay_s`` of the last step this seat saw (the host names a silent
  seat within ``answer_s`` and ends the match).

When its own move is past ``relay_s`` and there are other members, the seat first has them witness
it (held_moves.py): the host then has ``relay_s`` more, timed by every member, before they leave it
together (``relay-held``).

Past a deadline the seat leaves the host as if it had crashed (``HostCaught``, then an election).
While an election runs, or the host is already silent, nothing is timed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.engine.errors import seat_name
from lanomino.net.election import entry_of
from lanomino.net.session_base import HostCaught

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["Progress"]


class Progress:
    """The deadlines one peer session keeps on its host (see the module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.move_sent = 0.0  # when this seat's pending move went out
        self.turn: tuple[int, int] | None = None  # (hand, move index) of the turn being timed
        self.turn_since = 0.0
        self.disputes: dict[tuple[int, int], float] = {}  # (hand, index) -> when it went out

    def restart(self) -> None:
        """A new host, or a snapshot: time the turn in play from now (a dispute the last host
        owed is in this seat's transcript; a new host is not timed on it)."""
        self.turn = None
        self.disputes.clear()
        self.p.held.restart()

    def seen(self) -> None:
        """The hand in play changed: a new turn starts its clock here."""
        view, p = self.p.view, self.p
        if view is None or view.phase != "play":
            return
        key = (p.hand, len(p.moves.get(p.hand, [])))
        if key != self.turn:
            self.turn, self.turn_since = key, p.now

    def due(self) -> float | None:
        """When the host must next have made progress (None: nothing is timed now)."""
        p = self.p
        if p.election is not None or p.silent:
            return None
        times = []
        if p.pending_move is not None and p.held.told != (p.hand, p.pending_move):
            times.append(self.move_sent + p.timings.relay_s)
        held = p.held.due()  # (a held move witnessed, held_moves.py)
        if held is not None:
            times.append(held)
        if self.disputes:
            times.append(min(self.disputes.values()) + p.timings.relay_s)
        budget = self._turn_budget()
        if budget is not None:
            times.append(self.turn_since + budget)
        locked = p.blind.due()
        if locked is not None:
            times.append(locked)
        return min(times, default=None)

    def _turn_budget(self) -> float | None:
        """How long the seat to move may take, when its host moves it (None: not timed)."""
        p, view = self.p, self.p.view
        if view is None or view.phase != "play" or self.turn is None or p.header is None:
            return None
        entry = entry_of(p.roster, view.turn)
        if entry is None or entry.left or entry.away:
            return None
        clock = p.header.move_clock
        t = p.timings
        if entry.kind == "bot":
            budget = t.bot_budget_s if clock is None else clock / 1000
            return t.bot_delay_s + budget + t.margin_s
        if view.turn == p.host_seat and clock is not None:
            return clock / 1000 + t.margin_s
        return None

    def check(self, now: float) -> bool:
        """True when the host has let a deadline pass (the proof is kept, ``HostCaught``)."""
        due, p = self.due(), self.p
        if due is None or now < due:
            return False
        late = [k for k, sent in self.disputes.items() if now >= sent + p.timings.relay_s]
        held = p.held.late(now)
        if held is not None:
            p.caught.append(held)
            p._events.append(held)
            return True
        if (p.pending_move is not None and now >= self.move_sent + p.timings.relay_s
                and p.held.told != (p.hand, p.pending_move)):
            if p.held.tell(now):  # the other members witness it first (held_moves.py)
                return False
            what = ("relay-late", f"the host did not pass this seat's move on within "
                                  f"{p.timings.relay_s:g} s")
        elif (locked := p.blind.due()) is not None and now >= locked:
            what = ("blind-late", f"the host did not move the locked hand on within "
                                  f"{now - locked + p.timings.answer_s + p.timings.relay_s:.1f} s")
        elif late:
            what = ("dispute-withheld", f"the host did not pass this seat's dispute of move "
                                        f"{late[0][1] + 1} on within {p.timings.relay_s:g} s")
        else:
            assert p.view is not None
            what = ("turn-late", f"{seat_name(p.view.turn)}, moved by the host, did not move "
                                 f"within {now - self.turn_since:.1f} s")
        p.caught.append(HostCaught(*what, {"check": what[0], "host": p.host_seat,
                                           "hand": p.hand, "at": len(p.moves.get(p.hand, []))},
                                   now))
        p._events.append(p.caught[-1])
        return True
