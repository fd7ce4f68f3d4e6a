"""Who leads a locked hand, as every side follows it (``TableHand``'s opening part). Pure.

When public facts name the opener and its tile (``lead_rounds.needs_rounds``), the hand starts
at once; else the public rounds ask "who holds 6-6?", then the next tile (``LeadRounds``, kept
as ``TableHand.lead``). Every seat answers the question asked now: the seat holding the tile
shows it (its opener's share of the tile's position, checked as any play's), every other one
says a signed "not me" (``answer``, from the seat's own side; ``on_not_me`` and ``on_lead``, what
every side takes in). A "not me" said as the lead came is still a claim the hand's end checks.
Every seat saying "not me" to the last question makes the deal void (``TableHand.void``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.lead_rounds import LeadRounds, needs_rounds
from lanomino.blind.rounds import BlindFault, Share
from lanomino.engine import End, Play, Tile
from lanomino.engine.errors import seat_name
from lanomino.engine.public import public_opener

if TYPE_CHECKING:  # (a part of TableHand, as table_leave.py is)
    from lanomino.blind.table_hand import TableHand


def opening(hand: TableHand) -> tuple[int, Tile | None] | None:
    """The opener and the tile it must lead when public facts name them; else None, and the
    public rounds ask (``question``)."""
    before = hand.before
    if needs_rounds(before):
        if hand.lead is None:
            seats = tuple(s for s in range(before.players) if before.active[s])
            hand.lead = LeadRounds(before.rules, seats)
        return None
    return public_opener(before)


def question(hand: TableHand) -> Tile | None:
    """The tile the rounds ask about now (None: none is asked)."""
    return None if hand.lead is None else hand.lead.question()


def answer(hand: TableHand, seat: int, now: float) -> Share | Tile | None:
    """``seat``'s answer (a seat this side opens) to the question asked now, taken in here:
    its lead (its opener's share of the tile) or the tile it says "not me" to; None when it
    has answered already or nothing is asked. Raises BlindError (its gate refuses)."""
    tile, lead = question(hand), hand.lead
    if tile is None or lead is None or seat not in lead.seats or seat in lead.answered:
        return None
    if tile not in hand.tiles_of(seat):
        on_not_me(hand, seat, tile, now)
        return tile
    assert hand.holder is not None
    share = hand.holder.play(hand.position_of(seat, tile))
    if isinstance(share, Refusal):
        raise BlindError(str(share))
    on_lead(hand, seat, share)
    return share


def on_not_me(hand: TableHand, seat: int, tile: Tile, now: float) -> None:
    """A seat's signed "not me" to the question ``tile``. Raises BlindError out of place."""
    lead = hand.lead
    if lead is not None and lead.leader is not None and lead.leader[1] == tile:
        # said at the same time as the lead came: still a claim the reveal checks
        if seat != lead.leader[0] and (seat, tile) not in lead.claims:
            lead.claims.append((seat, tile))
        return
    if lead is None or lead.question() != tile:
        raise BlindError(f"{seat_name(seat)} said 'not me' to {tile}, which is not asked")
    lead.not_me(seat)
    if lead.question() != tile:
        hand.timed(now)  # the next question


def on_lead(hand: TableHand, seat: int, share: Share, play: Play | None = None) -> Tile:
    """The seat that holds the asked tile shows it (its opener's share of its position;
    ``play``: the lead it signed, which must be that tile's). Raises BlindFault, BlindError."""
    tile = question(hand)
    if hand.lead is None or tile is None:
        raise BlindError("no question is asked")
    if play is not None and play != Play(tile, End.LEFT):
        raise BlindFault(hand.layout.openers[seat], f"led {play.tile}, but {tile} is asked")
    hand.check_proof(seat, share.position, tile, share)
    hand.lead.lead(seat, tile)
    hand.proofs[0], hand.plays[0] = share, Play(tile, End.LEFT)  # (a lead's end)
    return tile
