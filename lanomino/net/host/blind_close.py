"""The end of each locked hand at the host, and of a locked match (net/host/blind.py). Pure.

When the public view ends the hand, or the deal is void (every seat said "not me" to every
question), the host reveals its key and seed (``reveal_key``). Once every holder has revealed,
a void deal is kept for the entry of the hand dealt again, which is dealt at once
(``settle_hand``), and so is a hand that had been blocked before a holder left it, unseen
(``unheld_check.Unscorable``: ``Leaving.given_up``); otherwise the host settles the hand
(``TableHand.settle``: every tile opened, the log replayed by the full engine, each claim
judged), keeps its record, signs its points over the record and the match's closing statement
(``LockedTranscript``), tells the seats (``blind_end``) and publishes the transcript
(``TranscriptUpdated``: the runtime stores it, ``lanomino verify`` checks it). A hand that does
not settle (a false claim) names its signer and ends the match; so does a round nobody can
finish (``give_up``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind.hand_record import BlindHand
from lanomino.blind.settle import Settlement
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Phase as EnginePhase
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.host.table import Phase, Table
from lanomino.net.session_base import HandVerified, MatchOver, ProtocolProblem, TranscriptUpdated
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m

if TYPE_CHECKING:
    from lanomino.net.host.blind import BlindDealing

NO_SIGNATURE = bytes(64)


def reveal_key(d: BlindDealing) -> None:
    """The host's key and seed, once: at the hand's end, or of a void deal."""
    t, hand = d.t, d.hand
    if hand is None or d.revealed:
        return
    d.revealed = True
    reveal = hand.my_reveal()  # (None: the host holds no key this hand)
    if reveal is None:
        return
    body = d._signed(b.BlindReveal(d.number, d.attempt, t.host_seat, reveal, NO_SIGNATURE))
    d._relay(body, t.host_seat)
    d.leaving.own_sub_share(hand)  # (a holder that left: its key rebuilt once every part is in)
    if hand.on_reveal(reveal):
        settle_hand(d)


def settle_hand(d: BlindDealing) -> None:
    """Every key is in: a void deal is kept and dealt again; a hand is settled, and the next
    one dealt if the match goes on."""
    hand, d.hand = d.hand, None
    assert hand is not None
    if hand.void:
        d.closing.void(hand)
        d.new_attempt()
        return
    settled = d.closing.settled(hand)
    if settled.given_up is not None:  # (blocked before a holder left: dealt again)
        d.leavers.given_up(hand)
    elif d.closing.settle(hand, settled, d.number, d.attempt):
        d.start_hand()


class LockedClose:
    """Each hand's end and the match's, at a locked table: one part of ``BlindDealing``."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.records: list[BlindHand] = []  # every hand's record (blind/hand_record.py)
        self.book: LockedTranscript | None = None  # the match's transcript/2 so far

    def settled(self, hand: TableHand) -> Settlement:
        """The hand judged, every key in (``TableHand.settle``)."""
        t = self.t
        hand.clock = t.header is not None and t.header.move_clock is not None
        return hand.settle()

    def settle(self, hand: TableHand, settled: Settlement, number: int, attempt: int) -> bool:
        """The hand's settlement kept and told; True when the match goes on (the next hand is
        due)."""
        t = self.t
        if not settled.verdict.ok:
            t.events.append(ProtocolProblem("blind_claim", settled.verdict.describe(),
                                            settled.verdict.culprit))
            self.give_up(f"hand {number} does not check out: {settled.verdict.describe()}")
            return False
        record = hand.record(t.table, settled.points)
        self.records.append(record)
        state = t.state = settled.state
        over = state.phase is EnginePhase.OVER
        winner = state.outcome.winner if state.outcome is not None else None
        doc, end = self.transcript().close_hand(t.identity, t.host_seat, attempt, record, hand,
                                        tuple(state.scores), over, winner)
        for s in t.humans():
            t.send(s, end)
        t.publish(end)
        t.events.append(HandVerified(number, True, settled.verdict.describe()))
        t.events.append(TranscriptUpdated(t.table.hex(), doc, over))
        t.host_view()
        if over:
            t.go(Phase.OVER)
            t.events.append(MatchOver(winner, tuple(state.scores), len(self.records), True))
        return not over

    def void(self, hand: TableHand) -> None:
        """A void deal whose keys are all revealed: kept for the entry of the hand dealt
        again (``LockedTranscript.void``)."""
        self.transcript().void(hand.record(self.t.table, ()), hand)

    def transcript(self) -> LockedTranscript:
        t = self.t
        if self.book is None:
            assert t.header is not None
            self.book = LockedTranscript(t.header, tuple(t.header_sigs[n]
                                                         for n in range(t.players)))
        return self.book

    def departed(self, number: int, attempt: int) -> None:
        """People left before hand ``number`` was dealt and one side is left: the match is over,
        its closing statement keeping their departures (no hand entry does); the seats are told
        (``blind_over``) and the transcript published."""
        t = self.t
        assert t.state is not None and t.state.outcome is not None
        scores, winner = tuple(t.state.scores), t.state.outcome.winner
        doc, closing = self.transcript().close_departed(t.identity, t.host_seat, scores, winner)
        over = b.BlindOver(number, attempt, t.host_seat, scores, closing)
        for s in t.humans():
            t.send(s, over)
        t.publish(over)
        t.events.append(TranscriptUpdated(t.table.hex(), doc, True))
        t.host_view()
        t.go(Phase.OVER)
        t.events.append(MatchOver(winner, scores, len(self.records), True))

    def give_up(self, reason: str) -> None:
        """A locked hand cannot go on (a departure at a locked table is not built yet): the
        match ends, saying why."""
        t = self.t
        if t.phase is Phase.OVER:
            return
        t.go(Phase.OVER)
        bye = m.Bye(reason[:300])
        for s in t.audience():
            t.send(s, bye)
        scores = tuple(t.state.scores) if t.state is not None else ()
        t.events.append(MatchOver(None, scores, len(self.records), False, reason))
