"""A move the host holds back, witnessed by every member. Pure.

A host can stall one seat by never passing its move on. Only the mover sees that (its relay
deadline, progress.py); if it left the host alone, the others would carry on with the host and the
mover would in effect be thrown out. So, when its relay deadline passes, the mover does not leave
at once: it sends its signed move (the move, its signature and the head of the log it moved on) to
every other member as a "held move" notice, over the proof-passing channel (proof_passing.py, the
members' standby ROUTERs), and keeps timing the host itself.

A member checks the notice against its own match: the mover's signature over the move at that
place, the place is the head of its own log (the head the mover signed is the one it holds), it is
the mover's turn in its own view and the move looks legal there (a tile it does not hold itself).
Then it times the host too: the host passes that move on (or anything after it) within ``relay_s``
of the notice, or it is silent for this member as well (``HostCaught`` ``relay-held``, the notice
as evidence) and the members leave it together (elections.py); the mover, still to move, moves
again under the new host. A host that relays in time is slow, not a cheat: nothing happens. A
notice that does not check out changes nothing (``dropped.false_proof``); each member is heard at
most once per place of the log, only at the place the listener's log has reached, and its refused
notices are checked ``MAX_CHECKS`` times a match at most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lanomino.blind.hashing import ALGORITHM
from lanomino.engine import Draw, Play
from lanomino.engine.errors import seat_name
from lanomino.fair.transcript import move_statement
from lanomino.net.election import members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.proof_passing import MAX_CHECKS
from lanomino.net.session_base import HostCaught
from lanomino.net.wire import messages as m
from lanomino.net.wire.schemas import envelope
from lanomino.net.wire.values import parse_move

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["HeldMoves"]


class HeldMoves:
    """This seat's notices of its held moves, and its watch on the ones members sent it."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.mine: m.Move | None = None  # this seat's move in flight (session.submit)
        self.told: tuple[int, int] | None = None  # (hand, index) of the move it told about
        self.watch: dict[tuple[int, int], tuple[float, dict[str, Any]]] = {}  # place -> due, notice
        self._heard: set[tuple[int, int, int]] = set()  # (member, hand, index): one each
        self._refused: Counter[int] = Counter()  # notices refused, per member

    def restart(self) -> None:
        """A new host: it owes nothing the last one held."""
        self.told = None
        self.watch.clear()

    def tell(self, now: float) -> bool:
        """This seat's move is past its relay deadline: tell every other member and time the host
        from now (True), or False when nobody could witness it (the seat leaves alone)."""
        p, body = self.p, self.mine
        others = [s for s in members(p.roster) if s not in (p.seat, p.host_seat)]
        if body is None or p.pending_move != body.index or body.hand != p.hand or not others:
            return False
        notice = {"kind": "held", "host": p.host_seat, "hand": body.hand, "index": body.index,
                  "move": dict(body.move), "signature": body.signature.hex(),
                  "seen": body.seen.hex()}
        message = envelope(m.Proof(notice), p.term, 0)
        for seat in others:
            p.passing.send(seat, message)
        self.told = (body.hand, body.index)
        self.watch[self.told] = (now + p.timings.relay_s, notice)
        return True

    def receive(self, sender: int, notice: Mapping[str, Any], now: float) -> None:
        """A member's held-move notice (proof_passing.py found the sender): check it, then time
        the host on it."""
        p = self.p
        hand, index = notice.get("hand"), notice.get("index")
        if not isinstance(hand, int) or not isinstance(index, int):
            self._refused[sender] += 1
            p._problem("false_proof", f"{seat_name(sender)} sent a held move with no place")
            return
        if (sender, hand, index) in self._heard or self._refused[sender] >= MAX_CHECKS:
            return  # (one notice per member and place; a few refused per member and match)
        if hand == p.hand and index < len(p.moves.get(hand, [])) and notice.get(
                "move") == p.moves[hand][index]:
            return  # the host passed it on before the notice came: nothing to watch
        problem = self._problem(sender, hand, index, notice)
        if problem is not None:
            self._refused[sender] += 1
            p._problem("false_proof", f"{seat_name(sender)} sent a held move that does not "
                                      f"check out: {problem}")
            return
        self._heard.add((sender, hand, index))  # (a place this seat's log is at: bounded)
        p.stats["held.watched"] += 1
        self.watch.setdefault((hand, index), (now + p.timings.relay_s, dict(notice)))

    def _problem(self, sender: int, hand: int, index: int,
                 notice: Mapping[str, Any]) -> str | None:
        p, view = self.p, self.p.view
        if notice.get("host") != p.host_seat or p.election is not None:
            return "it is not against this seat's host"
        if view is None or view.phase != "play" or hand != p.hand:
            return "no such hand is in play here"
        if index != len(p.moves.get(hand, [])):
            return f"this seat's log of hand {hand} is at move {len(p.moves.get(hand, [])) + 1}"
        if view.turn != sender:
            return f"it is {seat_name(view.turn)}'s turn here"
        try:
            move = notice["move"]
            action = parse_move(move, sender, away=p.header is not None
                                and p.header.algorithm == ALGORITHM)
            signature, seen = bytes.fromhex(notice["signature"]), bytes.fromhex(notice["seen"])
        except (RemoteProtocolError, KeyError, ValueError, TypeError):
            return "it is not a move"
        if seen != p.arrival.before(hand, index):
            return "the mover saw another head of the log"
        if not p.ring.verify_statement(p.keys[sender], signature,
                                       move_statement(p.digest, hand, index, move)):
            return f"it is not signed by {seat_name(sender)}"
        if isinstance(action, Play) and action.tile in view.hand:
            return f"this seat holds {action.tile}"
        if isinstance(action, Draw) and view.boneyard == 0:
            return "the boneyard is empty"
        return None

    def due(self) -> float | None:
        """When the host must have passed a watched move on (None: nothing watched)."""
        self._prune()
        return min((due for due, _ in self.watch.values()), default=None)

    def late(self, now: float) -> HostCaught | None:
        """The watched move the host has held past its window, if any."""
        self._prune()
        p = self.p
        for (hand, index), (due, notice) in self.watch.items():
            if now >= due:
                mover = seat_name(notice["move"].get("seat", -1))
                return HostCaught("relay-held", f"the host held {mover}'s move {index + 1} "
                                  f"back past {p.timings.relay_s:g} s after it was witnessed",
                                  {"check": "relay-held", "host": p.host_seat, "hand": hand,
                                   "at": index, "notice": notice}, now)
        return None

    def _prune(self) -> None:
        p = self.p
        for hand, index in list(self.watch):
            if hand != p.hand or len(p.moves.get(hand, [])) > index:
                del self.watch[(hand, index)]  # the host passed it (or something later) on
