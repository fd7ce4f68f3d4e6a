"""Proof against a host, kept in the transcript by the seats that caught it (issue 28: a host
caught cheating is voted out, the evidence goes into the transcript and ``verify`` names it). Pure.

The transcript's optional top-level ``evidence`` is a list of proofs, each the host's own signed
words, so that anyone can check it offline and nobody needs to sign it again:

- ``{"kind": "fork", "host": seat, "hand", "index", "heads": [[head, signature], [head,
  signature]]}``: two different heads of one hand's log at one place, both signed by the host
  (``lanomino.head/1``, ``fair/chain.py``): it showed two logs.
- ``{"kind": "move", "host": seat, "hand", "index", "move": MOVE, "signature"}``: a move the host
  signed for a seat (``lanomino.move/1``) at a table whose header declares no move clock, where
  only a seat moves itself. (A resignation is no proof: a seat that left cannot sign its own.)
- ``{"kind": "log", "host": seat, "hand", "entry": ENTRY}``: the host's signed log of a hand (the
  transcript entry as it sent it) that the rules refute after the hands before it in this file
  (a deal off the committed shuffle, a drawn tile off the boneyard's front, a wrong secret, a
  false score): the seats caught it, voted the host out, and the new host dealt that hand again.
  It holds when checking the entry as that hand, after the file's hands before it, fails with the
  blame on that host (``refutes``, given by the checker).

``check`` returns the words naming each host a proof convicts, or the problem with a proof that
does not hold (no seat is named for it: nobody signed the accusation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lanomino.engine.errors import seat_name
from lanomino.fair.chain import Fork
from lanomino.fair.identity import KeyRing
from lanomino.fair.statements import move_statement
from lanomino.fair.transcript_model import TranscriptError

__all__ = ["MAX_PROOFS", "Proof", "check", "parse_evidence"]

MAX_PROOFS = 16
KINDS = ("fork", "move", "log")
_FIELDS = {"fork": {"heads", "index"}, "move": {"move", "signature", "index"}, "log": {"entry"}}


@dataclass(frozen=True, slots=True)
class Proof:
    kind: str  # fork | move
    host: int
    hand: int
    index: int
    raw: dict[str, Any]  # as written


def parse_evidence(value: Any, players: int) -> tuple[Proof, ...]:
    """The transcript's ``evidence``. Raises TranscriptError naming the field."""
    if not isinstance(value, list) or len(value) > MAX_PROOFS:
        raise TranscriptError(f"evidence: expected a list of at most {MAX_PROOFS} proofs")
    out = []
    for i, p in enumerate(value):
        where = f"evidence[{i}]"
        kind = p.get("kind") if isinstance(p, dict) else None
        if kind not in KINDS:
            raise TranscriptError(f"{where}.kind: one of {', '.join(KINDS)}")
        fields = {"kind", "host", "hand"} | _FIELDS[kind]
        if set(p) != fields:
            raise TranscriptError(f"{where}: expected the fields {', '.join(sorted(fields))}")
        numbers = [p["host"], p["hand"], p.get("index", 0)]
        if any(type(n) is not int or n < 0 for n in numbers) or p["host"] >= players:
            raise TranscriptError(f"{where}: host, hand and index are whole numbers (a seat, a "
                                  "hand, a move)")
        if kind == "fork" and not _pairs(p["heads"]):
            raise TranscriptError(f"{where}.heads: two [head, signature] pairs, in hex")
        if kind == "move" and (not isinstance(p["move"], dict) or not _hex(p["signature"], 64)):
            raise TranscriptError(f"{where}: a move object and its signature, in hex")
        if kind == "log" and (not isinstance(p["entry"], dict) or p["hand"] < 1):
            raise TranscriptError(f"{where}: a hand (from 1) and its log entry, an object")
        out.append(Proof(kind, p["host"], p["hand"], p.get("index", 0), p))
    return tuple(out)


def check(proofs: tuple[Proof, ...], header: str, keys: list[bytes], no_clock: bool,
          ring: KeyRing, refutes: Callable[[Proof], bool] = lambda p: False,
          ) -> tuple[list[str], str | None]:
    """The words naming the host each proof convicts, and the first proof that does not hold
    (``refutes``: whether a ``log`` proof's entry, checked as its hand, fails on that host)."""
    found: list[str] = []
    for n, p in enumerate(proofs):
        if p.kind == "log":
            claim, holds = "signed a log of a hand that the rules refute", refutes(p)
        else:
            claim, holds = _KIND[p.kind](p, header, keys[p.host], no_clock, ring)
        where = f"(hand {p.hand})" if p.kind == "log" else f"(hand {p.hand}, move {p.index + 1})"
        if not holds:
            return found, (f"proof {n + 1}, that the host ({seat_name(p.host)}) {claim} {where}, "
                           "does not hold")
        found.append(f"the host ({seat_name(p.host)}) {claim} {where}: proof in the file")
    return found, None


def _fork(p: Proof, header: str, key: bytes, no_clock: bool, ring: KeyRing) -> tuple[str, bool]:
    (a, sig_a), (b, sig_b) = [(bytes.fromhex(h), bytes.fromhex(s)) for h, s in p.raw["heads"]]
    fork = Fork(header, p.hand, p.index, (a, sig_a), (b, sig_b))
    return "signed two different logs of one hand at one place", fork.holds(ring, key)


def _move(p: Proof, header: str, key: bytes, no_clock: bool, ring: KeyRing) -> tuple[str, bool]:
    """Only at a table that declares no move clock, and not a resignation (a seat that left
    cannot sign its own): there the host may sign no move for a seat."""
    move = p.raw["move"]
    who = seat_name(move["seat"]) if type(move.get("seat")) is int else "a seat"
    statement = move_statement(header, p.hand, p.index, move)
    signed = ring.verify_statement(key, bytes.fromhex(p.raw["signature"]), statement)
    return (f"signed a move for {who} at a table without a move clock",
            signed and no_clock and move.get("resign") is not True)


_KIND: dict[str, Callable[[Proof, str, bytes, bool, KeyRing], tuple[str, bool]]] = {
    "fork": _fork, "move": _move}


def _hex(value: Any, size: int) -> bool:
    return (isinstance(value, str) and len(value) == 2 * size
            and all(c in "0123456789abcdef" for c in value))


def _pairs(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, list) and len(v) == 2 and _hex(v[0], 32) and _hex(v[1], 64)
                    for v in value))
