"""The host session's part for disputes: a seat says the host made one of its moves for it while
it was at the table and in time (fair/dispute_check.py). Pure.

The host checks a dispute on arrival as every receiver does (``dispute_problem``: the seat's own
signature, a move of the hand that is the seat's and that the seat did not sign itself), keeps it
with the hand (its transcript entry carries it, outside the log signature) and passes it on at
once to every seat and watcher (``disputed``); it counts toward the log's next head
(fair/chain.py), so a host that passes it to some and not to others shows them two logs. The
disputing seat times that relay as it times its moves (``relay_s``, net/peer/progress.py): a host
that keeps a dispute to itself is left as one that stopped passing moves on. A seat the host
resigned as left may dispute too, and is sent the dispute back. A seat may dispute a move once; a
hand holds at most ``MAX_DISPUTES``; a dispute of a hand before the last one is refused.
"""

from __future__ import annotations

from collections.abc import Iterable

from lanomino.engine.errors import seat_name
from lanomino.fair.dispute_check import MAX_DISPUTES, dispute_problem, with_disputes
from lanomino.fair.transcript_model import Dispute
from lanomino.net.fair_round import HandDeal, RoundError
from lanomino.net.host.table import Seat, Table
from lanomino.net.session_base import MoveDisputed, TranscriptUpdated
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject


class Disputes:
    """Seats' disputes: one part of a HostSession, on the shared ``Table``."""

    def __init__(self, table: Table) -> None:
        self.t = table

    def dispute(self, seat: Seat, body: m.Dispute, seq: int) -> None:
        """``seat`` disputes a move of the hand in play (or of the last hand)."""
        t = self.t
        d = next((x for x in (t.deal, t.last_deal) if x is not None and x.hand == body.hand), None)
        if d is None or t.doc is None:
            raise RoundError("bad_dispute", f"hand {body.hand} is not the hand in play or the "
                                            "last hand")
        if any(x.index == body.index for x in d.disputes):
            raise RoundError("bad_dispute", f"move {body.index + 1} is disputed already")
        if len(d.disputes) >= MAX_DISPUTES:
            raise RoundError("bad_dispute", f"hand {d.hand} has {MAX_DISPUTES} disputes already")
        problem = dispute_problem(t.ring, t.digest, d.hand, body.index, seat.seat,
                                  body.signature, d.moves, d.signatures, [d.keys[seat.seat]])
        if problem is not None:
            raise RoundError("bad_dispute", problem)
        self.keep(d, Dispute(seat.seat, body.index, body.signature), seat)

    def adopt(self, d: HandDeal, held: Iterable[Dispute]) -> None:
        """A new host rebuilt the hand in play: the disputes its seat held of it that fit the
        rebuilt log are the hand's (the snapshots pass them on; the new host's heads start
        afresh, without them)."""
        t = self.t
        d.disputes = sorted((x for x in held if dispute_problem(
            t.ring, t.digest, d.hand, x.index, x.seat, x.signature, d.moves, d.signatures,
            [d.keys[x.seat]]) is None), key=lambda x: x.index)[:MAX_DISPUTES]

    @staticmethod
    def passed_on(d: HandDeal) -> tuple[JsonObject, ...]:
        """The hand's disputes, for a snapshot: those this host passed on with the head they count
        toward, in that order, then those it adopted (``link`` None: in no head)."""
        placed = [{**x.to_json(), "link": i} for i, xs in sorted(d.relayed.items()) for x in xs]
        known = {x["index"] for x in placed}
        return (*placed, *({**x.to_json(), "link": None} for x in d.disputes
                           if x.index not in known))

    def keep(self, d: HandDeal, dispute: Dispute, by: Seat) -> None:
        """Keep a checked dispute with its hand and pass it on to everyone."""
        t = self.t
        d.disputes.append(dispute)
        d.disputes.sort(key=lambda x: x.index)
        d.relayed.setdefault(len(d.moves), []).append(dispute)  # (toward the next head)
        hands = t.doc["hands"] if t.doc is not None else []
        if hands and hands[-1].get("hand") == d.hand:  # the hand was logged: its entry says it too
            hands[-1] = with_disputes(hands[-1], [dispute])
            assert t.doc is not None
            end = t.doc.get("end")
            over = isinstance(end, dict) and end.get("finished") is True
            t.events.append(TranscriptUpdated(t.table.hex(), t.doc, over))
        body = m.Disputed(d.hand, dispute.index, dispute.seat, dispute.signature)
        audience = t.audience()
        for s in audience if by in audience else [*audience, by]:  # (a seat resigned hears it)
            t.send(s, body)
        t.publish(body)
        resign = d.moves[dispute.index].get("resign") is True
        t.events.append(MoveDisputed(d.hand, dispute.index, dispute.seat, resign))
        t.stats["disputes"] += 1
        t.stats[f"disputes.{seat_name(dispute.seat).replace(' ', '_')}"] += 1
