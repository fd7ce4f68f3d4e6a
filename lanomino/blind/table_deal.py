"""The deal round of a locked hand, as every side follows it (``TableHand``'s deal part). Pure.

Every holder announces its key (``on_key``); once every key is in, the holders shuffle and
re-mask the deck in turn, each turn checked by every side before the next (``my_shuffle``,
``on_shuffle``); then each holder sends its deal shares (``my_shares``, ``on_shares``), and once
all of them are in, each side opens the positions it is the opener of (its own tiles; on the
host, its bots' too). The round itself, its order and its checks are ``LockedDeal``'s
(``deal_round.py``); this side's secrets are its ``Holder``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lanomino.blind import table_leave as leave
from lanomino.blind.deal_round import Step
from lanomino.blind.gate import Refusal
from lanomino.blind.rounds import KeyAnnouncement, Share, ShuffleTurn

if TYPE_CHECKING:  # (a part of TableHand, as table_leave.py is)
    from lanomino.blind.table_hand import TableHand


def on_key(hand: TableHand, announcement: KeyAnnouncement, now: float) -> None:
    """A holder's key; with every key in, this side's holder learns the table's key."""
    hand.deal.receive_key(announcement, now)
    if hand.deal.step is Step.SHUFFLE and hand.holder is not None:
        hand.holder.keys_agreed(hand.deal.ctx)


def my_shuffle(hand: TableHand) -> ShuffleTurn | None:
    """This holder's shuffle turn, when the round waits for it now."""
    h = hand.holder
    if h is None or hand.deal.step is not Step.SHUFFLE or hand.deal.missing() != (h.seat,):
        return None
    return h.shuffle(hand.deal.deck)


def on_shuffle(hand: TableHand, turn: ShuffleTurn, now: float) -> None:
    """A holder's shuffle turn; after the last, this side's holder learns the dealt deck."""
    leave.escrowed(hand, turn.seat)
    hand.deal.receive_shuffle(turn, now)
    if hand.deal.step is Step.SHARES and hand.holder is not None:
        hand.holder.deck_agreed(hand.deal.deck)


def my_shares(hand: TableHand, asker: str) -> tuple[Share, ...] | None:
    """This holder's deal shares, once the round waits for them (never twice)."""
    h = hand.holder
    if h is None or hand.deal.step is not Step.SHARES or h.seat in hand.deal.shares:
        return None
    shares = h.deal_shares(asker)
    return None if isinstance(shares, Refusal) else shares


def on_shares(hand: TableHand, seat: int, shares: Sequence[Share], now: float) -> None:
    """A holder's deal shares; with all of them in, this side opens what is its to open."""
    if hand.deal.shares.get(seat) == tuple(shares):
        return  # (this side has them: a new host sends its own again, locked_takeover.py)
    hand.deal.receive_shares(seat, shares, now)
    if hand.deal.step is not Step.DONE or hand.holder is None:
        return
    hand.timed(now)
    me = hand.holder.seat
    for seat_, positions in enumerate(hand.layout.dealt):
        if hand.layout.openers[seat_] == me:
            for p in positions:
                hand.opened[p] = hand.holder.open(p, hand.deal.shares_of(p))
