"""Who a table is, for a joiner who has only its address: the signed answer of the key service.

CURVE needs the host's public key before the first byte, and a person joining by ``HOST:PORT``
does not have it. So the host answers anyone who asks with one line: the table's name, the game
port, its CURVE key for this table, and its long-lived identity key, signed by that identity. The
answer proves only that whoever holds the identity vouches for the CURVE key; the joiner decides
whether that identity is the host it means, by the code from the host's screen (the start of the
fingerprint), by a host remembered from before, or by comparing the fingerprint both screens show.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from lanomino.discovery.announce import check_name
from lanomino.fair.identity import Identity, KeyRing
from lanomino.net.keys import key_fingerprint, raw_to_z85, z85_to_raw

FORMAT = "lanomino.table-key/1"
MAX_ANSWER_BYTES = 512
CODE_MIN = 8  # hex digits of the fingerprint a code must give (32 bits: no guessing it live)
_CODE_RE = re.compile(r"[0-9a-fA-F-]{8,19}")


@dataclass(frozen=True, slots=True)
class TableKey:
    """A table's signed answer: its name, game port, CURVE key (Z85) and host identity key."""

    name: str
    port: int
    curve: str
    identity: bytes

    @property
    def fingerprint(self) -> str:
        """The host's fingerprint, as its screen shows it ("3f9a-0c12-77de-b401")."""
        return identity_fingerprint(self.identity)


def identity_fingerprint(identity_key: bytes) -> str:
    """The fingerprint people compare: of the host's long-lived identity key."""
    return key_fingerprint(raw_to_z85(identity_key))


def _statement(name: str, port: int, curve: str) -> dict[str, object]:
    return {"type": FORMAT, "name": name, "port": port, "curve": curve}


def encode_answer(identity: Identity, name: str, port: int, curve: str) -> bytes:
    """The key service's one line (signed by ``identity``). Raises ValueError for a bad value."""
    check_name(name)
    z85_to_raw(curve)
    signature = identity.sign_statement(_statement(name, port, curve))
    line = json.dumps({"format": FORMAT, "name": name, "port": port, "curve": curve,
                       "identity": identity.public_key.hex(), "signature": signature.hex()})
    data = line.encode("utf-8") + b"\n"
    if len(data) > MAX_ANSWER_BYTES:
        raise ValueError("the table's key answer is too long")
    return data


def parse_answer(data: bytes, port: int) -> TableKey:
    """Check an answer read from the key service next to game port ``port``.

    Raises:
        ValueError: not an answer, a field out of shape, another port, or a bad signature.
    """
    if len(data) > MAX_ANSWER_BYTES:
        raise ValueError("the answer is too long")
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("the answer is not a lanomino table's") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise ValueError("the answer is not a lanomino table's")
    name, curve, at = body.get("name"), body.get("curve"), body.get("port")
    identity, signature = _hex(body.get("identity"), 32), _hex(body.get("signature"), 64)
    if not isinstance(name, str) or not isinstance(curve, str) or type(at) is not int:
        raise ValueError("the answer is missing its name, port or key")
    check_name(name)
    z85_to_raw(curve)
    if at != port:
        raise ValueError(f"the answer is for port {at}, not {port}")
    if not KeyRing().verify_statement(identity, signature, _statement(name, at, curve)):
        raise ValueError("the answer's signature does not verify")
    return TableKey(name, at, curve, identity)


def _hex(value: object, size: int) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ValueError("the answer's keys are out of shape")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError("the answer's keys are out of shape") from None


def join_code(fingerprint: str) -> str:
    """The code a host's screen shows for ``HOST:PORT/CODE``: the fingerprint's first digits."""
    return fingerprint.replace("-", "")[:CODE_MIN]


def is_code(text: str) -> bool:
    """A short code typed from the host's screen (8 to 16 hex digits of the fingerprint)."""
    return bool(_CODE_RE.fullmatch(text)) and CODE_MIN <= len(text.replace("-", "")) <= 16


def matches_code(key: TableKey, code: str) -> bool:
    """True when ``code`` is the start of the host's fingerprint (dashes and case do not count)."""
    digits = code.replace("-", "").lower()
    return len(digits) >= CODE_MIN and key.fingerprint.replace("-", "").startswith(digits)
