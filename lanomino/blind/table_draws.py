"""A draw in a locked hand, as every side follows it (``TableHand``'s draws part). Pure.

The log gives the drawer the boneyard's next position (``TableHand.apply``: ``order``,
``draws``); its round of shares follows (``DrawRound``, begun by ``TableHand.start_draw`` and
kept as ``TableHand.draw`` while it runs): every other holder's gate releases its share only for
a draw the log holds (``draw_share``), every side checks each share as it comes
(``on_draw_share``) and keeps them (``TableHand.drawn``: without the drawer's own share they
open nothing), and the drawer's side opens its tile. A new host that asks again for a share that
went to a host lost since gets the same share (``given``): nothing new. A share a loss made moot
is dropped, not blamed (``table_leave.dropped``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.rounds import Share
from lanomino.blind.table_leave import dropped
from lanomino.engine import Draw
from lanomino.engine.errors import seat_name

if TYPE_CHECKING:  # (a part of TableHand, as table_leave.py is)
    from lanomino.blind.table_hand import TableHand


def draw_share(hand: TableHand, asker: str, index: int, position: int, seat: int
               ) -> Share | Refusal:
    """This holder's share for ``seat``'s draw at move ``index``: only when the log gave
    that seat that position with that very move (else the gate's or this refusal)."""
    assert hand.holder is not None
    last = hand.moves[index] if 0 <= index < len(hand.moves) else None
    if last is None or not isinstance(last.action, Draw) or last.seat != seat:
        return Refusal(asker, position, seat, f"move {index + 1} is no draw by "
                       f"{seat_name(seat)}")
    share = hand.holder.draw_share(asker, position, seat)
    if isinstance(share, Share):
        hand.asked_by[position] = hand.host
    return share


def given(hand: TableHand, index: int, position: int, seat: int) -> Share | None:
    """This holder's share that already went out for ``seat``'s draw at move ``index`` to
    a host lost since (None: none did, or to this host: the gate refuses it twice). A new
    host that asks again gets the same share: nothing new."""
    move = hand.moves[index] if 0 <= index < len(hand.moves) else None
    if hand.holder is None or move is None or not isinstance(move.action, Draw) or \
            move.seat != seat or move.position != position or \
            hand.asked_by.get(position, hand.host) == hand.host:
        return None
    draw = hand.draw
    shares = [*(draw.shares.values() if draw is not None and draw.position == position
                else ()), *hand.drawn.get(position, ())]
    return next((s for s in shares if s.seat == hand.holder.seat), None)


def on_draw_share(hand: TableHand, share: Share) -> int | None:
    """A share of the draw in progress; the tile index once this side opens it (it is the
    drawer's opener) and every share is in, else None."""
    if dropped(hand, share) or share in hand.drawn.get(share.position, ()) or \
            hand.draw is not None and hand.draw.shares.get(share.seat) == share:
        return None  # (or one this side has: a new host sends its own again)
    draw = hand.draw
    if draw is None:
        raise BlindError("no draw waits for shares")
    draw.receive(share)
    if not draw.done:
        return None
    hand.drawn[draw.position] = tuple(draw.shares.values())
    hand.draw = None
    if hand.holder is None or draw.drawer != hand.holder.seat:
        return None
    tile = hand.holder.open(draw.position, hand.drawn[draw.position])
    hand.opened[draw.position] = tile
    return tile
