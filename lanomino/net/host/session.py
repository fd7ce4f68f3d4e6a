"""The host's session: seats, the fair deal, moves, liveness. Sans-I/O (h11 style).

A ``HostSession`` *has* its parts, each with its own state, all reading and writing one shared
``Table`` (``table.py``, which also owns the phase and its transition table): ``Seating``
(``seating.py``), ``Dealing`` (``deal.py``), ``Playing`` (``play.py``), ``Takeover``
(``takeover.py``, ``reshuffle_round.py``) and ``Watching`` (``watching.py``). This module is
the sans-I/O interface and the one dispatch table from a message type to the part handling it.

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

The phases and their transitions are in ``table.py``. A deal round's own steps (commit, echo,
reveal, each with its deadline) are ``fair/commit_reveal.py``'s: the deal part carries them out.

A seat that goes silent past ``liveness_s`` is disconnected; it may come back (same identity key,
any connection) within ``grace_s`` and is sent a snapshot; past that it has left: in play, the
host resigns it (a host-signed ``Resign`` move); between hands the resignation is added to the
end of the last hand and the next deal restarts without it (seats re-commit to the same secrets).
Every refused message gets an ``error`` reply, is counted in ``stats`` and reported as a
``ProtocolProblem``; nothing a peer sends can raise out of ``receive``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lanomino.engine import Action, GameState, IllegalActionError, Observation, Resign, Rules
from lanomino.fair.adoption import Adoption
from lanomino.fair.commit import new_secret, new_table_id
from lanomino.fair.identity import Identity
from lanomino.net.election import members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.fair_round import HandDeal, RoundError
from lanomino.net.host.blind import BlindDealing
from lanomino.net.host.deal import Dealing
from lanomino.net.host.play import Playing
from lanomino.net.host.seating import Seating
from lanomino.net.host.table import RUNNING, Handler, LocalSeat, Phase, Policy, Seat, Table, on
from lanomino.net.host.takeover import Takeover
from lanomino.net.host.watching import Watching
from lanomino.net.session_base import Outgoing, Sender, SessionEvent, Stats, Timings
from lanomino.net.watchers import DEFAULT_CAP, Watchers
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import parse_message

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession

__all__ = ["HostSession", "LocalSeat", "Phase", "Policy"]


class HostSession:
    """The host's end of a table (see the module docstring)."""

    def __init__(self, identity: Identity, curve: str, rules: Rules, seats: int, *,
                 name: str = "host", host_policy: Policy | None = None,
                 bots: Sequence[LocalSeat] = (), passphrase: str | None = None,
                 timings: Timings | None = None, term: int = 0,
                 secret_source: Callable[[], bytes] = new_secret,
                 rules_spec: JsonObject | None = None, table_id: bytes | None = None,
                 escrow: bool = False, away_policy: Policy | None = None,
                 watchers: int = DEFAULT_CAP, blind: bool = False) -> None:
        rules.check_players(seats)
        if len(bots) > seats - 1:
            raise ValueError(f"{len(bots)} bots leave no seat for the host at a table of {seats}")
        t = self.shared = Table(identity, curve, rules, seats,
                                rules_spec=rules_spec or rules.to_spec(),
                               timings=timings or Timings(), term=term,
                               table_id=table_id or new_table_id(), secret_source=secret_source,
                               watchers=watchers)
        t.local[0] = LocalSeat(name, identity, host_policy)
        t.seats[0] = Seat(0, name, "host", identity.public_key, curve, connected=True)
        for i, bot in enumerate(bots):
            seat = seats - len(bots) + i
            t.local[seat] = bot
            t.seats[seat] = Seat(seat, bot.name, "bot", bot.identity.public_key)
        self.seating = Seating(t, passphrase)
        self.dealing = Dealing(t, escrow=escrow)
        self.play = Playing(t, self.dealing, away_policy=away_policy)
        self.takeover = Takeover(t, self.dealing, self.play)
        self.watching = Watching(t, self.seating, self.play)
        self.dealing.after_deal = self.play.after_deal
        self.seating.seat_left = self.play.seat_left
        self.seating.admit_watcher = self.watching.admit
        self.takeover.resumed = self.watching.send_snapshots
        d, p, r, k = self.dealing, self.play, self.takeover.reshuffle, self.takeover
        self._handlers: dict[str, Handler] = dict([
            on(m.Agree, d.agree), on(m.Commit, d.commit), on(m.Echo, d.echo), on(m.CatchUp, k.log),
            on(m.Reveal, d.reveal), on(m.Move, p.move), on(m.Bye, p.bye), on(m.Ping, p.ping),
            on(m.Resync, p.resync), on(m.Back, p.clock.back), on(m.Report, k.report),
            on(m.ReshuffleCommit, r.commit), on(m.ReshuffleEcho, r.echo),
            on(m.ReshuffleReveal, r.reveal), on(m.Dispute, p.disputes.dispute),
        ])
        self.blind = BlindDealing(t, self.dealing, self.play) if blind else None  # issue 29
        self._handlers.update(self.blind.handlers() if self.blind is not None else ())

    # ----- what callers read (the table's state) ------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.shared.phase

    @property
    def table(self) -> bytes:
        """The table's (the match's) id."""
        return self.shared.table

    @property
    def state(self) -> GameState | None:
        return self.shared.state

    @property
    def deal(self) -> HandDeal | None:
        return self.shared.deal

    @property
    def doc(self) -> JsonObject | None:
        return self.shared.doc

    @property
    def seats(self) -> list[Seat | None]:
        return self.shared.seats

    @property
    def local(self) -> dict[int, LocalSeat]:
        return self.shared.local

    @property
    def stats(self) -> Stats:
        return self.shared.stats

    @property
    def term(self) -> int:
        return self.shared.term

    @property
    def host_seat(self) -> int:
        return self.shared.host_seat

    @property
    def players(self) -> int:
        return self.shared.players

    @property
    def rules(self) -> Rules:
        return self.shared.rules

    @property
    def identity(self) -> Identity:
        return self.shared.identity

    @property
    def curve(self) -> str:
        return self.shared.curve

    @property
    def timings(self) -> Timings:
        return self.shared.timings

    @property
    def secret_source(self) -> Callable[[], bytes]:
        return self.shared.secret_source

    @property
    def adoption(self) -> Adoption | None:
        """The bots' seats a new host adopted, not yet logged (fair/adoption.py)."""
        return self.shared.adoption

    @property
    def watchers(self) -> Watchers:
        return self.shared.watchers

    @property
    def by_curve(self) -> dict[str, int]:
        return self.shared.by_curve

    @property
    def now(self) -> float:
        return self.shared.now

    @now.setter
    def now(self, now: float) -> None:
        self.shared.now = now

    @property
    def escrow(self) -> bool:
        return self.dealing.escrow

    @escrow.setter
    def escrow(self, escrow: bool) -> None:
        self.dealing.escrow = escrow

    @property
    def seats_taken(self) -> int:
        return self.shared.seats_taken

    def roster(self) -> list[m.RosterEntry]:
        return self.shared.roster()

    def observation(self, seat: int | None = None) -> Observation | None:
        return self.shared.observation(seat)

    # ----- the sans-I/O interface ------------------------------------------------------------

    def take_outgoing(self) -> list[Outgoing]:
        out, self.shared.out = self.shared.out, []
        return out

    def take_events(self) -> list[SessionEvent]:
        events, self.shared.events = self.shared.events, []
        return events

    def next_deadline(self) -> float | None:
        """When ``handle_timer`` next has work: a bot's move, a heartbeat, a liveness or grace
        end, a deadline."""
        t, play = self.shared, self.play
        if t.phase is Phase.STEPPED_DOWN:
            return None  # (handle_timer has nothing to do: a past deadline would spin the loop)
        times: list[float] = [] if play.bot_due is None else [play.bot_due]
        if t.owed is not None:  # a hand's end left work for once its messages had gone
            times.append(t.now)
        owed = play.resyncs.next_due(t.now)
        if owed is not None:
            times.append(owed)
        times.extend(self.dealing.deadlines())  # the deal round's step
        reshuffle = self.takeover.reshuffle.deadline()
        if t.phase is Phase.MIGRATING and reshuffle is not None:
            times.append(reshuffle)
        times.extend(self.seating.deadlines())
        times.extend(self.takeover.waits())
        alone = self.takeover.give_up_at()
        if alone is not None:
            times.append(alone)
        watching = t.watchers.next_deadline(t.now, t.timings)  # watchers (net/watchers.py)
        if watching is not None:
            times.append(watching)
        clock = play.clock.due()
        if clock is not None:
            times.append(clock)
        return min(times) if times else None

    def handle_timer(self, now: float) -> None:
        t = self.shared
        t.advance(now)
        if t.phase is Phase.STEPPED_DOWN:
            return
        self.seating.check(now)
        self.watching.tick(now)  # watchers (net/watchers.py)
        play = self.play
        if play.bot_due is not None and now >= play.bot_due and self.seating.in_doubt():
            play.bot_due = now + t.timings.heartbeat_s  # (a newer term: not before a majority)
        elif play.bot_due is not None and now >= play.bot_due:
            play.bot_due = None
            play.run_local_seats(fire=True)
        for n in play.resyncs.due(now):  # the snapshots owed to seats that asked too often
            seat = t.seats[n]
            if seat is not None and (not seat.left or seat.watching):
                play.send_snapshot(seat)
        self.dealing.round_timer(now)
        play.clock.out_of_time(now)
        if t.phase is Phase.MIGRATING:
            self.takeover.expire(now)
        if self.seating.give_up_if_cut_off(now) or self.takeover.give_up_if_alone(now):
            play.bot_due = None

    def receive(self, sender: Sender, message: Mapping[str, Any], now: float) -> None:
        """One decoded message from a connection. Never raises for anything a peer sends."""
        t = self.shared
        t.advance(now)
        if t.phase is Phase.STEPPED_DOWN:
            return  # another host runs the table now
        seat_no = t.by_curve.get(sender.curve)
        try:
            msg = parse_message(message)
        except RemoteProtocolError as exc:
            ref = message.get("seq") if isinstance(message, Mapping) else 0
            ref = ref if isinstance(ref, int) else 0
            t.refuse(sender.route, seat_no, "malformed", str(exc), ref)
            return
        if msg.term != t.term and msg.type not in ("hello", "auth", "watch"):  # a joiner learns it
            code = "stale_term" if msg.term < t.term else "future_term"
            t.refuse(sender.route, seat_no, code, f"this table is in term {t.term}", msg.seq)
            return
        body = msg.body
        if isinstance(body, m.Hello):
            self.seating.hello(sender, body)
            return
        if isinstance(body, m.Auth):
            taken = self.seating.auth(sender, msg.seq, body)
            if taken is not None:
                self._seated(*taken)
            return
        watcher = t.watchers.get(sender.curve) if seat_no is None else None
        if watcher is not None:  # watchers (net/watchers.py)
            self.watching.receive(watcher, sender.route, msg)
            return
        if isinstance(body, m.Watch):
            self.watching.hello(sender, body)
            return
        seat = t.seats[seat_no] if seat_no is not None else None
        if seat is None or (seat.left and not seat.watching and msg.type != "dispute"):
            self.seating.not_seated(sender.route, seat, msg.seq)
            return
        if msg.seq <= seat.in_seq:
            t.refuse(sender.route, seat.seat, "replayed", f"seq {msg.seq} was already used",
                     msg.seq)
            return
        seat.heard(msg.seq, msg.type, sender.route, now)
        if not seat.connected:
            seat.connected = True
            t.broadcast_roster()
        handler = self._handlers.get(msg.type)
        if handler is None:
            t.refuse(sender.route, seat.seat, "wrong_direction", f"{msg.type} is not for the host",
                     msg.seq)
            return
        try:
            handler(seat, body, msg.seq)
        except (RoundError, RemoteProtocolError) as exc:
            code = exc.code if isinstance(exc, RoundError) else "malformed"
            t.refuse(sender.route, seat.seat, code, str(exc), msg.seq, msg.type)

    def _seated(self, seat: Seat, rejoined: bool) -> None:
        """A seat was (re)taken: a member of a new host reports, a returning seat gets a snapshot,
        a full lobby starts the match header."""
        phase = self.shared.phase
        if rejoined and phase is Phase.MIGRATING:
            self.takeover.member_back(seat)
        elif rejoined and phase is not Phase.LOBBY:
            self.play.send_snapshot(seat)
        elif self.shared.seats_taken == self.shared.players:
            self.dealing.start_header()

    def reserve(self, seats: Mapping[bytes, int], until: float) -> None:
        """A rematch: until ``until``, each identity key's seat of the last match is kept for it."""
        self.seating.reserve(seats, until)

    def submit(self, action: Action, now: float) -> None:
        """The host's own seat moves (from a UI). Raises IllegalActionError when it may not."""
        t = self.shared
        t.advance(now)  # (first what the last input left owed: a hand's check, the deal's commits)
        state = t.state
        if isinstance(action, Resign):
            self.play.seat_left(t.host_seat, "the host resigned")
            return
        if state is None or t.phase is not Phase.PLAY or state.turn != t.host_seat:
            raise IllegalActionError("it is not the host's turn")
        self.play.play_local(t.host_seat, action)
        self.play.run_local_seats()

    # ----- the role switch (takeover.py) --------------------------------------------------------

    def adopt(self, peer: PeerSession, term: int, lost_host: int,
              bot_policy: Callable[[str], Policy] | None = None) -> None:
        """Take the table over from ``peer``'s replicated state, as host of ``term``."""
        self.takeover.adopt(peer, term, lost_host, bot_policy)

    def never_resumed(self) -> bool:
        """A candidate that has not rebuilt the table yet (no majority)."""
        return self.takeover.never_resumed()

    def notice_term(self, term: int, host: int) -> bool:
        """Another host runs ``term``: True when this host steps down for it (takeover.py); else
        its own seats wait to hear from a majority again (``Seating.doubt``)."""
        down = self.takeover.notice_term(term, host, self.seating.cut_off())
        if not down and term > self.shared.term:
            self.seating.doubt()
        return down

    def hand_over(self, reason: str = "the host is leaving") -> None:
        """Leave a running match on purpose: the peers elect the next host at once."""
        self.takeover.hand_over(reason)

    def leave(self, reason: str = "the host quit") -> bool:
        """Leave the table on purpose: a running match with two or more other people in it is
        handed over at once (True: the peers elect the next host); otherwise the table closes."""
        others = [n for n in members(self.roster()) if n != self.shared.host_seat]
        if self.shared.phase in RUNNING and len(others) >= 2:
            self.hand_over(reason)
            return True
        self.close()
        return False

    def close(self, reason: str = "the host closed the table") -> None:
        """Tell every peer the table is closing."""
        bye = m.Bye(reason[:300])
        for s in self.shared.audience():
            self.shared.send(s, bye)
        self.shared.publish(bye)
