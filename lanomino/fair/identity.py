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
# signatures a session's KeyRing remembers (``KeyRing``): a hand's checks (about 50 in a hand of
# four) many times over, so that every one made while a hand is played is still held at its end
SESSION_REMEMBERS = 2048


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
    """Verifies signatures, loading each public key once.

    ``remember``: how many of the signatures that verified it keeps, each with its key and the
    exact bytes it signs, so that the same check asked again is answered from memory rather than
    by the Ed25519 arithmetic (a session checks each move as it arrives, and its verifier checks
    the same signature over the same statement again in the hand's log). Only a check that held is
    kept, and only an identical one is answered from it: the answer is the one the arithmetic
    gave. The oldest go first past ``remember``; 0 (the default) keeps none."""

    def __init__(self, remember: int = 0) -> None:
        self._keys: dict[bytes, Ed25519PublicKey | None] = {}
        self._remember = remember
        self._held: dict[tuple[bytes, bytes, bytes], None] = {}  # (key, signature, message)
        self.recalled = 0  # checks answered from memory (a benchmark counts them)

    def verify(self, public_key: bytes, signature: bytes, message: bytes) -> bool:
        """True when ``signature`` is ``public_key``'s valid signature of ``message``."""
        seen = (public_key, signature, message)
        remember = self._remember > 0 and all(type(part) is bytes for part in seen)
        if remember and seen in self._held:
            self.recalled += 1
            return True
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
        if remember:
            self._held[seen] = None
            if len(self._held) > self._remember:
                del self._held[next(iter(self._held))]
        return True

    def verify_statement(self, public_key: bytes, signature: bytes,
                         statement: dict[str, Any]) -> bool:
        return self.verify(public_key, signature, canonical_json(statement))
