"""The host session's state and plumbing: seats, sending, queries. Pure (see host_session.py)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine import (
    Action,
    Event,
    GameState,
    HandStarted,
    Observation,
    Rules,
    observe,
)
from lanomino.engine.observe import public_event
from lanomino.fair.commit import (
    new_secret,
    new_table_id,
)
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.verify import StreamVerifier
from lanomino.net.budget import Deferrals
from lanomino.net.codec import PROTOCOL_VERSION
from lanomino.net.fair_round import HandDeal
from lanomino.net.session_base import (
    Outgoing,
    ProtocolProblem,
    Sender,
    SessionEvent,
    Stats,
    Timings,
    passphrase_key,
)
from lanomino.net.throttle import GuessThrottle
from lanomino.net.watchers import DEFAULT_CAP, Watchers
from lanomino.net.wire.schemas import build

Policy = Callable[[Observation], Action]
MAX_PENDING = 256  # challenged joiners kept: a flood of hellos (2 a second per connection) cycles
# through them in seconds, not in the moment a real joiner takes to answer its challenge



class Phase(enum.Enum):
    LOBBY = "lobby"
    HEADER = "header"
    DEAL = "deal"  # a commit-reveal round runs (its step: ``deal.current.round.step``)
    PLAY = "play"
    OVER = "over"
    MIGRATING = "migrating"  # a new host waits for a majority of the members and their reports
    STEPPED_DOWN = "stepped_down"  # this host saw a higher term: it is a peer now


ROUND = (Phase.DEAL,)
RUNNING = (Phase.DEAL, Phase.PLAY, Phase.MIGRATING)  # a match under way: a leaving host hands over

# What a seat sends when it answers what the table waits for (a ping or a resync is not an answer:
# a seat that keeps its connection up but never answers still runs out of grace).
ANSWERS = frozenset({"agree", "commit", "echo", "reveal", "move", "report", "back",
                     "reshuffle_commit", "reshuffle_echo", "reshuffle_reveal"})


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
    addr: str | None = None  # where this seat would host after a migration (IP:PORT)
    watching: bool = False  # a person whose seat has left follows the match to its end (e.g. a lost host)
    unanswered_since: float | None = None  # it let a deadline pass: its grace period runs from here
    away: bool = False  # out of time on the move clock: the table's bot plays it until it is back

    def roster(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "identity": self.identity.hex(), "curve": self.curve,
                "kind": self.kind, "connected": self.connected and not self.left, "left": self.left,
                "addr": self.addr, "away": self.away}


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


@dataclass(frozen=True, slots=True)
class LocalSeat:
    """A seat the host plays itself: its own (``policy`` None: the UI submits) or a bot's."""

    name: str
    identity: Identity
    policy: Policy | None
    level: str = ""  # a host-side bot's level: a new host after a migration plays it at this level


class HostBase:
    """What every part of the host session shares: the table's state and how to send."""

    def __init__(self, identity: Identity, curve: str, rules: Rules, seats: int, *,
                 name: str = "host", host_policy: Policy | None = None,
                 bots: Sequence[LocalSeat] = (), passphrase: str | None = None,
                 timings: Timings | None = None, term: int = 0,
                 secret_source: Callable[[], bytes] = new_secret, rules_spec: dict[str, Any] | None = None,
                 table_id: bytes | None = None, escrow: bool = False,
                 away_policy: Policy | None = None, watchers: int = DEFAULT_CAP) -> None:
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
        self.host_seat = 0  # the seat this host plays (another after a migration)
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
        self.verifier = StreamVerifier()  # the host's own check of it, hand by hand
        self.deal: HandDeal | None = None  # the hand being dealt or played
        self.last_deal: HandDeal | None = None  # the hand before it (a resignation may be added)
        self.dealt: list[list[Any]] = []
        self.escrow_shares: dict[int, dict[str, Any]] = {}
        self.escrow = escrow  # a table option (the README's trust model says what it costs)
        self.local_secrets: dict[tuple[int, int, int], bytes] = {}
        self.pending: dict[str, Pending] = {}
        self.by_curve: dict[str, int] = {}
        self.bot_due: float | None = None
        self.resyncs = Deferrals()  # a snapshot costs far more than its request: a budget per seat
        self.guesses = GuessThrottle()  # wrong passphrases: backoff per key and per table
        self.away_policy = away_policy  # the table's bot, for a seat out of time (move clock)
        self.turn_key: tuple[int, int] = (0, -1)  # (hand, move index) of the turn being timed
        self.turn_since = 0.0
        self.reshuffle_round: Any = None  # a running re-shuffle round (net/reshuffle.Round)
        self.report_due: dict[int, float] = {}  # a new host: when each joined member's report is due
        self.adoption: dict[str, Any] | None = None  # bots this host adopted, not yet logged
        self.watchers = Watchers(watchers)  # people following the table without a seat
        self._out: list[Outgoing] = []
        self._events: list[SessionEvent] = []
        self.now = 0.0

    # ----- queries -----------------------------------------------------------------------------

    @property
    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s is not None and not s.left)

    def roster(self) -> list[dict[str, Any]]:
        return [s.roster() for s in self.seats if s is not None]

    def observation(self, seat: int | None = None) -> Observation | None:
        return None if self.state is None else observe(self.state, self.host_seat if seat is None else seat)

    # ----- sending -------------------------------------------------------------------------------

    def _send_bots(self, seat: Seat) -> None:
        """Tell a member the host-side bots' levels, so that it can play them if it hosts next.

        A bot's seat belongs to the table, not to a person; its private key stays with this host
        (anyone holding it could sign as the bot). A member that takes over after a migration
        adopts the bot's seat under a key of its own (fair/adoption.py)."""
        bots = [{"seat": n, "level": local.level}
                for n, local in sorted(self.local.items())
                if local.level and n != self.host_seat and not self._seat(n).left]
        if bots:
            self._send(seat, "bots", bots=bots)


    def _humans(self) -> list[Seat]:
        return [s for s in self.seats if s is not None and s.kind == "human" and not s.left]

    def _audience(self) -> list[Seat]:
        """Everyone who hears the table's public messages: the humans playing, then the watchers."""
        return [s for s in self.seats if s is not None and (s.kind == "human" and not s.left or s.watching)]

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
        clock = self.timings.move_s
        counts = {"watching": len(self.watchers), "watch_cap": self.watchers.cap,
                  "move_clock_ms": None if clock is None else max(1, round(clock * 1000))}
        for s in self._audience():
            self._send(s, "roster", roster=roster, seats=self.players, **counts)
        self._publish("roster", roster=roster, seats=self.players, **counts)

    def _publish(self, type_: str, **body: Any) -> None:
        """A public message to every watcher (net/watchers.py): ``body`` holds no private tile."""
        self._out += self.watchers.publish(type_, self.term, self.now, **body)

    def _challenge(self, sender: Sender, name: str, identity: bytes, addr: str | None,
                   watch: bool = False) -> None:
        """Challenge a joiner (or a watcher) to sign a fresh nonce; too many waiting: the oldest
        challenge is forgotten."""
        if len(self.pending) >= MAX_PENDING:
            oldest = min(self.pending, key=lambda k: self.pending[k].since)
            del self.pending[oldest]
        nonce = self.secret_source()
        self.pending[sender.curve] = Pending(name, identity, sender.route, nonce, self.table, self.now,
                                             addr, watch)
        self._out.append(Outgoing(sender.route, build(
            "challenge", self.term, 1, nonce=nonce.hex(), table=self.table.hex(),
            passphrase=self.pass_key is not None, host=self.identity.public_key.hex())))

    def _refuse(self, route: bytes, seat: int | None, code: str, detail: str, ref: int,
                what: str = "") -> None:
        """Answer a refused message (``what``: its type) with an error; a badly signed one is
        also written into the hand's log, naming the seat that sent it (HandDeal.blame)."""
        if code == "bad_signature" and seat is not None and self.deal is not None:
            self.deal.blame(seat, what, detail)
        self.stats[f"refused.{code}"] += 1
        self._events.append(ProtocolProblem(code, detail, seat))
        ref = ref if 0 <= ref < 2**53 else 0
        if seat is not None and self.seats[seat] is not None:
            self._send(self._seat(seat), "error", code=code, message=detail[:300], ref=ref)
        else:
            self._out.append(Outgoing(route, build("error", self.term, 1, code=code, message=detail[:300],
                                                   ref=ref)))

    # ----- provided by the subclasses (HostPlay, HostSession) ----------------------------------

    def _run_local_seats(self, fire: bool = False) -> None:
        raise NotImplementedError

    def _host_view(self) -> None:
        raise NotImplementedError

    def _after_deal(self) -> None:
        raise NotImplementedError



def seat_view(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may see it on the wire: another seat's drawn tile is hidden, and so is
    the tile the opener must lead with (it shows who holds it until it is played)."""
    if type(event) is HandStarted and event.must_lead is not None and event.opener != seat:
        return event._replace(must_lead=None)
    return public_event(event, seat)
