"""Reading a locked hand's record (``lanomino.blind-hand/1``) field by field, strictly: a record
says each thing one way only, so that the same record cannot be written two ways that sign alike.
Pure. Used by hand_record.py and unheld_record.py; each raises BlindError naming the field."""

from __future__ import annotations

from typing import Any

from lanomino.blind.group import BlindError


def hex_of(value: object, what: str) -> bytes:
    if not isinstance(value, str) or value.lower() != value or " " in value:
        raise BlindError(f"{what} must be a lowercase hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise BlindError(f"{what} is not hex") from None


def fields_of(entry: object, what: str, required: set[str], optional: frozenset[str] = frozenset()
            ) -> dict[str, object]:
    """``entry`` as an object with exactly the ``required`` fields and perhaps the ``optional``:
    a record says each thing one way only."""
    if not isinstance(entry, dict):
        raise BlindError(f"{what} must be an object")
    missing, extra = required - set(entry), set(entry) - required - optional
    if missing or extra:
        field = sorted(missing)[0] if missing else sorted(extra)[0]
        raise BlindError(f"{what}: {'missing' if missing else 'unknown'} field {field!r}")
    return entry


def int_of(value: object, what: str, low: int = 0, high: int = 2**32 - 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BlindError(f"{what} must be a whole number {low}..{high}")
    return value


def list_of(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise BlindError(f"{what} must be a list")
    return value
