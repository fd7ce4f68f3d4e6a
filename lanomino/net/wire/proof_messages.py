"""The message one member sends another, not through the host: proof against the host
(net/peer/proof_passing.py), on the other member's standby ROUTER. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lanomino.net.wire.fields import Object


@dataclass(frozen=True, slots=True)
class Proof:
    """Proof against the host, in fair/evidence.py's form (kind fork or move)."""

    TYPE: ClassVar[str] = "proof"
    evidence: Object
