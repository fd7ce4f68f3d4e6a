"""The move clock's bot at a locked table (issue 29), run in the seat's own client. Pure.

At a table that deals the locked deck only the seat holds its tiles, so the host cannot play for a
seat out of time (net/host/move_clock.py). When the host counts this seat away (the roster: its
clock ran out) and the hand waits for this seat's move, its own client moves with the table's bot
level (the roster's ``away_level``), signs the move itself, as every move of its, and marks it
``away`` under that signature (``"away": true`` in the move it signs): the host passes it on
as the table's move and the seat stays away until its player is back (``back``, or a move of
their own). Once the player has said they are back (``said_back``) the bot makes no move for
them, not even for a turn that reaches them before the host has heard them: only a roster that
counts the seat away anew (after one that took it back) lets it play again. A move of this seat
that the host signed is refused on arrival at a locked table and the host caught
(net/peer/arrival.py).

The bots come from the runtime (``make``: a level to a policy; net/ does not import the bots);
without them the seat waits for its player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lanomino.blind.hashing import ALGORITHM
from lanomino.engine import Action, IllegalActionError, Observation
from lanomino.net.wire import messages as m

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

Policy = Callable[[Observation], Action]
Submit = Callable[[Action, float, bool], None]  # PeerSession.submit (action, now, away)


class TableBot:
    """The table's bot for this seat while it is away at a locked table (see the docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.make: Callable[[str], Policy] | None = None  # the runtime's bots, by level
        self.level: str | None = None  # the table's bot level (the roster says)
        self.bots: dict[str, Policy] = {}
        self.said_back = False  # the player said they are back (PeerSession.back)

    def after(self, body: object, submit: Submit) -> None:
        """A message from the host was handled: a roster's level is noted, and when this seat
        is away and the hand waits for its move, its bot makes it."""
        if isinstance(body, m.Roster):
            self.level = body.away_level
            self.said_back = self.said_back and self.p.away  # (the host took the seat back)
        if self.make is None or self.level is None or not self._due():
            return
        view = self.p.view
        assert view is not None
        if self.level not in self.bots:
            self.bots[self.level] = self.make(self.level)
        try:
            submit(self.bots[self.level](view.observation()), self.p.now, True)
        except IllegalActionError:
            return  # (not seated, or the hand moved on: the next message decides again)

    def _due(self) -> bool:
        p, view = self.p, self.p.view
        header = p.header
        return (header is not None and header.algorithm == ALGORITHM
                and header.move_clock is not None and not p.watch and p.away
                and not self.said_back
                and view is not None and view.phase == "play" and view.turn == p.seat
                and p.pending_move is None and not p.holding)
