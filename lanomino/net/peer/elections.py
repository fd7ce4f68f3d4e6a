"""A peer's part in host migration: noticing the host is gone, following the succession order,
and reporting what it holds to the new host. Pure (see election.py for the theory)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lanomino.engine.errors import seat_name
from lanomino.net.election import (
    GIVE_UP_GRACES,
    Election,
    can_migrate,
    entry_of,
    locked_report,
    succession,
)
from lanomino.net.peer.state import PeerState, Phase
from lanomino.net.session_base import Closed, HostChanged, MatchOver
from lanomino.net.wire import messages as m
from lanomino.net.wire.blind_messages import BlindReveal
from lanomino.net.wire.catch_up_messages import MAX_CATCH_UP
from lanomino.net.wire.checks import JsonObject


class PeerElections:
    """Host elections and the report to a new host: one part of a PeerSession, reading and
    writing the peer's state (``PeerState``)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer

    def can_elect(self) -> bool:
        """This seat is at the table (a match under way, or still in the lobby): losing the host
        starts an election."""
        mine = entry_of(self.p.roster, self.p.seat)
        if self.p.watch:  # no vote, but it follows the table's election to the new host
            return self.p.migration and can_migrate(self.p.roster) and self.p.phase is Phase.SEATED
        return (self.p.migration and can_migrate(self.p.roster) and self.p.phase is Phase.SEATED
                and self.p.seat >= 0
                and mine is not None and not mine.left)  # a watcher has no vote

    def elect(self, now: float, at: int | None = None) -> None:
        """The host (or the candidate followed so far) is gone: follow the next candidate (an
        election that begins at term ``at``: the one that term has, as the members that reached
        it follow)."""
        e = self.p.election
        if e is None:
            order = tuple(succession(self.p.roster, self.p.host_seat))
            e = Election(self.p.host_seat, self.p.term, order, began=now)
            if at is not None and at > e.term:
                e = Election(e.lost_host, e.lost_term, order, at - e.lost_term - 1, now)
        else:
            e = e.next()
        if not e.order:
            return
        if self.p.watch and now - e.began >= GIVE_UP_GRACES * self.p.timings.grace_s:
            # every candidate has had its turn, for as long as a new host waits for a majority:
            # the table has ended or gone (a member would have hosted it by now)
            self.p.election = None
            self.host_left("no new host answered after the host left: the table has gone")
            return
        self.p.election = e
        self.follow(e.term, e.candidate, now)

    def rejoin(self, term: int, seat: int, now: float) -> None:
        """Follow the host of ``term`` at ``seat`` after this node hosted (it stepped down, or never
        got a majority): any election of its own is over."""
        self.p.election = None
        self.follow(term, seat, now)

    def follow(self, term: int, seat: int, now: float) -> None:
        """Join the host of ``term`` at ``seat`` (an election's candidate, or one seen
        announced)."""
        entry = entry_of(self.p.roster, seat)
        curve = (entry.curve or "") if entry is not None else ""
        self.p.term, self.p.host_seat, self.p.host_curve = term, seat, curve
        self.p.host_seq = 0
        # a candidate gets twice the liveness timeout: it may notice the silence (and start
        # serving) up to one timeout after this peer did, e.g. when only this peer got the bye
        self.p.silent, self.p.last_heard = False, now + self.p.timings.liveness_s
        self.p.answered = False  # (until it does, an announced host may be followed instead)
        self.p.resync_asked, self.p.resync_due, self.p.pending_move = False, None, None
        self.p.progress.restart()
        self.p.arrival.forget()  # (a new host's log heads place only the disputes it passes on)
        if self.p.blind.hand is not None:  # a locked hand in play: a new host would close it
            self.p.blind.hand.host = seat  # (the record's host: net/host/locked_takeover.py)
        mine = seat == self.p.seat
        self.p._events.append(HostChanged(term, seat, curve, mine))
        if not mine:
            self.p.now = now
            self.p._hello()

    def reachable(self, now: float) -> None:
        """The candidate this peer follows finished the encrypted handshake: its process is alive
        (a crashed or frozen one cannot answer it), so it gets ``answer_s`` to start answering
        instead of the liveness period. On a loaded machine a new host can take longer than that
        to set itself up, and skipping a live candidate costs the table a term or two."""
        p = self.p
        if p.election is not None and not p.answered:
            p.last_heard = max(p.last_heard, now + p.timings.answer_s - p.timings.liveness_s)

    def report(self) -> m.Report:
        """What this peer holds of the hand in play, for a new host (the ``report`` message)."""
        hand = self.p.hand if self.p.hand in self.p.moves and self._hand_open() else 0
        escrow = None
        if hand:
            attempts = self.p.attempts.get(hand, [])
            last = attempts[-1].attempt if attempts else 0
            escrow = self.p.escrow.get((hand, last))
        moves = len(self.p.moves.get(hand, []))
        log = self.p.catching.entries(max(0, moves - MAX_CATCH_UP)) if hand else None
        lost = self.p.election.lost_host if self.p.election is not None else None
        newest = self._last_hand_log() or locked_report(
            self.p.blind.last_end, self._reveal(self.p.seat), log,
            None if lost is None else self._reveal(lost))
        return m.Report(hand, tuple(self.p.moves.get(hand, [])),
                        tuple(self.p.move_sigs.get(hand, [])), escrow,
                        self.p.reshuffle.claim(hand),  # for a re-shuffle (reshuffle_answers.py)
                        newest, tuple(self.p.blames.get(hand, [])))

    def _reveal(self, seat: int) -> BlindReveal | None:
        """``seat``'s signed reveal of the locked hand in play, once this side has it: its own
        (it went to the lost host), or the lost host's (it may have reached some members only):
        a new host may lack it. Also once this side has every reveal and settled the hand, until
        the host's points: the lost host may have passed the others' reveals to this seat and
        died before it passed this seat's on. And after the points, while the next hand is not
        past its deal round: the lost host may have sent its points to this seat only, and the
        new host's seat, still at that hand's end, lack this reveal (from the transcript: the
        last hand's record keeps every reveal with its signature)."""
        blind = self.p.blind
        hand = blind.hand if blind.hand is not None or blind.settled is None else blind.settled[0]
        if hand is None or seat not in hand.reveals or ("reveal", seat) not in hand.signatures:
            dealing = hand is None or hand is blind.hand and hand.view is None
            return blind.book.revealed(seat) if dealing and blind.book is not None else None
        return BlindReveal(blind.number, blind.attempt, seat, hand.reveals[seat],
                           hand.signatures[("reveal", seat)])

    def _last_hand_log(self) -> JsonObject | None:
        """The newest hand log this peer has (the new host may have missed it: the lost host can
        die between sending it to one peer and to the next)."""
        if self.p.early_log is not None:  # the host died before the hand's last move came
            return {"entry": self.p.early_log.entry, "end": self.p.early_log.end}
        if self.p.doc is None or not self.p.doc["hands"] or self.p.doc["end"] is None:
            return None
        return {"entry": self.p.doc["hands"][-1], "end": self.p.doc["end"]}

    def _hand_open(self) -> bool:
        done = len(self.p.doc["hands"]) if self.p.doc is not None else 0
        return self.p.hand > done

    def bots(self, body: m.Bots) -> None:
        """The host-side bots' levels (this peer adopts them if it hosts after a migration)."""
        kinds = {e.seat: e for e in self.p.roster}
        levels: dict[int, str] = {}
        for bot in body.bots:
            entry = kinds.get(bot["seat"])
            if entry is None or entry.kind != "bot":
                raise ValueError(f"{seat_name(bot['seat'])} is not a bot's seat")
            levels[bot["seat"]] = bot["level"]
        self.p.bot_levels = levels

    def proof(self, message: Mapping[str, Any], curve: str, now: float) -> None:
        """A member's proof against the host, on this seat's standby ROUTER from CURVE key
        ``curve`` (proofs.py): once this seat has checked it, it leaves that host too."""
        self.p.settle(now)
        self.p.passing.receive(message, curve, now)
        if len(self.p.caught) > self.p.voted_out and self.p.phase is Phase.SEATED:
            self.vote_out(now)

    def vote_out(self, now: float) -> None:
        """This seat holds proof that its host cheated (``caught``): it leaves that host as if it
        had crashed. With an election the next member hosts (the cheat's seat resigns at the
        resume, as a lost host's does); without one (a two-person table, a watcher) the host has
        left under the rules."""
        self.p.proofs.keep(self.p.caught[self.p.voted_out:])  # into its transcript (proofs.py)
        self.p.voted_out = len(self.p.caught)
        self.p.passing.share(self.p.caught[-1])  # (the others may not have seen it)
        if self.can_elect():
            self.elect(now)
        elif self.p.phase is Phase.SEATED:
            self.host_left(f"the host broke the rules: {self.p.caught[-1].detail}")

    def host_left(self, why: str = "") -> None:
        """The host has been silent past the grace period (or was caught: ``why``) and no new
        host can be elected (fewer than three people at the table, or ``--no-migration``): it has
        left under the rules. Its seat and its bots leave with it: the side left standing wins
        (a partnership concedes as a team, so the host's partner loses); with more than one left
        standing, nobody does. Before the match began, the table is simply gone."""
        view = self.p.view
        mine = entry_of(self.p.roster, self.p.seat)
        if (self.p.doc is None or view is None or self.p.rules is None or mine is None
                or mine.left):
            self.p.go(Phase.CLOSED)  # (a watcher, whose seat has left, wins nothing)
            self.p._events.append(Closed(why or "the host has gone (silent past the grace period)"))
            return
        obs = view.observation()
        # the host's side concedes (its bots leave with it): the side left standing wins, if
        # only one is (with more, nobody can say who would have; at a locked table the hand in
        # play is void, as only its host could open its tiles, but the match is decided alike)
        gone = {e.seat for e in self.p.roster if e.kind == "bot" or e.left} | {self.p.host_seat}
        standing = {obs.side_of(s) for s in range(obs.players) if obs.active[s]
                    and s not in gone} - {obs.side_of(self.p.host_seat)}
        winner = standing.pop() if len(standing) == 1 else None
        hands = len(self.p.verified) if self.p.blind.match is not None else len(self.p.doc["hands"])
        self.p.go(Phase.OVER)
        left = f"the host left the table (silent for {self.p.timings.grace_s:.0f} s)" + (
            "" if winner is not None else ", and no new host was elected to carry the match on")
        self.p._events.append(MatchOver(winner, tuple(obs.scores), hands, self.p.verified_all,
                                      reason=why or left))
