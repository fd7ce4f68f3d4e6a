"""The field checks every message body is validated with: each returns the value, or raises
``RemoteProtocolError`` naming the field. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from lanomino.net.errors import RemoteProtocolError

MAX_NAME = 32
MAX_SEATS = 4
MAX_TEXT = 300
MAX_EVENTS = 64
MAX_HAND = 2**31 - 1
MAX_ATTEMPTS = 16
MAX_MOVES = 1000

Check = Callable[[Any, str], Any]
JsonObject = dict[str, Any]  # a JSON object as parsed (the boundary: checked where it is used)


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
    def check(value: Any, where: str) -> bytes:
        # exactly 2 * size lowercase hex digits: what bytes.fromhex(...).hex() gives back unchanged
        # (no space, no capital); a third of a regex's time, on every signature on the move path
        if isinstance(value, str) and len(value) == 2 * size:
            try:
                raw = bytes.fromhex(value)
            except ValueError:
                raw = b""
            if raw.hex() == value:
                return raw
        raise _fail(where, f"{size} bytes as lowercase hex", value)

    return check


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, "true or false", value)
    return value


def listof(item: Check, max_items: int) -> Check:
    def check(value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) > max_items:
            raise _fail(where, f"a list of at most {max_items} items", value)
        try:
            return tuple([item(v, where) for v in value])  # no label per item unless one is wrong
        except RemoteProtocolError:
            # raises, naming the item
            return tuple([item(v, f"{where}[{i}]") for i, v in enumerate(value)])

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
VIEWER = integer(-1, MAX_SEATS - 1)  # a seat, or -1: a watcher (net/watchers.py)
MAX_WATCHERS = 64
HAND = integer(1, MAX_HAND)
COUNT = integer(0, MAX_HAND)
KEY32 = hexbytes(32)
SIG = hexbytes(64)
CURVE = text(40, r"[0-9a-zA-Z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}")
TILE_TEXT = text(5, r"[0-9]{1,2}-[0-9]{1,2}")
CODE = text(32, r"[a-z][a-z_]*")
ADDR = text(64, r"[0-9A-Za-z.:\[\]-]+:[0-9]{1,5}")  # where a seat would host, IP:PORT

def check_fields(body: Mapping[str, Any], schema: Mapping[str, Check],
                 where: str = "body") -> dict[str, Any]:
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

