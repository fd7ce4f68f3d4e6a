"""A person who leaves a locked hand before it can be scored, a seat's side (issue 29). Pure.

The host's signed ``left`` resignation of a person (``blind_resign``) is taken as every side
takes it (``blind/leave_rule.py``; the host's side is ``net/host/blind_leave.py``):

- ``DEAL_AGAIN``: the attempt is given up; its resignations are kept as departures for the
  entry of the hand dealt again (``LockedTranscript.depart``), the seats in them leave the match
  state, and the next attempt is due. A seat checks that the resignation names a person still in
  the match and holding a key, that it counts the attempt's moves, and that it is not its own
  (the host says this seat left while it is here: caught, ``blind-left``).
- ``STAND_IN`` (at the hand's end, with escrow): this seat stands in for the key
  (``table_leave.lose``) and, if it has revealed already, gives the host its sub-share now.
- Between two deal attempts (none in play, the next one due): a departure before it, for a
  person who left once its key was out (``between``).
- A seat that resigned itself earlier in the hand and then left (``_key_lost``): no second
  resignation, its key lost as above (escrow stood in for, the blind re-shuffle, or the attempt
  given up with its own resignation a departure).
- ``IN_PLAY``, or a seat that holds no key (its tiles the host's to open: a host-side bot, or
  the seats a new host deals for after a migration): not here (``blind_moves.kept``: the
  resignation is a move of the hand).

While the host waits out a silent person's grace period in the deal round, the opening's rounds
or the reveals, this seat allows it that much more (``grace``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from lanomino.blind import table_leave
from lanomino.blind.hand_record import Resignation
from lanomino.blind.leave_rule import Leave, on_leave
from lanomino.blind.table_hand import TableHand
from lanomino.engine import RESIGN, GameState, apply, new_game
from lanomino.net.peer import blind_escrow as esc
from lanomino.net.peer.blind_close import book
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:
    from lanomino.net.peer.blind import PeerBlind


def resigned(blind: PeerBlind, body: b.BlindResign) -> bool:
    """A relayed ``blind_resign``: True when it is a departure this module takes (above); False
    when it is a move of the hand in play (or not the host's ``left``)."""
    p, hand = blind.p, blind.hand
    if body.by != "left" or body.seat != p.host_seat:
        return False
    if hand is None:
        between(blind, body)
        return True
    if body.resigned not in hand.ctx.holders:  # (a seat whose tiles the host opens: its move)
        return False
    if any(r.seat == body.resigned for r in hand.resignations):
        _key_lost(blind, hand, body)
        return True
    kind = on_leave(hand, body.resigned)
    if kind is Leave.IN_PLAY or body.resigned not in hand.ctx.holders:
        return False  # (a seat with no key: a lost host's bot, resigned as a move of the hand)
    if blind._arrived(body) is None or not _fits(blind, hand.before, body, len(hand.moves),
                                                  hand.ctx.holders):
        return True
    if kind is Leave.KEPT:  # (its key is out: the host resigns it before the next attempt)
        blind._caught("blind-left", f"the host resigned seat {body.resigned + 1} as gone "
                      "from a deal it had revealed its key for")
        return True
    if kind is Leave.STAND_IN:
        table_leave.lose(hand, body.resigned, p.now)
        if hand.holder is not None and hand.holder.seat in hand.reveals:
            esc.sub_share_out(blind, hand)
        return True
    deal_again(blind, hand, Resignation(body.resigned, body.at, "left"), body.signature)
    return True


def _key_lost(blind: PeerBlind, hand: TableHand, body: b.BlindResign) -> None:
    """The host's ``left`` of a seat that resigned itself earlier in this hand: its key is lost
    now, at every side alike (net/host/blind_leave.py, ``Leaving._resigned_left``)."""
    p, seat = blind.p, body.resigned
    kind = on_leave(hand, seat)
    if blind._arrived(body) is None:
        return
    if seat == p.seat and not p.watch or kind is Leave.KEPT or body.at != len(hand.moves):
        blind._caught("blind-left", f"the host says seat {seat + 1}, which resigned, left hand "
                      f"{body.hand} after {body.at} moves, which it cannot")
        return
    if kind is Leave.DEAL_AGAIN:
        deal_again(blind, hand, None, body.signature)
        return
    table_leave.lose(hand, seat, p.now)
    if kind is Leave.STAND_IN and hand.holder is not None and hand.holder.seat in hand.reveals:
        esc.sub_share_out(blind, hand)
    esc.unheld_out(blind, hand)  # (without escrow, or spent: the blind re-shuffle)


def deal_again(blind: PeerBlind, hand: TableHand, leaver: Resignation | None,
                signature: bytes) -> None:
    """The attempt is given up for a seat that left (``leaver``'s resignation, None when it
    resigned itself in it): every resignation of it a departure, the hand dealt again."""
    p = blind.p
    kept = book(blind)
    departed = kept.depart(hand, blind.attempt + 1, leaver, signature)
    kept.redeal = leaver is not None and p.election is not None \
        and p.election.lost_host == leaver.seat  # (the lost host's attempt: given_up)
    match = hand.before.copy()
    for departure in departed:
        apply(match, departure.resignation.seat, RESIGN)
    blind.match, blind.hand, blind.next_deal = match, None, True
    p.holding, p.pending_move = False, None
    if p.view is not None and p.view.phase == "play":
        p.view.phase = "deal"  # (the attempt's lead was found: it is dealt again)


def between(blind: PeerBlind, body: b.BlindResign) -> None:
    """A departure before the next deal attempt, between two (a person who left once its key
    was out: at the last hand's end, or a void deal's reveals; or stood in for at the hand's
    end)."""
    p, match, kept = blind.p, blind.match, book(blind)
    blind.last = p.now
    due = (blind.number, kept.attempts + 1) if kept.attempts else (blind.number + 1, 1)
    first = match is None and blind.number == 0 and p.rules is not None  # (a new host deals
    if first and p.rules is not None:  # the first hand: the lost one left before it did)
        match = new_game(p.rules, p.players)
    if not (blind.next_deal or first) or match is None or (body.hand, body.attempt) != due \
            or not p.ring.verify_statement(p.keys[p.host_seat], body.signature,
                                           b.signed_statement(p.digest, body)):
        blind._caught("blind-order", f"a departure of seat {body.resigned + 1} before hand "
                      f"{body.hand} attempt {body.attempt}, which is not the next deal")
        return
    if not _fits(blind, match, body, 0, range(p.players)):
        return
    kept.depart(None, body.attempt, Resignation(body.resigned, 0, "left"), body.signature)
    blind.match = match = match.copy()
    apply(match, body.resigned, RESIGN)


def given_up(blind: PeerBlind, body: b.BlindDeal) -> int:
    """The attempts of ``body``'s hand that ended before it without a result (void, or given up
    for a person who left). One this seat never saw: a new host deals again (attempt 2) a hand
    whose first attempt the lost host died sending to this seat (net/host/locked_takeover.py);
    the departures it took before it, as ``between`` took them, were before this attempt, and
    nothing of the attempt it missed is lost (it held no key of it). The other way round, a new
    host that never saw the lost host's first attempt, which this seat held and gave up for the
    lost host's departure (``LockedTranscript.redeal``), deals attempt 1: the departure was
    before it, and that attempt, its keys fresh, is no void deal kept from anyone."""
    kept = blind.book
    if kept is None:
        return 0
    redeal, kept.redeal = kept.redeal, False
    if body.hand == blind.number:
        if redeal and body.attempt == 1 and all(d.attempt == 2 for d in kept.departures):
            kept.departures[:] = [replace(d, attempt=1) for d in kept.departures]
            return 0
        return kept.attempts
    if not kept.departures or body.hand != blind.number + 1 or body.attempt != 2 \
            or any(d.attempt != 1 for d in kept.departures):
        return 0
    kept.departures[:] = [replace(d, attempt=2) for d in kept.departures]
    return 1


def _fits(blind: PeerBlind, match: GameState, body: b.BlindResign, at: int,
          holders: Collection[int]) -> bool:
    """The departure names a person in the match who holds a key, not this seat, after the
    moves so far; else the host is caught (False)."""
    p, seat = blind.p, body.resigned
    if seat == p.seat and not p.watch:
        blind._caught("blind-left", f"the host says this seat left hand {body.hand}, and it "
                      "is here")
        return False
    if not 0 <= seat < p.players or seat == p.host_seat or not match.active[seat] \
            or seat not in holders or body.at != at:
        blind._caught("blind-left", f"the host resigned seat {seat + 1} as gone from hand "
                      f"{body.hand} after {body.at} moves, which it cannot be")
        return False
    return True


def grace(blind: PeerBlind, hand: TableHand | None) -> float:
    """How much longer than a round this seat gives the host: the deal round, the opening's
    rounds and the reveals may wait out a silent person's grace period
    (``net/host/blind_leave.py``)."""
    if hand is None or hand.draw is not None or hand.view is not None \
            and hand.view.outcome is None:
        return 0.0
    return blind.p.timings.grace_s + blind.p.timings.answer_s
