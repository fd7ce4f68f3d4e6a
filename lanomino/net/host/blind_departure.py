"""Resignations at a locked table, the host's side (issue 29). Pure.

A seat that resigns signs transcript/2's resignation for the hand's record first
(``blind_resign``, ``net/peer/blind_moves.py``): the host checks it (``seat_resigns``) and
relays it. Before a resignation no seat signed — its own seat's, its bot's, or that of a seat
the roster shows gone, which the host resigns as today — the host signs it itself
(``host_resignation``: ``by`` ``seat`` with that seat's key, or ``left`` with the host's).
Every side notes who signed it (``TableHand.on_resign``) and the hand's record keeps it.
"""

from __future__ import annotations

from lanomino.blind.group import BlindError
from lanomino.blind.table_hand import TableHand
from lanomino.net.host.table import Table
from lanomino.net.wire import blind_messages as b

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
