"""The end of each locked hand at the host, and of a locked match (net/host/blind.py). Pure.

Once every holder has revealed, the host settles the hand (``TableHand.settle``: every tile
opened, the log replayed by the full engine, each claim judged), keeps its record, signs its
points over the record and the match's closing statement (``LockedTranscript``), tells the seats
(``blind_end``) and publishes the transcript (``TranscriptUpdated``: the runtime stores it,
``lanomino verify`` checks it). A hand that does not settle (a false claim) names its signer and
ends the match; so does a round nobody can finish (``give_up``).
"""

from __future__ import annotations

from lanomino.blind.hand_record import BlindHand
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Phase as EnginePhase
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.host.table import Phase, Table
from lanomino.net.session_base import HandVerified, MatchOver, ProtocolProblem, TranscriptUpdated
from lanomino.net.wire import messages as m


class LockedClose:
    """Each hand's end and the match's, at a locked table: one part of ``BlindDealing``."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.records: list[BlindHand] = []  # every hand's record (blind/hand_record.py)
        self.book: LockedTranscript | None = None  # the match's transcript/2 so far

    def settle(self, hand: TableHand, number: int, attempt: int) -> bool:
        """The hand settled and told; True when the match goes on (the next hand is due)."""
        t = self.t
        settled = hand.settle()
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
        if self.book is None:
            assert t.header is not None
            self.book = LockedTranscript(t.header, tuple(t.header_sigs[n]
                                                         for n in range(t.players)))
        doc, end = self.book.close_hand(t.identity, t.host_seat, attempt, record, hand,
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
