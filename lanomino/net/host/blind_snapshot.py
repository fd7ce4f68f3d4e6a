"""A locked table's snapshot, at the host (issue 29). Pure.

The host keeps, for the deal attempt in play, every statement it relayed to the table, in order,
each with the moves logged before it (``Said.keep``, called by ``BlindDealing._relay``: the one
way a locked hand's statements go out): the host's signed ``blind_deal``, each holder's signed
key, escrow, shuffle, deal shares, "not me", play share, draw share, resignation and reveal. All
of it is public: a watcher is sent the same statements as they come. A snapshot's locked part
(``part``) is that list and the match's transcript/2 so far; the hand's signed moves, the public
events and the roster travel in the snapshot as at a fair table (``Playing.snapshot_body``), with
no tile for anyone (the host holds none but its own and its bots').

A seat that comes back on a new connection rebuilds its hand from it with its own key
(``net/peer/blind_snapshot.py``, ``blind/rebuild.py``); a watcher rebuilds the public hand. A
draw that still waits for the returning holder's share is asked of it again (``after``): its
gate gives a share only for the position the log gave the drawer, as ever.

Not sent (the seat is told why, and a seat, unable to play that hand without its tiles, leaves
the match: ``net/peer/blind_snapshot.unbuilt``): a snapshot of an attempt this host did not
relay from its start (it took the table over mid-hand: ``net/host/locked_takeover.py``), of a
hand whose tiles nobody holds were re-shuffled blind, or of a hand with a void deal or a
departure before it (their records are kept apart until the hand ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind.table_hand import TableHand
from lanomino.net.blind_transcript import keep
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.schemas import to_body

if TYPE_CHECKING:
    from lanomino.net.host.blind import BlindDealing
    from lanomino.net.host.table import Seat

NO_SIGNATURE = bytes(64)


class Said:
    """The statements of the deal attempt in play, as the host relayed them (see the module
    docstring). One part of ``BlindDealing``."""

    def __init__(self, blind: BlindDealing) -> None:
        self.d = blind
        self.said: list[tuple[int, b.BlindBody]] = []  # (moves logged before it, statement)

    def keep(self, hand: TableHand | None, body: b.BlindBody) -> None:
        """A statement relayed for ``hand``: its signature for the hand's record
        (``blind_transcript.keep``), itself for a snapshot (a ``blind_deal`` starts the list)."""
        keep(hand, body)
        if isinstance(body, b.BlindDeal):
            self.said = []
        if hand is not None:
            self.said.append((hand.logged, body))

    def refusal(self) -> str | None:
        """Why no locked snapshot can be sent now (None: it can)."""
        d, said = self.d, self.said
        book = d.closing.book
        if d.hand is None:
            return None  # (between hands: the transcript says it all)
        if not said or not isinstance(said[0][1], b.BlindDeal) or \
                (said[0][1].hand, said[0][1].attempt) != (d.number, d.attempt):
            return "this host took the table over in the hand in play: no snapshot of it"
        if d.hand.unheld is not None:
            return "the hand in play was re-shuffled blind: no snapshot of it"
        if book is not None and (book.voided or book.departures):
            return "the hand in play was dealt again: no snapshot of it before it ends"
        return None

    def part(self) -> m.LockedPlay:
        """The locked part of a snapshot: public, the same for every viewer."""
        d = self.d
        book = d.closing.book
        said = self.said if d.hand is not None else []
        return m.LockedPlay(None if book is None else book.last,
                            tuple({"type": s.TYPE, "body": to_body(s)} for _, s in said),
                            tuple(at for at, _ in said))

    def after(self, seat: Seat) -> None:
        """What the returning ``seat`` still owes the hand in play: its share of a draw the
        host asked it for (asked again, the same signed request)."""
        d, t = self.d, self.d.t
        hand = d.hand
        draw = None if hand is None else hand.draw
        if hand is None or draw is None or seat.seat not in draw.missing():
            return
        index = next(i for i in range(len(hand.moves) - 1, -1, -1)
                     if hand.moves[i].position == draw.position)
        t.send(seat, d.draws.request(index, draw.position, draw.drawer))
