"""A person who leaves a locked hand before it can be scored, the host's side (issue 29). Pure.

A seat that quits, or stays silent past its grace period, has left (the roster says so, as at
any table). What its hand then does is ``blind/leave_rule.py``'s, decided alike at every side:

- ``DEAL_AGAIN`` (before the hand's first move; or at its end, before every key is revealed,
  without escrow): the host signs the leaver's resignation (``blind_resign``, ``by`` ``left``,
  ``at``: the moves of the attempt so far) and relays it; the attempt is given up, the leaver
  (and any seat that resigned in that attempt) is resigned from the match, and the hand is dealt
  again among the people left, attempt + 1, with fresh keys and seeds. The resignations are the
  next entry's ``departures`` (``fair/departures2.py``), which the host's points statement names.
- ``STAND_IN`` (at the hand's end, with escrow): the same signed resignation tells every side
  to stand in for the key (``table_leave.lose``); the survivors' sub-shares rebuild it
  (``blind_departure.py``) and the hand settles. The leaver is resigned before the next deal
  attempt (``before_deal``: a departure before it; so is one who left once its key was out).
- ``IN_PLAY``: the resignation is a move of the hand (``net/host/play.py``, as at any table).

A round that a person leaves unanswered (the deal's step, the opening's question, the reveals)
waits out that seat's grace period (``wait_out``): back in time, its answer comes; past it, the
seat has left and the above applies. Every seat allows the host that much more
(``net/peer/blind_leave.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind import table_leave
from lanomino.blind.hand_record import Resignation
from lanomino.blind.leave_rule import Leave, on_leave
from lanomino.blind.table_hand import TableHand
from lanomino.engine import RESIGN, apply
from lanomino.engine import Phase as EnginePhase
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:  # (a part of BlindDealing, as blind_close.py's functions are)
    from lanomino.net.host.blind import BlindDealing

UNSIGNED = bytes(64)


class Leaving:
    """A person who leaves a locked hand before it can be scored: one part of
    ``BlindDealing``."""

    def __init__(self, dealing: BlindDealing) -> None:
        self.d = dealing
        self.gone: set[int] = set()  # left once its key was out, or stood in for: resigned next

    def seat_left(self, seat: int) -> bool:
        """``seat`` (a person) has left the table: True when the locked hand took its leaving
        (deal again, or stand in at the hand's end); False: the table's leave rules apply (a
        resignation as a move of the hand in play, or nothing for a seat out of the match)."""
        d, t, hand = self.d, self.d.t, self.d.hand
        if hand is None or t.state is None or seat not in hand.ctx.holders:
            return False
        if not t.state.active[seat]:
            return self._resigned_left(hand, seat)
        kind = on_leave(hand, seat)
        if kind is Leave.IN_PLAY:
            return False
        if kind is Leave.KEPT:  # (resigned before the next deal attempt: before_deal)
            self.gone.add(seat)
            return True
        resign = self._resignation(hand, seat)
        if kind is Leave.STAND_IN:  # (resigned from the match before the next hand's deal)
            self.gone.add(seat)
            table_leave.lose(hand, seat, t.now)
            d.leaving.own_sub_share(hand)
            return True
        self._deal_again(hand, Resignation(seat, resign.at, "left"), resign.signature, seat)
        return True

    def _resigned_left(self, hand: TableHand, seat: int) -> bool:
        """``seat`` resigned itself in this hand (its tiles left the table, its key did not) and
        has now left: its key is lost as any holder's. The host signs that it left (``left``,
        after the moves so far: not a second resignation, and the record keeps its own), and
        the hand does what the leave rules say for a holder lost now (``on_leave``), less the
        resignation: the others stand in for its key, or re-shuffle blind, or, where neither
        can be, the attempt is given up (its own resignation a departure). False: it resigned
        in an earlier hand (it holds no key of this one) or its key is out already."""
        d, t = self.d, self.d.t
        kind = on_leave(hand, seat)
        if kind is Leave.KEPT or not any(r.seat == seat for r in hand.resignations):
            return False
        resign = self._resignation(hand, seat)
        if kind is Leave.DEAL_AGAIN:
            self._deal_again(hand, None, resign.signature, seat)
            return True
        table_leave.lose(hand, seat, t.now)
        if kind is Leave.STAND_IN:
            d.leaving.own_sub_share(hand)
        else:
            d.leaving.after_move(hand)  # (a draw it cut short; the host's re-shuffle values)
        return True

    def _resignation(self, hand: TableHand, seat: int) -> b.BlindResign:
        """The host's signed ``left`` resignation of ``seat``, relayed to everyone."""
        d = self.d
        body = d._signed(b.BlindResign(d.number, d.attempt, d.t.host_seat, seat,
                                       len(hand.moves), "left", UNSIGNED))
        d._relay(body, None)
        return body

    def _deal_again(self, hand: TableHand, leaver: Resignation | None, signature: bytes,
                    seat: int) -> None:
        """``seat`` left: the attempt is given up, its resignations kept as departures (and
        ``leaver``'s, unless the seat resigned in it), the match state they leave, and the next
        attempt dealt among the people left."""
        d, t = self.d, self.d.t
        departed = d.closing.transcript().depart(hand, d.attempt + 1, leaver, signature)
        state = hand.before.copy()
        for departure in departed:
            apply(state, departure.resignation.seat, RESIGN)
        d.hand, t.state, d.playing.bot_due = None, state, None
        if not self._goes_on(seat):
            return
        d.new_attempt()

    def given_up(self, hand: TableHand) -> None:
        """Every key of a hand re-shuffled blind is in, and it had been blocked before the
        holder left (``unheld_check.Unscorable``, decided alike at every side): it cannot be
        counted, so the attempt is given up as at the hand's end without escrow: its
        resignations (the lost holder's among them) are departures, and the hand is dealt again
        among the people left."""
        assert hand.unheld is not None
        self._deal_again(hand, None, b"", hand.unheld.lost[0])

    def before_deal(self) -> bool:
        """A new deal attempt: each person who left once its key was out (at the last hand's
        end, or a void deal's reveals), or stood in for at the hand's end, is resigned first:
        a departure before this attempt. False when that ended the match."""
        d, t = self.d, self.d.t
        assert t.state is not None
        for n in sorted(self.gone):
            self.gone.discard(n)
            if not t.state.active[n]:
                continue
            body = d._signed(b.BlindResign(d.number, d.attempt, t.host_seat, n, 0, "left",
                                           UNSIGNED))
            d._relay(body, None)
            d.closing.transcript().depart(None, d.attempt, Resignation(n, 0, "left"),
                                          body.signature)
            apply(t.state, n, RESIGN)
            if not self._goes_on(n):
                return False
        return True

    def _goes_on(self, seat: int) -> bool:
        """False when ``seat``'s leaving left one side: the match is over, won by it (the
        engine's rule, as at a fair table), its departures in the closing statement."""
        d, t = self.d, self.d.t
        if t.state is None or t.state.phase is not EnginePhase.OVER:
            return True
        d.closing.departed(d.number, d.attempt)
        return False

    def wait_out(self, now: float) -> bool:
        """A round that people leave unanswered (the deal's step, the opening's question, the
        reveals) waits out their grace period once (``no_answer``): back in time, they answer;
        past it, they have left (``seat_left``); a draw's, at an escrow table, as
        ``Departures.wait_out`` says. True: the round waits on."""
        t, hand = self.d.t, self.d.hand
        if hand is None or hand.draw is not None:
            return self.d.leaving.wait_out(now)
        if hand.view is not None and hand.view.outcome is None:
            return False  # (in play: a blind re-shuffle's round is table_leave's)
        due = hand.deadline()
        silent = [t.seat(n) for n in hand.waiting_for() if n != t.host_seat]
        if due is None or now < due or not silent or any(
                s.kind != "human" or s.left or s.unanswered_since is not None for s in silent):
            return False
        for s in silent:
            t.no_answer(s.seat, now)
        hand.put_off(now + t.timings.grace_s + t.timings.answer_s)
        return True
