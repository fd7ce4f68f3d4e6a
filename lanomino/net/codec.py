"""The wire format: versioned JSON envelopes, CURVE key text, direct addresses. Pure.

Every message on the wire is one UTF-8 JSON object, at most ``MAX_MESSAGE_BYTES`` long::

    {"v": 1, "type": "move", "term": 3, "seq": 17, "body": {...}}

``v`` is the protocol version, ``type`` names the message, ``term`` is the host's term (host
migration bumps it), ``seq`` is the sender's per-peer sequence number and ``body`` is a JSON object
whose fields each message type validates with the ``field_*`` helpers below. Nothing else is
allowed at the top level. Parsing is strict: duplicate keys, NaN/Infinity, booleans posing as
integers, over-deep nesting and oversize input are all refused with ``RemoteProtocolError``. We
never pickle.

CURVE keys travel in two spellings: Z85 (40 characters, what libzmq and the discovery TXT record
use) and, in a direct ``HOST:PORT/KEY`` address a person types or pastes, lowercase base32 (52
characters, shell-safe). A direct address carries the host's whole public key, so a peer that
joins without discovery still authenticates the host: the key is the fingerprint.
"""

from __future__ import annotations

import base64
import hashlib
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


# ---- body field helpers: each raises RemoteProtocolError naming the field -------------------


def field_int(body: Mapping[str, Any], key: str, *, lo: int, hi: int) -> int:
    """An integer field within ``lo..hi`` (booleans are not integers)."""
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RemoteProtocolError(f"field {key!r}: expected an integer {lo}..{hi}, got {value!r}")
    return value


def field_str(
    body: Mapping[str, Any], key: str, *, max_len: int, pattern: re.Pattern[str] | None = None
) -> str:
    """A string field of at most ``max_len`` characters, optionally fully matching ``pattern``."""
    value = body.get(key)
    if not isinstance(value, str) or len(value) > max_len:
        raise RemoteProtocolError(f"field {key!r}: expected a string of at most {max_len} chars")
    if pattern is not None and not pattern.fullmatch(value):
        raise RemoteProtocolError(f"field {key!r}: {value!r} is not in the expected form")
    return value


def field_bool(body: Mapping[str, Any], key: str) -> bool:
    """A boolean field."""
    value = body.get(key)
    if not isinstance(value, bool):
        raise RemoteProtocolError(f"field {key!r}: expected true or false, got {value!r}")
    return value


def field_list(body: Mapping[str, Any], key: str, *, max_items: int) -> list[Any]:
    """A list field of at most ``max_items`` items (items are the caller's to check)."""
    value = body.get(key)
    if not isinstance(value, list) or len(value) > max_items:
        raise RemoteProtocolError(f"field {key!r}: expected a list of at most {max_items} items")
    return value


def field_object(body: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A JSON object field."""
    value = body.get(key)
    if not isinstance(value, dict):
        raise RemoteProtocolError(f"field {key!r}: expected an object")
    return value


# ---- CURVE keys as text ----------------------------------------------------------------------

Z85_ALPHABET = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
)
_Z85_INDEX = {c: i for i, c in enumerate(Z85_ALPHABET)}
CURVE_KEY_BYTES = 32
CURVE_KEY_Z85_LEN = 40


def z85_to_raw(key: str) -> bytes:
    """Decode a 40-character Z85 CURVE key to its 32 bytes.

    Raises:
        ValueError: wrong length, a character outside Z85, or a block that overflows 32 bits.
    """
    if not isinstance(key, str) or len(key) != CURVE_KEY_Z85_LEN:
        raise ValueError(f"a CURVE key is {CURVE_KEY_Z85_LEN} Z85 characters")
    out = bytearray()
    for start in range(0, CURVE_KEY_Z85_LEN, 5):
        value = 0
        for char in key[start : start + 5]:
            index = _Z85_INDEX.get(char)
            if index is None:
                raise ValueError(f"{char!r} is not a Z85 character")
            value = value * 85 + index
        if value >= 2**32:
            raise ValueError("not a valid Z85 key")
        out += value.to_bytes(4, "big")
    return bytes(out)


def raw_to_z85(raw: bytes) -> str:
    """Encode a 32-byte CURVE key as 40 Z85 characters."""
    if len(raw) != CURVE_KEY_BYTES:
        raise ValueError(f"a CURVE key is {CURVE_KEY_BYTES} bytes")
    chars: list[str] = []
    for start in range(0, CURVE_KEY_BYTES, 4):
        value = int.from_bytes(raw[start : start + 4], "big")
        block = []
        for _ in range(5):
            value, digit = divmod(value, 85)
            block.append(Z85_ALPHABET[digit])
        chars.extend(reversed(block))
    return "".join(chars)


def key_to_text(key_z85: str) -> str:
    """The shell-safe spelling of a CURVE public key (lowercase base32, 52 characters)."""
    return base64.b32encode(z85_to_raw(key_z85)).decode("ascii").rstrip("=").lower()


def key_from_text(text: str) -> str:
    """Parse a key typed by a person (base32 as from ``key_to_text``, or Z85) into Z85.

    Raises:
        ValueError: neither spelling of a 32-byte key.
    """
    if len(text) == CURVE_KEY_Z85_LEN:
        z85_to_raw(text)
        return text
    cleaned = text.strip().upper()
    if len(cleaned) != 52 or not re.fullmatch(r"[A-Z2-7]+", cleaned):
        raise ValueError("expected the host key as 52 base32 characters")
    return raw_to_z85(base64.b32decode(cleaned + "===="))


def key_fingerprint(key_z85: str) -> str:
    """A short fingerprint of a public key for people to compare ("3f9a-0c12-77de-b401")."""
    digest = hashlib.sha256(b"lanomino key fingerprint\0" + z85_to_raw(key_z85)).hexdigest()
    return "-".join(digest[i : i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True, slots=True)
class DirectAddress:
    """A table reached without discovery: ``HOST:PORT`` plus, ideally, the host's public key."""

    host: str
    port: int
    server_key: str | None = None  # Z85

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        text = f"{host}:{self.port}"
        return f"{text}/{key_to_text(self.server_key)}" if self.server_key else text


_HOST_RE = re.compile(r"\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]{1,253})")


def parse_direct_address(text: str) -> DirectAddress:
    """Parse ``HOST:PORT`` or ``HOST:PORT/KEY`` (IPv6 hosts in brackets).

    Raises:
        ValueError: the text is not in that form (the message says what is wrong).
    """
    address, slash, key_text = text.strip().partition("/")
    host_part, colon, port_text = address.rpartition(":")
    match = _HOST_RE.fullmatch(host_part) if colon else None
    if match is None:
        raise ValueError(f"{text!r}: expected HOST:PORT or HOST:PORT/KEY")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{text!r}: the port must be a number 1..65535")
    key = key_from_text(key_text) if slash else None
    return DirectAddress(match.group("v6") or match.group("name"), int(port_text), key)
