"""Every message of the table protocol and its body schema; parsed once at the edge. Pure.

A message is a codec ``Envelope`` (``{"v", "type", "term", "seq", "body"}``). Each type's body is
a frozen dataclass in ``messages.py``, whose annotations give every field and its check (``SCHEMAS``
is read from them); ``parse_message`` validates a decoded JSON object once (no missing field, no
unknown field, every value bounded), raises ``RemoteProtocolError`` naming the field, and returns
the typed body. ``build`` checks what we send the same way and raises ``LocalProtocolError`` (a bug
here); ``envelope`` encodes a typed body once, for a send.

Direction and meaning (P = peer, H = host):

  P->H hello      name, Ed25519 identity key, CURVE key, where it would host after a migration
                  (IP:PORT or null; the roster carries it): "I want a seat"
  H->P challenge  a nonce, the table id, whether a passphrase is needed, the host's identity
  P->H auth       signature over the join statement (proves the identity key), passphrase proof
  W->H watch      like hello, from a watcher (no seat; net/watchers.py); challenge and auth follow
  H->P welcome    your seat (-1 for a watcher) and the current roster;  H->P refused: why not
  H->P roster     the replicated seat list (succession order is seat order, host first), how
                  many watch and how many may, the host's move clock (ms a move, or null)
                  and the table's bot level (a locked table's away seat runs it itself)
  H->P match      the transcript header every seat signs;  P->H agree: the header signature
  H->P begin      every seat's header signature (the match starts)
  H->P commit_req / P->H commit / H->P commit_set / P->H echo / H->P reveal_req / P->H reveal
                  the fair deal's commit-reveal round for (hand, attempt); reveal_req carries
                  every seat's signed echo (a seat reveals only when all name its set)
  H->P escrow     this peer's XOR share of the deal's secrets (when >= 2 human peers hold shares)
  H->P deal       this peer's own tiles and the public HandStarted event
  P->H move       a signed move, with the log head its seat held before it (signed, and the
                  host's signature of that head; ``away``: its own client's bot made it, at a
                  locked table, where the move it signs says so too, ``"away": true``);
                  H->P update: the move, its signature, the public events, the host's
                  signature of the log's new head and the mover's head (fair/chain.py; every
                  seat checks them all before applying it)
  P->H dispute    a seat's signed word that the host made one of its moves for it (a
                  resignation, or the table's move while it was counted away) while it was there
                  and in time;  H->P disputed: the same, passed on to every seat and watcher
                  (each checks it again, fair/dispute_check.py; the disputer times the relay)
  H->P hand_log   the finished hand's transcript entry and the host's closing statement
  P->H resync     "I missed something";  H->P snapshot: everything this seat may know now
                  (over 240 kB, as numbered snapshot_part messages instead; see chunks.py)
  H->P error      a refused message (code, text, the seq it refers to)
  P->H bye        the peer leaves the table;  both ways: ping (liveness)
  P->H back       a seat out of time on the move clock is back (the table's bot stops playing it)
  H->P bots       the host-side bots' seats and levels, for the member that may host next (never
                  their keys: a new host adopts the bots' seats under keys it makes, adoption.py)
  P->H report     after a host migration: the hand's moves and signatures this peer holds, its
                  escrow share (the new host rebuilds the hand from these, net/host/takeover.py),
                  its signed claim of its own tiles (for a re-shuffle) and the newest hand log it
                  has (``last``: the lost host may have died while sending it out; at a
                  locked table its reveal, the last points it took and its log's last entries)
  H->P catch_up   after a migration at a locked table: the entries of the hand's log that the
                  lost host sent to some members only, as it sent them, to a member behind
                  (net/peer/catch_up.py)

  P->P proof      proof against the host (two heads it signed at one place, a move it signed
                  for a seat without a move clock: fair/evidence.py's form), from the seat that
                  caught it to every other member's standby ROUTER (net/peer/proof_passing.py);
                  kind ``held``: a seat's signed move the host holds back (net/peer/held_moves.py)
  P->P prevote    where a member stands on its host (it hears the host of a term, or it lost
                  one and how far its election got), signed; sent by a member that lost its host
                  before it elects, and the answer of any member it asks (net/peer/prevotes.py)

Every message carries the sender's ``term``; a host refuses any other term, except in ``hello`` and
``auth``: a joiner (a restarted peer, an old host coming back) learns the term from the challenge.
  H->P reshuffle_commit_req / P->H reshuffle_commit / H->P reshuffle_set / P->H reshuffle_echo /
  H->P reshuffle_reveal_req / P->H reshuffle_reveal
                  the re-shuffle of the unknown tiles when the escrow cannot be rebuilt
                  (net/host/reshuffle_round.py)
  H->P blind_deal, blind_ask, blind_end / P->H blind_key, blind_shuffle, blind_shares,
  blind_not_me, blind_draw, blind_play, blind_reveal, blind_resign, blind_escrow, blind_rebuild
                  the locked deck (issue 29): each signed by its sender, a peer's relayed by the
                  host unchanged (net/wire/blind_messages.py says what each carries)
"""


from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, get_type_hints

from lanomino.blind.rounds import KeyAnnouncement, Reveal, Share, ShuffleTurn, shares_to_bytes
from lanomino.fair.attempt import DealAttempt, Echo
from lanomino.fair.header import MatchHeader
from lanomino.fair.reshuffle import Claim
from lanomino.fair.transcript_model import Abandoned
from lanomino.net.chunks import split_body
from lanomino.net.codec import (
    ENVELOPE_KEYS,
    MAX_COUNTER,
    PROTOCOL_VERSION,
    Envelope,
    parse_envelope,
)
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError
from lanomino.net.wire.checks import Check, JsonObject, check_fields
from lanomino.net.wire.fields import annotated_checks
from lanomino.net.wire.messages import MESSAGES, Body, Snapshot, SnapshotPart
from lanomino.net.wire.parts import PARTS, RosterEntry, SnapshotPlay

__all__ = ["KNOWN_TYPES", "SCHEMAS", "Message", "build", "envelope", "parse_message", "to_body",
           "snapshot_parts", "wrap"]

# Each type's body schema (field -> check), read once from the annotations of messages.py.
SCHEMAS: dict[str, dict[str, Check]] = {name: annotated_checks(cls)
                                        for name, cls in MESSAGES.items()}
KNOWN_TYPES = frozenset(SCHEMAS)
# Values that are their own JSON: a field of one of these types is encoded as it is.
_AS_IS: tuple[object, ...] = (int, str, bool, JsonObject, int | None, str | None, JsonObject | None)
Encoder = Callable[[Any], Any]


def _hex_or_none(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


def _hexes(value: tuple[bytes, ...]) -> list[str]:
    return [v.hex() for v in value]


def _claim_or_none(value: Claim | None) -> JsonObject | None:
    return None if value is None else value.to_json()


def _bytes_hex(value: KeyAnnouncement | ShuffleTurn | Share | Reveal) -> str:
    return value.to_bytes().hex()


def _shares_hex(value: tuple[Share, ...]) -> str:
    return shares_to_bytes(value).hex()


def _attempts(value: tuple[DealAttempt, ...]) -> list[JsonObject]:
    return [a.to_json(secrets=False) for a in value]


def _echoes(value: tuple[Echo, ...]) -> list[JsonObject]:
    return [e.to_json() for e in value]


# The hot field types get an encoder of their own (no walk); the rest is walked by ``_json``.
_ENCODERS: dict[object, Encoder] = {
    bytes: bytes.hex, bytes | None: _hex_or_none, tuple[bytes, ...]: _hexes,
    tuple[int, ...]: list, tuple[str, ...]: list, tuple[JsonObject, ...]: list,
    tuple[DealAttempt, ...]: _attempts, tuple[Echo, ...]: _echoes, MatchHeader: MatchHeader.to_json,
    Claim | None: _claim_or_none,
    # the locked deck's values (blind_messages.py): the hex of their own bytes
    KeyAnnouncement: _bytes_hex, ShuffleTurn: _bytes_hex, Share: _bytes_hex, Reveal: _bytes_hex,
    tuple[Share, ...]: _shares_hex,
}


def _encoding(cls: type[Any]) -> tuple[tuple[str, Encoder | None], ...]:
    """Each field of ``cls`` and how it is encoded (None: it is its own JSON)."""
    hints = get_type_hints(cls)
    return tuple((f.name, None if hints[f.name] in _AS_IS else _ENCODERS.get(hints[f.name], _json))
                 for f in dataclasses.fields(cls))


def from_fields(type_: str, checked: dict[str, Any]) -> Body:
    """The value of a body whose fields ``check_fields`` has just validated against its schema."""
    return MESSAGES[type_](**checked)


def _json(value: Any) -> Any:
    kind = type(value)
    if kind is bytes:
        return value.hex()
    if kind is tuple:
        return [_json(v) for v in value]
    if kind in _FIELDS:
        return to_body(value)
    return value


_FIELDS: dict[type[Any], tuple[tuple[str, Encoder | None], ...]] = {
    cls: _encoding(cls) for cls in (*MESSAGES.values(), *PARTS, Abandoned)}


def to_body(value: Body | RosterEntry | SnapshotPlay | Abandoned) -> JsonObject:
    """A body's JSON object: bytes as lowercase hex, tuples as lists (the inverse of the checks)."""
    return {name: getattr(value, name) if encode is None else encode(getattr(value, name))
            for name, encode in _FIELDS[type(value)]}


class Message:
    """A validated message: the envelope's type, term and seq, and its typed body."""

    __slots__ = ("type", "term", "seq", "body")

    def __init__(self, type_: str, term: int, seq: int, fields: dict[str, Any]) -> None:
        self.type, self.term, self.seq = type_, term, seq
        self.body: Body = from_fields(type_, fields)

    def __repr__(self) -> str:
        return f"Message({self.type!r}, term={self.term}, seq={self.seq})"


def parse_message(obj_: Mapping[str, Any]) -> Message:
    """A decoded JSON object as a valid message of a known type. Raises RemoteProtocolError."""
    # The usual case, checked inline: exactly the envelope's keys, plain ints in range, a known
    # type and a dict body. Anything else goes through parse_envelope (which names the problem).
    if obj_.keys() == ENVELOPE_KEYS:
        type_, term, seq, body = obj_["type"], obj_["term"], obj_["seq"], obj_["body"]
        version = obj_["v"]
        if (type(term) is int and type(seq) is int
                and 0 <= term <= MAX_COUNTER and 0 <= seq <= MAX_COUNTER
                and type(version) is int and version == PROTOCOL_VERSION and type(body) is dict
                and type_ in KNOWN_TYPES):
            return Message(type_, term, seq, check_fields(body, SCHEMAS[type_]))
    parsed = parse_envelope(obj_, KNOWN_TYPES)
    return Message(parsed.type, parsed.term, parsed.seq,
                   check_fields(parsed.body, SCHEMAS[parsed.type]))


def build(body: Body, term: int, seq: int) -> JsonObject:
    """``envelope``, with the encoded body checked against its schema as a peer would check it
    (for the rare replies outside a seat's stream: a refusal, a challenge).

    Raises:
        LocalProtocolError: the body breaks its schema (a bug here).
    """
    wire = to_body(body)
    try:
        check_fields(wire, SCHEMAS[body.TYPE])
    except RemoteProtocolError as exc:
        raise LocalProtocolError(f"{body.TYPE}: {exc}") from None
    return Envelope(body.TYPE, term, seq, wire).to_dict()


def envelope(body: Body, term: int, seq: int) -> JsonObject:
    """The wire object of a typed body we send, encoded once (the types made it valid)."""
    return wrap(body.TYPE, to_body(body), term, seq)


def snapshot_parts(snapshot: Snapshot) -> list[SnapshotPart]:
    """A snapshot too large for one message as its parts (net/chunks.py); empty when it fits."""
    return [SnapshotPart(p["part"], p["parts"], p["data"]) for p in split_body(to_body(snapshot))]


def wrap(type_: str, wire: JsonObject, term: int, seq: int) -> JsonObject:
    """The wire object around a body already encoded (one public body sent to many)."""
    return {"v": PROTOCOL_VERSION, "type": type_, "term": term, "seq": seq, "body": wire}
