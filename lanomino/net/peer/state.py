"""A peer session's state and plumbing: the phase and its one owner, sending, problems. Pure.

``PeerSession`` (session.py) is a ``PeerState`` that has its parts: ``PeerDealing`` (deal.py),
``Elections`` (elections.py) and ``ReshuffleAnswers`` (reshuffle_answers.py); each reads and writes
this state. The phase changes only through ``go``, which enforces ``TRANSITIONS``::

    CONNECTING --challenge--> CHALLENGED --welcome--> SEATED --hand_log(finished)--> OVER
    any --refused / bye / quit--> CLOSED
    CLOSED --welcome / hand_log(finished) still in flight, or connect() again--> SEATED | OVER |
    CONNECTING

Going to the phase a peer is in already is no change and always allowed.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import TypeVar, cast

from lanomino.engine import Observation, Rules, Tile
from lanomino.fair.attempt import DealAttempt
from lanomino.fair.commit import (
    new_secret,
)
from lanomino.fair.header import MatchHeader
from lanomino.fair.identity import SESSION_REMEMBERS, Identity, KeyRing
from lanomino.fair.transcript_model import Abandoned
from lanomino.fair.verify import StreamVerifier
from lanomino.net.chunks import Reassembler
from lanomino.net.election import Election, entry_of
from lanomino.net.errors import LocalProtocolError
from lanomino.net.peer import blind_snapshot
from lanomino.net.peer.arrival import Arrival
from lanomino.net.peer.blind import PeerBlind
from lanomino.net.peer.catch_up import LogCatchUp
from lanomino.net.peer.disputes import PeerDisputes
from lanomino.net.peer.held_moves import HeldMoves
from lanomino.net.peer.progress import Progress
from lanomino.net.peer.proof_passing import ProofPassing
from lanomino.net.peer.proofs import Proofs
from lanomino.net.peer.reshuffle_answers import ReshuffleAnswers
from lanomino.net.peer.table_bot import TableBot
from lanomino.net.session_base import (
    Closed,
    HostCaught,
    ProtocolProblem,
    SessionEvent,
    Stats,
    Timings,
    YourTurn,
)
from lanomino.net.view import PeerView
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import envelope

BASELINE = frozenset({"challenge", "refused", "welcome"})  # these restart the host's seq


Handler = Callable[[m.Body], None]
B = TypeVar("B", bound=m.Body)


def on(kind: type[B], handler: Callable[[B], None]) -> tuple[str, Handler]:
    """A dispatch entry (by type name); mypy checks that ``handler`` takes ``kind``'s body."""
    return kind.TYPE, cast(Handler, handler)


class Phase(enum.Enum):
    CONNECTING = "connecting"
    CHALLENGED = "challenged"
    SEATED = "seated"
    OVER = "over"
    CLOSED = "closed"


TRANSITIONS: Mapping[Phase, frozenset[Phase]] = {
    Phase.CONNECTING: frozenset({Phase.CHALLENGED, Phase.SEATED, Phase.OVER, Phase.CLOSED}),
    Phase.CHALLENGED: frozenset({Phase.CONNECTING, Phase.SEATED, Phase.OVER, Phase.CLOSED}),
    Phase.SEATED: frozenset({Phase.OVER, Phase.CLOSED}),
    Phase.OVER: frozenset({Phase.CLOSED}),
    Phase.CLOSED: frozenset({Phase.CONNECTING, Phase.SEATED, Phase.OVER}),
}


class PeerState:
    """What every part of the peer session shares: the table as this seat knows it."""

    def __init__(self, identity: Identity, curve: str, host_curve: str, *, name: str,
                 passphrase: str | None = None, timings: Timings | None = None,
                 secrets: Mapping[tuple[str, int, int], bytes] | None = None,
                 secret_source: Callable[[], bytes] = new_secret, term: int = 0,
                 migration: bool = False, watch: bool = False) -> None:
        self.identity, self.curve, self.host_curve, self.name = identity, curve, host_curve, name
        self.passphrase = passphrase
        self.timings = timings or Timings()
        self.secrets: dict[tuple[str, int, int], bytes] = dict(secrets or {})
        self.secret_source = secret_source
        self.stats = Stats()
        self.ring = KeyRing(SESSION_REMEMBERS)  # (its verifier shares it: verify.py)
        self._phase = Phase.CONNECTING
        self.term = term
        self.host_seat = 0  # the seat of the current host (another after a migration)
        self.move_sigs: dict[int, list[bytes]] = {}  # per hand, the signatures of the moves
        # the hand in play's updates as its host passed them on (a locked hand's log entries,
        # for a member a new host has to catch up: catch_up.py)
        self.heard: dict[int, list[m.Update]] = {}
        self.blames: dict[int, list[m.Blame]] = {}  # the hand in play's refusals (the host's word)
        # per hand, the deal attempts without secrets
        self.attempts: dict[int, list[DealAttempt]] = {}  # the hands' deals, without secrets
        self.dealers: dict[int, int] = {}  # who dealt each hand (signed its commitment sets)
        self.reshuffle = ReshuffleAnswers(self)  # its part in re-shuffle rounds
        self.blind = PeerBlind(self)  # its part at a table that deals the locked deck
        self.arrival = Arrival(self)  # the checks of what the host passes on (arrival.py)
        self.catching = LogCatchUp(self)  # a locked hand's log after a migration (catch_up.py)
        self.caught: list[HostCaught] = []  # the host's false statements this seat holds proof of
        self.voted_out = 0  # how many of them this seat has acted on (left that host)
        self.progress = Progress(self)  # its deadlines on the host's progress (progress.py)
        self.disputes = PeerDisputes(self)  # the disputes it signs and is passed (disputes.py)
        self.table_bot = TableBot(self)  # the move clock's bot at a locked table (table_bot.py)
        self.proofs = Proofs(self)  # the proof against a host it caught, kept (proofs.py)
        self.passing = ProofPassing(self)  # proof passed to and from members (proof_passing.py)
        self.held = HeldMoves(self)  # its held moves, witnessed by members (held_moves.py)
        self.abandoned: dict[int, list[Abandoned]] = {}  # per hand, attempts that missed a deadline
        self.election: Election | None = None  # a running host election
        self.bot_levels: dict[int, str] = {}  # host-side bots: seat -> level (never their keys)
        # take part in host elections (the node must then act on HostChanged)
        self.migration = migration
        self.watch = watch  # a watcher: no seat, no vote, follows the table (net/watchers.py)
        self.watching = 0  # how many watch the table (the roster says)
        self.watch_cap = 8  # how many may (the roster says; a new host keeps the same limit)
        self.move_clock_s: float | None = None  # the host's move clock, if it keeps one
        # where this peer would host if elected (IP:PORT; the node sets it)
        self.addr: str | None = None
        self.host_seq = 0
        self.my_seq = 0
        self.seat = -1
        self.players = 0
        self.roster: list[m.RosterEntry] = []
        self.rules: Rules | None = None
        self.table = b""
        self.header: MatchHeader | None = None
        self.digest = ""
        self.keys: list[bytes] = []
        self.doc: JsonObject | None = None
        self.view: PeerView | None = None
        self.hand = 0  # the transcript hand in play (or last played)
        self.dealt: dict[int, tuple[Tile, ...]] = {}
        self.moves: dict[int, list[JsonObject]] = {}
        self.committed: dict[tuple[int, int], bytes] = {}
        self.echoed: dict[tuple[int, int], bytes] = {}
        self.set_seats: dict[tuple[int, int], tuple[int, ...]] = {}  # who committed, per set
        self.escrow: dict[tuple[int, int], m.Escrow] = {}
        self.verified: dict[int, bool] = {}
        self.verifier = StreamVerifier(self.ring)
        self.early_log: m.HandLog | None = None  # a hand log ahead of the hand's last move
        self.owed: Callable[[], None] | None = None  # work for after the output leaves (settle)
        self.pending_move: int | None = None
        self.holding = False  # a locked deck's draw of this seat waits for its shares (blind.py)
        self.move_seq = 0  # the seq of the message that carries the pending move
        self.resync_asked = False
        self.parts = Reassembler()  # a snapshot arriving in parts (net/chunks.py)
        self.resync_due: float | None = None  # the host owes this peer a snapshot by then
        self.last_heard = 0.0
        self.last_sent = 0.0
        # the host let this peer in (its welcome) since the last hello: until then no heartbeat
        # goes out (see ``_hello``)
        self.welcomed = False
        self.silent = False
        self.answered = False  # the host followed (a new one too) has sent something since
        self.now = 0.0
        self._out: list[JsonObject] = []
        self._events: list[SessionEvent] = []

    @property
    def phase(self) -> Phase:
        return self._phase

    def go(self, to: Phase) -> None:
        """Move to phase ``to`` (staying where it is is no change).

        Raises:
            LocalProtocolError: ``TRANSITIONS`` does not allow it (a bug here, never the host's).
        """
        if to is not self._phase and to not in TRANSITIONS[self._phase]:
            raise LocalProtocolError(f"a peer may not go from {self._phase.value} to {to.value}")
        self._phase = to

    @property
    def verified_all(self) -> bool:
        """Every hand so far checked out (False before the first hand)."""
        return bool(self.verified) and all(self.verified.values())

    def observation(self) -> Observation | None:
        return None if self.view is None else self.view.observation()

    # ----- small things --------------------------------------------------------------------------

    def _hello(self) -> None:
        """Ask the host for a seat (or, for a watcher, to watch). Until its welcome the peer
        sends no heartbeat: a host that has not let it in answers a ping with ``not_seated`` only,
        and a new host reads what waited for it through the small budget of a connection without
        a seat (4, then 2 a second, net/budget.py): pings queued while the candidate had not begun
        to serve (up to a liveness period) spent it, and the auth that followed was dropped."""
        self.welcomed = False
        if self.watch:
            self._send(m.Watch(self.name, self.identity.public_key, self.curve))
        else:
            self._send(m.Hello(self.name, self.identity.public_key, self.curve, self.addr))

    def _error(self, body: m.Error) -> None:
        if body.code == "not_seated" and self.election is not None:  # a new host: say hello
            self._hello()
        pending = self.pending_move is not None and body.ref == self.move_seq
        if body.code == "illegal" and pending:
            # this seat moves only what its view allows, and its view is the log the host signed
            # move by move: the host's game is not the one it showed this seat (a fork)
            self.caught.append(HostCaught("refused-legal", "the host refused a move that is legal "
                                          f"in the log it signed for this seat: {body.message}",
                                          {"check": "refused-legal", "host": self.host_seat,
                                           "hand": self.hand, "index": self.pending_move},
                                          self.now))
            self._events.append(self.caught[-1])
        if body.code in ("illegal", "out_of_turn", "stale", "bad_signature"):
            self.pending_move = None
        self._events.append(ProtocolProblem(body.code, body.message, self.seat))
        if body.code == "not_built":  # (no snapshot of a locked hand: net/peer/blind_snapshot)
            blind_snapshot.unbuilt(self.blind, body.message)
        if body.code == "stale" and pending:
            # the table moved on before this seat's move came (a new host resigned the lost
            # host's seat first): still to move, it moves again from what it knows now (a bot
            # would otherwise wait for ever)
            self.prompt_turn()

    @property
    def away(self) -> bool:
        """The move clock ran out for this seat: the table's bot plays it until ``back``
        (at a locked table its own client runs that bot: table_bot.py)."""
        mine = entry_of(self.roster, self.seat)
        return mine is not None and mine.away

    def prompt_turn(self) -> None:
        """``YourTurn`` when the hand in play waits for this seat and no move of its is on its
        way."""
        view = self.view
        if (view is not None and view.phase == "play" and view.turn == self.seat
                and self.pending_move is None and self.phase is Phase.SEATED
                and not self.holding):
            self._events.append(YourTurn(view.observation()))

    def _bye(self, body: m.Bye) -> None:
        if self.phase is not Phase.OVER:
            self.go(Phase.CLOSED)
        self._events.append(Closed(body.reason))

    def _ping(self, body: m.Ping) -> None:
        pass

    def _require_view(self) -> PeerView:
        if self.view is None:
            raise ValueError("no match has begun")
        return self.view

    def _problem(self, code: str, detail: str) -> None:
        self.stats[f"dropped.{code}"] += 1
        self._events.append(ProtocolProblem(code, detail, self.seat if self.seat >= 0 else None))

    def settle(self, now: float) -> None:
        """Input (a message, a timer, a move) at ``now``: first, the work left ``owed`` until the
        last input's output had gone (the check of a hand whose last move just came, deal.py)."""
        self.now = now
        owed, self.owed = self.owed, None
        if owed is not None:
            owed()

    def _send(self, body: m.Body) -> None:
        self.my_seq += 1
        self.last_sent = self.now
        self._out.append(envelope(body, self.term, self.my_seq))
