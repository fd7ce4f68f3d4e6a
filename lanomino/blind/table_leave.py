"""A holder who leaves a locked hand, as every side follows it (``TableHand``'s departure
part). Pure.

At an ``--escrow`` table every holder escrows its key before its shuffle (``my_escrow``,
``on_escrow``: ``escrow_book.py``). When a holder leaves the hand in play (the host's
resignation of it, ``by`` ``left``, applied at every side alike), the others stand in for its
key (``lose``): a draw that waited for its share runs again under the survivors' keys
(``TableHand.redraw_at``), or is dropped when the seat that left drew it; a share of such a
draw that comes late is dropped, not blamed (``dropped``). At the hand's end the host's rebuilt
key comes as the lost holder's reveal (``rebuilt``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lanomino.blind.deal_round import Step
from lanomino.blind.group import BlindError, Point, base_mul
from lanomino.blind.hashing import Context
from lanomino.blind.rounds import BlindFault, Reveal, Share, check_share
from lanomino.engine import Draw
from lanomino.engine.errors import seat_name

if TYPE_CHECKING:  # (a part of TableHand, as the sessions' parts are of theirs)
    from lanomino.blind.table_hand import TableHand


def my_escrow(hand: TableHand, seed: Callable[[], bytes]
              ) -> tuple[tuple[Point, ...], dict[int, bytes]] | None:
    """This holder's escrow, once the keys are agreed at an escrow table (never twice; its
    seed drawn only then)."""
    h, book = hand.holder, hand.escrow
    if h is None or book is None or hand.deal.step is not Step.SHUFFLE \
            or h.seat in book.commitments:
        return None
    return h.escrow(seed())


def on_escrow(hand: TableHand, owner: int, commitments: tuple[Point, ...],
              sealed: Sequence[bytes]) -> None:
    """A holder's escrow, its sub-shares sealed to the other holders in seat order
    (``EscrowBook.receive``). Raises BlindFault, BlindError."""
    if hand.escrow is None or hand.deal.step is not Step.SHUFFLE:
        raise BlindError("no escrow is awaited now")
    others = [s for s in hand.ctx.holders if s != owner]
    if len(sealed) != len(others):
        raise BlindFault(owner, "did not escrow its key with all the other holders")
    hand.escrow.receive(hand.ctx, hand.holder, owner, commitments,
                        dict(zip(others, sealed, strict=True)))


def escrowed(hand: TableHand, seat: int) -> None:
    """At an escrow table, ``seat`` may shuffle only once its escrow came. Raises BlindError."""
    if hand.escrow is not None and seat not in hand.escrow.commitments:
        raise BlindError(f"{seat_name(seat)} shuffled before it escrowed its key")


def context_of(hand: TableHand, position: int) -> Context:
    """The context ``position``'s shares are under (after a loss: the standing one for a
    position drawn since)."""
    return hand.ctx if hand.escrow is None else hand.escrow.context_of(hand.ctx, position)


def lose(hand: TableHand, seat: int, now: float) -> bool:
    """``seat`` left the hand: at an escrow table the others stand in for its key and the
    hand goes on (True); else False, and the hand cannot go on without it. A draw waiting
    for the seat's share runs again under the survivors' keys (``redraw_at``), or is
    dropped when the seat that left drew it."""
    if hand.escrow is None or seat not in hand.ctx.holders:
        return False
    try:
        hand.escrow.lose(hand.ctx, hand.holder, seat)
    except BlindError:
        return False
    draw = hand.draw  # (its share came before the loss at every side, or at none)
    if draw is None or seat in draw.shares:
        return True
    hand.draw = None
    if draw.drawer != seat:
        hand.escrow.late.add(draw.position)
        if hand.holder is not None:
            hand.holder.draw_again(draw.position)
        hand.redraw_at = next(i for i, m in enumerate(hand.moves)
                              if isinstance(m.action, Draw) and m.position == draw.position)
        hand.start_draw(hand.redraw_at, now, hand.answer_s)
    return True


def dropped(hand: TableHand, share: Share) -> bool:
    """A draw share that a loss made moot, dropped rather than blamed: one of the draw the seat
    that left was waiting for, or one sent under the old keys before the loss was known."""
    draw, lost = hand.draw, None if hand.escrow is None else hand.escrow.lost
    if draw is None:
        return lost is not None and hand.owner.get(share.position) == lost
    if draw.ctx is hand.ctx or share.seat not in hand.ctx.holders or share.seat == draw.drawer:
        return False
    try:
        check_share(hand.ctx, hand.deal.deck, share)
    except BlindFault:
        return False
    return True


def rebuilt(hand: TableHand, reveal: Reveal) -> bool:
    """The lost holder's key, rebuilt by the host from the escrow (no seed): checked against
    its key (True); False for any other reveal. Raises BlindFault naming the host."""
    if reveal.seed is not None or hand.escrow is None or reveal.seat != hand.escrow.lost:
        return False
    if base_mul(reveal.secret) != hand.ctx.key_of(reveal.seat):
        raise BlindFault(hand.host, f"rebuilt a key for {seat_name(reveal.seat)} that is not "
                         "its key")
    return True
