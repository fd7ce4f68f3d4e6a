"""A peer's part in host migration: noticing the host is gone, following the succession order,
and reporting what it holds to the new host. Pure (see election.py for the theory)."""

from __future__ import annotations

from typing import Any

from lanomino.net.election import Election, can_migrate, entry_of, succession
from lanomino.net.peer_base import Phase
from lanomino.net.peer_deal import PeerDeal
from lanomino.net.session_base import HostChanged


class PeerMigrate(PeerDeal):
    """Elections and reports (see election.py)."""

    def can_elect(self) -> bool:
        """This seat is at the table (a match under way, or still in the lobby): losing the host
        starts an election."""
        mine = entry_of(self.roster, self.seat)
        if self.watch:  # no vote, but it follows the table's election to the new host
            return self.migration and can_migrate(self.roster) and self.phase is Phase.SEATED
        return (self.migration and can_migrate(self.roster) and self.phase is Phase.SEATED
                and self.seat >= 0
                and mine is not None and not mine.get("left", False))  # a watcher has no vote

    def elect(self, now: float) -> None:
        """The host (or the candidate followed so far) is gone: follow the next candidate."""
        e = self.election
        if e is None:
            e = Election(self.host_seat, self.term, tuple(succession(self.roster, self.host_seat)))
        else:
            e = e.next()
        if not e.order:
            return
        self.election = e
        self.follow(e.term, e.candidate, now)

    def rejoin(self, term: int, seat: int, now: float) -> None:
        """Follow the host of ``term`` at ``seat`` after this node hosted (it stepped down, or never
        got a majority): any election of its own is over."""
        self.election = None
        self.follow(term, seat, now)

    def follow(self, term: int, seat: int, now: float) -> None:
        """Join the host of ``term`` at ``seat`` (an election's candidate, or one seen announced)."""
        entry = entry_of(self.roster, seat)
        curve = str(entry["curve"]) if entry is not None and entry["curve"] else ""
        self.term, self.host_seat, self.host_curve = term, seat, curve
        self.host_seq = 0
        # a candidate gets twice the liveness timeout: it may notice the silence (and start
        # serving) up to one timeout after this peer did, e.g. when only this peer got the bye
        self.silent, self.last_heard = False, now + self.timings.liveness_s
        self.resync_asked, self.resync_due, self.pending_move = False, None, None
        mine = seat == self.seat
        self._events.append(HostChanged(term, seat, curve, mine))
        if not mine:
            self.now = now
            self._hello()

    def report(self) -> dict[str, Any]:
        """What this peer holds of the hand in play, for a new host (the ``report`` body)."""
        hand = self.hand if self.hand in self.moves and self._hand_open() else 0
        escrow = None
        if hand:
            attempts = self.attempts.get(hand, [])
            last = attempts[-1]["attempt"] if attempts else 0
            held = self.escrow.get((hand, last))
            if held is not None:  # back to the wire form (the validated body holds bytes)
                escrow = {**held, "digests": [d.hex() if isinstance(d, bytes) else d for d in held["digests"]]}
        return {"hand": hand, "moves": list(self.moves.get(hand, [])),
                "signatures": list(self.move_sigs.get(hand, [])), "escrow": escrow,
                "claim": self.reshuffle.claim(hand),  # for a re-shuffle (peer_reshuffle.py)
                "last": self._last_hand_log()}

    def _last_hand_log(self) -> dict[str, Any] | None:
        """The newest hand log this peer has (the new host may have missed it: the lost host can
        die between sending it to one peer and to the next)."""
        if self.early_log is not None:  # the host died before the hand's last move came
            return {"entry": self.early_log["entry"], "end": self.early_log["end"]}
        if self.doc is None or not self.doc["hands"] or self.doc["end"] is None:
            return None
        return {"entry": self.doc["hands"][-1], "end": self.doc["end"]}

    def _hand_open(self) -> bool:
        done = len(self.doc["hands"]) if self.doc is not None else 0
        return self.hand > done
