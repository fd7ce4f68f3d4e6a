"""One deal attempt's commit-reveal round as values, and its JSON: the one writer of that JSON,
for a transcript's deals (with the secrets) and for the hand in play on the wire (without). Pure.

``fair.transcript`` reads it back from a transcript, ``net.wire.fields`` from a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SignedCommitment:
    seat: int
    commitment: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Echo:
    seat: int
    set_digest: bytes
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "set": self.set_digest.hex(), "signature": self.signature.hex()}


@dataclass(frozen=True, slots=True)
class DealAttempt:
    attempt: int
    commitments: tuple[SignedCommitment, ...]
    set_signature: bytes
    echoes: tuple[Echo, ...]
    secrets: tuple[bytes, ...]  # parallel to ``commitments``; none while the hand is in play

    def to_json(self, secrets: bool = True) -> dict[str, Any]:
        """As a transcript's deal writes it; ``secrets=False``: as a message carries an attempt
        of the hand in play (no ``secrets`` field: they are opened in the hand's log only)."""
        doc: dict[str, Any] = {
            "attempt": self.attempt,
            "commitments": [{"seat": c.seat, "commitment": c.commitment.hex(),
                             "signature": c.signature.hex()} for c in self.commitments],
            "set_signature": self.set_signature.hex(),
            "echoes": [e.to_json() for e in self.echoes],
        }
        if secrets:
            doc["secrets"] = [x.hex() for x in self.secrets]
        return doc
