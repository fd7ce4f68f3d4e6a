"""Every message of the table protocol and its body schema; parsed once at the edge. Pure.

A message is a codec ``Envelope`` (``{"v", "type", "term", "seq", "body"}``). ``SCHEMAS`` lists, per
type, every body field and its check; ``parse_message`` validates a decoded JSON object against it
(no missing field, no unknown field, every value bounded) and raises ``RemoteProtocolError`` naming
the field. ``build`` does the same for what we send and raises ``LocalProtocolError`` (a bug here).

Direction and meaning (P = peer, H = host):

  P->H hello      name, Ed25519 identity key, CURVE key, where it would host after a migration
                  (IP:PORT or null; the roster carries it): "I want a seat"
  H->P challenge  a nonce, the table id, whether a passphrase is needed, the host's identity
  P->H auth       signature over the join statement (proves the identity key), passphrase proof
  W->H watch      like hello, from a watcher (no seat; net/watchers.py); challenge and auth follow
  H->P welcome    your seat (-1 for a watcher) and the current roster;  H->P refused: why not
  H->P roster     the replicated seat list (succession order is seat order, host first), how
                  many watch and how many may, the host's move clock (ms a move, or null)
  H->P match      the transcript header every seat signs;  P->H agree: the header signature
  H->P begin      every seat's header signature (the match starts)
  H->P commit_req / P->H commit / H->P commit_set / P->H echo / H->P reveal_req / P->H reveal
                  the fair deal's commit-reveal round for (hand, attempt)
  H->P escrow     this peer's XOR share of the deal's secrets (when >= 2 human peers hold shares)
  H->P deal       this peer's own tiles and the public HandStarted event
  P->H move       a signed move;  H->P update: the move, its signature and the public events
  H->P hand_log   the finished hand's transcript entry and the host's closing statement
  P->H resync     "I missed something";  H->P snapshot: everything this seat may know now
                  (over 240 kB, as numbered snapshot_part messages instead; see chunks.py)
  H->P error      a refused message (code, text, the seq it refers to)
  P->H bye        the peer leaves the table;  both ways: ping (liveness)
  P->H back       a seat out of time on the move clock is back (the table's bot stops playing it)
  H->P bots       the host-side bots' seats and levels, for the member that may host next (never
                  their keys: a new host adopts the bots' seats under keys it makes, adoption.py)
  P->H report     after a host migration: the hand's moves and signatures this peer holds, its
                  escrow share (the new host rebuilds the hand from these; see net/host/takeover.py),
                  its signed claim of its own tiles (for a re-shuffle) and the newest hand log it
                  has (``last``: the lost host may have died while sending it out)

Every message carries the sender's ``term``; a host refuses any other term, except in ``hello`` and
``auth``: a joiner (a restarted peer, an old host coming back) learns the term from the challenge.
  H->P reshuffle_commit_req / P->H reshuffle_commit / H->P reshuffle_set / P->H reshuffle_echo /
  H->P reshuffle_reveal_req / P->H reshuffle_reveal
                  the re-shuffle of the unknown tiles when the escrow cannot be rebuilt
                  (net/host/reshuffle_round.py)
"""


from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanomino.net.chunks import MAX_PARTS, PART_BYTES
from lanomino.net.codec import (
    ENVELOPE_KEYS,
    MAX_COUNTER,
    PROTOCOL_VERSION,
    Envelope,
    parse_envelope,
)
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError
from lanomino.net.wire.checks import (
    ADDR,
    CODE,
    COUNT,
    CURVE,
    HAND,
    KEY32,
    MAX_ATTEMPTS,
    MAX_EVENTS,
    MAX_MOVES,
    MAX_SEATS,
    MAX_TEXT,
    MAX_WATCHERS,
    SEAT,
    SIG,
    TILE_TEXT,
    VIEWER,
    Check,
    boolean,
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

ROSTER_ENTRY: dict[str, Check] = {
    "seat": SEAT, "name": name_text, "identity": KEY32, "curve": optional(CURVE),
    "kind": text(5, r"host|human|bot"), "connected": boolean, "left": boolean, "addr": optional(ADDR),
    "away": boolean,
}


def roster_entry(value: Any, where: str) -> dict[str, Any]:
    return check_fields(obj(value, where), ROSTER_ENTRY, where)


ROSTER = listof(roster_entry, MAX_SEATS)

BOT_ENTRY: dict[str, Check] = {"seat": SEAT, "level": text(16, r"[a-z]+")}


def bot_entry(value: Any, where: str) -> dict[str, Any]:
    return check_fields(obj(value, where), BOT_ENTRY, where)


ABANDONED_ENTRY: dict[str, Check] = {"attempt": HAND, "step": text(6, r"commit|echo|reveal"),
                                     "unanswered": listof(SEAT, MAX_SEATS)}


def abandoned_entry(value: Any, where: str) -> dict[str, Any]:
    """A deal attempt that missed a deadline: its step and the seats that did not answer."""
    return check_fields(obj(value, where), ABANDONED_ENTRY, where)


SCHEMAS: dict[str, dict[str, Check]] = {
    "hello": {"name": name_text, "identity": KEY32, "curve": CURVE, "addr": optional(ADDR)},
    "challenge": {"nonce": KEY32, "table": hexbytes(16), "passphrase": boolean, "host": KEY32},
    "auth": {"signature": SIG, "proof": optional(KEY32)},
    "welcome": {"seat": VIEWER, "seats": integer(2, MAX_SEATS), "roster": ROSTER, "rules": obj},
    "refused": {"code": CODE, "reason": text(MAX_TEXT)},
    "roster": {"roster": ROSTER, "seats": integer(2, MAX_SEATS),
               "watching": integer(0, MAX_WATCHERS), "watch_cap": integer(0, MAX_WATCHERS),
               "move_clock_ms": optional(integer(1, 86_400_000))},
    "watch": {"name": name_text, "identity": KEY32, "curve": CURVE},
    "match": {"header": obj},
    "agree": {"signature": SIG},
    "begin": {"signatures": listof(SIG, MAX_SEATS)},
    "commit_req": {"hand": HAND, "attempt": HAND},
    "commit": {"hand": HAND, "attempt": HAND, "commitment": KEY32, "signature": SIG},
    "commit_set": {"hand": HAND, "attempt": HAND, "commitments": listof(pair(SEAT, KEY32), MAX_SEATS),
                   "signature": SIG},
    "echo": {"hand": HAND, "attempt": HAND, "set": KEY32, "signature": SIG},
    "reveal_req": {"hand": HAND, "attempt": HAND},
    "reveal": {"hand": HAND, "attempt": HAND, "secret": KEY32},
    "escrow": {"hand": HAND, "attempt": HAND, "seats": listof(SEAT, MAX_SEATS),
               "holders": listof(SEAT, MAX_SEATS), "digests": listof(KEY32, MAX_SEATS),
               "share": text(2 * 32 * MAX_SEATS, r"(?:[0-9a-f]{64}){1,4}")},
    "deal": {"hand": HAND, "tiles": listof(TILE_TEXT, 28), "events": listof(obj, MAX_EVENTS),
             "turn": SEAT, "attempts": listof(obj, MAX_ATTEMPTS),
             "abandoned": listof(abandoned_entry, MAX_SEATS)},
    "move": {"hand": HAND, "index": COUNT, "move": obj, "signature": SIG},
    "update": {"hand": HAND, "index": COUNT, "move": obj, "signature": SIG,
               "events": listof(obj, MAX_EVENTS), "turn": SEAT},
    "hand_log": {"entry": obj, "end": obj},
    "resync": {},
    "snapshot": {"seat": VIEWER, "roster": ROSTER, "seats": integer(2, MAX_SEATS), "rules": obj,
                 "transcript": optional(obj), "play": optional(obj)},
    "error": {"code": CODE, "message": text(MAX_TEXT), "ref": COUNT},
    "bye": {"reason": text(MAX_TEXT)},
    "report": {"hand": COUNT, "moves": listof(obj, MAX_MOVES), "signatures": listof(SIG, MAX_MOVES),
               "escrow": optional(obj), "claim": optional(obj), "last": optional(obj)},
    # the re-shuffle round after a migration whose escrow cannot be rebuilt (net/host/reshuffle_round.py)
    "reshuffle_commit_req": {"hand": HAND, "term": HAND, "at": COUNT},
    "reshuffle_commit": {"hand": HAND, "term": HAND, "commitment": KEY32, "signature": SIG},
    "reshuffle_set": {"hand": HAND, "term": HAND, "at": COUNT, "opener": SEAT, "claims": KEY32,
                      "commitments": listof(pair(SEAT, KEY32), MAX_SEATS), "signature": SIG},
    "reshuffle_echo": {"hand": HAND, "term": HAND, "set": KEY32, "signature": SIG},
    "reshuffle_reveal_req": {"hand": HAND, "term": HAND},
    "reshuffle_reveal": {"hand": HAND, "term": HAND, "secret": KEY32},
    "ping": {},
    "back": {},
    "bots": {"bots": listof(bot_entry, MAX_SEATS)},
    # a snapshot too large for one message, in order (net/chunks.py)
    "snapshot_part": {"part": integer(0, MAX_PARTS - 1), "parts": integer(1, MAX_PARTS),
                      "data": text(PART_BYTES * 4 // 3 + 4, r"[A-Za-z0-9+/]*={0,2}")},
}

KNOWN_TYPES = frozenset(SCHEMAS)


class Message:
    """A validated message: the envelope's type, term and seq, and the checked body values."""

    __slots__ = ("type", "term", "seq", "body", "raw")

    def __init__(self, type_: str, term: int, seq: int, body: dict[str, Any], raw: Mapping[str, Any]):
        self.type, self.term, self.seq, self.body, self.raw = type_, term, seq, body, raw

    def __repr__(self) -> str:
        return f"Message({self.type!r}, term={self.term}, seq={self.seq})"


def parse_message(obj_: Mapping[str, Any]) -> Message:
    """A decoded JSON object as a valid message of a known type. Raises RemoteProtocolError."""
    # The usual case, checked inline: exactly the envelope's keys, plain ints in range, a known
    # type and a dict body. Anything else goes through parse_envelope (which names the problem).
    if obj_.keys() == ENVELOPE_KEYS:
        type_, term, seq, body, version = obj_["type"], obj_["term"], obj_["seq"], obj_["body"], obj_["v"]
        if (type(term) is int and type(seq) is int and 0 <= term <= MAX_COUNTER and 0 <= seq <= MAX_COUNTER
                and type(version) is int and version == PROTOCOL_VERSION and type(body) is dict
                and type_ in KNOWN_TYPES):
            return Message(type_, term, seq, check_fields(body, SCHEMAS[type_]), body)
    envelope = parse_envelope(obj_, KNOWN_TYPES)
    body = check_fields(envelope.body, SCHEMAS[envelope.type])
    return Message(envelope.type, envelope.term, envelope.seq, body, envelope.body)


def build(type_: str, term: int, seq: int, **body: Any) -> dict[str, Any]:
    """The wire object of a message we send. Raises LocalProtocolError when it breaks the schema."""
    schema = SCHEMAS.get(type_)
    if schema is None:
        raise LocalProtocolError(f"unknown message type {type_!r}")
    try:
        check_fields(body, schema)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(f"{type_}: {exc}") from None
    return Envelope(type_, term, seq, body).to_dict()

