"""The field types of message bodies: what a value is inside (the type) and the check that
makes it from the wire (the ``Annotated`` metadata), for ``messages.py``. Pure."""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Any, TypeVar, get_type_hints

from lanomino.blind.hashing import ALGORITHM as BLIND_ALGORITHM
from lanomino.fair.attempt import DealAttempt, Echo, SignedCommitment
from lanomino.fair.header import FORMAT, MAX_MOVE_CLOCK_MS, TABLE_ID_BYTES, MatchHeader
from lanomino.fair.reshuffle import Claim
from lanomino.fair.transcript_model import FORMAT2, Abandoned
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire.checks import (
    CODE,
    COUNT,
    CURVE,
    HAND,
    KEY32,
    MAX_ATTEMPTS,
    MAX_EVENTS,
    MAX_SEATS,
    MAX_TEXT,
    SEAT,
    SIG,
    TILE_TEXT,
    VIEWER,
    Check,
    JsonObject,
    check_fields,
    hexbytes,
    integer,
    listof,
    name_text,
    obj,
    optional,
    pair,
    text,
)
from lanomino.net.wire.values import tiles_from_text

Hand = Annotated[int, HAND]
Count = Annotated[int, COUNT]
Seat = Annotated[int, SEAT]
Viewer = Annotated[int, VIEWER]
SeatsAtTable = Annotated[int, integer(2, MAX_SEATS)]
Key = Annotated[bytes, KEY32]
Signature = Annotated[bytes, SIG]
Name = Annotated[str, name_text]
Curve = Annotated[str, CURVE]
Code = Annotated[str, CODE]
Reason = Annotated[str, text(MAX_TEXT)]
Object = Annotated[JsonObject, obj]
Commitments = Annotated[tuple[tuple[int, bytes], ...], listof(pair(SEAT, KEY32), MAX_SEATS)]
Seats = Annotated[tuple[int, ...], listof(SEAT, MAX_SEATS)]
Events = Annotated[tuple[JsonObject, ...], listof(obj, MAX_EVENTS)]

BOT_ENTRY: dict[str, Check] = {"seat": SEAT, "level": text(16, r"[a-z]+")}


def bot_entry(value: Any, where: str) -> JsonObject:
    """A host-side bot: its seat and level."""
    return check_fields(obj(value, where), BOT_ENTRY, where)


ABANDONED_ENTRY: dict[str, Check] = {"attempt": HAND, "step": text(6, r"commit|echo|reveal"),
                                     "unanswered": listof(SEAT, MAX_SEATS)}


def abandoned_entry(value: Any, where: str) -> Abandoned:
    """A deal attempt that missed a deadline: its step and the seats that did not answer."""
    a = check_fields(obj(value, where), ABANDONED_ENTRY, where)
    return Abandoned(a["attempt"], a["step"], tuple(a["unanswered"]))




COMMITMENT_ENTRY: dict[str, Check] = {"seat": SEAT, "commitment": KEY32, "signature": SIG}
ECHO_ENTRY: dict[str, Check] = {"seat": SEAT, "set": KEY32, "signature": SIG}
ATTEMPT_ENTRY: dict[str, Check] = {
    "attempt": HAND,
    "commitments": listof(lambda v, at: check_fields(obj(v, at), COMMITMENT_ENTRY, at), MAX_SEATS),
    "set_signature": SIG,
    "echoes": listof(lambda v, at: check_fields(obj(v, at), ECHO_ENTRY, at), MAX_SEATS),
}


def echo_entry(value: Any, where: str) -> Echo:
    """A seat's signed echo of a commitment set's digest (checked by the seat that reads it)."""
    e = check_fields(obj(value, where), ECHO_ENTRY, where)
    return Echo(e["seat"], e["set"], e["signature"])


Echoes = Annotated[tuple[Echo, ...], listof(echo_entry, MAX_SEATS)]


def attempt_entry(value: Any, where: str) -> DealAttempt:
    """A deal attempt of the hand in play, as every peer holds it: the signed commitments, the
    signed set and the echoes, but no secrets (those are opened in the hand's log only)."""
    a = check_fields(obj(value, where), ATTEMPT_ENTRY, where)
    return DealAttempt(a["attempt"],
                       tuple(SignedCommitment(c["seat"], c["commitment"], c["signature"])
                             for c in a["commitments"]),
                       a["set_signature"],
                       tuple(Echo(e["seat"], e["set"], e["signature"]) for e in a["echoes"]), ())


HEADER_ENTRY: dict[str, Check] = {
    "format": text(40), "algorithm": text(40, r"[0-9a-z./-]+"), "table": hexbytes(TABLE_ID_BYTES),
    "rules": obj, "players": listof(text(MAX_TEXT), MAX_SEATS), "keys": listof(KEY32, MAX_SEATS),
    "move_clock": optional(integer(1, MAX_MOVE_CLOCK_MS)),  # ms a move; null: no move clock
}


def header_entry(value: Any, where: str) -> MatchHeader:
    """A match's header: its fields checked, the table id and the keys as bytes (the rules' spec
    stays JSON: ``Rules.from_spec`` reads it)."""
    h = check_fields(obj(value, where), HEADER_ENTRY, where)
    want = FORMAT2 if h["algorithm"] == BLIND_ALGORITHM else FORMAT  # (statements.header_of)
    if h["format"] != want:
        raise RemoteProtocolError(f"field '{where}.format': expected {want!r}")
    if not 2 <= len(h["keys"]) == len(h["players"]):
        raise RemoteProtocolError(f"field '{where}.keys': one key for each of 2 or more players")
    return MatchHeader(h["table"], h["algorithm"], h["rules"], h["players"], h["keys"],
                       h["move_clock"])


CLAIM_ENTRY: dict[str, Check] = {"seat": SEAT, "dealt": listof(TILE_TEXT, 28),
                                 "drawn": listof(TILE_TEXT, 28), "signature": SIG}


def claim_entry(value: Any, where: str) -> Claim:
    """A member's signed claim of its part of the deal (for a re-shuffle): its tiles parsed, each
    listed once; the new host checks the signature."""
    c = check_fields(obj(value, where), CLAIM_ENTRY, where)
    return Claim(c["seat"], tiles_from_text(c["dealt"], f"{where}.dealt"),
                 tiles_from_text(c["drawn"], f"{where}.drawn"), c["signature"])


Header = Annotated[MatchHeader, header_entry]
MaybeClaim = Annotated[Claim | None, optional(claim_entry)]
Attempts = Annotated[tuple[DealAttempt, ...], listof(attempt_entry, MAX_ATTEMPTS)]


T = TypeVar("T")


def annotated_checks(cls: type[Any]) -> dict[str, Check]:
    """A body dataclass's schema: each field's check, from its ``Annotated`` metadata."""
    hints = get_type_hints(cls, include_extras=True)
    return {f.name: hints[f.name].__metadata__[0] for f in fields(cls)}


def nested(cls: type[T]) -> Check:
    """A body inside another (a report's escrow share), checked as that message's is (the class
    is complete when this is called: annotations are read once the module has run)."""
    schema = annotated_checks(cls)

    def check(value: Any, where: str) -> T:
        return cls(**check_fields(obj(value, where), schema, where))

    return check
