"""Canonical JSON and the small encodings every signed statement uses.

Canonical JSON: keys sorted, no spaces (separators "," and ":"), UTF-8 without escaping
non-ASCII, no floats. Byte strings travel as lowercase hex. Every signature in a transcript is an
Ed25519 signature over the canonical JSON of a statement object whose "type" names what it is.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> bytes:
    """The canonical UTF-8 encoding of ``value`` (see the module docstring)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical JSON of ``value``."""
    return hashlib.sha256(canonical_json(value)).digest()


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")
