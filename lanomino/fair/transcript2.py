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
another; bytes are lowercase hex of the values' own bytes, ``blind/rounds.py``) are built by the
functions below, which the sessions sign and the verifier (``fair/verify2.py``) checks:
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
    Resignation,
    ShuffleEntry,
    format_blind_hand,
    parse_blind_hand,
)
from lanomino.blind.hashing import ALGORITHM as BLIND_ALGORITHM
from lanomino.blind.rounds import KeyAnnouncement, Reveal
from lanomino.engine import Tile
from lanomino.fair.canonical import digest
from lanomino.fair.departures2 import Departure, parse_departures
from lanomino.fair.header import MatchHeader
from lanomino.fair.statements import header_digest, move_statement
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
           "SignedHand", "VoidDeal",
           "blind_move_statement", "key_statement", "not_me_statement", "parse_transcript2",
           "points_statement", "resign_statement", "reveal_statement", "shuffle_statement",
           "write_transcript2"]

# the hand's signature lists ("unheld" only in a hand re-shuffled blind: may be left out)
SIGNED = ("key", "shuffle", "not_me", "move", "resign", "reveal", "unheld")


# ----- what gets signed ----------------------------------------------------------------------


def key_statement(header: str, hand: int, attempt: int, key: KeyAnnouncement) -> dict[str, Any]:
    """What a holder signs with its key announcement (``blind.key``)."""
    return {"type": "lanomino.blind-key/1", "header": header, "hand": hand, "attempt": attempt,
            "seat": key.seat, "key": key.to_bytes().hex()}


def shuffle_statement(header: str, hand: int, attempt: int, entry: ShuffleEntry
                      ) -> dict[str, Any]:
    """What a shuffler signs with its turn: the digests of the deck it sends (``deck_digest``)
    and of its argument (``argument_digest``; ``ShuffleEntry.of(turn)`` gives both)."""
    return {"type": "lanomino.blind-shuffle/1", "header": header, "hand": hand,
            "attempt": attempt, "seat": entry.seat, "deck": entry.digest.hex(),
            "argument": entry.argument.hex()}


def not_me_statement(header: str, hand: int, attempt: int, seat: int,
                     tile: Tile) -> dict[str, Any]:
    """What a seat signs when it answers "not me" to the opening's question about ``tile``."""
    return {"type": "lanomino.not-me/1", "header": header, "hand": hand, "attempt": attempt,
            "seat": seat, "tile": str(tile)}


def blind_move_statement(header: str, hand: int, index: int,
                         move: dict[str, Any]) -> dict[str, Any]:
    """What a seat signs for its ``index``-th move: ``lanomino.move/1`` of the record's move
    (``format_blind_hand``), with a play's position (the seat's own) and without a draw's (the
    host names it, the record's signature makes it the host's word), and with ``"away": true``
    when the seat's own client's bot made it: the seat signs that too."""
    signed = {k: v for k, v in move.items() if not (k == "pos" and move.get("draw") is True)}
    return move_statement(header, hand, index, signed)


def resign_statement(header: str, hand: int, resignation: Resignation) -> dict[str, Any]:
    """What the seat signs when it resigns (or the host, for a seat that left or was away)."""
    return {"type": "lanomino.resign/1", "header": header, "hand": hand,
            "seat": resignation.seat, "at": resignation.at, "by": resignation.by}


def reveal_statement(header: str, hand: int, attempt: int, reveal: Reveal) -> dict[str, Any]:
    """What a holder signs with its key and seed at the hand's end (``blind.reveal``)."""
    return {"type": "lanomino.blind-reveal/1", "header": header, "hand": hand,
            "attempt": attempt, "seat": reveal.seat, "reveal": reveal.to_bytes().hex()}


def points_statement(header: str, record: dict[str, Any], scores: Sequence[int],
                     voided: Sequence[dict[str, Any]] = (),
                     departures: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """What the host signs after the reveal: the hand's record as written (its digest), the
    points in it and the match score after the hand; and the digests of the records of the
    void deals dealt again before it, and the departures between its deal attempts
    (``Departure.statement_json``), if any."""
    extra: dict[str, Any] = {"voided": [digest(v).hex() for v in voided]} if voided else {}
    if departures:
        extra["departures"] = list(departures)
    return {**extra, "type": "lanomino.points/1", "header": header, "hand": record.get("hand"),
            "host": record.get("host"), "record": digest(record).hex(),
            "points": record.get("points"), "scores": list(scores)}


def unheld_statement(header: str, hand: int, attempt: int, seat: int, digest_: bytes
                     ) -> dict[str, Any]:
    """A survivor's value of a blind re-shuffle: its ``blind_unheld`` message's statement, whose
    ``data`` is the digest the record keeps (``unheld_round.statement_digest``)."""
    return {"type": "lanomino.blind/1", "header": header, "kind": "blind_unheld", "hand": hand,
            "attempt": attempt, "seat": seat, "data": digest_.hex()}


def unheld_signers(record: BlindHand) -> list[int]:
    """The survivor that signed each digest of the record's re-shuffle, step by step."""
    u = record.unheld
    if u is None:
        return []
    survivors = [s for s in record.holders if s not in u.lost]
    return [s for _step in u.sent for s in survivors]


def log_index(record: BlindHand, move: int) -> int:
    """The place of the record's ``move``-th move in the hand's log, where each resignation is
    a move too (the index the seat signed on the wire): ``move`` plus the resignations before
    it."""
    return move + sum(1 for r in record.resignations if r.at <= move)


def resignation_index(record: BlindHand, j: int) -> int:
    """The place of the record's ``j``-th resignation in the hand's log (as ``log_index``): the
    moves before it plus the resignations before it."""
    return record.resignations[j].at + j


def statements(header: str, record: BlindHand) -> dict[str, list[dict[str, Any]]]:
    """Every statement of the hand's record a seat signs, by list (``SIGNED``), in order."""
    h, n, a = header, record.hand, record.attempt
    moves = format_blind_hand(record)["moves"]
    assert isinstance(moves, list)
    return {
        "key": [key_statement(h, n, a, k) for k in record.keys],
        "shuffle": [shuffle_statement(h, n, a, e) for e in record.shuffles],
        "not_me": [not_me_statement(h, n, a, c.seat, c.tile) for c in record.opening],
        "move": [blind_move_statement(h, n, log_index(record, i), m)
                 for i, m in enumerate(moves)],
        "resign": [resign_statement(h, n, r) for r in record.resignations],
        "reveal": [reveal_statement(h, n, a, r) for r in record.reveals],
        "unheld": [unheld_statement(h, n, a, seat, d) for seat, d in zip(
            unheld_signers(record), (d for step in record.unheld.sent for d in step)
            if record.unheld else (), strict=True)],
    }


def signers(record: BlindHand) -> dict[str, list[int]]:
    """The seat whose key signs each statement of ``statements`` (the host for a resignation it
    signed for a seat, and for the reveal it rebuilt from the escrow of a holder that left: a
    reveal without a seed)."""
    return {
        "key": [k.seat for k in record.keys],
        "shuffle": [e.seat for e in record.shuffles],
        "not_me": [c.seat for c in record.opening],
        "move": [m.seat for m in record.moves],
        "resign": [r.signer(record.host) for r in record.resignations],
        "reveal": [record.host if r.seed is None else r.seat for r in record.reveals],
        "unheld": unheld_signers(record),
    }


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
