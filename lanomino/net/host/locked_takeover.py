"""A new host at a locked table (issue 29): it carries the locked match on after its host was
lost. Pure. One part of a HostSession at a table that deals the locked deck, held by its
``Takeover`` (takeover.py runs the election's side: the majority, the reports, the resume).

Theory of operation. The new host was a seat: its ``PeerBlind`` (net/peer/blind.py) holds the
match's transcript/2 so far, the match between hands and the hand in play as that seat followed
it. At a locked table nothing is rebuilt from escrowed secrets: every hand already settled is in
every seat's transcript/2, each signed by the host that dealt it, and the match state between
hands is public. So:

- **Between hands** (the last hand's points came, the next deal had not begun), or **in a deal
  round that has opened no tile yet** (the keys, the escrows, the shuffles, the deal's shares
  before the last one): the new host carries the transcript/2 on and deals the next hand (that
  hand again, with fresh keys) locked among the people left. The lost host's seat has left; its
  host-side bots leave with it (below); each is dealt no key and resigns (``left``, signed by the
  new host) as the hand's first moves, before anybody moves.
- **A hand whose points a member has and the new host missed** (the lost host died sending its
  ``blind_end``): each ``report`` carries the member's last ``blind_end``; the new host takes one
  whose checks hold against the hand its own seat settled, and goes on between hands.
- Anything else (a hand in play, its reveals, a hand's points that nobody got, a void deal
  before the hand in play, an opener that only the hands can name while a seat that left is
  still in the match) ends the match in words that say why (``LockedClose.give_up``).

Host-side bots: the lost host opened their tiles with its key and signed their moves with their
own keys, which went with it. Transcript/2 has no record of an adoption (transcript/1's
``adopted``), so a new host could sign no move of theirs that ``lanomino verify`` accepts: they
leave with the lost host, resigned as it is, and the roster says so.

What the new host learns: it opens the tiles dealt to the seats that resign as the hand's first
moves (it is their opener, as a host is its bots'); nobody plays those tiles.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING

from lanomino.blind.deal_round import Step
from lanomino.blind.lead_rounds import needs_rounds
from lanomino.engine import new_game
from lanomino.net.election import end_reported
from lanomino.net.host.blind import BlindDealing
from lanomino.net.host.deal import Dealing
from lanomino.net.host.table import Phase, Table
from lanomino.net.wire import messages as m

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession

class LockedTakeover:
    """Carrying a locked match on (see the module docstring): one part of a HostSession."""

    def __init__(self, table: Table, dealing: BlindDealing, peer: PeerSession) -> None:
        self.t, self.d = table, dealing
        self.carried = peer  # this host's seat, which followed the match

    @classmethod
    def of(cls, table: Table, dealing: Dealing, peer: PeerSession) -> LockedTakeover | None:
        """The part for a new host that grew from ``peer`` at a table that deals the locked
        deck (None: a fair table's takeover is takeover.py's alone)."""
        blind = dealing.locked
        return cls(table, blind, peer) if isinstance(blind, BlindDealing) else None

    def rebuild(self, reports: Mapping[int, m.Report], lost_host: int) -> bool:
        """The locked match after the finished hands: the next hand is dealt afresh (False, phase
        DEAL), or the match ends saying why (phase OVER). Never a hand rebuilt in play yet."""
        pb = self.carried.blind
        if pb.settled is not None:
            self._catch_up(reports)
        why = self._cannot_go_on(lost_host)
        if why is not None:
            self.d.closing.give_up(why)
            return False
        self.d.closing.book = copy.deepcopy(pb.book)
        self.d.closing.records = [h.record for h in pb.book.hands] if pb.book else []
        assert self.t.rules is not None
        state = (pb.match or new_game(self.t.rules, self.t.players)).copy()
        self.d.number = pb.number - 1 if pb.hand is not None else pb.number
        self.t.state, self.t.deal = state, None
        self.t.go(Phase.DEAL)
        return False

    def _cannot_go_on(self, lost_host: int) -> str | None:
        """Why the match cannot go on under this new host yet (None: it can)."""
        pb = self.carried.blind
        hand = pb.hand
        if pb.settled is not None:
            return ("the host left a locked match before any seat had its points of hand "
                    f"{pb.number}, which a new host cannot sign yet")
        if hand is not None and hand.deal.step is Step.DONE:
            return ("the host left a locked hand in play, which a new host cannot carry on yet "
                    f"(hand {pb.number})")
        if pb.book is not None and pb.book.voided:
            return ("the host left a locked match after a void deal of the hand in play, which "
                    "a new host cannot deal again yet")
        state = pb.match
        gone = [lost_host, *(s.seat for s in self.t.seats if s is not None and s.kind == "bot")]
        if state is not None and needs_rounds(state) and any(state.active[n] for n in gone) or \
                state is None and gone:
            return ("the host left a locked match before a hand whose opener only the hands can "
                    "name, and nobody can answer for the seats that left with it yet")
        return None

    def _catch_up(self, reports: Mapping[int, m.Report]) -> None:
        """The lost host's ``blind_end`` of the hand this seat settled, from a member that got
        it: taken once its checks hold (``net/peer/blind_close.end``)."""
        pb = self.carried.blind
        for report in reports.values():
            if pb.settled is None:
                return
            body = end_reported(report.last)
            if body is None or body.hand != pb.settled[1].hand:
                continue
            caught, settled = len(pb.p.caught), pb.settled
            pb.end(body)
            if len(pb.p.caught) > caught:  # (a member's false copy changes nothing: the next)
                del pb.p.caught[caught:]
                pb.settled = settled
                self.t.stats["migration.bad_blind_end"] += 1

