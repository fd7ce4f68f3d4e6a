"""Identities: Ed25519 key pairs, peer ids derived from public keys, signing statements."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from lanomino.fair.canonical import canonical_json

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


def peer_id(public_key: bytes) -> str:
    """A short stable name for a peer: the first 16 hex digits of a domain-separated hash."""
    return hashlib.sha256(b"lanomino.peer/1\x00" + public_key).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Identity:
    """A peer's Ed25519 key pair."""

    private_key: Ed25519PrivateKey = field(repr=False)
    public_key: bytes = field(init=False)

    def __post_init__(self) -> None:
        raw = self.private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        object.__setattr__(self, "public_key", raw)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """The identity whose 32-byte Ed25519 private seed is ``seed``. Raises ValueError."""
        if len(seed) != 32:
            raise ValueError("an Ed25519 seed is 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def peer_id(self) -> str:
        return peer_id(self.public_key)

    def seed(self) -> bytes:
        """The 32-byte private seed (``from_seed`` gives this identity back). Keep it secret."""
        return self.private_key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, message: bytes) -> bytes:
        return self.private_key.sign(message)

    def sign_statement(self, statement: dict[str, Any]) -> bytes:
        """Sign the canonical JSON of ``statement``."""
        return self.sign(canonical_json(statement))

    def __repr__(self) -> str:
        return f"Identity(peer_id={self.peer_id!r})"


class KeyRing:
    """Verifies signatures, loading each public key once."""

    def __init__(self) -> None:
        self._keys: dict[bytes, Ed25519PublicKey | None] = {}

    def verify(self, public_key: bytes, signature: bytes, message: bytes) -> bool:
        """True when ``signature`` is ``public_key``'s valid signature of ``message``."""
        key = self._keys.get(public_key, False)
        if key is False:
            try:
                key = Ed25519PublicKey.from_public_bytes(public_key)
            except ValueError:
                key = None
            self._keys[public_key] = key
        if key is None or len(signature) != SIGNATURE_BYTES:
            return False
        assert isinstance(key, Ed25519PublicKey)
        try:
            key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def verify_statement(self, public_key: bytes, signature: bytes,
                         statement: dict[str, Any]) -> bool:
        return self.verify(public_key, signature, canonical_json(statement))
