"""The host's session: seats, the fair deal, moves, liveness. Sans-I/O (h11 style).

The code is in four layers, each a subclass of the one before: ``host_base`` (seats, sending),
``host_deal`` (the match header, the fair deal, escrow), ``host_play`` (moves, hand end, bots,
leaving, snapshots) and this module (the sans-I/O interface, joining, dispatch).

Theory of operation. The host owns the engine's ``GameState`` and is the only one who applies
moves. Input arrives through ``receive(sender, message, now)`` (a decoded JSON object from a
connection whose CURVE key the transport proved), ``submit(action, now)`` (the host's own seat,
played from a UI) and ``handle_timer(now)``; output leaves through ``take_outgoing()`` (messages
addressed to connections) and ``take_events()``. Nothing here reads a clock or touches a socket.

Seat 0 is the host's. Joiners take seats 1, 2, ... in the order they are admitted; the last
``len(bots)`` seats are host-side bots. Bots sign with identities the host made, and their
secrets are host-chosen: the host is trusted for its bots' seats, the humans contribute the
entropy that makes a deal fair. The roster (seat, name, identity key, CURVE key, kind) is
replicated to every peer; succession order is seat order.

Phases and their transitions::

    LOBBY  --all seats taken-->  HEADER  --every header signature-->  DEAL
    DEAL   --the round is done--> PLAY | DEAL (void deal: the next attempt)
    DEAL   --a step's deadline passed--> DEAL (a fresh attempt without the silent seats)
    PLAY   --hand over--> DEAL (next hand) | OVER
    HEADER --a seat left--> LOBBY (new table id; once the first deal began, never again)
    any    --one side left--> OVER

A deal round's own steps (commit, echo, reveal, each with its deadline) are
``fair/commit_reveal.py``'s; this session only carries them out (host_deal.py).

A seat that goes silent past ``liveness_s`` is disconnected; it may come back (same identity key,
any connection) within ``grace_s`` and is sent a snapshot; past that it has left: in play, the
host resigns it (a host-signed ``Resign`` move); between hands the resignation is added to the
end of the last hand and the next deal restarts without it (seats re-commit to the same secrets).
Every refused message gets an ``error`` reply, is counted in ``stats`` and reported as a
``ProtocolProblem``; nothing a peer sends can raise out of ``receive``.
"""

from __future__ import annotations

import hmac
import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from lanomino.engine import (
    Action,
    IllegalActionError,
    Resign,
)
from lanomino.net import host_watchers, reshuffle
from lanomino.net.election import can_migrate, majority, members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.fair_round import RoundError
from lanomino.net.host_base import (
    ANSWERS,
    RUNNING,
    LocalSeat,
    Pending,
    Phase,
    Policy,
    Seat,
)
from lanomino.net.host_deal import HostDeal
from lanomino.net.host_migrate import HostMigrate
from lanomino.net.host_play import HostPlay
from lanomino.net.session_base import (
    LostTouch,
    Outgoing,
    ProtocolProblem,
    SeatDisconnected,
    SeatTaken,
    Sender,
    SessionEvent,
    Timings,
    join_statement,
    passphrase_proof,
)
from lanomino.net.wire.schemas import build, parse_message

__all__ = ["HostSession", "LocalSeat", "Phase", "Policy", "successor_host"]

# A host cut off from a majority of the members waits this many grace periods for them (they may be
# suspended too, and come back to it), then stops: by then they have gone on without it or left.
GIVE_UP_GRACES = 2


class HostSession(HostMigrate):
    """The host's end of a table (see the module docstring)."""

    reserved: Mapping[bytes, int] = MappingProxyType({})  # a rematch's seats (``reserve``)
    reserved_until = 0.0
    # ----- the sans-I/O interface ------------------------------------------------------------

    def take_outgoing(self) -> list[Outgoing]:
        out, self._out = self._out, []
        return out

    def take_events(self) -> list[SessionEvent]:
        events, self._events = self._events, []
        return events

    def next_deadline(self) -> float | None:
        """When ``handle_timer`` next has work: a bot's move, a heartbeat, a liveness or grace end."""
        times: list[float] = [] if self.bot_due is None else [self.bot_due]
        owed = self.resyncs.next_due(self.now)
        if owed is not None:
            times.append(owed)
        if self.phase is Phase.DEAL and self.deal is not None and self.deal.current.round.deadline:
            times.append(self.deal.current.round.deadline)
        running = self.reshuffle_round
        if self.phase is Phase.MIGRATING and running is not None and running.round.deadline:
            times.append(running.round.deadline)
        t = self.timings
        cut_off = self._cut_off()
        for s in self._audience():
            times.append(s.last_sent + t.heartbeat_s)
            if s.left:
                continue
            if s.connected or not cut_off:
                times.append(s.last_heard + (t.liveness_s if s.connected else t.grace_s))
        for s in self._humans():
            if s.unanswered_since is not None and not cut_off:
                times.append(s.unanswered_since + t.grace_s)
        times.extend(self.report_due.values())
        watching = self.watchers.next_deadline(self.now, t)  # watchers (net/watchers.py)
        if watching is not None:
            times.append(watching)
        clock = self.move_clock()
        if clock is not None:
            times.append(clock)
        away = [s.last_heard for s in self._humans() if not s.connected]
        if cut_off and away and self.phase not in (Phase.LOBBY, Phase.MIGRATING, Phase.OVER):
            times.append(max(away) + GIVE_UP_GRACES * t.grace_s)  # when this host gives up
        return min(times) if times else None

    def _cut_off(self) -> bool:
        """At a table of three or more members, fewer than a majority of them (this host included)
        are connected: this host is probably the one cut off, so nobody is resigned for silence
        (the others may be electing a new host; see election.py)."""
        voters = members(self.roster())
        live = 1 + sum(1 for s in self._humans() if s.connected)
        return can_migrate(self.roster()) and live < majority(len(voters))

    def handle_timer(self, now: float) -> None:
        self.now = now
        t = self.timings
        if self.phase is Phase.STEPPED_DOWN:
            return
        waiting = self.phase is Phase.MIGRATING  # nobody leaves while the members gather
        for s in self._humans():
            if waiting and not s.connected:
                continue
            if s.connected and now - s.last_heard >= t.liveness_s:
                s.connected = False
                self._events.append(SeatDisconnected(s.seat))
                self._broadcast_roster()
            if not s.connected and now - s.last_heard >= t.grace_s and not self._cut_off():
                self._seat_left(s.seat, "did not come back within the grace period")
                continue
            silent = s.unanswered_since is not None and now - s.unanswered_since >= t.grace_s
            if silent and not waiting and not self._cut_off():
                self._seat_left(s.seat, "did not answer within the grace period")
                continue
            if now - s.last_sent >= t.heartbeat_s:
                self._send(s, "ping")
        for s in self._audience():
            if s.left and now - s.last_sent >= t.heartbeat_s:
                self._send(s, "ping")  # a watcher is kept posted, never judged
        host_watchers.tick(self, now)  # watchers (net/watchers.py)
        if self.bot_due is not None and now >= self.bot_due:
            self.bot_due = None
            self._run_local_seats(fire=True)
        for n in self.resyncs.due(now):  # the snapshots owed to seats that asked too often
            seat = self.seats[n]
            if seat is not None and (not seat.left or seat.watching):
                self._send_snapshot(seat)
        self._round_timer(now)
        self._out_of_time(now)
        if self.phase is Phase.MIGRATING:
            reshuffle.expire(self, now)
            for n, due in list(self.report_due.items()):
                if now >= due:  # a member joined this new host but sends no report
                    del self.report_due[n]
                    self._no_answer(n, now)
        self._give_up_if_cut_off(now)

    def _give_up_if_cut_off(self, now: float) -> None:
        """Cut off from a majority for ``GIVE_UP_GRACES`` grace periods: stop hosting (``LostTouch``)."""
        if self.phase in (Phase.LOBBY, Phase.MIGRATING, Phase.OVER, Phase.STEPPED_DOWN) or not self._cut_off():
            return
        away = [now - s.last_heard for s in self._humans() if not s.connected]
        if away and min(away) >= GIVE_UP_GRACES * self.timings.grace_s:
            self.phase = Phase.STEPPED_DOWN
            self.bot_due = None
            self._events.append(LostTouch(self.term, min(away)))

    def receive(self, sender: Sender, message: Mapping[str, Any], now: float) -> None:
        """One decoded message from a connection. Never raises for anything a peer sends."""
        self.now = now
        if self.phase is Phase.STEPPED_DOWN:
            return  # another host runs the table now
        seat_no = self.by_curve.get(sender.curve)
        try:
            msg = parse_message(message)
        except RemoteProtocolError as exc:
            ref = message.get("seq") if isinstance(message, Mapping) else 0
            self._refuse(sender.route, seat_no, "malformed", str(exc), ref if isinstance(ref, int) else 0)
            return
        if msg.term != self.term and msg.type not in ("hello", "auth", "watch"):  # a joiner learns the term from us
            code = "stale_term" if msg.term < self.term else "future_term"
            self._refuse(sender.route, seat_no, code, f"this table is in term {self.term}", msg.seq)
            return
        if msg.type == "hello":
            self._hello(sender, msg.body)
            return
        if msg.type == "auth":
            self._auth(sender, msg.seq, msg.body)
            return
        watcher = self.watchers.get(sender.curve) if seat_no is None else None
        if msg.type == "watch" or watcher is not None:  # watchers (net/watchers.py)
            if watcher is None:
                host_watchers.hello(self, sender, msg.body)
            else:
                host_watchers.receive(self, watcher, sender.route, msg)
            return
        seat = self.seats[seat_no] if seat_no is not None else None
        if seat is None or (seat.left and not seat.watching):
            self._refuse(sender.route, None, "not_seated", "say hello first", msg.seq)
            return
        if msg.seq <= seat.in_seq:
            self._refuse(sender.route, seat.seat, "replayed", f"seq {msg.seq} was already used", msg.seq)
            return
        seat.in_seq = msg.seq
        seat.route = sender.route
        seat.last_heard = now
        if msg.type in ANSWERS:
            seat.unanswered_since = None
        if not seat.connected:
            seat.connected = True
            self._broadcast_roster()
        handler = self._handlers.get(msg.type)
        if handler is None:
            self._refuse(sender.route, seat.seat, "wrong_direction", f"{msg.type} is not for the host", msg.seq)
            return
        try:
            handler(self, seat, msg.body, msg.seq)
        except (RoundError, RemoteProtocolError) as exc:
            code = exc.code if isinstance(exc, RoundError) else "malformed"
            self._refuse(sender.route, seat.seat, code, str(exc), msg.seq, msg.type)

    def submit(self, action: Action, now: float) -> None:
        """The host's own seat moves (from a UI). Raises IllegalActionError when it may not."""
        self.now = now
        state = self.state
        if isinstance(action, Resign):
            self._seat_left(self.host_seat, "the host resigned")
            return
        if state is None or self.phase is not Phase.PLAY or state.turn != self.host_seat:
            raise IllegalActionError("it is not the host's turn")
        self._play_local(self.host_seat, action)
        self._run_local_seats()

    def leave(self, reason: str = "the host quit") -> bool:
        """Leave the table on purpose: a running match with two or more other people in it is
        handed over at once (True: the peers elect the next host); otherwise the table closes."""
        others = [n for n in members(self.roster()) if n != self.host_seat]
        if self.phase in RUNNING and len(others) >= 2:
            self.hand_over(reason)
            return True
        self.close()
        return False

    def close(self, reason: str = "the host closed the table") -> None:
        """Tell every peer the table is closing."""
        for s in self._audience():
            self._send(s, "bye", reason=reason[:300])
        self._publish("bye", reason=reason[:300])

    # ----- joining -----------------------------------------------------------------------------

    def _hello(self, sender: Sender, body: dict[str, Any]) -> None:
        if body["curve"] != sender.curve:
            self._refuse_join(sender.route, "bad_key", "the CURVE key in hello is not the connection's key")
            return
        owner = self._seat_of_identity(body["identity"])
        if owner is not None and owner.left and (owner.kind == "bot" or self.phase is Phase.LOBBY):
            self._refuse_join(sender.route, "left", "that seat has left this match")
            return
        if owner is None and (self.phase is not Phase.LOBBY or self._free_seat(body["identity"]) is None):
            self._refuse_join(sender.route, "full", "every seat at this table is taken")
            return
        self._challenge(sender, body["name"], body["identity"], body["addr"])

    def _auth(self, sender: Sender, seq: int, body: dict[str, Any]) -> None:
        p = self.pending.pop(sender.curve, None)
        if p is None:
            self._refuse_join(sender.route, "no_challenge", "say hello first")
            return
        statement = join_statement(p.nonce, p.table, self.curve, sender.curve)
        if not self.ring.verify_statement(p.identity, body["signature"], statement):
            self._refuse_join(sender.route, "bad_signature", "the join is not signed by the identity key")
            return
        if self.pass_key is not None and not self._passphrase_ok(sender, p, body["proof"]):
            return
        if p.watch:  # watchers (net/watchers.py)
            host_watchers.admit(self, sender, p, seq)
            return
        seat = self._seat_of_identity(p.identity)
        rejoined = seat is not None
        if seat is None:
            number = self._free_seat(p.identity)
            if number is None or self.phase is not Phase.LOBBY or p.table != self.table:
                self._refuse_join(sender.route, "full", "every seat at this table is taken")
                return
            seat = Seat(number, p.name, "human", p.identity)
            self.seats[number] = seat
        if seat.curve is not None:
            self.by_curve.pop(seat.curve, None)
        seat.watching = seat.left  # a person whose seat has left may still follow the match
        seat.curve, seat.route, seat.connected = sender.curve, sender.route, True
        seat.addr = p.addr or seat.addr
        seat.last_heard, seat.in_seq = self.now, seq
        seat.unanswered_since = None  # (re)joined: a fresh start
        self.by_curve[sender.curve] = seat.seat
        self._send(seat, "welcome", seat=seat.seat, seats=self.players, roster=self.roster(),
                   rules=self.rules_spec)
        self._events.append(SeatTaken(seat.seat, seat.name, seat.kind, rejoined))
        self._broadcast_roster()
        if rejoined and self.phase is Phase.MIGRATING:
            self._member_back(seat)
        elif rejoined and self.phase is not Phase.LOBBY:
            self._send_snapshot(seat)
        elif self.seats_taken == self.players:
            self._start_header()

    def _passphrase_ok(self, sender: Sender, p: Pending, proof: bytes | None) -> bool:
        """Check the proof unless this key or the table is throttled (net/throttle.py)."""
        assert self.pass_key is not None
        member = self._seat_of_identity(p.identity) is not None  # a player coming back
        wait = self.guesses.wait_s(sender.curve, self.now, member=member)
        if wait > 0:
            self._refuse_join(sender.route, "throttled",
                              f"too many wrong passphrases: try again in {math.ceil(wait)} s")
            return False
        want = passphrase_proof(self.pass_key, p.nonce, self.curve, sender.curve, p.identity)
        if proof is None or not hmac.compare_digest(want, proof):
            self.guesses.failed(sender.curve, self.now, member=member)
            self._refuse_join(sender.route, "passphrase",
                              f"wrong passphrase ({self.guesses.wrong} wrong answers so far)")
            return False
        self.guesses.succeeded(sender.curve)
        return True

    def _refuse_join(self, route: bytes, code: str, reason: str) -> None:
        self.stats[f"refused.{code}"] += 1
        self._events.append(ProtocolProblem(code, reason))
        self._out.append(Outgoing(route, build("refused", self.term, 1, code=code, reason=reason)))

    def _seat_of_identity(self, identity: bytes) -> Seat | None:
        return next((s for s in self.seats if s is not None and s.identity == identity), None)

    def reserve(self, seats: Mapping[bytes, int], until: float) -> None:
        """A rematch: until ``until``, each identity key's seat of the last match is kept for it."""
        self.reserved, self.reserved_until = dict(seats), until

    def _free_seat(self, identity: bytes) -> int | None:
        held = dict(self.reserved) if self.now < self.reserved_until else {}
        mine = held.pop(identity, None)
        free = [i for i, s in enumerate(self.seats) if s is None and i not in held.values()]
        return mine if mine in free else next(iter(free), None)

    _handlers: dict[str, Callable[[HostSession, Seat, dict[str, Any], int], None]] = {
        "agree": HostDeal._agree, "commit": HostDeal._commit, "echo": HostDeal._echo,
        "reveal": HostDeal._reveal, "move": HostPlay._move, "bye": HostPlay._bye, "ping": HostPlay._ping,
        "resync": HostPlay._resync, "report": HostMigrate._report, "back": HostPlay._back,
        "reshuffle_commit": reshuffle.host_commit, "reshuffle_echo": reshuffle.host_echo,
        "reshuffle_reveal": reshuffle.host_reveal,
    }


def successor_host(peer: Any, now: float, *, policy: Policy | None, timings: Timings | None = None,
                   secret_source: Callable[[], bytes] | None = None,
                   bot_policy: Callable[[str], Policy] | None = None) -> HostSession:
    """The host a peer becomes when an election picks it (its ``HostChanged.mine``): built from the
    peer's replicated state; it waits for a majority of the members, then resumes the table."""
    election = peer.election
    assert election is not None and election.candidate == peer.seat and peer.rules is not None
    host = HostSession(peer.identity, peer.curve, peer.rules, peer.players, name=peer.name, host_policy=policy,
                       passphrase=peer.passphrase,  # (a lobby reopened after a migration asks newcomers for it)
                       timings=timings or peer.timings, secret_source=secret_source or peer.secret_source,
                       table_id=peer.table, term=election.term,
                       escrow=bool(peer.escrow) or not peer.dealt,  # (as the table dealt so far)
                       away_policy=bot_policy("normal") if bot_policy is not None else None,
                       watchers=peer.watch_cap)  # (the lost host's limit on watchers)
    host.now = now
    host.adopt(peer, election.term, election.lost_host, bot_policy)
    return host
