"""A hand's public log as a hash chain the host signs link by link, and the proof of a fork. Pure.

Each move of a hand, as its seat signed it, extends the chain: the head before move 0 names the
match and the hand, and each head after it names the head before, the move and the move's
signature::

    head(-1) = SHA-256 of {"type": "lanomino.chain/1", "header": H, "hand": n}
    head(i)  = SHA-256 of {"type": "lanomino.link/1", "prev": head(i-1), "move": MOVE,
                           "signature": the move's signature[, "disputes": [DISPUTE, ...]]}

(canonical JSON, bytes as lowercase hex). ``disputes`` (only when there are some) are the seats'
disputes (fair/dispute_check.py, ``{"seat", "index", "signature"}``) the host passed on while the
log had ``i`` moves, in the order it passed them on: a dispute counts toward the next head, so a
seat shown a dispute and a seat not shown it hold different heads from the next move on, and the
host's signed heads and the seats' signed views (``seen_statement``) expose that as a fork like
any other. With every update the host signs the head after the
move it passes on, ``{"type": "lanomino.head/1", "header": H, "hand": n, "index": i, "head": h}``.
A head names the whole log before it, so two such statements signed by one host for one hand and
index with different heads are proof that the host showed two logs (a *fork*): anyone can check
that offline with ``Fork.holds``. The log is the same for every seat (a drawn tile is not in the
move), so every seat and watcher computes the same heads from what it was sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.fair.canonical import digest
from lanomino.fair.identity import KeyRing
from lanomino.fair.transcript_model import Dispute

__all__ = ["Fork", "Relayed", "extend", "genesis", "head_statement", "heads", "link",
           "seen_statement"]

# the disputes passed on while the log had ``i`` moves, per ``i`` (they count toward head(i))
Relayed = Mapping[int, Sequence[Dispute]]


def genesis(header: str, hand: int) -> bytes:
    """The head before a hand's first move."""
    return digest({"type": "lanomino.chain/1", "header": header, "hand": hand})


def link(prev: bytes, move: dict[str, Any], signature: bytes,
         disputes: Sequence[Dispute] = ()) -> bytes:
    """The head after ``move`` (signed with ``signature``) follows the head ``prev`` and the
    ``disputes`` passed on since it."""
    body: dict[str, Any] = {"type": "lanomino.link/1", "prev": prev.hex(), "move": move,
            "signature": signature.hex()}
    if disputes:
        body["disputes"] = [d.to_json() for d in disputes]
    return digest(body)


def extend(chain: list[bytes], header: str, hand: int, moves: Sequence[dict[str, Any]],
           signatures: Sequence[bytes], relayed: Relayed | None = None) -> list[bytes]:
    """``chain`` (the heads after the first moves, in place) extended to every move given."""
    prev = chain[-1] if chain else genesis(header, hand)
    for i, (move, signature) in enumerate(zip(moves[len(chain):], signatures[len(chain):],
                                              strict=True), start=len(chain)):
        prev = link(prev, move, signature, relayed.get(i, ()) if relayed else ())
        chain.append(prev)
    return chain


def heads(header: str, hand: int, moves: Sequence[dict[str, Any]],
          signatures: Sequence[bytes], relayed: Relayed | None = None) -> list[bytes]:
    """The head after each move of a hand."""
    return extend([], header, hand, moves, signatures, relayed)


def head_statement(header: str, hand: int, index: int, head: bytes) -> dict[str, Any]:
    """What the host signs when it passes move ``index`` on: the log up to it has head ``head``."""
    return {"type": "lanomino.head/1", "header": header, "hand": hand, "index": index,
            "head": head.hex()}


def seen_statement(header: str, hand: int, index: int, head: bytes) -> dict[str, Any]:
    """What a seat signs with its move ``index``: the log before it, as the host showed it to this
    seat, has head ``head`` (the host passes it on with the move; the other seats compare)."""
    return {"type": "lanomino.seen/1", "header": header, "hand": hand, "index": index,
            "head": head.hex()}


@dataclass(frozen=True, slots=True)
class Fork:
    """Two heads one host signed for the same place of one hand: the proof it showed two logs."""

    header: str
    hand: int
    index: int
    first: tuple[bytes, bytes]  # (head, the host's signature of its statement)
    second: tuple[bytes, bytes]

    def holds(self, ring: KeyRing, host_key: bytes) -> bool:
        """The heads differ and ``host_key`` signed both."""
        (a, sig_a), (b, sig_b) = self.first, self.second
        return a != b and all(
            ring.verify_statement(host_key, sig, head_statement(self.header, self.hand,
                                                                self.index, h))
            for h, sig in ((a, sig_a), (b, sig_b)))

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "index": self.index,
                "heads": [[h.hex(), s.hex()] for h, s in (self.first, self.second)]}
