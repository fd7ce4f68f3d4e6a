"""The locked deck's match transcript (``lanomino.transcript/2``): what each party signs, the
writer the sessions call, and the strict parser. Pure.

A transcript/2 is a transcript/1 at its top level (the signed match header, the header
signatures, the hands, the host's closing statement ``end``, optional ``evidence``) whose header
names the format ``lanomino.transcript/2`` and the algorithm ``lanomino-blind-ristretto255/1``,
and whose hands each carry the locked hand's record (``lanomino.blind-hand/1``,
``blind/hand_record.py``) with a signature on every statement in it:

    {"hand": 1, "record": {...},
     "key_signatures": [one per record key, by its holder],
     "shuffle_signatures": [one per shuffle, by its shuffler],
     "not_me_signatures": [one per "not me", by its seat],
     "move_signatures": [one per move, by its seat],
     "resign_signatures": [one per resignation: by the seat, or by the host when "by" is not
                           "seat"],
     "reveal_signatures": [one per reveal, by its holder; by the host for a key it rebuilt
                           from the escrow of a holder that left (no seed)],
     "unheld_signatures": [optional, when the record has "unheld": one per digest of the blind
                           re-shuffle, step by step, each by its survivor],
     "scores": [the match score after the hand],
     "points_signature": "the host's signature of the hand's points",
     "disputes": [optional: {"seat", "resignation": i, "signature"}],
     "voided": [optional: the void deals dealt again before this one, each {"record",
                "key_signatures", "shuffle_signatures", "not_me_signatures",
                "reveal_signatures"}],
     "departures": [optional: the resignations between deal attempts, each {"attempt",
                    "seat", "at", "by", "signature"} (``fair/departures2.py``)]}

Its closing statement ``end`` may carry ``departures`` too (the same form): the people who left
after the last hand, before the next one was dealt, whose leaving ended the match (one side left:
at a table of two people, the other one); the hand they left was never played, so no entry keeps
them, and the closing statement the host signs names them (``statements.end_statement``).

The statements (every one names the header digest ``H``, so nothing signed for one match fits
another; bytes are lowercase hex of the values' own bytes, ``blind/rounds.py``) are built by
``fair/statements2.py``, whose functions the sessions sign and the verifier (``fair/verify2.py``)
checks:
``key_statement``, ``shuffle_statement``, ``not_me_statement``, ``blind_move_statement`` (today's
``lanomino.move/1`` of the record's move, without a draw's position, which the host names),
``resign_statement``, ``reveal_statement``, ``unheld_statement`` (a survivor's value of the blind
re-shuffle, as its ``blind_unheld`` message is signed) and the host's ``points_statement``, signed
once the
keys are revealed and the hand is settled: it names the digest of the record as written, so it
makes the whole record, every position the host gave out and the points, the host's word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from lanomino.blind.group import BlindError
from lanomino.blind.hand_record import (
    BlindHand,
    format_blind_hand,
    parse_blind_hand,
)
from lanomino.blind.hashing import ALGORITHM as BLIND_ALGORITHM
from lanomino.fair.departures2 import Departure, parse_departures
from lanomino.fair.header import MatchHeader
from lanomino.fair.statements import header_digest
from lanomino.fair.statements2 import SIGNED, points_statement
from lanomino.fair.transcript import (
    Transcript,
    TranscriptError,
    _hex,
    _hexes,
    _int,
    _list,
    _obj,
    _seat,
    parse_transcript,
)
from lanomino.fair.transcript_model import FORMAT, FORMAT2, MatchEnd

__all__ = ["BLIND_ALGORITHM", "FORMAT2", "VOID_SIGNED", "BlindDispute", "HandSignatures",
           "SignedHand", "VoidDeal", "parse_transcript2", "write_transcript2"]

# ----- the model and the writer --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSignatures:
    """A signature on each statement of a hand's record, list by list (``statements``)."""

    key: tuple[bytes, ...] = ()
    shuffle: tuple[bytes, ...] = ()
    not_me: tuple[bytes, ...] = ()
    move: tuple[bytes, ...] = ()
    resign: tuple[bytes, ...] = ()
    reveal: tuple[bytes, ...] = ()
    unheld: tuple[bytes, ...] = ()

    def of(self, kind: str) -> tuple[bytes, ...]:
        value: tuple[bytes, ...] = getattr(self, kind)
        return value


@dataclass(frozen=True, slots=True)
class BlindDispute:
    """A seat's signed word that it did not leave: the host signed its ``resignation`` (the
    index in the hand's list) for it. Signed as transcript/1's ``lanomino.dispute/1`` of the
    resignation's ``at`` and ``{"seat", "resign": true}``; outside the host's signature."""

    seat: int
    resignation: int
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "resignation": self.resignation,
                "signature": self.signature.hex()}


VOID_SIGNED = ("key", "shuffle", "not_me", "reveal")  # a void deal has no moves


@dataclass(frozen=True, slots=True)
class VoidDeal:
    """A deal attempt the table called void (nobody held a double) and dealt again: its record
    (no moves, resignations or points; ``raw`` as written) and the signatures of its keys,
    shuffles, "not me" answers and reveals."""

    record: BlindHand
    signatures: HandSignatures
    raw: dict[str, Any] | None = None

    def record_json(self) -> dict[str, Any]:
        return format_blind_hand(self.record) if self.raw is None else self.raw

    def to_json(self) -> dict[str, Any]:
        return {"record": self.record_json(),
                **{f"{k}_signatures": [s.hex() for s in self.signatures.of(k)]
                   for k in VOID_SIGNED}}


@dataclass(frozen=True, slots=True)
class SignedHand:
    """One hand of a transcript/2: the record (``raw``: as written, which the host signed),
    the signatures, the match score after it, the host's points signature, any disputes."""

    record: BlindHand
    signatures: HandSignatures
    scores: tuple[int, ...]
    points_signature: bytes
    disputes: tuple[BlindDispute, ...] = ()
    raw: dict[str, Any] | None = None  # the record's JSON as read (None: write it anew)
    voided: tuple[VoidDeal, ...] = ()  # the void deals before this one, in order
    departures: tuple[Departure, ...] = ()  # the resignations between its deal attempts

    def record_json(self) -> dict[str, Any]:
        return format_blind_hand(self.record) if self.raw is None else self.raw

    def points(self, header: str) -> dict[str, Any]:
        """The host's points statement of this hand (``points_statement``)."""
        return points_statement(header, self.record_json(), self.scores,
                                [v.record_json() for v in self.voided],
                                [d.statement_json() for d in self.departures])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.record.hand, "record": self.record_json()}
        for kind in SIGNED:
            if kind != "unheld" or self.signatures.unheld:
                out[f"{kind}_signatures"] = [s.hex() for s in self.signatures.of(kind)]
        out["scores"] = list(self.scores)
        out["points_signature"] = self.points_signature.hex()
        if self.disputes:
            out["disputes"] = [d.to_json() for d in self.disputes]
        if self.voided:
            out["voided"] = [v.to_json() for v in self.voided]
        if self.departures:
            out["departures"] = [d.to_json() for d in self.departures]
        return out


def write_transcript2(header: MatchHeader, header_signatures: Sequence[bytes],
                      hands: Sequence[SignedHand], end: MatchEnd,
                      evidence: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The transcript/2 document of a locked match: its ``header`` (algorithm
    ``lanomino-blind-ristretto255/1``), every seat's header signature in seat order, each hand
    with its record and signatures, the host's closing statement, any proof against a host.

    Raises: ValueError for a header of another algorithm."""
    doc = header.to_json()
    if doc.get("format") != FORMAT2:
        raise ValueError(f"a transcript/2 header names the algorithm {BLIND_ALGORITHM}")
    doc["header_signatures"] = [s.hex() for s in header_signatures]
    doc["hands"] = [h.to_json() for h in hands]
    doc["end"] = {"host": end.host, "hands": end.hands, "finished": end.finished,
                  "winner": end.winner, "scores": list(end.scores),
                  "signature": end.signature.hex()}
    if end.departures:
        doc["end"]["departures"] = [d.to_json() for d in end.departures]
    if evidence:
        doc["evidence"] = [dict(p) for p in evidence]
    return doc


# ----- the parser ----------------------------------------------------------------------------


def parse_transcript2(doc: Any) -> tuple[Transcript, tuple[SignedHand, ...]]:
    """The header and end (as transcript/1's values, no hands) and the hands of a transcript/2.

    Raises: TranscriptError naming the field that is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT2:
        raise TranscriptError(f"format: expected {FORMAT2!r}")
    # The top level is transcript/1's, hands aside: its parser reads it, under its own format
    # name, and the header (the digest every statement names) is then put back as written.
    end = doc.get("end")
    departed = end.get("departures") if isinstance(end, dict) else None
    if isinstance(end, dict) and departed is not None:  # (transcript/2's own: the departures
        end = {k: v for k, v in end.items() if k != "departures"}  # that ended the match)
    head = parse_transcript({**doc, "format": FORMAT, "hands": [], "end": end})
    players = len(head.players)
    header = {**head.header, "format": FORMAT2}
    closing = head.end if departed is None else replace(
        head.end, departures=parse_departures(departed, "end.departures", players))
    if departed is not None and not closing.departures:
        raise TranscriptError("end.departures: leave it out when there are none")
    head = Transcript(header, header_digest(header), head.table, head.algorithm,
                      head.rules_spec, head.players, head.keys, head.header_signatures, (),
                      closing, head.clock_declared, head.move_clock, head.evidence)
    hands = tuple(_parse_hand(h, f"hands[{i}]", i + 1, players)
                  for i, h in enumerate(_list(doc.get("hands"), "hands")))
    return head, hands


def _parse_hand(value: Any, where: str, number: int, players: int) -> SignedHand:
    h = _obj(value, where, {"hand", "record", *(f"{k}_signatures" for k in SIGNED[:-1]),
                            "scores", "points_signature"},
             {"disputes", "voided", "unheld_signatures", "departures"})
    if _int(h["hand"], f"{where}.hand") != number:
        raise TranscriptError(f"{where}.hand: expected {number}")
    raw = h["record"]
    record = _record(raw, f"{where}.record", number, players)
    voided = []
    for i, v in enumerate(_list(h.get("voided", []), f"{where}.voided")):
        at = f"{where}.voided[{i}]"
        v = _obj(v, at, {"record", *(f"{k}_signatures" for k in VOID_SIGNED)})
        void_signatures = HandSignatures(**{
            k: _hexes(v[f"{k}_signatures"], f"{at}.{k}_signatures", 64) for k in VOID_SIGNED})
        voided.append(VoidDeal(_record(v["record"], f"{at}.record", number, players),
                               void_signatures, v["record"]))
    signatures = HandSignatures(*(_hexes(h.get(f"{k}_signatures", []),
                                         f"{where}.{k}_signatures", 64) for k in SIGNED))
    scores = tuple(_int(s, f"{where}.scores") for s in _list(h["scores"], f"{where}.scores"))
    disputes: list[BlindDispute] = []
    for i, d in enumerate(_list(h.get("disputes", []), f"{where}.disputes")):
        at = f"{where}.disputes[{i}]"
        d = _obj(d, at, {"seat", "resignation", "signature"})
        index = _int(d["resignation"], f"{at}.resignation")
        if not 0 <= index < len(record.resignations) or (
                disputes and index <= disputes[-1].resignation):
            raise TranscriptError(f"{at}.resignation: the hand's resignations, in order, one each")
        disputes.append(BlindDispute(_seat(d["seat"], f"{at}.seat", players), index,
                                     _hex(d["signature"], f"{at}.signature", 64)))
    return SignedHand(record, signatures, scores,
                      _hex(h["points_signature"], f"{where}.points_signature", 64),
                      tuple(disputes), raw, tuple(voided),
                      parse_departures(h.get("departures", []), f"{where}.departures", players))


def _record(raw: Any, where: str, number: int, players: int) -> BlindHand:
    """A hand's record (``lanomino.blind-hand/1``) of hand ``number`` at a table of
    ``players``. Raises: TranscriptError."""
    try:
        if not isinstance(raw, dict):
            raise BlindError("expected an object")
        record = parse_blind_hand(raw)
    except BlindError as exc:
        raise TranscriptError(f"{where}: {exc}") from None
    if record.hand != number:
        raise TranscriptError(f"{where}.hand: expected {number}")
    seats = (record.host, *record.holders, *(e.seat for e in record.shuffles),
             *(c.seat for c in record.opening), *(m.seat for m in record.moves),
             *(r.seat for r in record.resignations), *(r.seat for r in record.reveals))
    if max(seats) >= players:
        raise TranscriptError(f"{where}: a seat that is not at this table of {players}")
    return record
