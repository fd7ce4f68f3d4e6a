"""The table every part of the host session shares: seats, the match so far, the phase, the outbox.

Pure (see session.py). The parts (``seating``, ``deal``, ``play``, ``takeover``,
``reshuffle_round``, ``watching``) each keep their own state and read and write the table through
this object; the phase has one owner, ``Table.go``, which enforces ``TRANSITIONS``.

Phases and their transitions (``TRANSITIONS`` below is the table ``go`` enforces)::

    LOBBY  --all seats taken-->  HEADER  --every header signature-->  DEAL
    DEAL   --the round is done--> PLAY | DEAL (void deal, or a step's deadline: a fresh attempt)
    PLAY   --hand over--> DEAL (next hand) | OVER
    DEAL   --a seat left between hands and ended the match--> OVER
    HEADER --a seat left--> LOBBY (new table id; once the first deal began, never again)
    LOBBY  --a peer became host (takeover)--> MIGRATING
    MIGRATING --resumed--> LOBBY (lost before the match) | DEAL | PLAY | OVER
    any but STEPPED_DOWN --a newer term, a hand-over, cut off--> STEPPED_DOWN
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from lanomino.engine import (
    Action,
    Event,
    GameState,
    HandStarted,
    Observation,
    Rules,
    Tile,
    apply,
    observe,
)
from lanomino.engine.errors import seat_name
from lanomino.engine.observe import public_event
from lanomino.fair.adoption import Adoption
from lanomino.fair.header import MatchHeader
from lanomino.fair.identity import SESSION_REMEMBERS, Identity, KeyRing
from lanomino.fair.statements import blame_statement
from lanomino.net.errors import LocalProtocolError
from lanomino.net.fair_round import HandDeal
from lanomino.net.session_base import (
    ObservationChanged,
    Outgoing,
    ProtocolProblem,
    SessionEvent,
    Stats,
    Timings,
)
from lanomino.net.watchers import DEFAULT_CAP, Watchers
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import build, to_body, wrap

Policy = Callable[[Observation], Action]


class Phase(enum.Enum):
    LOBBY = "lobby"
    HEADER = "header"
    DEAL = "deal"  # a commit-reveal round runs (its step: ``deal.current.round.step``)
    PLAY = "play"
    OVER = "over"
    MIGRATING = "migrating"  # a new host waits for a majority of the members and their reports
    STEPPED_DOWN = "stepped_down"  # this host saw a higher term: it is a peer now


_DOWN = Phase.STEPPED_DOWN
TRANSITIONS: Mapping[Phase, frozenset[Phase]] = {
    Phase.LOBBY: frozenset({Phase.HEADER, Phase.MIGRATING, _DOWN}),
    Phase.HEADER: frozenset({Phase.DEAL, Phase.LOBBY, _DOWN}),
    Phase.DEAL: frozenset({Phase.DEAL, Phase.PLAY, Phase.OVER, _DOWN}),
    Phase.PLAY: frozenset({Phase.DEAL, Phase.OVER, _DOWN}),
    Phase.OVER: frozenset({_DOWN}),
    Phase.MIGRATING: frozenset({Phase.LOBBY, Phase.DEAL, Phase.PLAY, Phase.OVER, _DOWN}),
    Phase.STEPPED_DOWN: frozenset(),
}

ROUND = (Phase.DEAL,)
# What a seat sends when it answers what the table waits for (a ping or a resync is not an answer:
# a seat that keeps its connection up but never answers still runs out of grace).
ANSWERS = frozenset({"agree", "commit", "echo", "reveal", "move", "report", "back",
                     "reshuffle_commit", "reshuffle_echo", "reshuffle_reveal"}) | b.FROM_PEERS
RUNNING = (Phase.DEAL, Phase.PLAY, Phase.MIGRATING)  # a match under way: a leaving host hands over


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
    watching: bool = False  # a person whose seat has left follows the match to its end
    unanswered_since: float | None = None  # it let a deadline pass: its grace period runs from here
    away: bool = False  # out of time on the move clock: the table's bot plays it until it is back

    def heard(self, seq: int, kind: str, route: bytes, now: float) -> None:
        """A message of ``kind`` came from this seat (an answer ends its wait for grace)."""
        self.in_seq, self.route, self.last_heard = seq, route, now
        if kind in ANSWERS:
            self.unanswered_since = None

    def roster(self) -> m.RosterEntry:
        return m.RosterEntry(self.seat, self.name, self.identity, self.curve, self.kind,
                             self.connected and not self.left, self.left, self.addr, self.away)


@dataclass(frozen=True, slots=True)
class LocalSeat:
    """A seat the host plays itself: its own (``policy`` None: the UI submits) or a bot's."""

    name: str
    identity: Identity
    policy: Policy | None
    level: str = ""  # a host-side bot's level: a new host after a migration plays it at this level


class Table:
    """What every part of the host session shares: the table's state and how to send."""

    def __init__(self, identity: Identity, curve: str, rules: Rules, players: int, *,
                 rules_spec: JsonObject, timings: Timings, term: int, table_id: bytes,
                 secret_source: Callable[[], bytes], watchers: int = DEFAULT_CAP) -> None:
        self.identity = identity  # the host's signing key
        self.curve = curve  # its CURVE key (the transport's)
        self.rules = rules
        self.players = players
        self.rules_spec = rules_spec
        self.timings = timings
        self.term = term
        self.secret_source = secret_source
        self.table = table_id
        self.stats = Stats()
        self.ring = KeyRing(SESSION_REMEMBERS)  # (its verifier shares it: verify.py)
        self.host_seat = 0  # the seat this host plays (another after a migration)
        self.local: dict[int, LocalSeat] = {}
        self.seats: list[Seat | None] = [None] * players
        self.by_curve: dict[str, int] = {}  # the seat each proven CURVE key sits in
        self.state: GameState | None = None
        self.header: MatchHeader | None = None
        self.digest = ""
        self.header_sigs: dict[int, bytes] = {}
        self.doc: JsonObject | None = None  # the transcript so far (transcript_check.py)
        self.deal: HandDeal | None = None  # the hand being dealt or played
        self.last_deal: HandDeal | None = None  # the hand before it (a resignation may be added)
        self.dealt: list[list[Tile]] = []
        self.adoption: Adoption | None = None  # bots this host adopted, not yet logged
        self.watchers = Watchers(watchers)  # people following the table without a seat
        self.out: list[Outgoing] = []
        self.events: list[SessionEvent] = []
        self.now = 0.0
        self.owed: Callable[[], None] | None = None  # work for after the messages leave (settle)
        self._encoded: tuple[m.Body, JsonObject] | None = None  # the body sent last (send)
        self._phase = Phase.LOBBY
        # How a move is applied (``away``: its seat signed it as its bot's) and a seat's view made:
        # the engine's, unless the table deals the locked deck (net/host/blind.py: the public view)
        self.apply: Callable[[GameState, int, Action, bool], list[Event]] = (
            lambda state, seat, action, away: apply(state, seat, action))
        self.observe: Callable[[GameState, int], Observation] = observe
        self.after_move: Callable[[], None] = _nothing  # a move went out (a draw's shares asked)
        self.ready: Callable[[], bool] = _always  # a host-side seat may move now
        self.snapshots = True  # a seat that asks is sent one (not yet at a locked table)
        self.away_level = "normal"  # the table's bot level for a seat out of time (the roster's)

    # ----- the phase: one owner ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    def go(self, to: Phase) -> None:
        """Move to phase ``to``.

        Raises:
            LocalProtocolError: ``TRANSITIONS`` does not allow it (a bug here, never a peer's).
        """
        if to not in TRANSITIONS[self._phase]:
            raise LocalProtocolError(f"the host may not go from {self._phase.value} to {to.value}")
        self._phase = to

    # ----- queries -------------------------------------------------------------------------------

    @property
    def seats_taken(self) -> int:
        return sum(1 for s in self.seats if s is not None and not s.left)

    @property
    def all_local(self) -> bool:
        """A lobby whose every seat is the host's own (its seat and bots): nobody else is coming,
        so the match starts at once (people may watch it)."""
        return self.phase is Phase.LOBBY and len(self.local) == self.players

    def roster(self) -> list[m.RosterEntry]:
        return [s.roster() for s in self.seats if s is not None]

    def observation(self, seat: int | None = None) -> Observation | None:
        if self.state is None:
            return None
        return self.observe(self.state, self.host_seat if seat is None else seat)

    def seat(self, number: int) -> Seat:
        seat = self.seats[number]
        assert seat is not None
        return seat

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s is not None and s.kind == "human" and not s.left]

    def audience(self) -> list[Seat]:
        """Everyone who hears the table's public messages: the humans playing, then the watchers."""
        return [s for s in self.seats
                if s is not None and (s.kind == "human" and not s.left or s.watching)]

    def standing(self, curve: str) -> bool | str:
        """What the transport's budgets make of a CURVE key: True for a seated person,
        "watching" for a watcher, False for a stranger (net/budget.py's ``Standing``)."""
        if curve in self.by_curve:
            return True
        return "watching" if self.watchers.get(curve) is not None else False

    # ----- sending -------------------------------------------------------------------------------

    def send(self, to: Seat, body: m.Body) -> None:
        """Queue ``body`` for one seat, on its own seq. The same body sent to several seats in a
        row (a roster, an update they see alike) is encoded once (bodies are frozen)."""
        to.out_seq += 1
        to.last_sent = self.now
        if to.route is None:
            return
        last = self._encoded
        if last is None or last[0] is not body:
            last = self._encoded = (body, to_body(body))
        self.out.append(Outgoing(to.route, wrap(body.TYPE, last[1], self.term, to.out_seq)))

    def send_bots(self, seat: Seat) -> None:
        """Tell a member the host-side bots' levels, so that it can play them if it hosts next.

        A bot's seat belongs to the table, not to a person; its private key stays with this host
        (anyone holding it could sign as the bot). A member that takes over after a migration
        adopts the bot's seat under a key of its own (fair/adoption.py)."""
        bots = tuple({"seat": n, "level": local.level}
                     for n, local in sorted(self.local.items())
                     if local.level and n != self.host_seat and not self.seat(n).left)
        if bots:
            self.send(seat, m.Bots(bots))

    @property
    def move_clock_ms(self) -> int | None:
        """The move clock in ms (None: the table has none), as the roster and the header say."""
        clock = self.timings.move_s
        return None if clock is None else max(1, round(clock * 1000))

    def broadcast_roster(self) -> None:
        roster = m.Roster(tuple(self.roster()), self.players, len(self.watchers), self.watchers.cap,
                          self.move_clock_ms, self.away_level)
        for s in self.audience():
            self.send(s, roster)
        self.publish(roster)

    def publish(self, body: m.Body) -> None:
        """A public message to every watcher (net/watchers.py): ``body`` holds no private tile."""
        self.out += self.watchers.publish(body, self.term, self.now)

    def refuse(self, route: bytes, seat: int | None, code: str, detail: str, ref: int,
               what: str = "") -> None:
        """Answer a refused message (``what``: its type) with an error; a badly signed one is
        also written into the hand's log, naming the seat that sent it (HandDeal.blame)."""
        if code == "bad_signature" and seat is not None and self.deal is not None:
            record = self.deal.blame(seat, what, detail)
            if record is not None:  # the players keep it for a new host (their reports)
                statement = blame_statement(self.digest, self.deal.hand, seat, what,
                                            record.why)
                blame = m.Blame(self.deal.hand, seat, what, record.why,
                                self.identity.sign_statement(statement))
                for s in self.humans():
                    self.send(s, blame)
        self.stats[f"refused.{code}"] += 1
        self.events.append(ProtocolProblem(code, detail, seat))
        ref = ref if 0 <= ref < 2**53 else 0
        if seat is not None and self.seats[seat] is not None:
            self.send(self.seat(seat), m.Error(code, detail[:300], ref))
        else:
            self.out.append(Outgoing(route, build(m.Error(code, detail[:300], ref), self.term, 1)))

    def no_answer(self, number: int, now: float) -> None:
        """Seat ``number`` let a deadline pass: it counts as dropped (its grace period starts;
        past it, the table's leave rules apply)."""
        seat = self.seat(number)
        self.stats["deadline.no_answer"] += 1
        late = f"{seat_name(number)} did not answer in time"
        self.events.append(ProtocolProblem("no_answer", late, number))
        if seat.unanswered_since is None:
            seat.unanswered_since = now

    def advance(self, now: float) -> None:
        """Input (a message, a timer) at ``now``: first, the work a hand's end left owed."""
        self.now = now
        self.settle()

    def settle(self) -> None:
        """Do the work a hand's end left for after its messages had gone (``owed``): the session
        does it on its next input or timer (its deadline is then now), before anything else."""
        owed, self.owed = self.owed, None
        if owed is not None:
            owed()

    def owe(self, work: Callable[[], None]) -> None:
        """Leave ``work`` for once this input's messages have gone (``settle``), after what is
        owed already."""
        before = self.owed
        if before is None:
            self.owed = work
            return

        def both() -> None:
            before()
            work()

        self.owed = both

    def host_view(self) -> None:
        """The host's own seat, played from a UI, sees the table change."""
        if self.state is not None and self.local[self.host_seat].policy is None:
            self.events.append(ObservationChanged(self.observe(self.state, self.host_seat)))


def _nothing() -> None:
    pass


def _always() -> bool:
    return True


Handler = Callable[[Seat, m.Body, int], None]
B = TypeVar("B", bound=m.Body)


def on(kind: type[B], handler: Callable[[Seat, B, int], None]) -> tuple[str, Handler]:
    """A dispatch entry (by type name); mypy checks that ``handler`` takes ``kind``'s body."""
    return kind.TYPE, cast(Handler, handler)


def seat_view(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` may see it on the wire: another seat's drawn tile is hidden, and so is
    the tile the opener must lead with (it shows who holds it until it is played)."""
    if type(event) is HandStarted and event.must_lead is not None and event.opener != seat:
        return event._replace(must_lead=None)
    return public_event(event, seat)
