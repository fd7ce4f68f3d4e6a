"""CURVE key text, fingerprints and direct addresses. Pure.

CURVE keys travel in two spellings: Z85 (40 characters, what libzmq and the discovery TXT record
use) and, in a direct ``HOST:PORT/KEY`` address a person types or pastes, lowercase base32 (52
characters, shell-safe). A direct address carries the host's whole public key, so a peer that
joins without discovery still authenticates the host: the key is the fingerprint.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

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
