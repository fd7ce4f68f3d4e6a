"""What a locked hand does when a person leaves it, decided alike at every side. Pure.

The host resigns the person who left (``left``, signed by itself) as at any table; what happens
to the hand then depends only on where the hand is, which every side knows alike:

- **Before the hand's first move** (the deal round: keys, escrows, shuffles, deal shares; the
  opening's "who holds 6-6?" rounds; a void deal's reveals; the moment between the lead being
  found and played): ``DEAL_AGAIN``. No tile has been played, so nothing is lost by dealing the
  hand again among the people left, with fresh keys and seeds; the leaver's key is not needed.
- **Its key revealed already** (a void deal's reveals, or the hand's end): ``KEPT``. Nothing
  more is needed of it: the hand (or void deal) goes on to its end, and the leaver is resigned
  before the next deal attempt.
- **In play**: ``IN_PLAY``. The resignation is a move of the hand (the engine's rules: the
  leaver's tiles leave with it); at an ``--escrow`` table the others stand in for its key
  (``table_leave.lose``), else (or with the escrow spent) the survivors re-shuffle blind. A hand
  is re-shuffled blind once: a holder lost after that (a second loss without escrow, a third
  with it) leaves tiles under two lost keys that no round can open, and the first round's values
  of the second one could no longer be made again at the hand's end (its seed went with it), so
  ``DEAL_AGAIN``: the hand is given up and dealt again among the people left, as at the hand's
  end without escrow.
- **Leaving one side standing** (a table of two, or a partner, in play): ``DEAL_AGAIN`` too, which
  ends the match: the resignation would end the hand, whose end needs every key, and the
  leaver's went with it; so the attempt is given up and the leaver resigned before the next,
  which leaves one side in the match: it wins, as at a fair table (``blind_over``, the
  closing statement keeping the departure).
- **Ending it blocked** (every other seat in the match has passed since the last play or draw),
  without escrow standing in: ``DEAL_AGAIN``. The table learns of a block only as every seat
  passes, so the hand may have been blocked before the leaver's turn to pass came, and the
  block's points would need the leaver's tiles, locked under the key that went with it. (A
  leaver lost earlier in that round of passes, once the survivors' keys are out, turns out the
  same way: ``unheld_check.Unscorable``, the attempt given up and dealt again.)
- **At the hand's end, before every key is revealed** (every move made): with escrow not yet
  spent this hand, ``STAND_IN``: the others stand in for the key, the host rebuilds it from their
  sub-shares and the hand settles with every tile known. Without escrow (or spent),
  ``DEAL_AGAIN``: the leaver's tiles and the boneyard stay locked under a key nobody has, so the
  hand cannot be scored by the rules; it is given up and dealt again among the people left, as
  a void deal is (``docs/fair-deal.md`` says why).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from lanomino.engine import RESIGN, Phase, apply

if TYPE_CHECKING:
    from lanomino.blind.table_hand import TableHand


class Leave(enum.Enum):
    DEAL_AGAIN = "deal again"
    KEPT = "kept"
    IN_PLAY = "in play"
    STAND_IN = "stand in"


def on_leave(hand: TableHand, seat: int) -> Leave:
    """What ``hand`` does when ``seat`` (a person holding a key, in the match) leaves it now."""
    view = hand.view
    if seat in hand.reveals:
        return Leave.KEPT
    if view is None or not hand.moves and not hand.resignations:
        return Leave.DEAL_AGAIN
    book = hand.escrow
    escrowed = book is not None and book.lost is None
    if view.outcome is None:
        ends = _last_side(hand, seat) or not escrowed and view.blocked_without(seat)
        return Leave.IN_PLAY if hand.unheld is None and not ends else Leave.DEAL_AGAIN
    return Leave.STAND_IN if escrowed else Leave.DEAL_AGAIN


def _last_side(hand: TableHand, seat: int) -> bool:
    """Whether ``seat`` leaving the match leaves one side in it."""
    probe = hand.before.copy()
    apply(probe, seat, RESIGN)
    return probe.phase is Phase.OVER
