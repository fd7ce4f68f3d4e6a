"""The messages one member sends another, not through the host, on the other member's standby
ROUTER: proof against the host (net/peer/proof_passing.py) and where it stands on its host
(a pre-vote, net/peer/prevotes.py). Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from lanomino.net.wire.checks import boolean
from lanomino.net.wire.fields import Count, Object, Seat, Signature


@dataclass(frozen=True, slots=True)
class Proof:
    """Proof against the host, in fair/evidence.py's form (kind fork or move)."""

    TYPE: ClassVar[str] = "proof"
    evidence: Object


@dataclass(frozen=True, slots=True)
class PreVote:
    """Where member ``seat`` stands (net/peer/prevotes.py's ``Standing``): it follows the host of
    ``term`` at ``host``, which answers (``live``), or it lost the host of ``lost`` at
    ``lost_host`` (``term`` is then where its election is); ``ask``: it wants an answer. Signed
    by the member's identity key (``prevote_statement``)."""

    TYPE: ClassVar[str] = "prevote"
    seat: Seat
    term: Count
    host: Seat
    live: Annotated[bool, boolean]
    lost: Count
    lost_host: Seat
    ask: Annotated[bool, boolean]
    signature: Signature
