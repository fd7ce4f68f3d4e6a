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
does the match's last word from the host (kind ``end``, ``pass_end``): the host may die sending it
to some members only, and those that got it have finished and elect nobody, so the others would
find no majority and leave without the result. Each member whose match ends passes it on, and a
seat still waiting for it takes it up, once per member at most, as its host's: a locked match's
last points with the hand's reveals (``blind_close.take_end``), a fair match's last hand log
(``PeerDealing.take_end``, net/peer/deal.py). What does not hold there is the member's doing,
never the host's.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lanomino.blind.hashing import ALGORITHM
from lanomino.engine.errors import seat_name
from lanomino.net.election import members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.blind_close import take_end
from lanomino.net.session_base import HostCaught
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import MAX_SEATS, JsonObject
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
        # a fair match's last hand log passed on, taken up (the session's PeerDealing.take_end)
        self.fair_end: Callable[[int, Sequence[m.Body]], None] | None = None

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
        self._to_members(envelope(m.Proof(proof), p.term, 0))

    def pass_end(self, hand: int, bodies: Sequence[m.Body]) -> None:
        """This seat's match ended with hand ``hand``: every other member gets the host's last
        word (``bodies``, each as its signer sent it) from this seat too (module docstring)."""
        p = self.p
        evidence = {"kind": "end", "hand": hand,
                    "entries": [envelope(each, p.term, 1) for each in bodies]}
        self._to_members(envelope(m.Proof(evidence), p.term, 0))

    def _to_members(self, message: JsonObject) -> None:
        for seat in members(self.p.roster):
            if seat not in (self.p.seat, self.p.host_seat):
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
        if raw.get("kind") == "end":  # the match's last word from the host, once a member
            self._take_end(sender, raw)
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

    def _take_end(self, sender: int, raw: Mapping[str, Any]) -> None:
        """Member ``sender`` passed on the host's last word (``pass_end``): taken up once, by a
        seat still in the match, at a locked table while it waits for a hand's points."""
        from lanomino.net.peer.state import Phase  # (the state holds this part)
        p, entries = self.p, raw.get("entries")
        locked = p.header is not None and p.header.algorithm == ALGORITHM
        waiting = p.blind.hand is not None or p.blind.settled is not None if locked \
            else self.fair_end is not None
        if sender in self._ends or p.phase is not Phase.SEATED or not isinstance(entries, list) \
                or len(entries) > MAX_SEATS + 1 or not waiting:
            return  # (at most a reveal a holder, and the points)
        self._ends.add(sender)
        try:
            bodies = [parse_message(e).body for e in entries]
        except RemoteProtocolError as exc:
            p._problem("malformed", f"{seat_name(sender)} passed on the match's end: {exc}")
            return
        if locked:
            take_end(p.blind, sender, bodies)
        elif self.fair_end is not None:
            self.fair_end(sender, bodies)
