"""The move clock at the host (``--move-time``): one part of the play part (``Playing``). Pure.

A remote seat that has not moved ``move_s`` after its turn began (as first seen here) is counted
away: the roster says so, and the table's bot plays the seat until its player is back (``back``,
or a move the player made). At a table that deals the fair deck the host plays it: the move is
signed by the host and the hand's log lists it under ``away``. At a locked table (issue 29) only
the seat holds its tiles, so the host never plays for it: the seat's own client does, with the
table's bot level (the roster's ``away_level``), signs the move itself and marks it ``away``
under that signature (net/peer/table_bot.py, ``marks_away``); the host passes it on as the
table's move and the seat stays away. A seat that is not connected when its clock runs out is
counted away too, and nobody plays it: it leaves when the grace period is over, as at any
locked table (a departure is not built yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.fair.commit_reveal import RoundError
from lanomino.fair.transcript import move_json, move_statement
from lanomino.net.host.table import Phase, Policy, Seat, Table
from lanomino.net.session_base import SeatAway
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import signed_away

if TYPE_CHECKING:
    from lanomino.net.host.play import Playing


class MoveClock:
    """The turn the move clock times, and the seats it counts away (see the module docstring)."""

    def __init__(self, table: Table, play: Playing, away_policy: Policy | None) -> None:
        self.t, self.play = table, play
        self.away_policy = away_policy  # the table's bot, for a seat out of time (fair deck)
        self.turn_key: tuple[int, int] = (0, -1)  # (hand, move index) of the turn being timed
        self.turn_since = 0.0

    def play_away(self, seat: int) -> bool:
        """The table's bot moves for a seat out of time (signed by the host; the hand's log lists
        the move under ``away``). False at a locked table: the seat's own client plays it."""
        t = self.t
        if self.locked:
            return False
        assert t.state is not None and t.deal is not None
        d, obs = t.deal, t.observe(t.state, seat)
        action = self.away_policy(obs) if self.away_policy is not None else obs.legal[0]
        move = move_json(seat, action)
        events = t.apply(t.state, seat, action, False)
        sig = t.identity.sign_statement(move_statement(t.digest, d.hand, len(d.moves), move))
        d.away.append(len(d.moves))
        self.play.record(seat, move, sig, events, d, away=True)
        return True

    def due(self) -> float | None:
        """When the seat to move runs out of time (None: no move clock, or no remote seat to time).
        The clock starts when the turn is first seen here (after the move before it)."""
        t = self.t
        state, d, limit = t.state, t.deal, t.timings.move_s
        if limit is None or t.phase is not Phase.PLAY or state is None or d is None:
            return None
        seat = t.seats[state.turn]
        if state.turn in t.local or seat is None or seat.left or seat.away:
            return None
        key = (d.hand, len(d.moves))
        if key != self.turn_key:
            self.turn_key, self.turn_since = key, t.now
        return self.turn_since + limit

    def out_of_time(self, now: float) -> None:
        due = self.due()
        if due is None or now < due:
            return
        assert self.t.state is not None
        seat = self.t.seat(self.t.state.turn)
        seat.away = True
        self.t.stats["move_clock.away"] += 1
        self.t.events.append(SeatAway(seat.seat, True))
        self.t.broadcast_roster()
        self.play.run_local_seats()

    def back(self, seat: Seat, body: m.Back | m.Move, seq: int) -> None:
        """The seat's player is back (a ``back``, or a move of its own: not one its client's bot
        made while it was away, ``away``)."""
        if seat.away and not (isinstance(body, m.Move) and body.away):
            seat.away = False
            self.t.events.append(SeatAway(seat.seat, False))
            self.t.broadcast_roster()

    def marks_away(self, body: m.Move) -> bool:
        """A seat's own move is the table's (``away``) when its client's bot made it, out of
        time: only at a locked table (elsewhere the host plays for the seat), where the seat
        signs the mark with the move (``signed_away``). Raises RoundError for a mark the move
        does not sign, or one at a table without a move clock."""
        if not self.locked:
            return False
        if body.away != signed_away(body.move):
            raise RoundError("bad_signature", "the move's away mark is not under its seat's "
                             "signature")
        if body.away and (self.t.header is None or self.t.header.move_clock is None):
            raise RoundError("illegal", "a move marked away at a table without a move clock")
        return body.away

    @property
    def locked(self) -> bool:
        """The table deals the locked deck (net/host/blind.py)."""
        return self.play.dealing.locked is not None
