"""Proof against the host, passed from member to member. Pure.

Some of the host's false statements reach one seat only: a seat shown another move than the others
(a fork) holds two heads of the log the host signed for one place, and nobody else does. Such a
seat, as it leaves the host (``PeerElections.vote_out``), sends the offline proof it holds
(``proof``, in ``fair/evidence.py``'s form as ``proofs.py`` keeps it: a fork, a move the host
signed for a seat without a move clock, a hand's log the rules refute) to every other member's
standby ROUTER, which the node reads while it is a peer (``runtime/standby.py``). The host passes
nothing on here: it is the accused.

A seat believes no word, only the proof: it checks the proof as ``lanomino verify`` would, against
its own match (``Proofs.holds``), and that it convicts the host it follows now. Then it holds the
proof too (``HostCaught``, check ``proof``) and leaves that host as the sender did. A proof that
does not hold, or one from a key that is not a member's, changes nothing (``dropped.false_proof``,
``dropped.stranger``); each member's proofs are checked at most ``MAX_CHECKS`` times a match, and
the same proof once.

A move the host holds back travels the same way, as a ``proof`` of kind ``held``; it is no proof, so
held_moves.py checks and times it, on its own budget (one per member and place of the log). So
do a locked match's last points (kind ``end``, ``blind_close.pass_end``), taken up once per
member at most, by a seat still waiting for them.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lanomino.engine.errors import seat_name
from lanomino.net.election import members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.blind_close import take_end
from lanomino.net.session_base import HostCaught
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import envelope, parse_message

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["MAX_CHECKS", "ProofPassing"]

MAX_CHECKS = 8  # proofs checked per member and match (a few signature checks each)


class ProofPassing:
    """A seat's proofs for the other members, and its checks of theirs (module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self._out: list[tuple[int, JsonObject]] = []  # (member seat, message) to send
        self._checks: Counter[int] = Counter()
        self._seen: set[str] = set()
        self._ends: set[int] = set()  # the members whose last points this seat took up

    def send(self, seat: int, message: JsonObject) -> None:
        """Queue ``message`` for the member at ``seat`` (a held-move notice, held_moves.py)."""
        self._out.append((seat, message))

    def take(self) -> list[tuple[int, JsonObject]]:
        """The proofs to send, each to a member's standby ROUTER (roster address and key)."""
        out, self._out = self._out, []
        return out

    def share(self, caught: HostCaught) -> None:
        """This seat leaves its host over ``caught``: when that is an offline proof (anyone can
        check it), every other member gets it."""
        p = self.p
        if caught.check == "proof":
            return  # (another member's: it sent it to everyone)
        proof = p.proofs.of(caught)
        if proof is None:
            return
        message = envelope(m.Proof(proof), p.term, 0)
        for seat in members(p.roster):
            if seat not in (p.seat, p.host_seat):
                self._out.append((seat, message))

    def receive(self, message: Mapping[str, Any], curve: str, now: float) -> None:
        """A member's message on this seat's standby ROUTER, from CURVE key ``curve``. Never
        raises."""
        p = self.p
        p.now = now
        sender = next((e.seat for e in p.roster if e.curve == curve and not e.left), None)
        if sender is None or sender == p.seat:
            p._problem("stranger", "a proof from a key that is not a member's")
            return
        try:
            msg = parse_message(message)
        except RemoteProtocolError as exc:
            p._problem("malformed", str(exc))
            return
        if not isinstance(msg.body, m.Proof) or p.header is None or p.election is not None:
            return  # (only proofs; none before the match, nor while this seat elects)
        raw = msg.body.evidence
        if raw.get("kind") == "end":  # the match's last points, once a member (blind_close.py)
            if sender not in self._ends and (p.blind.hand is not None
                                             or p.blind.settled is not None):
                self._ends.add(sender)
                take_end(p.blind, sender, raw)
            return
        if raw.get("kind") == "held":  # a held move to witness, budgeted there (held_moves.py)
            p.held.receive(sender, raw, now)
            return
        digest = hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()
        if digest in self._seen or self._checks[sender] >= MAX_CHECKS:
            return
        self._seen.add(digest)
        self._checks[sender] += 1
        who, host = seat_name(sender), raw.get("host")
        if host != p.host_seat or not p.proofs.holds(raw):
            p._problem("false_proof", f"{who} sent a proof against the host that does not hold "
                                      "(or is not against this seat's host)")
            return
        p.stats["caught.proof"] += 1
        p.caught.append(HostCaught(
            "proof", f"{who} showed proof that the host ({seat_name(p.host_seat)}) cheated "
                     f"({raw.get('kind')}, hand {raw.get('hand')})",
            {"check": "proof", "host": p.host_seat, "hand": raw.get("hand"), "from": sender,
             "proof": dict(raw)}, now))
        p._events.append(p.caught[-1])
