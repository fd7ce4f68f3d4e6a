"""The match transcript a locked table writes (``lanomino.transcript/2``, ``fair/transcript2.py``),
as the host and every seat keep it: each hand's record with a signature on every statement in it,
the host's points and closing signatures. Pure.

Both sides build the hand's record themselves (``TableHand.record``: the same at every seat, the
"not me" answers in the order they were asked), so a seat checks the host's points signature
against its own record: a host that signs other points, or a record other than the one the table
played, is caught. A deal attempt the table called void (nobody held a double, under
``no_double=reshuffle``) is kept the same way once its keys are revealed (``void``) and goes into
the hand dealt after it (``voided``), whose points statement names it too; so are the
departures between its deal attempts (``departures``: a person who left before the hand could be
scored, and the attempt given up; ``net/host/blind_leave.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from lanomino.blind.hand_record import BlindHand, Resignation, format_blind_hand
from lanomino.blind.table_hand import TableHand
from lanomino.blind.unheld_round import STEPS
from lanomino.fair.departures2 import Departure
from lanomino.fair.header import MatchHeader
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.statements import end_statement
from lanomino.fair.statements2 import log_index, points_statement
from lanomino.fair.transcript2 import HandSignatures, SignedHand, VoidDeal, write_transcript2
from lanomino.fair.transcript_model import MatchEnd
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire.checks import JsonObject


def statement_key(body: b.BlindBody) -> tuple[str, object] | None:
    """Where a message's signature goes in its hand's record (None: the record keeps none)."""
    if isinstance(body, b.BlindReveal):  # (the host signs a key it rebuilt: the key's seat)
        return "reveal", body.reveal.seat
    if isinstance(body, b.BlindKey | b.BlindShuffle):
        return body.TYPE.removeprefix("blind_"), body.seat
    if isinstance(body, b.BlindResign):
        return "resign", body.resigned
    if isinstance(body, b.BlindNotMe):
        return "not_me", (body.seat, body.tile)
    if isinstance(body, b.BlindPlay):
        return "move", body.index
    if isinstance(body, b.BlindUnheld):
        return "unheld", (body.step, body.seat)
    if isinstance(body, b.BlindDraw):  # (no record's: a new host passes it on, catch_up.py)
        return "draw", (body.index, body.seat)
    return None


def keep(hand: TableHand | None, body: b.BlindBody) -> None:
    """Keep ``body``'s signature (checked, or this side's own) for the hand's record. A seat
    resigns once in a hand: a host's ``left`` for a seat that resigned itself (its key lost
    after it: ``net/host/blind_leave.py``) is not its resignation, whose signature stays."""
    where = statement_key(body)
    if hand is not None and where is not None and not (
            where[0] == "resign" and any(r.seat == where[1] for r in hand.resignations)):
        hand.signatures[where] = body.signature


def hand_signatures(hand: TableHand, record: BlindHand) -> HandSignatures:
    """The signatures of ``record``'s statements, in its order. Raises KeyError for one this
    side never had (a bug: every statement of a settled hand came signed)."""
    sig = hand.signatures
    return HandSignatures(
        key=tuple(sig[("key", k.seat)] for k in record.keys),
        shuffle=tuple(sig[("shuffle", e.seat)] for e in record.shuffles),
        not_me=tuple(sig[("not_me", (c.seat, str(c.tile)))] for c in record.opening),
        move=tuple(sig[("move", log_index(record, i))] for i in range(len(record.moves))),
        resign=tuple(sig[("resign", r.seat)] for r in record.resignations),
        reveal=tuple(sig[("reveal", r.seat)] for r in record.reveals),
        unheld=tuple(sig[("unheld", (step, seat))] for step, seat in _unheld_order(record)))


def _unheld_order(record: BlindHand) -> list[tuple[str, int]]:
    """The (step, survivor) of each digest of the record's blind re-shuffle, in its order."""
    u = record.unheld
    if u is None:
        return []
    return [(step, s) for step in STEPS for s in record.holders if s not in u.lost]


@dataclass(slots=True)
class LockedTranscript:
    """The transcript/2 of a locked match so far."""

    header: MatchHeader
    header_signatures: tuple[bytes, ...]
    hands: list[SignedHand] = field(default_factory=list)
    voided: list[VoidDeal] = field(default_factory=list)  # the void deals of the hand in play
    # the resignations between its deal attempts (fair/departures2.py, net/host/blind_leave.py)
    departures: list[Departure] = field(default_factory=list)
    # they gave up the lost host's attempt, which a new host may not have seen: it deals the
    # attempt they come before again (net/peer/blind_leave.given_up moves them before it)
    redeal: bool = False
    last: JsonObject | None = None  # the document as the last hand left it (for a snapshot)

    def copy(self) -> LockedTranscript:
        """A copy that grows apart from this one (a new host's book beside its seat's): new
        lists of the same entries, which are frozen values. (Not ``copy.deepcopy``: it rebuilds
        every value by assigning its fields, which the compiled engine's frozen values refuse.)"""
        return LockedTranscript(self.header, self.header_signatures, list(self.hands),
                                list(self.voided), list(self.departures), self.redeal,
                                copy.deepcopy(self.last))  # (plain JSON)

    def void(self, record: BlindHand, hand: TableHand) -> None:
        """A void deal of the hand in play, its keys revealed: kept for that hand's entry."""
        self.voided.append(VoidDeal(record, hand_signatures(hand, record)))

    def depart(self, hand: TableHand | None, attempt: int, leaver: Resignation | None,
               signature: bytes) -> tuple[Departure, ...]:
        """``leaver`` left before deal ``attempt`` of the hand in play (``hand``: the attempt it
        gave up, None between hands): kept for that hand's entry with the resignations of the
        attempt given up (their seats are out of the match too). The departures added. (None:
        the seat that left resigned itself in that attempt: its resignation is among them.)"""
        given_up = () if hand is None else tuple(
            Departure(attempt, r, hand.signatures[("resign", r.seat)]) for r in hand.resignations)
        added = (*given_up, *(() if leaver is None else (Departure(attempt, leaver, signature),)))
        self.departures += added
        return added

    def ended(self, end: b.BlindEnd) -> list[b.BlindBody]:
        """The last hand's reveals (those with a seed: a key rebuilt is the host's own word)
        and ``end``, its points, each as its signer sent it: what a side that missed them needs
        to settle that hand and take its points (empty: ``end`` is not the last hand's)."""
        if not self.hands or self.hands[-1].record.hand != end.hand:
            return []
        signed = self.hands[-1]
        record = signed.record
        return [*(b.BlindReveal(record.hand, record.attempt, r.seat, r, sig)
                  for r, sig in zip(record.reveals, signed.signatures.reveal, strict=True)
                  if r.seed is not None), end]

    def revealed(self, seat: int) -> b.BlindReveal | None:
        """``seat``'s reveal of the last hand, as it signed it (None: no hand yet, or no reveal
        with a seed of ``seat`` in it): a new host whose seat did not settle that hand may lack
        it (net/peer/elections.py reports it, net/host/locked_points.ended_elsewhere takes it)."""
        if not self.hands:
            return None
        signed = self.hands[-1]
        record = signed.record
        return next((b.BlindReveal(record.hand, record.attempt, r.seat, r, sig)
                     for r, sig in zip(record.reveals, signed.signatures.reveal, strict=True)
                     if r.seat == seat and r.seed is not None), None)

    @property
    def attempts(self) -> int:
        """The deal attempts of the hand in play that ended without a result: void, or given up
        for a person who left."""
        given_up = {d.attempt - 1 for d in self.departures if d.attempt > 1}
        return len(given_up | {v.record.attempt for v in self.voided})

    def _points(self, record: BlindHand, scores: tuple[int, ...]) -> JsonObject:
        return points_statement(self.header.digest(), format_blind_hand(record), scores,
                                [v.record_json() for v in self.voided],
                                [d.statement_json() for d in self.under(record.host)])

    def under(self, host: int) -> tuple[Departure, ...]:
        """The departures kept so far, as an entry whose host is ``host`` writes them (each
        names its signer only when an earlier host signed it: ``Departure.under``)."""
        return tuple(d.under(host) for d in self.departures)

    def _add(self, record: BlindHand, hand: TableHand, scores: tuple[int, ...],
             points: bytes) -> None:
        self.hands.append(SignedHand(record, hand_signatures(hand, record), scores, points,
                                     voided=tuple(self.voided),
                                     departures=self.under(record.host)))
        self.voided.clear()
        self.departures.clear()

    def document(self, end: MatchEnd, evidence: Sequence[JsonObject] = ()) -> JsonObject:
        return write_transcript2(self.header, self.header_signatures, self.hands, end, evidence)

    def close_hand(self, identity: Identity, host: int, attempt: int, record: BlindHand,
                   hand: TableHand, scores: tuple[int, ...], over: bool,
                   winner: int | None) -> tuple[JsonObject, b.BlindEnd]:
        """The host's side: the hand signed (its points over the record, the closing after it)
        and added; the transcript as it stands and the ``blind_end`` that tells the seats."""
        header = self.header.digest()
        points = identity.sign_statement(self._points(record, scores))
        self._add(record, hand, scores, points)
        closing = identity.sign_statement(end_statement(header, host, len(self.hands), over,
                                                        winner, scores))
        end = MatchEnd(host, len(self.hands), over, winner, scores, closing)
        self.last = self.document(end)
        return self.last, b.BlindEnd(record.hand, attempt, host, record.points, scores,
                                              points, closing)

    def close_departed(self, identity: Identity, host: int, scores: tuple[int, ...],
                       winner: int | None) -> tuple[JsonObject, bytes]:
        """The host's side: the departures of the hand never dealt ended the match; the
        closing statement names them (no entry keeps them). The transcript, and the closing
        signature that tells the seats (``blind_over``)."""
        departures = self.under(host)
        closing = identity.sign_statement(end_statement(
            self.header.digest(), host, len(self.hands), True, winner, scores,
            [d.statement_json() for d in departures]))
        return self.document(MatchEnd(host, len(self.hands), True, winner, scores, closing,
                                      departures)), closing

    def check_departed(self, ring: KeyRing, host: int, host_key: bytes,
                       scores: tuple[int, ...], winner: int | None,
                       closing: bytes) -> JsonObject | None:
        """A seat's side: the host's closing over the departures this seat holds, which ended
        the match; the transcript, or None when the signature is not over them."""
        departures = self.under(host)
        statement = end_statement(self.header.digest(), host, len(self.hands), True, winner,
                                  scores, [d.statement_json() for d in departures])
        if not departures or not ring.verify_statement(host_key, closing, statement):
            return None
        return self.document(MatchEnd(host, len(self.hands), True, winner, scores, closing,
                                      departures))

    def check_hand(self, ring: KeyRing, host_key: bytes, record: BlindHand, hand: TableHand,
                   scores: tuple[int, ...], over: bool, winner: int | None,
                   body: b.BlindEnd) -> JsonObject | str:
        """A seat's side: the host's ``blind_end`` checked against the record and scores this
        seat settled itself; the transcript as it stands, or what is wrong."""
        header = self.header.digest()
        if body.points != record.points or body.scores != scores:
            return f"the host signed the points {body.points} and the score {body.scores}, the " \
                   f"hand gives {record.points} and {scores}"
        if not ring.verify_statement(host_key, body.signature, self._points(record, scores)):
            return "the host's points signature is not over the hand this seat played"
        if not ring.verify_statement(host_key, body.closing, end_statement(
                header, record.host, len(self.hands) + 1, over, winner, scores)):
            return "the host's closing statement does not match the match as it stands"
        self._add(record, hand, scores, body.signature)
        self.last = self.document(MatchEnd(record.host, len(self.hands), over, winner, scores,
                                           body.closing))
        return self.last
