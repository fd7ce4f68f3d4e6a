"""Resignations and departures at a locked table, the host's side (issue 29). Pure.

A seat that resigns signs transcript/2's resignation for the hand's record first
(``blind_resign``, ``net/peer/blind_moves.py``): the host checks it (``seat_resigns``) and
relays it. Before a resignation no seat signed — its own seat's, its bot's, or that of a seat
the roster shows gone, which the host resigns as today — the host signs it itself
(``host_resignation``: ``by`` ``seat`` with that seat's key, or ``left`` with the host's).
Every side notes who signed it (``TableHand.on_resign``) and the hand's record keeps it.

At an ``--escrow`` table (``Departures``): every holder's escrow is checked and relayed
(``blind_escrow``, the host's own among them); a seat resigned as ``left`` is stood in for at
every side (``table_leave.lose``); a draw it cut short is asked again; a draw that one holder
leaves unanswered waits out that seat's grace period (``wait_out``); and at the hand's end the
host rebuilds the lost key from the survivors' sub-shares (``blind_rebuild``, its own too) and
sends it, signed by itself, as the lost holder's reveal (``blind/escrow_book.py``).

Without escrow, a seat resigned as ``left`` starts the survivors' blind re-shuffle at every side
(``blind/table_leave.py``): each survivor's values (``blind_unheld``, the host's own among them)
are checked and relayed as they come; nobody moves until the new deck is the boneyard; then a
draw the loss cut short is asked again from it, and play goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind import table_leave
from lanomino.blind.group import BlindError, parse_scalar
from lanomino.blind.rounds import BlindFault, Reveal
from lanomino.blind.table_hand import TableHand
from lanomino.fair.commit_reveal import RoundError
from lanomino.net.host.blind_close import settle_hand
from lanomino.net.host.table import Handler, Seat, Table, on
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:  # (a part of BlindDealing, as blind_close.py's functions are)
    from lanomino.net.host.blind import BlindDealing

UNSIGNED = bytes(64)


def seat_resigns(hand: TableHand, body: b.BlindResign) -> None:
    """A seat's own signed resignation, ahead of its move. Raises: BlindError."""
    if body.by != "seat":
        raise BlindError("a seat signs only its own resignation")
    hand.on_resign(body.resigned, body.at, body.by)


def host_resignation(t: Table, hand: TableHand, number: int, attempt: int, seat: int
                     ) -> b.BlindResign:
    """The resignation of ``seat`` that the host signs (unsigned here): its own seat's or its
    bot's, else that of a seat that left."""
    own = seat in t.local or seat == t.host_seat
    by, signer = ("seat", seat) if own else ("left", t.host_seat)
    hand.on_resign(seat, len(hand.moves), by)
    return b.BlindResign(number, attempt, signer, seat, len(hand.moves), by, UNSIGNED)


class Departures:
    """Resignations, escrow and a person who leaves: one part of ``BlindDealing``."""

    def __init__(self, dealing: BlindDealing) -> None:
        self.d = dealing

    def handlers(self) -> list[tuple[str, Handler]]:
        return [on(b.BlindEscrow, self.escrow), on(b.BlindRebuild, self.rebuild),
                on(b.BlindUnheld, self.unheld)]

    def unheld(self, seat: Seat, body: b.BlindUnheld, seq: int) -> None:
        """A survivor's value for the blind re-shuffle, checked and relayed; the host's own
        part next; once the new deck is the boneyard, play goes on."""
        hand, done = self.d._arrived(seat, body), []
        self.d._run(seat, body, lambda: done.append(table_leave.on_unheld(
            hand, seat.seat, body.number, body.step, body.value, self.d.t.now)))
        if done and done[0]:
            self._resumed(hand)
        self.own_unheld(hand)

    def own_unheld(self, hand: TableHand) -> None:
        """The host's own values for the blind re-shuffle, as they come due."""
        d, me = self.d, self.d.t.host_seat
        while (mine := table_leave.my_unheld(hand)) is not None:
            step, number, value = mine
            body = d._signed(b.BlindUnheld(d.number, d.attempt, me, number, step, value,
                                           UNSIGNED))
            done = table_leave.on_unheld(hand, me, number, step, value, d.t.now)
            d._relay(body, me)
            if done:
                self._resumed(hand)

    def after_move(self, hand: TableHand) -> None:
        """After a move (a seat that left resigned among them): a draw the loss cut short is
        asked again without it (escrow), and the host's part in a blind re-shuffle."""
        self._redraw(hand)
        self.own_unheld(hand)

    def _redraw(self, hand: TableHand) -> None:
        if hand.redraw_at is not None and not table_leave.reshuffling(hand):
            again, hand.redraw_at = hand.redraw_at, None
            self.d.draws.ask(again, hand.moves[again].seat)

    def _resumed(self, hand: TableHand) -> None:
        """The new deck is the boneyard: a draw the loss cut short is asked again; play goes
        on."""
        self._redraw(hand)
        self.d.t.host_view()
        self.d.playing.run_local_seats()

    def escrow(self, seat: Seat, body: b.BlindEscrow, seq: int) -> None:
        hand = self.d._arrived(seat, body)
        self.d._run(seat, body, lambda: table_leave.on_escrow(hand, seat.seat, body.points(),
                                                              body.blobs()))

    def own_escrow(self, hand: TableHand) -> None:
        """The host's own escrow, once the keys are agreed (before its shuffle)."""
        d, me = self.d, self.d.t.host_seat
        escrow = table_leave.my_escrow(hand, d.t.secret_source)
        if escrow is not None:
            body = d._signed(b.BlindEscrow.of(d.number, d.attempt, me, *escrow))
            table_leave.on_escrow(hand, me, body.points(), body.blobs())
            d._relay(body, me)

    def rebuild(self, seat: Seat, body: b.BlindRebuild, seq: int) -> None:
        """A survivor's sub-share of the lost key (to the host only); with all of them in, the
        rebuilt key goes out as the lost holder's reveal."""
        hand = self.d._arrived(seat, body)
        if hand.escrow is None or hand.view is None or hand.view.outcome is None \
                or hand.unheld is not None:  # (a second loss spent the escrow for good)
            raise RoundError("blind", "no lost key is rebuilt now")
        try:
            reveal = hand.escrow.give(hand.ctx, seat.seat, body.owner,
                                      parse_scalar(body.sub_share))
        except BlindFault as fault:
            raise RoundError("blind_fault", str(fault)) from None
        except BlindError as exc:
            raise RoundError("blind", str(exc)) from None
        if self._rebuilt(hand, reveal):
            settle_hand(self.d)

    def own_sub_share(self, hand: TableHand) -> None:
        """At the hand's end, the host's own sub-share of a lost key (when it holds one)."""
        book, holder = hand.escrow, hand.holder
        if book is not None and book.lost is not None and holder is not None \
                and hand.unheld is None:
            self._rebuilt(hand, book.give(hand.ctx, self.d.t.host_seat, book.lost,
                                          holder.escrow_reveal(book.lost)))

    def _rebuilt(self, hand: TableHand, reveal: Reveal | None) -> bool:
        """The lost holder's rebuilt reveal, signed by the host and sent; True once every
        reveal is in."""
        if reveal is None:
            return False
        d = self.d
        d._relay(d._signed(b.BlindReveal(d.number, d.attempt, d.t.host_seat, reveal, UNSIGNED)),
                d.t.host_seat)
        return hand.on_reveal(reveal)

    def wait_out(self, now: float) -> bool:
        """A draw that one holder leaves unanswered waits out that seat's grace period
        (``no_answer``): back in time, its share comes; past it, the seat has left (the table's
        leave rules), and the others stand in for its key (escrow) or re-shuffle blind, and the
        draw is asked again without it. True: the draw waits on."""
        hand, t = self.d.hand, self.d.t
        draw = None if hand is None else hand.draw
        if hand is None or draw is None or not table_leave.can_lose(hand) \
                or draw.deadline is None or now < draw.deadline or len(draw.missing()) != 1:
            return False
        seat = t.seat(draw.missing()[0])
        if seat.unanswered_since is not None:  # (its grace ran out, and it is still here)
            return False
        t.no_answer(seat.seat, now)
        draw.deadline = now + t.timings.grace_s + t.timings.answer_s
        return True
