"""What a seat that caught its host keeps in its transcript: the proof, when the host's own signed
words make one that anyone can check offline (fair/evidence.py). Pure.

A seat that catches its host (``HostCaught``) votes it out (elections.py). As it does, the proof
goes into its transcript's top-level ``evidence``, when there is one to keep:

- ``fork``: two heads the host signed for one place of a hand's log (arrival.py);
- ``move``: a move other than a resignation that the host signed for a seat at a table whose header
  declares no move clock (arrival.py);
- ``log``: the host's signed log of a hand that the rules refute (deal.py, ``hand-check``); the new
  host deals that hand again, and the proof keeps the refuted log.

Each is checked as ``lanomino verify`` will check it and kept only if it holds. A missed deadline,
a head signature that does not verify, a legal move refused: the file cannot show those, so no
proof is written for them (the seat's screen names them all the same). A new host grows from a
seat's state, so its transcript keeps the evidence that seat held; a seat that follows a new host
keeps its own evidence when the host's snapshot replaces its copy of the match
(``Proofs.merged``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from lanomino.fair.checker import Checker
from lanomino.fair.evidence import MAX_PROOFS, Proof, check, parse_evidence
from lanomino.fair.transcript import TranscriptError, parse_transcript
from lanomino.net.session_base import HostCaught, TranscriptUpdated

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["Proofs"]


class Proofs:
    """The evidence one peer session keeps (see the module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer

    def keep(self, caught: Iterable[HostCaught]) -> None:
        """Write the proof each of ``caught`` holds into this seat's transcript."""
        p, doc = self.p, self.p.doc
        if doc is None:
            return
        kept = list(doc.get("evidence", []))
        for c in caught:
            proof = _proof_of(p, c)
            if (proof is not None and proof not in kept and len(kept) < MAX_PROOFS
                    and _holds(p, proof)):
                kept.append(proof)
        if kept == doc.get("evidence", []):
            return
        doc["evidence"] = kept
        end = doc["end"]
        if isinstance(end, dict):  # (before the first hand's log there is no transcript to save)
            p._events.append(TranscriptUpdated(p.table.hex(), doc, end.get("finished") is True))

    def of(self, caught: HostCaught) -> dict[str, Any] | None:
        """The offline proof ``caught`` holds, when there is one and it holds (else None)."""
        proof = _proof_of(self.p, caught)
        return proof if proof is not None and _holds(self.p, proof) else None

    def holds(self, proof: dict[str, Any]) -> bool:
        """``proof`` (another member's, proof_passing.py) holds against this seat's match."""
        return _holds(self.p, proof)

    def merged(self, doc: dict[str, Any]) -> dict[str, Any]:
        """``doc`` (a host's copy of the match) with the evidence this seat holds added to its
        own, each proof checked (a host may not slip an accusation into a seat's transcript)."""
        p = self.p
        mine = [] if p.doc is None else list(p.doc.get("evidence", []))
        theirs = [x for x in doc.get("evidence", []) if x not in mine]
        if not theirs and not mine:
            return doc
        ok = [x for x in theirs if _holds(p, x, doc)]
        return {**doc, "evidence": (mine + ok)[:MAX_PROOFS]}


def _proof_of(p: PeerState, c: HostCaught) -> dict[str, Any] | None:
    e = c.evidence
    proof: Any = e.get("proof")
    if c.check in ("fork", "proof") and isinstance(proof, dict):  # (proof: another member's)
        return dict(proof)
    if c.check == "move-signature" and isinstance(e.get("move"), dict):
        move: Any = e["move"]
        if move.get("resign") is True:
            return None
        return {"kind": "move", "host": e["host"], "hand": e["hand"], "index": e["index"],
                "move": move, "signature": e["signature"]}
    if c.check == "hand-check" and p.doc is not None:
        entry = next((h for h in p.doc["hands"] if h.get("hand") == e.get("hand")), None)
        if entry is not None:
            return {"kind": "log", "host": e["host"], "hand": e["hand"], "entry": entry}
    return None


def _holds(p: PeerState, proof: dict[str, Any], doc: dict[str, Any] | None = None) -> bool:
    """The proof holds as ``lanomino verify`` checks it, against ``doc`` (else this seat's)."""
    doc = p.doc if doc is None else doc
    if doc is None or p.header is None:
        return False
    try:
        proofs: Sequence[Proof] = parse_evidence([proof], len(p.keys))
        refutes = None
        if proof.get("kind") == "log":
            refutes = Checker(parse_transcript({**doc, "evidence": []})).refutes
        found, problem = check(tuple(proofs), p.digest, p.keys, p.header.move_clock is None,
                               p.ring, *([] if refutes is None else [refutes]))
    except (TranscriptError, ValueError, TypeError, KeyError):
        return False
    return problem is None and bool(found)
