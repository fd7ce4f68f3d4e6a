"""Every message of the table protocol, its body schema, and the JSON forms of game values. Pure.

A message is a codec ``Envelope`` (``{"v", "type", "term", "seq", "body"}``). ``SCHEMAS`` lists, per
type, every body field and its check; ``parse_message`` validates a decoded JSON object against it
(no missing field, no unknown field, every value bounded) and raises ``RemoteProtocolError`` naming
the field. ``build`` does the same for what we send and raises ``LocalProtocolError`` (a bug here).

Direction and meaning (P = peer, H = host):

  P->H hello      name, Ed25519 identity key, CURVE key, where it would host after a migration
                  (IP:PORT or null; the roster carries it): "I want a seat"
  H->P challenge  a nonce, the table id, whether a passphrase is needed, the host's identity
  P->H auth       signature over the join statement (proves the identity key), passphrase proof
  H->P welcome    your seat and the current roster;  H->P refused: why not (then forgotten)
  H->P roster     the replicated seat list (succession order is seat order, host first)
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
                  escrow share (the new host rebuilds the hand from these; see host_migrate.py),
                  its signed claim of its own tiles (for a re-shuffle) and the newest hand log it
                  has (``last``: the lost host may have died while sending it out)

Every message carries the sender's ``term``; a host refuses any other term, except in ``hello`` and
``auth``: a joiner (a restarted peer, an old host coming back) learns the term from the challenge.
  H->P reshuffle_commit_req / P->H reshuffle_commit / H->P reshuffle_set / P->H reshuffle_echo /
  H->P reshuffle_reveal_req / P->H reshuffle_reveal
                  the re-shuffle of the unknown tiles when the escrow cannot be rebuilt (reshuffle.py)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    TILES,
    Action,
    DealVoided,
    End,
    Event,
    HandEnd,
    HandEnded,
    HandStarted,
    HandTally,
    MatchEnd,
    MatchEnded,
    Passed,
    Play,
    PointsScored,
    Resigned,
    Tile,
    TileDrawn,
    TilePlayed,
    parse_tile,
)
from lanomino.engine.errors import EngineError
from lanomino.net.chunks import MAX_PARTS, PART_BYTES
from lanomino.net.codec import (
    ENVELOPE_KEYS,
    MAX_COUNTER,
    PROTOCOL_VERSION,
    Envelope,
    parse_envelope,
)
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError

MAX_NAME = 32
MAX_SEATS = 4
MAX_TEXT = 300
MAX_EVENTS = 64
MAX_HAND = 2**31 - 1
MAX_ATTEMPTS = 16
MAX_MOVES = 1000

Check = Callable[[Any, str], Any]


# ----- field checks: each returns the value or raises RemoteProtocolError naming the field -----


def _fail(where: str, what: str, value: Any) -> RemoteProtocolError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return RemoteProtocolError(f"field {where!r}: expected {what}, got {shown}")


def integer(lo: int, hi: int) -> Check:
    def check(value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise _fail(where, f"an integer {lo}..{hi}", value)
        return value

    return check


def text(max_len: int, pattern: str | None = None) -> Check:
    regex = re.compile(pattern) if pattern else None

    def check(value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) > max_len:
            raise _fail(where, f"a string of at most {max_len} characters", value)
        if regex is not None and not regex.fullmatch(value):
            raise _fail(where, "a string in the expected form", value)
        return value

    return check


def hexbytes(size: int) -> Check:
    regex = re.compile(f"[0-9a-f]{{{2 * size}}}")

    def check(value: Any, where: str) -> bytes:
        if not isinstance(value, str) or not regex.fullmatch(value):
            raise _fail(where, f"{size} bytes as lowercase hex", value)
        return bytes.fromhex(value)

    return check


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def listof(item: Check, max_items: int) -> Check:
    def check(value: Any, where: str) -> list[Any]:
        if not isinstance(value, list) or len(value) > max_items:
            raise _fail(where, f"a list of at most {max_items} items", value)
        try:
            return [item(v, where) for v in value]  # no label per item unless one is wrong
        except RemoteProtocolError:
            return [item(v, f"{where}[{i}]") for i, v in enumerate(value)]  # raises, naming it

    return check


def obj(value: Any, where: str) -> dict[str, Any]:
    """Any JSON object: the handler checks it further (a transcript entry, a header)."""
    if not isinstance(value, dict):
        raise _fail(where, "an object", value)
    return value


def optional(inner: Check) -> Check:
    def check(value: Any, where: str) -> Any:
        return None if value is None else inner(value, where)

    return check


def name_text(value: Any, where: str) -> str:
    name = text(MAX_NAME)(value, where)
    if not name.strip() or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise _fail(where, "a printable name", value)
    return str(name)


def pair(first: Check, second: Check) -> Check:
    def check(value: Any, where: str) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise _fail(where, "a pair", value)
        return first(value[0], f"{where}[0]"), second(value[1], f"{where}[1]")

    return check


SEAT = integer(0, MAX_SEATS - 1)
HAND = integer(1, MAX_HAND)
COUNT = integer(0, MAX_HAND)
KEY32 = hexbytes(32)
SIG = hexbytes(64)
CURVE = text(40, r"[0-9a-zA-Z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}")
TILE_TEXT = text(5, r"[0-9]{1,2}-[0-9]{1,2}")
CODE = text(32, r"[a-z][a-z_]*")
ADDR = text(64, r"[0-9A-Za-z.:\[\]-]+:[0-9]{1,5}")  # where a seat would host, IP:PORT

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
    "welcome": {"seat": SEAT, "seats": integer(2, MAX_SEATS), "roster": ROSTER, "rules": obj},
    "refused": {"code": CODE, "reason": text(MAX_TEXT)},
    "roster": {"roster": ROSTER, "seats": integer(2, MAX_SEATS)},
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
    "snapshot": {"seat": SEAT, "roster": ROSTER, "seats": integer(2, MAX_SEATS), "rules": obj,
                 "transcript": optional(obj), "play": optional(obj)},
    "error": {"code": CODE, "message": text(MAX_TEXT), "ref": COUNT},
    "bye": {"reason": text(MAX_TEXT)},
    "report": {"hand": COUNT, "moves": listof(obj, MAX_MOVES), "signatures": listof(SIG, MAX_MOVES),
               "escrow": optional(obj), "claim": optional(obj), "last": optional(obj)},
    # the re-shuffle round after a migration whose escrow cannot be rebuilt (net/reshuffle.py)
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


def check_fields(body: Mapping[str, Any], schema: Mapping[str, Check], where: str = "body") -> dict[str, Any]:
    """Every field of ``schema`` present and valid, nothing else. Raises RemoteProtocolError."""
    if body.keys() != schema.keys():
        missing = [k for k in schema if k not in body]
        if missing:
            raise RemoteProtocolError(f"{where}: missing field {missing[0]!r}")
        extra = sorted(k for k in body if k not in schema)
        raise RemoteProtocolError(f"{where}: unknown field {extra[0]!r}")
    try:  # checks are pure: label the fields only when one is wrong (then check again, naming it)
        return {k: check(body[k], k) for k, check in schema.items()}
    except RemoteProtocolError:
        if where == "body":
            raise
        return {k: check(body[k], f"{where}.{k}") for k, check in schema.items()}


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


# ----- game values as JSON ------------------------------------------------------------------


_TILE_BY_TEXT: dict[str, Tile] = {str(t): t for t in TILES}  # exactly the texts accepted below
_END_BY_TEXT: dict[str, End] = {str(e): e for e in End}


def tile_from_text(value: Any, where: str) -> Tile:
    tile = _TILE_BY_TEXT.get(value) if type(value) is str else None
    if tile is not None:
        return tile
    try:
        tile = parse_tile(TILE_TEXT(value, where))
    except EngineError:
        raise _fail(where, "a tile like 6-4", value) from None
    if str(tile) != value:
        raise _fail(where, "a tile written higher number first", value)
    return tile


def tiles_from_text(values: list[Any], where: str) -> tuple[Tile, ...]:
    tiles = tuple(tile_from_text(v, f"{where}[{i}]") for i, v in enumerate(values))
    if len(set(tiles)) != len(tiles):
        raise RemoteProtocolError(f"field {where!r}: a tile is listed twice")
    return tiles


def _end(value: Any, where: str) -> End:
    end = _END_BY_TEXT.get(value) if type(value) is str else None
    if end is not None:
        return end
    try:
        return End.parse(text(5)(value, where))
    except ValueError:
        raise _fail(where, "left, right, up or down", value) from None


def parse_move(move: Any, seat: int, where: str = "move") -> Action:
    """A move in the record's JSON form for ``seat``. Raises RemoteProtocolError."""
    if not isinstance(move, dict) or move.get("seat") != seat or isinstance(move.get("seat"), bool):
        raise RemoteProtocolError(f"field {where!r}: expected a move by seat {seat}")
    kinds = set(move) - {"seat", "end"}
    if len(kinds) != 1:
        raise RemoteProtocolError(f"field {where!r}: a move is one of play, draw, pass, resign")
    kind = kinds.pop()
    if kind == "play":
        tile = tile_from_text(move["play"], f"{where}.play")
        return Play(tile, _end(move["end"], f"{where}.end") if "end" in move else None)
    actions: dict[str, Action] = {"draw": DRAW, "pass": PASS, "resign": RESIGN}
    if kind not in actions or move[kind] is not True or "end" in move:
        raise RemoteProtocolError(f"field {where!r}: a move is one of play, draw, pass, resign")
    return actions[kind]


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an engine event (tiles as "6-4", ends as names)."""
    kind = type(event)
    if kind is TilePlayed:
        e = event
        assert isinstance(e, TilePlayed)
        return {"e": "played", "seat": e.seat, "tile": str(e.tile), "end": str(e.end), "first": e.first,
                "exposed": e.exposed, "spinner": e.spinner}
    if kind is TileDrawn:
        assert isinstance(event, TileDrawn)
        return {"e": "drawn", "seat": event.seat, "tile": None if event.tile is None else str(event.tile),
                "ends": list(event.ends), "boneyard": event.boneyard}
    if kind is Passed:
        assert isinstance(event, Passed)
        return {"e": "passed", "seat": event.seat, "ends": list(event.ends)}
    if kind is PointsScored:
        assert isinstance(event, PointsScored)
        return {"e": "scored", "side": event.side, "points": event.points, "reason": event.reason}
    if kind is Resigned:
        assert isinstance(event, Resigned)
        return {"e": "resigned", "seat": event.seat}
    if kind is HandStarted:
        assert isinstance(event, HandStarted)
        return {"e": "started", "hand": event.hand, "opener": event.opener,
                "must_lead": None if event.must_lead is None else str(event.must_lead),
                "sizes": list(event.hand_sizes), "boneyard": event.boneyard}
    if kind is DealVoided:
        assert isinstance(event, DealVoided)
        return {"e": "voided", "hand": event.hand}
    if kind is HandEnded:
        assert isinstance(event, HandEnded)
        return {"e": "hand_ended", "hand": event.hand, "end": event.end, "winner": event.winner,
                "points": list(event.points), "pips_left": list(event.pips_left),
                "hands": [_tiles(h) for h in event.hands], "tally": _tally_to_json(event.tally)}
    assert isinstance(event, MatchEnded)
    return {"e": "match_ended", "winner": event.winner, "scores": list(event.scores),
            "standings": list(event.standings), "why": str(event.why)}


def _tally_to_json(c: HandTally) -> dict[str, Any]:
    return {"seat": c.seat, "others": c.others, "own": c.own, "counted": c.counted,
            "earned": c.earned, "tied": list(c.tied),
            "lightest": None if c.lightest is None else str(c.lightest)}


def _tally(value: Any, where: str) -> HandTally:
    f = check_fields(obj(value, where), _TALLY_FIELDS, where)
    lightest = None if f["lightest"] is None else tile_from_text(f["lightest"], f"{where}.lightest")
    return HandTally(f["seat"], f["others"], f["own"], f["counted"], f["earned"], tuple(f["tied"]),
                     lightest)


def _choice(kind: type[HandEnd] | type[MatchEnd]) -> Check:
    def check(value: Any, where: str) -> Any:
        try:
            return kind(value)
        except ValueError:
            raise _fail(where, f"one of {', '.join(kind)}", value) from None

    return check


_SMALL = integer(-(2**31), 2**31 - 1)
_NUMBER = integer(-1, 12)
_PIPS = integer(0, 200)
_TALLY_FIELDS: dict[str, Check] = {
    "seat": optional(SEAT), "others": _PIPS, "own": _PIPS, "counted": _PIPS, "earned": _PIPS,
    "tied": listof(SEAT, MAX_SEATS), "lightest": optional(TILE_TEXT),
}
_EVENT_FIELDS: dict[str, dict[str, Check]] = {
    "played": {"seat": SEAT, "tile": TILE_TEXT, "end": text(5), "first": boolean, "exposed": _NUMBER,
               "spinner": boolean},
    "drawn": {"seat": SEAT, "tile": optional(TILE_TEXT), "ends": listof(_NUMBER, 4), "boneyard": integer(0, 28)},
    "passed": {"seat": SEAT, "ends": listof(_NUMBER, 4)},
    "scored": {"side": SEAT, "points": _SMALL, "reason": text(16)},
    "resigned": {"seat": SEAT},
    "started": {"hand": HAND, "opener": SEAT, "must_lead": optional(TILE_TEXT),
                "sizes": listof(integer(0, 28), MAX_SEATS), "boneyard": integer(0, 28)},
    "voided": {"hand": HAND},
    "hand_ended": {"hand": HAND, "end": _choice(HandEnd), "winner": optional(SEAT),
                   "points": listof(_SMALL, MAX_SEATS),
                   "pips_left": listof(optional(_PIPS), MAX_SEATS),
                   "hands": listof(listof(TILE_TEXT, 28), MAX_SEATS), "tally": _tally},
    "match_ended": {"winner": optional(SEAT), "scores": listof(_SMALL, MAX_SEATS),
                    "standings": listof(SEAT, MAX_SEATS), "why": _choice(MatchEnd)},
}


def _event_kind(value: Any, where: str) -> str:
    return str(value)  # already looked up in _EVENT_FIELDS by event_from_json


# Each event's fields plus its "e" (so the object is checked as it is, without a copy).
_EVENT_SCHEMAS: dict[str, dict[str, Check]] = {
    kind: {"e": _event_kind, **fields} for kind, fields in _EVENT_FIELDS.items()
}


def event_from_json(value: Any, where: str = "event") -> Event:
    """An engine event from its JSON form. Raises RemoteProtocolError naming the field."""
    raw = obj(value, where)
    kind = raw.get("e")
    schema = _EVENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise RemoteProtocolError(f"field {where!r}: unknown event {kind!r}")
    f = check_fields(raw, schema, where)
    if kind == "played":
        return TilePlayed(f["seat"], tile_from_text(f["tile"], f"{where}.tile"), _end(f["end"], f"{where}.end"),
                          f["first"], f["exposed"], f["spinner"])
    if kind == "drawn":
        tile = None if f["tile"] is None else tile_from_text(f["tile"], f"{where}.tile")
        return TileDrawn(f["seat"], tile, tuple(f["ends"]), f["boneyard"])
    if kind == "passed":
        return Passed(f["seat"], tuple(f["ends"]))
    if kind == "scored":
        return PointsScored(f["side"], f["points"], f["reason"])
    if kind == "resigned":
        return Resigned(f["seat"])
    if kind == "started":
        lead = None if f["must_lead"] is None else tile_from_text(f["must_lead"], f"{where}.must_lead")
        return HandStarted(f["hand"], f["opener"], lead, tuple(f["sizes"]), f["boneyard"])
    if kind == "voided":
        return DealVoided(f["hand"])
    if kind == "hand_ended":
        hands = tuple(tiles_from_text(h, f"{where}.hands[{i}]") for i, h in enumerate(f["hands"]))
        return HandEnded(f["hand"], f["end"], f["winner"], tuple(f["points"]), tuple(f["pips_left"]),
                         hands, f["tally"])
    return MatchEnded(f["winner"], tuple(f["scores"]), tuple(f["standings"]), f["why"])


def events_from_json(values: list[Any], where: str = "events") -> list[Event]:
    return [event_from_json(v, f"{where}[{i}]") for i, v in enumerate(values)]
