"""The wire format: versioned JSON envelopes. Pure.

Every message on the wire is one UTF-8 JSON object, at most ``MAX_MESSAGE_BYTES`` long::

    {"v": 1, "type": "move", "term": 3, "seq": 17, "body": {...}}

``v`` is the protocol version, ``type`` names the message, ``term`` is the host's term (host
migration bumps it), ``seq`` is the sender's per-peer sequence number and ``body`` is a JSON object
whose fields each message type validates (``net/wire/``). Nothing else is
allowed at the top level. Parsing is strict: duplicate keys, NaN/Infinity, booleans posing as
integers, over-deep nesting and oversize input are all refused with ``RemoteProtocolError``. We
never pickle.

The CURVE key text and direct addresses are in ``net/keys.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lanomino.net.errors import LocalProtocolError, RemoteProtocolError

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_COUNTER = 2**53 - 1  # term and seq stay exact in any JSON implementation

_TYPE_RE = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
ENVELOPE_KEYS = frozenset({"v", "type", "term", "seq", "body"})
_ENVELOPE_KEYS = ENVELOPE_KEYS


@dataclass(frozen=True, slots=True)
class Envelope:
    """One protocol message: its type, the sender's view of the term, its sequence number, body."""

    type: str
    term: int
    seq: int
    body: Mapping[str, Any] = field(default_factory=dict)
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        problem = _envelope_problem(self.type, self.term, self.seq, self.body, self.version)
        if problem is not None:
            raise LocalProtocolError(problem)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object sent on the wire."""
        return {
            "v": self.version,
            "type": self.type,
            "term": self.term,
            "seq": self.seq,
            "body": dict(self.body),
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _envelope_problem(
    type_: object, term: object, seq: object, body: object, version: object
) -> str | None:
    if not _is_int(version) or version != PROTOCOL_VERSION:
        return f"unsupported protocol version {version!r} (this side speaks {PROTOCOL_VERSION})"
    if not isinstance(type_, str) or not _TYPE_RE.match(type_):
        return f"bad message type {type_!r}"
    for name, value in (("term", term), ("seq", seq)):
        if not _is_int(value) or not 0 <= value <= MAX_COUNTER:  # type: ignore[operator]
            return f"bad {name} {value!r}: expected an integer 0..{MAX_COUNTER}"
    if not isinstance(body, Mapping) or not all(isinstance(k, str) for k in body):
        return "body must be a JSON object"
    return None


# Built once: json.dumps with options would build a new encoder per message.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def encode_json(obj: Mapping[str, Any], *, max_bytes: int = MAX_MESSAGE_BYTES) -> bytes:
    """Serialise one JSON object compactly as UTF-8.

    Raises:
        LocalProtocolError: not JSON-serialisable, NaN/Infinity, or longer than ``max_bytes``.
    """
    try:
        data = _ENCODER.encode(obj).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise LocalProtocolError(f"cannot encode message: {exc}") from None
    if len(data) > max_bytes:
        raise LocalProtocolError(f"message of {len(data)} bytes exceeds the {max_bytes}-byte limit")
    return data


_WRAPPED = ["v", "type", "term", "seq", "body"]  # an envelope's keys in the order wrap() makes


def encode_around(message: Mapping[str, Any], body: bytes, *,
                  max_bytes: int = MAX_MESSAGE_BYTES) -> bytes | None:
    """``encode_json(message)``, byte for byte, when ``body`` is ``encode_json(message["body"])``
    (one body sent to several peers is encoded once); None when ``message`` is not a plain
    envelope (its keys in order, integer v, term and seq, a type name): encode it whole.

    Raises:
        LocalProtocolError: longer than ``max_bytes``.
    """
    if list(message) != _WRAPPED:
        return None
    v, type_, term, seq = message["v"], message["type"], message["term"], message["seq"]
    if (type(v) is not int or type(term) is not int or type(seq) is not int
            or type(type_) is not str or not _TYPE_RE.match(type_)):
        return None
    data = b'{"v":%d,"type":"%s","term":%d,"seq":%d,"body":%s}' % (v, type_.encode(), term, seq,
                                                                    body)
    if len(data) > max_bytes:
        raise LocalProtocolError(f"message of {len(data)} bytes exceeds the {max_bytes}-byte limit")
    return data


def _reject_constant(name: str) -> Any:
    raise RemoteProtocolError(f"JSON constant {name} is not allowed")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise RemoteProtocolError(f"duplicate key {duplicate!r}")
    return result


# Built once: json.loads with hooks would build a new decoder per message.
_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)


def _depth(value: Any, limit: int) -> int:
    """How many objects/arrays deep a parsed JSON value nests, stopping once past ``limit``.
    (Level by level, with plain type tests: a hand's log is walked on every peer, on the path of
    the move that ended the hand.)"""
    level, rank = 0, [value]
    while rank and level <= limit:
        level += 1
        below: list[Any] = []
        for item in rank:
            for child in item.values() if type(item) is dict else item:
                if type(child) is dict or type(child) is list:
                    below.append(child)
        rank = below
    return level


def decode_json(data: bytes, *, max_bytes: int = MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """Parse one untrusted JSON object.

    Raises:
        RemoteProtocolError: oversize, not UTF-8, not JSON, not an object, duplicate keys,
            NaN/Infinity, or nested deeper than ``MAX_DEPTH``.
    """
    if isinstance(data, bytearray | memoryview):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise RemoteProtocolError(f"expected bytes, got {type(data).__name__}")
    if len(data) > max_bytes:
        raise RemoteProtocolError(
            f"message of {len(data)} bytes exceeds the {max_bytes}-byte limit"
        )
    try:
        text = data.decode("utf-8")
        obj = _DECODER.decode(text)
    except RemoteProtocolError:
        raise
    except UnicodeDecodeError:
        raise RemoteProtocolError("message is not UTF-8") from None
    except RecursionError:
        raise RemoteProtocolError("message is nested too deeply") from None
    except ValueError as exc:
        raise RemoteProtocolError(f"message is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise RemoteProtocolError(f"message must be a JSON object, not {type(obj).__name__}")
    # Only a message with more than MAX_DEPTH brackets can nest that deep: skip the walk otherwise.
    containers = data.count(b"{") + data.count(b"[")
    if containers > MAX_DEPTH and _depth(obj, MAX_DEPTH) > MAX_DEPTH:
        raise RemoteProtocolError(f"message is nested deeper than {MAX_DEPTH} levels")
    return obj


def parse_envelope(obj: Mapping[str, Any], known_types: frozenset[str] | None = None) -> Envelope:
    """Check a parsed JSON object is a valid envelope of a known type and build it.

    ``known_types`` None accepts any well-formed type name (for relays and tests).

    Raises:
        RemoteProtocolError: a missing, extra or ill-typed field, or an unknown type.
    """
    keys = set(obj)
    if keys != _ENVELOPE_KEYS:
        missing = sorted(_ENVELOPE_KEYS - keys)
        extra = sorted(keys - _ENVELOPE_KEYS)
        raise RemoteProtocolError(f"bad envelope: missing {missing}, unexpected {extra}")
    problem = _envelope_problem(obj["type"], obj["term"], obj["seq"], obj["body"], obj["v"])
    if problem is not None:
        raise RemoteProtocolError(problem)
    if known_types is not None and obj["type"] not in known_types:
        raise RemoteProtocolError(f"unknown message type {obj['type']!r}")
    # Checked just above: build it without __post_init__ checking the same fields again.
    envelope = object.__new__(Envelope)
    for name in ("type", "term", "seq", "body"):
        object.__setattr__(envelope, name, obj[name])
    object.__setattr__(envelope, "version", obj["v"])
    return envelope


def encode(envelope: Envelope, *, max_bytes: int = MAX_MESSAGE_BYTES) -> bytes:
    """Serialise an envelope for the wire.

    Raises:
        LocalProtocolError: the body is not JSON-serialisable or the result is too long.
    """
    return encode_json(envelope.to_dict(), max_bytes=max_bytes)


def decode(
    data: bytes,
    known_types: frozenset[str] | None = None,
    *,
    max_bytes: int = MAX_MESSAGE_BYTES,
) -> Envelope:
    """Parse and validate one envelope from the wire.

    Raises:
        RemoteProtocolError: anything wrong with it (see ``decode_json`` and ``parse_envelope``).
    """
    return parse_envelope(decode_json(data, max_bytes=max_bytes), known_types)
