"""The host's session: seats, the fair deal, moves, liveness. Sans-I/O (h11 style).

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

    LOBBY  --all seats taken-->  HEADER  --every header signature-->  COMMIT
    COMMIT --all committed--> ECHO --all echoed--> REVEAL --all revealed--> PLAY | COMMIT (void deal)
    PLAY   --hand over--> COMMIT (next hand) | OVER
    HEADER, or COMMIT/ECHO/REVEAL of the first hand --a seat left--> LOBBY (new table id)
    any    --one side left--> OVER

A seat that goes silent past ``liveness_s`` is disconnected; it may come back (same identity key,
any connection) within ``grace_s`` and is sent a snapshot; past that it has left: in play, the
host resigns it (a host-signed ``Resign`` move); between hands the resignation is added to the
end of the last hand and the next deal restarts without it (seats re-commit to the same secrets).
Every refused message gets an ``error`` reply, is counted in ``stats`` and reported as a
``ProtocolProblem``; nothing a peer sends can raise out of ``receive``.
"""

from __future__ import annotations

import enum
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine import (
    RESIGN,
    Action,
    DealVoided,
    Event,
    GameState,
    HandEnded,
    HandStarted,
    IllegalActionError,
    MatchEnded,
    Observation,
    Resign,
    Rules,
    TileDrawn,
    apply,
    new_game,
    observe,
    start_hand,
)
from lanomino.engine import (
    Phase as EnginePhase,
)
from lanomino.engine.observe import public_event
from lanomino.fair.commit import (
    commit_statement,
    commitment,
    echo_statement,
    new_secret,
    new_table_id,
)
from lanomino.fair.escrow import EscrowError, split
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.shuffle import ALGORITHM, derive_deal
from lanomino.fair.transcript import (
    header_digest,
    header_of,
    header_statement,
    move_json,
    move_statement,
)
from lanomino.net.codec import PROTOCOL_VERSION
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.fair_round import HandDeal, RoundError, closing
from lanomino.net.messages import build, event_to_json, parse_message, parse_move
from lanomino.net.session_base import (
    HandVerified,
    MatchOver,
    ObservationChanged,
    Outgoing,
    ProtocolProblem,
    SeatDisconnected,
    SeatLeft,
    SeatTaken,
    Sender,
    SessionEvent,
    Stats,
    Timings,
    TranscriptUpdated,
    YourTurn,
    join_statement,
    passphrase_key,
    passphrase_proof,
)

Policy = Callable[[Observation], Action]
MAX_PENDING = 16


class Phase(enum.Enum):
    LOBBY = "lobby"
    HEADER = "header"
    COMMIT = "commit"
    ECHO = "echo"
    REVEAL = "reveal"
    PLAY = "play"
    OVER = "over"


ROUND = (Phase.COMMIT, Phase.ECHO, Phase.REVEAL)


@dataclass(slots=True)
class Seat:
    """A taken seat, as the host tracks it."""

    seat: int
    name: str
    kind: str  # host | human | bot
    identity: bytes
    curve: str | None = None
    route: bytes | None = None
    connected: bool = True
    last_heard: float = 0.0
    last_sent: float = 0.0
    in_seq: int = 0  # the last seq accepted from this seat
    out_seq: int = 0  # the last seq sent to this seat
    left: bool = False

    def roster(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "identity": self.identity.hex(), "curve": self.curve,
                "kind": self.kind, "connected": self.connected and not self.left}


@dataclass(slots=True)
class Pending:
    """A connection that said hello and was challenged."""

    name: str
    identity: bytes
    route: bytes
    nonce: bytes
    table: bytes
    since: float


@dataclass(frozen=True, slots=True)
class LocalSeat:
    """A seat the host plays itself: its own (``policy`` None: the UI submits) or a bot's."""

    name: str
    identity: Identity
    policy: Policy | None


class HostSession:
    """The host's end of a table (see the module docstring)."""

    def __init__(self, identity: Identity, curve: str, rules: Rules, seats: int, *,
                 name: str = "host", host_policy: Policy | None = None,
                 bots: Sequence[LocalSeat] = (), passphrase: str | None = None,
                 timings: Timings | None = None, term: int = 0,
                 secret_source: Callable[[], bytes] = new_secret, rules_spec: dict[str, Any] | None = None,
                 table_id: bytes | None = None) -> None:
        rules.check_players(seats)
        if len(bots) > seats - 1:
            raise ValueError(f"{len(bots)} bots leave no seat for the host at a table of {seats}")
        self.identity, self.curve, self.rules, self.players = identity, curve, rules, seats
        self.rules_spec = rules_spec or rules.to_spec()
        self.timings = timings or Timings()
        self.term = term
        self.secret_source = secret_source
        self.table = table_id or new_table_id()
        self.pass_key = passphrase_key(passphrase, identity.public_key) if passphrase else None
        self.stats = Stats()
        self.ring = KeyRing()
        self.local: dict[int, LocalSeat] = {0: LocalSeat(name, identity, host_policy)}
        self.seats: list[Seat | None] = [None] * seats
        self.seats[0] = Seat(0, name, "host", identity.public_key, curve, connected=True)
        for i, bot in enumerate(bots):
            seat = seats - len(bots) + i
            self.local[seat] = bot
            self.seats[seat] = Seat(seat, bot.name, "bot", bot.identity.public_key)
        self.phase = Phase.LOBBY
        self.state: GameState | None = None
        self.header: dict[str, Any] = {}
        self.digest = ""
        self.header_sigs: dict[int, bytes] = {}
        self.doc: dict[str, Any] | None = None  # the transcript so far
        self.deal: HandDeal | None = None  # the hand being dealt or played
        self.last_deal: HandDeal | None = None  # the hand before it (a resignation may be added)
        self.dealt: list[list[Any]] = []
        self.escrow_shares: dict[int, dict[str, Any]] = {}
        self.local_secrets: dict[tuple[int, int, int], bytes] = {}
        self.pending: dict[str, Pending] = {}
        self.by_curve: dict[str, int] = {}
        self.bot_due: float | None = None
        self._out: list[Outgoing] = []
        self._events: list[SessionEvent] = []
        self.now = 0.0

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
        t = self.timings
        for s in self._humans():
            times.append(s.last_sent + t.heartbeat_s)
            times.append(s.last_heard + (t.liveness_s if s.connected else t.grace_s))
        return min(times) if times else None

    def handle_timer(self, now: float) -> None:
        self.now = now
        t = self.timings
        for s in self._humans():
            if s.connected and now - s.last_heard >= t.liveness_s:
                s.connected = False
                self._events.append(SeatDisconnected(s.seat))
                self._broadcast_roster()
            if not s.connected and now - s.last_heard >= t.grace_s:
                self._seat_left(s.seat, "did not come back within the grace period")
                continue
            if now - s.last_sent >= t.heartbeat_s:
                self._send(s, "ping")
        if self.bot_due is not None and now >= self.bot_due:
            self.bot_due = None
            self._run_local_seats(fire=True)

    def receive(self, sender: Sender, message: Mapping[str, Any], now: float) -> None:
        """One decoded message from a connection. Never raises for anything a peer sends."""
        self.now = now
        seat_no = self.by_curve.get(sender.curve)
        try:
            msg = parse_message(message)
        except RemoteProtocolError as exc:
            ref = message.get("seq") if isinstance(message, Mapping) else 0
            self._refuse(sender.route, seat_no, "malformed", str(exc), ref if isinstance(ref, int) else 0)
            return
        if msg.term != self.term:
            code = "stale_term" if msg.term < self.term else "future_term"
            self._refuse(sender.route, seat_no, code, f"this table is in term {self.term}", msg.seq)
            return
        if msg.type == "hello":
            self._hello(sender, msg.body)
            return
        if msg.type == "auth":
            self._auth(sender, msg.seq, msg.body)
            return
        seat = self.seats[seat_no] if seat_no is not None else None
        if seat is None or seat.left:
            self._refuse(sender.route, None, "not_seated", "say hello first", msg.seq)
            return
        if msg.seq <= seat.in_seq:
            self._refuse(sender.route, seat.seat, "replayed", f"seq {msg.seq} was already used", msg.seq)
            return
        seat.in_seq = msg.seq
        seat.route = sender.route
        seat.last_heard = now
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
            self._refuse(sender.route, seat.seat, code, str(exc), msg.seq)

    def submit(self, action: Action, now: float) -> None:
        """The host's own seat moves (from a UI). Raises IllegalActionError when it may not."""
        self.now = now
        state = self.state
        if isinstance(action, Resign):
            self._seat_left(0, "the host resigned")
            return
        if state is None or self.phase is not Phase.PLAY or state.turn != 0:
            raise IllegalActionError("it is not the host's turn")
        self._play_local(0, action)
        self._run_local_seats()

    def close(self, reason: str = "the host closed the table") -> None:
        """Tell every peer the table is closing."""
        for s in self._humans():
            self._send(s, "bye", reason=reason[:300])

    # ----- queries -----------------------------------------------------------------------------

    @property
    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s is not None and not s.left)

    def roster(self) -> list[dict[str, Any]]:
        return [s.roster() for s in self.seats if s is not None]

    def observation(self, seat: int = 0) -> Observation | None:
        return None if self.state is None else observe(self.state, seat)

    # ----- joining -----------------------------------------------------------------------------

    def _hello(self, sender: Sender, body: dict[str, Any]) -> None:
        if body["curve"] != sender.curve:
            self._refuse_join(sender.route, "bad_key", "the CURVE key in hello is not the connection's key")
            return
        owner = self._seat_of_identity(body["identity"])
        if owner is not None and owner.left:
            self._refuse_join(sender.route, "left", "that seat has left this match")
            return
        if owner is None and (self.phase is not Phase.LOBBY or self._free_seat() is None):
            self._refuse_join(sender.route, "full", "every seat at this table is taken")
            return
        if len(self.pending) >= MAX_PENDING:
            oldest = min(self.pending, key=lambda k: self.pending[k].since)
            del self.pending[oldest]
        nonce = self.secret_source()
        self.pending[sender.curve] = Pending(body["name"], body["identity"], sender.route, nonce,
                                             self.table, self.now)
        self._out.append(Outgoing(sender.route, build(
            "challenge", self.term, 1, nonce=nonce.hex(), table=self.table.hex(),
            passphrase=self.pass_key is not None, host=self.identity.public_key.hex())))

    def _auth(self, sender: Sender, seq: int, body: dict[str, Any]) -> None:
        p = self.pending.pop(sender.curve, None)
        if p is None:
            self._refuse_join(sender.route, "no_challenge", "say hello first")
            return
        statement = join_statement(p.nonce, p.table, self.curve, sender.curve)
        if not self.ring.verify_statement(p.identity, body["signature"], statement):
            self._refuse_join(sender.route, "bad_signature", "the join is not signed by the identity key")
            return
        if self.pass_key is not None:
            want = passphrase_proof(self.pass_key, p.nonce, self.curve, sender.curve, p.identity)
            if body["proof"] is None or not hmac.compare_digest(want, body["proof"]):
                self._refuse_join(sender.route, "passphrase", "wrong passphrase")
                return
        seat = self._seat_of_identity(p.identity)
        rejoined = seat is not None
        if seat is None:
            number = self._free_seat()
            if number is None or self.phase is not Phase.LOBBY or p.table != self.table:
                self._refuse_join(sender.route, "full", "every seat at this table is taken")
                return
            seat = Seat(number, p.name, "human", p.identity)
            self.seats[number] = seat
        if seat.curve is not None:
            self.by_curve.pop(seat.curve, None)
        seat.curve, seat.route, seat.connected = sender.curve, sender.route, True
        seat.last_heard, seat.in_seq = self.now, seq
        self.by_curve[sender.curve] = seat.seat
        self._send(seat, "welcome", seat=seat.seat, seats=self.players, roster=self.roster(),
                   rules=self.rules_spec)
        self._events.append(SeatTaken(seat.seat, seat.name, seat.kind, rejoined))
        self._broadcast_roster()
        if rejoined and self.phase is not Phase.LOBBY:
            self._send_snapshot(seat)
        elif self.seats_taken == self.players:
            self._start_header()

    def _refuse_join(self, route: bytes, code: str, reason: str) -> None:
        self.stats[f"refused.{code}"] += 1
        self._events.append(ProtocolProblem(code, reason))
        self._out.append(Outgoing(route, build("refused", self.term, 1, code=code, reason=reason)))

    def _seat_of_identity(self, identity: bytes) -> Seat | None:
        return next((s for s in self.seats if s is not None and s.identity == identity), None)

    def _free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    # ----- the match header --------------------------------------------------------------------

    def _start_header(self) -> None:
        seats = [s for s in self.seats if s is not None]
        self.header = header_of(self.table, ALGORITHM, self.rules_spec, [s.name for s in seats],
                                [s.identity for s in seats])
        self.digest = header_digest(self.header)
        self.header_sigs = {n: p.identity.sign_statement(header_statement(self.digest, n))
                            for n, p in self.local.items()}
        self.phase = Phase.HEADER
        for s in self._humans():
            self._send(s, "match", header=self.header)

    def _agree(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if self.phase is not Phase.HEADER:
            raise RoundError("wrong_phase", "no match header is waiting for signatures")
        if not self.ring.verify_statement(seat.identity, body["signature"],
                                          header_statement(self.digest, seat.seat)):
            raise RoundError("bad_signature", "the header signature does not verify")
        self.header_sigs[seat.seat] = body["signature"]
        if len(self.header_sigs) == self.players:
            self._begin()

    def _begin(self) -> None:
        sigs = [self.header_sigs[n].hex() for n in range(self.players)]
        self.state = new_game(self.rules, self.players)
        self.doc = {**self.header, "header_signatures": sigs, "hands": [],
                    "end": closing(self.identity, self.digest, 0, 0, False, None, self.state.scores)}
        for s in self._humans():
            self._send(s, "begin", signatures=sigs)
        self._start_hand()

    # ----- the fair deal -----------------------------------------------------------------------

    def _start_hand(self) -> None:
        assert self.doc is not None
        keys = [s.identity if s is not None else b"" for s in self.seats]
        self.deal = HandDeal(self.digest, len(self.doc["hands"]) + 1, 0, keys, self.ring)
        self._new_attempt()

    def _new_attempt(self) -> None:
        assert self.state is not None and self.deal is not None
        active = [n for n in range(self.players) if self.state.active[n]]
        a = self.deal.new_attempt(self.table, active)
        self.phase = Phase.COMMIT
        for n in active:
            if n in self.local:
                secret = self._local_secret(n)
                c = commitment(a.ctx, n, secret)
                sig = self.local[n].identity.sign_statement(commit_statement(self.digest, a.ctx, n, c))
                self.deal.add_commit(n, c, sig)
            else:
                self._send(self._seat(n), "commit_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        self._after_commit()

    def _local_secret(self, seat: int) -> bytes:
        assert self.deal is not None
        key = (self.deal.hand, self.deal.current.ctx.attempt, seat)
        if key not in self.local_secrets:  # one secret per deal and seat: a restarted round reuses it
            self.local_secrets[key] = self.secret_source()
        return self.local_secrets[key]

    def _commit(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._check_round(Phase.COMMIT, body)
        assert self.deal is not None
        self.deal.add_commit(seat.seat, body["commitment"], body["signature"])
        self._after_commit()

    def _after_commit(self) -> None:
        assert self.deal is not None
        if self.deal.current.missing_commits():
            return
        self.deal.seal_set(self.identity)
        self.phase = Phase.ECHO
        a = self.deal.current
        for n in a.seats:
            if n in self.local:
                sig = self.local[n].identity.sign_statement(echo_statement(self.digest, a.ctx, n, a.digest))
                self.deal.add_echo(n, a.digest, sig)
            else:
                self._send_set(self._seat(n))
        self._after_echo()

    def _send_set(self, seat: Seat) -> None:
        assert self.deal is not None
        a = self.deal.current
        self._send(seat, "commit_set", hand=a.ctx.hand, attempt=a.ctx.attempt,
                   commitments=[[n, a.commits[n][0].hex()] for n in a.seats], signature=a.set_signature.hex())

    def _echo(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        assert self.deal is not None
        if self.phase is Phase.REVEAL and self.deal.current.echoes.get(seat.seat, (b"",))[0] == body["set"]:
            return  # a returning peer echoed the set again before revealing: nothing new
        self._check_round(Phase.ECHO, body)
        self.deal.add_echo(seat.seat, body["set"], body["signature"])
        self._after_echo()

    def _after_echo(self) -> None:
        assert self.deal is not None
        a = self.deal.current
        if a.missing_echoes():
            return
        self.phase = Phase.REVEAL
        for n in a.seats:
            if n in self.local:
                self.deal.add_secret(n, self._local_secret(n))
            elif n not in a.secrets:
                self._send(self._seat(n), "reveal_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        self._after_reveal()

    def _reveal(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._check_round(Phase.REVEAL, body)
        assert self.deal is not None
        self.deal.add_secret(seat.seat, body["secret"])
        self._after_reveal()

    def _after_reveal(self) -> None:
        assert self.deal is not None and self.state is not None
        a = self.deal.current
        if a.missing_secrets():
            return
        _, hands, boneyard = derive_deal(a.ctx, a.opened(), self.rules, self.state.active)
        events = start_hand(self.state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            self._new_attempt()
            return
        self.phase = Phase.PLAY
        self.dealt = [list(h) for h in hands]
        self._split_escrow()
        for s in self._humans():
            started = event_to_json(seat_view(events[0], s.seat))
            self._send(s, "deal", hand=a.ctx.hand, tiles=[str(t) for t in hands[s.seat]], events=[started],
                       turn=self.state.turn)
        self._host_view()
        self._run_local_seats()

    def _check_round(self, phase: Phase, body: dict[str, Any]) -> None:
        d = self.deal
        if self.phase is not phase or d is None:
            raise RoundError("wrong_phase", f"the table is in the {self.phase.value} phase")
        if (body["hand"], body["attempt"]) != (d.hand, d.current.ctx.attempt):
            raise RoundError("stale", f"this deal is hand {d.hand} attempt {d.current.ctx.attempt}")

    def _split_escrow(self) -> None:
        """XOR shares of the deal's secrets to the human peers (never to one alone)."""
        assert self.deal is not None and self.state is not None
        self.escrow_shares = {}
        holders = [s.seat for s in self._humans() if self.state.active[s.seat]]
        a = self.deal.current
        try:
            escrow, shares = split(a.ctx, a.opened(), holders)
        except EscrowError:
            return  # fewer than two holders: losing the host follows the leave rules
        for share in shares:
            self.escrow_shares[share.holder] = {
                "hand": a.ctx.hand, "attempt": a.ctx.attempt, "seats": list(escrow.seats),
                "holders": list(escrow.holders), "digests": [d.hex() for d in escrow.digests],
                "share": share.data.hex()}
            self._send(self._seat(share.holder), "escrow", **self.escrow_shares[share.holder])

    # ----- play ----------------------------------------------------------------------------------

    def _move(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        state, d = self.state, self.deal
        if self.phase is not Phase.PLAY or state is None or d is None:
            raise RoundError("wrong_phase", "no hand is in play")
        if body["hand"] != d.hand or body["index"] != len(d.moves):
            raise RoundError("stale", f"the hand is {d.hand} at move {len(d.moves)}")
        action = parse_move(body["move"], seat.seat)
        if state.turn != seat.seat and action is not RESIGN:
            raise RoundError("out_of_turn", f"it is seat {state.turn}'s turn")
        statement = move_statement(self.digest, d.hand, len(d.moves), body["move"])
        if not self.ring.verify_statement(seat.identity, body["signature"], statement):
            raise RoundError("bad_signature", "the move is not signed by the seat's key")
        try:
            events = apply(state, seat.seat, action)
        except IllegalActionError as exc:
            raise RoundError("illegal", str(exc)) from None
        self._record(seat.seat, body["move"], body["signature"], events, d)
        self._run_local_seats()

    def _play_local(self, seat: int, action: Action) -> None:
        assert self.state is not None and self.deal is not None
        d = self.deal
        move = move_json(seat, action)
        events = apply(self.state, seat, action)
        sig = self.local[seat].identity.sign_statement(move_statement(self.digest, d.hand, len(d.moves), move))
        self._record(seat, move, sig, events, d)

    def _record(self, seat: int, move: dict[str, Any], sig: bytes, events: list[Event], d: HandDeal) -> None:
        """A move applied: keep it for the transcript, send each peer its view, end the hand."""
        assert self.state is not None
        index = len(d.moves)
        d.moves.append(move)
        d.signatures.append(sig)
        public = [event_to_json(e) for e in events]
        turn = self.state.turn
        for s in self._humans():
            mine = public
            for i, e in enumerate(events):
                if type(e) is TileDrawn and e.seat != s.seat:
                    mine = [*mine[:i], event_to_json(public_event(e, s.seat)), *mine[i + 1:]]
            self._send(s, "update", hand=d.hand, index=index, move=move, signature=sig.hex(),
                       events=mine, turn=turn)
        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        finished = any(isinstance(e, MatchEnded) for e in events)
        if ended is not None or finished:
            self._hand_over(d, ended)
        else:
            self._host_view()

    def _hand_over(self, d: HandDeal, ended: HandEnded | None) -> None:
        """Publish the hand's transcript entry (or an amended last one) and move on."""
        assert self.state is not None and self.doc is not None
        state = self.state
        last = next(e for e in reversed(state.results)) if ended is None else ended
        entry = d.entry(self.identity, last.points, state.scores)
        hands = self.doc["hands"]
        if hands and hands[-1]["hand"] == d.hand:
            hands[-1] = entry
        else:
            hands.append(entry)
        over = state.phase is EnginePhase.OVER
        winner = state.outcome.winner if state.outcome is not None else None
        self.doc["end"] = closing(self.identity, self.digest, 0, len(hands), over, winner, state.scores)
        for s in self._humans():
            self._send(s, "hand_log", entry=entry, end=self.doc["end"])
        self._events.append(HandVerified(d.hand, True, "the host built this hand"))
        self._events.append(TranscriptUpdated(self.table.hex(), self.doc, over))
        self._host_view()
        if over:
            self.phase = Phase.OVER
            self.bot_due = None
            self._events.append(MatchOver(winner, tuple(state.scores), len(hands), True))
        elif ended is not None:
            self.last_deal = d
            self._start_hand()

    def _run_local_seats(self, fire: bool = False) -> None:
        """Let host-side bots move while it is their turn: at once, or each after ``bot_delay_s``
        (``fire``: that delay is over for the bot to move now)."""
        while self.phase is Phase.PLAY and self.state is not None:
            turn = self.state.turn
            local = self.local.get(turn)
            if local is None or self.bot_due is not None:
                return
            if local.policy is None:
                self._events.append(YourTurn(observe(self.state, turn)))
                return
            if self.timings.bot_delay_s > 0 and not fire:
                self.bot_due = self.now + self.timings.bot_delay_s
                return
            fire = False
            self._play_local(turn, local.policy(observe(self.state, turn)))

    def _host_view(self) -> None:
        if self.state is not None and self.local[0].policy is None:
            self._events.append(ObservationChanged(observe(self.state, 0)))

    # ----- leaving -------------------------------------------------------------------------------

    def _bye(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._seat_left(seat.seat, f"quit: {body['reason']}" if body["reason"] else "quit")

    def _ping(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        pass  # being heard is all a ping is for

    def _resync(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._send_snapshot(seat)

    def _seat_left(self, number: int, reason: str) -> None:
        seat = self._seat(number)
        if seat.left or self.phase is Phase.OVER:
            return
        self._events.append(SeatLeft(number, reason))
        if self.phase is Phase.LOBBY or (self.phase in (Phase.HEADER, *ROUND) and not self._hands_done()):
            self._back_to_lobby(seat)
            return
        seat.left = True
        seat.connected = False
        self._broadcast_roster()
        assert self.state is not None
        if self.phase is Phase.PLAY:
            assert self.deal is not None
            self._resign(number, self.deal)
            if self.phase is Phase.PLAY:
                self._split_escrow()
                self._run_local_seats()
            return
        # Between hands: the resignation closes the last hand; the next deal starts again.
        assert self.last_deal is not None
        self._resign(number, self.last_deal)
        if not self._is_over():
            self._start_hand()

    def _resign(self, number: int, d: HandDeal) -> None:
        assert self.state is not None
        move = move_json(number, RESIGN)
        events = apply(self.state, number, RESIGN)
        sig = self.identity.sign_statement(move_statement(self.digest, d.hand, len(d.moves), move))
        self._record(number, move, sig, events, d)
        if d is self.last_deal and not any(isinstance(e, MatchEnded) for e in events):
            self._hand_over(d, None)  # the amended last hand, re-signed

    def _is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _hands_done(self) -> bool:
        return self.doc is not None and bool(self.doc["hands"])

    def _back_to_lobby(self, seat: Seat) -> None:
        """A seat left before the first hand was dealt: free it; the next match gets a new id."""
        if seat.curve is not None:
            self.by_curve.pop(seat.curve, None)
        self.seats[seat.seat] = None
        if self.phase is not Phase.LOBBY:
            self.table = new_table_id()
            self.phase, self.state, self.doc, self.deal = Phase.LOBBY, None, None, None
            self.header_sigs = {}
        self._broadcast_roster()
        if seat.route is not None:
            self._send(seat, "bye", reason="you left the table")

    # ----- sending -------------------------------------------------------------------------------

    def _humans(self) -> list[Seat]:
        return [s for s in self.seats if s is not None and s.kind == "human" and not s.left]

    def _seat(self, number: int) -> Seat:
        seat = self.seats[number]
        assert seat is not None
        return seat

    def _send(self, to: Seat, type_: str, **body: Any) -> None:
        to.out_seq += 1
        to.last_sent = self.now
        if to.route is None:
            return
        message = {"v": PROTOCOL_VERSION, "type": type_, "term": self.term, "seq": to.out_seq, "body": body}
        self._out.append(Outgoing(to.route, message))

    def _broadcast_roster(self) -> None:
        roster = self.roster()
        for s in self._humans():
            self._send(s, "roster", roster=roster, seats=self.players)

    def _refuse(self, route: bytes, seat: int | None, code: str, detail: str, ref: int) -> None:
        self.stats[f"refused.{code}"] += 1
        self._events.append(ProtocolProblem(code, detail, seat))
        ref = ref if 0 <= ref < 2**53 else 0
        if seat is not None and self.seats[seat] is not None:
            self._send(self._seat(seat), "error", code=code, message=detail[:300], ref=ref)
        else:
            self._out.append(Outgoing(route, build("error", self.term, 1, code=code, message=detail[:300],
                                                   ref=ref)))

    def _send_snapshot(self, seat: Seat) -> None:
        """Everything the seat may know now, then whatever it still owes the deal."""
        play: dict[str, Any] | None = None
        state, d = self.state, self.deal
        if self.phase is Phase.PLAY and state is not None and d is not None:
            history = [event_to_json(seat_view(e, seat.seat)) for e in state.history]
            play = {"hand": d.hand, "tiles": [str(t) for t in self.dealt[seat.seat]], "events": history,
                    "moves": d.moves, "signatures": [s.hex() for s in d.signatures], "turn": state.turn}
        self._send(seat, "snapshot", seat=seat.seat, roster=self.roster(), seats=self.players,
                   rules=self.rules_spec, transcript=self.doc, play=play)
        n = seat.seat
        if self.phase is Phase.HEADER and n not in self.header_sigs:
            self._send(seat, "match", header=self.header)
        if d is None or self.phase not in ROUND:
            if n in self.escrow_shares and self.phase is Phase.PLAY:
                self._send(seat, "escrow", **self.escrow_shares[n])
            return
        a = d.current
        if self.phase is Phase.COMMIT and n in a.missing_commits():
            self._send(seat, "commit_req", hand=d.hand, attempt=a.ctx.attempt)
        elif self.phase is Phase.ECHO and n in a.missing_echoes():
            self._send_set(seat)
        elif self.phase is Phase.REVEAL and n in a.missing_secrets():
            self._send_set(seat)  # a restarted peer reveals only for a set it has checked
            self._send(seat, "reveal_req", hand=d.hand, attempt=a.ctx.attempt)

    _handlers: dict[str, Callable[[HostSession, Seat, dict[str, Any], int], None]] = {
        "agree": _agree, "commit": _commit, "echo": _echo, "reveal": _reveal, "move": _move,
        "bye": _bye, "ping": _ping, "resync": _resync,
    }


def seat_view(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may see it on the wire: another seat's drawn tile is hidden, and so is
    the tile the opener must lead with (it shows who holds it until it is played)."""
    if type(event) is HandStarted and event.must_lead is not None and event.opener != seat:
        return event._replace(must_lead=None)
    return public_event(event, seat)
