"""The host session's seats part: letting people in (hello, challenge, auth) and liveness. Pure.

A joiner says hello with its name, identity key and CURVE key; the host answers with a fresh
nonce (a ``challenge``); the joiner signs the join statement (and proves the passphrase, if the
table has one, see session_base.py). A seat that goes silent past ``liveness_s`` is disconnected;
it may come back (same identity key, any connection) within ``grace_s``; past that it has left
(``seat_left``, the play part's: the table's leave rules apply).
"""

from __future__ import annotations

import hmac
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lanomino.net.election import GIVE_UP_GRACES, can_migrate, majority, members
from lanomino.net.host.table import Phase, Seat, Table
from lanomino.net.session_base import (
    LostTouch,
    Outgoing,
    ProtocolProblem,
    SeatDeclined,
    SeatDisconnected,
    SeatTaken,
    Sender,
    join_statement,
    passphrase_key,
    passphrase_proof,
)
from lanomino.net.throttle import GuessThrottle
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import MAX_NAME
from lanomino.net.wire.schemas import build

MAX_PENDING = 256  # challenged joiners kept: a flood of hellos (2 a second per connection) cycles
# through them in seconds, not in the moment a real joiner takes to answer its challenge



@dataclass(slots=True)
class Pending:
    """A connection that said hello and was challenged."""

    name: str
    identity: bytes
    route: bytes
    nonce: bytes
    table: bytes
    since: float
    addr: str | None = None
    watch: bool = False  # it asked to watch, not to sit (net/watchers.py)


LEFT = ("this seat has left the match (it was gone past its grace period, or it quit): the table "
        "plays on without it")

# whose budget for wrong passphrases is spent, as a refusal says it (net/throttle.py's ``Wait``)
_FROM = {"connection": "on this connection",
         "address": "from your address",
         "table": "at this table (someone may be guessing it)"}


def _nobody_left(number: int, reason: str) -> None:
    pass


def _no_watchers(sender: Sender, pending: Pending, seq: int) -> None:
    pass


class Seating:
    """Who may sit where, and who is still there: one part of a HostSession. Its own state: the
    challenged joiners, the passphrase key and the wrong-guess throttle."""

    def __init__(self, table: Table, passphrase: str | None) -> None:
        self.t = table
        self.pass_key = (passphrase_key(passphrase, table.identity.public_key) if passphrase
                         else None)
        self.pending: dict[str, Pending] = {}
        self.guesses = GuessThrottle()  # wrong passphrases: backoff per key and per table
        self.reserved: dict[bytes, int] = {}  # a rematch's seats (``reserve``)
        self.reserved_until = 0.0
        self.seat_left: Callable[[int, str], None] = _nobody_left  # the play part's
        # a watcher answered its challenge (the watching part's, watching.py)
        self.admit_watcher: Callable[[Sender, Pending, int], None] = _no_watchers
        # when this host last got a majority back after being cut off: a silence it could not
        # judge then counts from here (``judged_from``), not from the seat's last message
        self.back_at = 0.0
        self.was_cut_off = False
        self.doubted_since: float | None = None  # a newer term announced (see ``doubt``)

    # ----- joining -------------------------------------------------------------------------------

    def hello(self, sender: Sender, body: m.Hello) -> None:
        t = self.t
        if body.curve != sender.curve:
            self.refuse_join(sender.route, "bad_key",
                             "the CURVE key in hello is not the connection's key")
            return
        owner = self.seat_of_identity(body.identity)
        if owner is not None and owner.left and (owner.kind == "bot" or t.phase is Phase.LOBBY):
            self.refuse_join(sender.route, "left", "that seat has left this match")
            return
        no_seat = t.phase is not Phase.LOBBY or self._free_seat(body.identity) is None
        if owner is None and no_seat:
            self.refuse_join(sender.route, "full", "every seat at this table is taken")
            return
        self.challenge(sender, body.name, body.identity, body.addr)

    def challenge(self, sender: Sender, name: str, identity: bytes, addr: str | None,
                  watch: bool = False) -> None:
        """Challenge a joiner (or a watcher) to sign a fresh nonce; too many waiting: the oldest
        challenge is forgotten. A stranger whose wrong answer could not be checked now is refused
        at once: no nonce is made and nothing is kept for it."""
        t = self.t
        if self._throttled(sender, identity):
            return
        if len(self.pending) >= MAX_PENDING:
            oldest = min(self.pending, key=lambda k: self.pending[k].since)
            del self.pending[oldest]
        nonce = t.secret_source()
        self.pending[sender.curve] = Pending(name, identity, sender.route, nonce, t.table, t.now,
                                             addr, watch)
        challenge = m.Challenge(nonce, t.table, self.pass_key is not None, t.identity.public_key)
        t.out.append(Outgoing(sender.route, build(challenge, t.term, 1)))

    def auth(self, sender: Sender, seq: int, body: m.Auth) -> tuple[Seat, bool] | None:
        """The answer to a challenge: the seat it took (and whether it had it before), or None
        when it was refused."""
        t = self.t
        p = self.pending.pop(sender.curve, None)
        if p is None:
            self.refuse_join(sender.route, "no_challenge", "say hello first")
            return None
        if self._throttled(sender, p.identity):  # (before any work: no signature checked)
            return None
        statement = join_statement(p.nonce, p.table, t.curve, sender.curve)
        if not t.ring.verify_statement(p.identity, body.signature, statement):
            self.refuse_join(sender.route, "bad_signature",
                             "the join is not signed by the identity key")
            return None
        if self.pass_key is not None and not self._passphrase_ok(sender, p, body.proof):
            return None
        if p.watch:  # watchers (net/watchers.py)
            self.admit_watcher(sender, p, seq)
            return None
        seat = self.seat_of_identity(p.identity)
        rejoined = seat is not None
        if seat is None:
            number = self._free_seat(p.identity)
            if number is None or t.phase is not Phase.LOBBY or p.table != t.table:
                self.refuse_join(sender.route, "full", "every seat at this table is taken")
                return None
            seat = Seat(number, self._distinct(p.name), "human", p.identity)
            t.seats[number] = seat
        if seat.curve is not None:
            t.by_curve.pop(seat.curve, None)
        seat.watching = seat.left  # a person whose seat has left may still follow the match
        seat.curve, seat.route, seat.connected = sender.curve, sender.route, True
        seat.addr = p.addr or seat.addr
        seat.last_heard, seat.in_seq = t.now, seq
        seat.unanswered_since = None  # (re)joined: a fresh start
        t.by_curve[sender.curve] = seat.seat
        t.send(seat, m.Welcome(seat.seat, t.players, tuple(t.roster()), t.rules_spec))
        t.events.append(SeatTaken(seat.seat, seat.name, seat.kind, rejoined))
        t.broadcast_roster()
        return seat, rejoined

    def _distinct(self, name: str) -> str:
        """``name``, numbered when another seat has it: two people both called Ana sit as Ana
        and Ana 2, on every screen and in the transcript."""
        taken = {s.name.casefold() for s in self.t.seats if s is not None}
        unique, n = name, 1
        while unique.casefold() in taken:
            n += 1
            unique = f"{name[:MAX_NAME - len(str(n)) - 1]} {n}"
        return unique

    def _throttled(self, sender: Sender, identity: bytes) -> bool:
        """At a table with a passphrase, refuse (``throttled``) an answer that could not be checked
        now (net/throttle.py). A member coming back (``identity`` seated; the signature will
        prove it) is held only by its own connection's backoff."""
        if self.pass_key is None:
            return False
        member = self.seat_of_identity(identity) is not None
        wait = self.guesses.wait(sender.curve, sender.ip, self.t.now, member=member)
        if wait.s <= 0:
            return False
        self.refuse_join(sender.route, "throttled",
                         f"too many wrong passphrases {_FROM[wait.whose]}: try again in "
                         f"{math.ceil(wait.s)} s")
        return True

    def _passphrase_ok(self, sender: Sender, p: Pending, proof: bytes | None) -> bool:
        """Check the proof (the throttle allowed it, ``_throttled``); a wrong one is counted."""
        assert self.pass_key is not None
        want = passphrase_proof(self.pass_key, p.nonce, self.t.curve, sender.curve, p.identity)
        if proof is None or not hmac.compare_digest(want, proof):
            member = self.seat_of_identity(p.identity) is not None
            self.guesses.failed(sender.curve, sender.ip, self.t.now, member=member)
            self.refuse_join(sender.route, "passphrase",
                             f"wrong passphrase ({self.guesses.wrong} wrong "
                             f"answer{'' if self.guesses.wrong == 1 else 's'} so far)")
            return False
        self.guesses.succeeded(sender.curve)
        return True

    def refuse_join(self, route: bytes, code: str, reason: str) -> None:
        t = self.t
        t.stats[f"refused.{code}"] += 1
        t.events.append(ProtocolProblem(code, reason))
        t.out.append(Outgoing(route, build(m.Refused(code, reason), t.term, 1)))

    def not_seated(self, route: bytes, seat: Seat | None, ref: int) -> None:
        """A message from no seat: ``say hello first``. From a seat that has left the match (its
        program may wake up after the table let it go past its grace period), a goodbye on the
        seat's own sequence, which it ends on: an error outside that sequence it would drop as a
        replay, then take the host for silent and start an election nobody joins."""
        if seat is None:
            self.t.refuse(route, None, "not_seated", "say hello first", ref)
            return
        self.t.stats["refused.left"] += 1
        seat.route = route
        self.t.send(seat, m.Bye(LEFT))

    def seat_of_identity(self, identity: bytes) -> Seat | None:
        return next((s for s in self.t.seats if s is not None and s.identity == identity), None)

    def reserve(self, seats: Mapping[bytes, int], until: float) -> None:
        """A rematch: until ``until``, each identity key's seat of the last match is kept for it."""
        self.reserved, self.reserved_until = dict(seats), until

    def holds(self, identity: bytes) -> bool:
        """A rematch keeps a seat for ``identity`` now."""
        return identity in self.reserved and self.t.now < self.reserved_until

    def decline(self, identity: bytes, name: str) -> None:
        """The player a rematch keeps a seat for says no: the seat is anyone's from now on."""
        if self.holds(identity) and self.seat_of_identity(identity) is None:
            self.t.events.append(SeatDeclined(self.reserved.pop(identity), name))

    def _free_seat(self, identity: bytes) -> int | None:
        held = dict(self.reserved) if self.t.now < self.reserved_until else {}
        mine = held.pop(identity, None)
        free = [i for i, s in enumerate(self.t.seats) if s is None and i not in held.values()]
        return mine if mine in free else next(iter(free), None)

    # ----- liveness ------------------------------------------------------------------------------

    def cut_off(self) -> bool:
        """At a table of three or more members, fewer than a majority of them (this host included)
        are connected: this host is probably the one cut off, so nobody is resigned for silence
        (the others may be electing a new host; see election.py)."""
        taken = [s for s in self.t.seats if s is not None]  # (asked on every deadline: no roster)
        live = 1 + sum(1 for s in self.t.humans() if s.connected)
        return can_migrate(taken) and live < majority(len(members(taken)))

    def doubt(self) -> None:
        """A newer term is announced while this host still counts a majority: it may be the one
        cut off (its counts not yet run out), so its own seats wait until a majority has been heard
        from since (``in_doubt``); a lone member's term does not stop the table for longer."""
        if self.doubted_since is None:
            self.doubted_since = -1.0  # (from this host's next input on: its clock may be stale)

    def in_doubt(self) -> bool:
        """A newer term was announced and a majority has not been heard from since (a heartbeat
        after it: what waited in the sockets of a host that was stopped comes at once)."""
        if self.doubted_since is None:
            return False
        if self.doubted_since < 0:
            self.doubted_since = self.t.now
        since = self.doubted_since + self.t.timings.heartbeat_s
        taken = [s for s in self.t.seats if s is not None]
        heard = 1 + sum(1 for s in self.t.humans() if s.connected and s.last_heard >= since)
        if heard >= majority(len(members(taken))):
            self.doubted_since = None
        return self.doubted_since is not None

    def judged_from(self, since: float) -> float:
        """Where a seat's silence counts from: its last message (or unanswered request), or the
        moment this host stopped being cut off, whichever is later."""
        return max(since, self.back_at)

    def deadlines(self) -> list[float]:
        """When the seats next need a heartbeat, a liveness or grace check, or this host gives
        up."""
        t, times = self.t.timings, []
        if self.t.all_local:
            times.append(self.t.now)  # (the match starts: Dealing.round_timer begins it)
        cut_off = self.cut_off()
        for s in self.t.audience():
            times.append(s.last_sent + t.heartbeat_s)
            if s.left:
                continue
            if s.connected:
                times.append(s.last_heard + t.liveness_s)
            elif not cut_off:
                times.append(self.judged_from(s.last_heard) + t.grace_s)
        for s in self.t.humans():
            if s.unanswered_since is not None and not cut_off:
                times.append(self.judged_from(s.unanswered_since) + t.grace_s)
        away = [s.last_heard for s in self.t.humans() if not s.connected]
        if cut_off and away and self.t.phase not in (Phase.LOBBY, Phase.MIGRATING, Phase.OVER):
            times.append(max(away) + GIVE_UP_GRACES * t.grace_s)  # when this host gives up
        return times

    def check(self, now: float) -> None:
        """Disconnect the silent, let go the ones past their grace period, ping the quiet."""
        t = self.t.timings
        waiting = self.t.phase is Phase.MIGRATING  # nobody leaves while the members gather
        cut_off = self.cut_off()
        if self.was_cut_off and not cut_off:
            self.back_at = now  # a majority is back: the silences it could not judge start over
        self.was_cut_off = cut_off
        for s in self.t.humans():
            if waiting and not s.connected:
                continue
            if s.connected and now - s.last_heard >= t.liveness_s:
                s.connected = False
                self.t.events.append(SeatDisconnected(s.seat))
                self.t.broadcast_roster()
            gone = now - self.judged_from(s.last_heard) >= t.grace_s
            if not s.connected and gone and not self.cut_off():
                self.seat_left(s.seat, "did not come back within the grace period")
                continue
            silent = (s.unanswered_since is not None
                      and now - self.judged_from(s.unanswered_since) >= t.grace_s)
            if silent and not waiting and not self.cut_off():
                self.seat_left(s.seat, "did not answer within the grace period")
                continue
            if now - s.last_sent >= t.heartbeat_s:
                self.t.send(s, m.Ping())
        for s in self.t.audience():
            if s.left and now - s.last_sent >= t.heartbeat_s:
                self.t.send(s, m.Ping())  # a watcher is kept posted, never judged

    def give_up_if_cut_off(self, now: float) -> bool:
        """Cut off from a majority for ``GIVE_UP_GRACES`` grace periods: stop hosting
        (``LostTouch``). True when this host stepped down."""
        t = self.t
        if t.phase in (Phase.LOBBY, Phase.MIGRATING, Phase.OVER,
                       Phase.STEPPED_DOWN) or not self.cut_off():
            return False
        away = [now - s.last_heard for s in t.humans() if not s.connected]
        if away and min(away) >= GIVE_UP_GRACES * t.timings.grace_s:
            t.go(Phase.STEPPED_DOWN)
            t.events.append(LostTouch(t.term, min(away)))
            return True
        return False
