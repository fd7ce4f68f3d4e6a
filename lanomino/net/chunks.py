"""Bodies too large for one message travel in parts: ``snapshot_part``. Pure.

Every message is at most ``MAX_MESSAGE_BYTES`` (256 kB) on the wire. A snapshot carries the match's
transcript so far, about 7 kB a hand, so past about 35 hands it no longer fits: a peer that
restarted late in a long match could never catch up. So a body over ``INLINE_BYTES`` is encoded once
(compact JSON, UTF-8), cut into ``PART_BYTES`` slices and sent as that many ``snapshot_part``
messages, each with its slice in base64 (4/3 of the slice: 200 kB, under the limit whatever the text
holds). They travel in order on the one connection; the receiver's ``Reassembler`` joins them and
parses the whole as one untrusted JSON object (``codec.decode_json``, bounded by
``MAX_PARTS * PART_BYTES``, 24 MB, about 3,500 hands) and the caller validates it as the message it
stands for. A new first part discards an unfinished transfer; a part out of order, or a transfer
over the bound, is refused and forgotten.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any, TypedDict

from lanomino.net.codec import MAX_MESSAGE_BYTES, decode_json, encode_json
from lanomino.net.errors import RemoteProtocolError

PART_BYTES = 150 * 1024
MAX_PARTS = 160
INLINE_BYTES = MAX_MESSAGE_BYTES - 16 * 1024  # room for the envelope around a body
MAX_BODY_BYTES = MAX_PARTS * PART_BYTES

assert PART_BYTES * 4 // 3 + 1024 < MAX_MESSAGE_BYTES

__all__ = ["INLINE_BYTES", "MAX_PARTS", "PART_BYTES", "PartJson", "Reassembler", "split_body"]


class PartJson(TypedDict):
    """The body of one ``snapshot_part``: its slice (``data``, base64) and where it goes."""

    part: int
    parts: int
    data: str


def split_body(body: Mapping[str, object],
               inline_bytes: int = INLINE_BYTES) -> list[PartJson]:
    """The bodies of the part messages for ``body``; empty when it fits in one message.

    Raises:
        LocalProtocolError: the body is not JSON, or longer than ``MAX_BODY_BYTES``.
    """
    data = encode_json(body, max_bytes=MAX_BODY_BYTES)
    if len(data) <= inline_bytes:
        return []
    slices = [data[i:i + PART_BYTES] for i in range(0, len(data), PART_BYTES)]
    return [{"part": n, "parts": len(slices), "data": base64.b64encode(s).decode("ascii")}
            for n, s in enumerate(slices)]


class Reassembler:
    """Joins the parts of one body at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._expected = 0

    @property
    def pending(self) -> int:
        """How many bytes of an unfinished body are held."""
        return sum(len(p) for p in self._parts)

    def add(self, part: int, parts: int, data: str) -> dict[str, Any] | None:
        """Take one part; the whole body once its last part is in, else None.

        Raises:
            RemoteProtocolError: a part out of order, too many parts, bad base64 or bad JSON
                (what was gathered is forgotten).
        """
        if part == 0:
            self._parts, self._expected = [], parts
        try:
            if not 1 <= parts <= MAX_PARTS or parts != self._expected or part != len(self._parts):
                raise RemoteProtocolError(f"part {part + 1} of {parts} is out of order")
            try:
                chunk = base64.b64decode(data.encode("ascii"), validate=True)
            except (binascii.Error, UnicodeEncodeError):
                raise RemoteProtocolError(f"part {part + 1} is not base64") from None
            if len(chunk) > PART_BYTES:
                raise RemoteProtocolError(f"part {part + 1} is larger than {PART_BYTES} bytes")
            self._parts.append(chunk)
            if len(self._parts) < parts:
                return None
            whole = b"".join(self._parts)
            self._parts, self._expected = [], 0
            return decode_json(whole, max_bytes=MAX_BODY_BYTES)
        except RemoteProtocolError:
            self._parts, self._expected = [], 0
            raise
