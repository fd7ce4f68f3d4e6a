"""A peer session's part for disputes (fair/dispute_check.py). Pure.

The roster is the host's word: a host may say a seat left, or ran out of time on the move clock,
and then sign a resignation or the table's move for it. The seat's own client knows better, since
the update reaches it while it is at the table. So when a move of this seat's arrives signed by
the host (it passed the checks on arrival, net/peer/arrival.py):

- a resignation: this seat did not leave (a seat that quits is closed and reads nothing more), so
  it disputes it;
- the table's move for it as ``away``: it disputes it when its own clock had not run out, that is
  when its turn began while it was here (not counted away, or it had said it was back since) and
  it moved, or the host moved for it, before the move clock's time (less a slack for the update's
  way here: a quarter of the clock, at most ``margin_s``). It then also says it is back.

The dispute, signed with the seat's key, goes to the host and into this seat's own transcript at
once; the host must pass it on within ``relay_s`` (net/peer/progress.py times it as it times this
seat's moves). A dispute passed on by the host is checked again (``dispute_problem``) before it is
kept, shown (``MoveDisputed``) and written into the hand's entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.fair.dispute_check import MAX_DISPUTES, dispute_problem, with_disputes
from lanomino.fair.statements import dispute_statement, move_statement
from lanomino.fair.transcript_model import Dispute
from lanomino.net.election import entry_of
from lanomino.net.session_base import MoveDisputed, TranscriptUpdated
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject

if TYPE_CHECKING:
    from lanomino.net.peer.state import PeerState

__all__ = ["PeerDisputes"]


class PeerDisputes:
    """The disputes one peer session signs and the ones it is passed (see the module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.held: dict[int, dict[int, Dispute]] = {}  # per hand, index -> a checked dispute
        self.turn: tuple[int, int] | None = None  # (hand, index) of this seat's turn in play
        self.turn_since = 0.0
        self.away_then = False  # this seat was counted away (and had not said back) then
        self.here = True  # said it is here (a move, back, a dispute) since it was counted away
        self.was_away = False

    # ----- this seat's own -----------------------------------------------------------------------

    def roster_seen(self) -> None:
        """A roster arrived: counted away anew means not known to be here any more."""
        mine = entry_of(self.p.roster, self.p.seat)
        away = mine is not None and mine.away
        if away and not self.was_away:
            self.here = False
        self.was_away = away

    def turn_seen(self) -> None:
        """The hand in play changed: when this seat's turn begins, note when, and whether it was
        counted away then."""
        p, view = self.p, self.p.view
        if view is None or view.phase != "play" or view.turn != p.seat or p.watch:
            return
        key = (p.hand, len(p.moves.get(p.hand, [])))
        if key != self.turn:
            self.turn, self.turn_since = key, p.now
            mine = entry_of(p.roster, p.seat)
            self.away_then = mine is not None and mine.away and not self.here

    def after_update(self, body: m.Update) -> None:
        """A move was applied: dispute it when it is this seat's, made by the host while this
        seat was here and in time."""
        p = self.p
        if p.watch or body.move.get("seat") != p.seat or p.seat < 0:
            return
        own = move_statement(p.digest, body.hand, body.index, body.move)
        if p.ring.verify_statement(p.keys[p.seat], body.signature, own):
            return
        resign = body.move.get("resign") is True
        if not resign and not self._in_time(body):
            return
        sig = p.identity.sign_statement(dispute_statement(p.digest, body.hand, body.index, p.seat,
                                                          body.move))
        p._send(m.Dispute(body.hand, body.index, sig))
        p.progress.disputes[(body.hand, body.index)] = p.now
        self.keep(Dispute(p.seat, body.index, sig), body.hand, resign)
        if not resign:
            self.here = True
            p._send(m.Back())  # (the host counts it away: it is not)

    def _in_time(self, body: m.Update) -> bool:
        p = self.p
        clock = None if p.header is None else p.header.move_clock
        if clock is None or self.turn != (body.hand, body.index) or self.away_then:
            return False  # (no clock: arrival refused it; a turn not seen begin: cannot tell)
        limit = clock / 1000
        slack = min(p.timings.margin_s, limit / 4)
        moved = p.progress.move_sent if p.pending_move == body.index else p.now
        return moved - self.turn_since + slack < limit

    def moved(self) -> None:
        """This seat moved or said it is back."""
        self.here = True

    # ----- passed on by the host -------------------------------------------------------------

    def disputed(self, body: m.Disputed) -> None:
        """A dispute the host passed on: checked, then kept. Raises ValueError when refused."""
        p = self.p
        key = (body.hand, body.index)
        held = self.held.get(body.hand, {}).get(body.index)
        if held is not None and held.seat == body.seat and held.signature == body.signature:
            p.progress.disputes.pop(key, None)  # (this seat's own, passed on: the relay is done)
            p.arrival.relay(body.hand, held)  # (toward the next head, as for every seat)
            return
        if held is not None or len(self.held.get(body.hand, {})) >= MAX_DISPUTES:
            raise ValueError(f"move {body.index + 1} of hand {body.hand} is disputed already")
        problem = dispute_problem(p.ring, p.digest, body.hand, body.index, body.seat,
                                  body.signature, p.moves.get(body.hand, []),
                                  p.move_sigs.get(body.hand, []), p.arrival.keys_of(body.seat))
        if problem is not None:
            p.stats["disputes.refused"] += 1
            raise ValueError(f"a dispute passed on by the host is refused: {problem}")
        resign = p.moves[body.hand][body.index].get("resign") is True
        self.keep(Dispute(body.seat, body.index, body.signature), body.hand, resign)
        p.arrival.relay(body.hand, self.held[body.hand][body.index])

    def snapshot(self, play: m.SnapshotPlay) -> None:
        """A snapshot's hand in play (its log just replaced this seat's): the host's disputes are
        checked and kept, those it passed on where they count toward the log's heads; this seat's
        own that the host does not hold (a new host that never heard it) go to it again."""
        p, hand = self.p, play.hand
        passed: set[int] = set()
        for raw in play.disputes:
            seat, index, link = raw.get("seat"), raw.get("index"), raw.get("link")
            sig = raw.get("signature")
            if (not isinstance(seat, int) or not isinstance(index, int)
                    or not (link is None or isinstance(link, int) and 0 <= link <= len(play.moves))
                    or not isinstance(sig, str) or len(sig) != 128):
                raise ValueError("a snapshot's dispute is malformed")
            dispute = Dispute(seat, index, bytes.fromhex(sig))
            problem = dispute_problem(p.ring, p.digest, hand, index, seat, dispute.signature,
                                      play.moves, play.signatures, p.arrival.keys_of(seat))
            if problem is not None:
                raise ValueError(f"a snapshot's dispute is refused: {problem}")
            if self.held.get(hand, {}).get(index) != dispute:
                self.keep(dispute, hand, play.moves[index].get("resign") is True)
            if link is not None:
                p.arrival.relay(hand, dispute, link)
            passed.add(index)
        for index, own in self.held.get(hand, {}).items():
            if own.seat == p.seat and index not in passed and not p.watch:
                p._send(m.Dispute(hand, index, own.signature))
                p.progress.disputes[(hand, index)] = p.now

    def keep(self, dispute: Dispute, hand: int, resign: bool) -> None:
        """Keep a dispute, show it, and write it into the hand's entry if it is logged already."""
        p = self.p
        self.held.setdefault(hand, {})[dispute.index] = dispute
        p._events.append(MoveDisputed(hand, dispute.index, dispute.seat, resign))
        doc = p.doc
        if doc is None:
            return
        hands = doc["hands"]
        for n, entry in enumerate(hands):
            if entry.get("hand") == hand:
                hands[n] = with_disputes(entry, [dispute])
                end = doc["end"]
                finished = isinstance(end, dict) and end.get("finished") is True
                p._events.append(TranscriptUpdated(p.table.hex(), doc, finished))

    def entries(self, doc: JsonObject) -> JsonObject:
        """A host's copy of the match with every dispute this seat holds in its hands."""
        return {**doc, "hands": [self.entry(e) for e in doc["hands"]]}

    def entry(self, entry: JsonObject) -> JsonObject:
        """A hand's entry from the host with every dispute this seat holds of that hand."""
        hand = entry.get("hand")
        held = self.held.get(hand, {}) if isinstance(hand, int) else {}
        return with_disputes(entry, held.values()) if held else entry
