"""What both sessions share: timings, outgoing messages, session events, counters, join proofs.

Pure: no sockets, no clock (``now`` is always a parameter, monotonic seconds).

The passphrase never travels. Both sides derive ``K = PBKDF2-HMAC-SHA256(passphrase, salt =
"lanomino.pass/1" || host identity key)`` and the joining peer sends ``HMAC-SHA256(K, "lanomino.
join/1" || nonce || host CURVE key || peer CURVE key || peer identity key)``. The nonce is fresh per
attempt and both CURVE keys are the ones the encrypted channel proved, so a proof cannot be replayed
or relayed to another table.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from lanomino.engine import Action, Observation
from lanomino.net.keys import z85_to_raw

PASS_SALT = b"lanomino.pass/1\x00"
PASS_ITERATIONS = 20_000
JOIN_TAG = b"lanomino.join/1\x00"


@dataclass(frozen=True, slots=True)
class Timings:
    """Every duration a session uses, in seconds."""

    # A ping goes out when nothing else was sent for heartbeat_s; silence for liveness_s (5
    # heartbeats) counts as a drop (and, for a host, starts an election). Over TCP a lost packet
    # shows up as a retransmission delay (200 ms, doubling): with 10% loss on a link both ways the
    # longest gap between arrivals measured over 240 link-minutes was 1.0 s, so 1.25 s gives no
    # false drop, and a crashed host is replaced about 1.3 s after it went (docs/host-migration.md).
    heartbeat_s: float = 0.25
    liveness_s: float = 1.25
    grace_s: float = 30.0  # a disconnected seat is kept this long, then it has left the table
    bot_delay_s: float = 0.0  # host-side bots wait this long before moving (0: at once)
    # Every wait for an answer has a deadline: a seat has answer_s to send its commitment, its
    # echo and its secret once asked (each step of a deal round), a host answer_s to send the
    # snapshot a peer asked for, a member answer_s to report to a new host. A seat that lets one
    # pass is treated as dropped (its grace period starts) and the round goes on without it.
    # Five seconds is four liveness periods: a peer on a lossy link answers well within it.
    answer_s: float = 5.0
    # The optional move clock (``--move-time``): a seat that has not moved move_s after its turn
    # began is away, and the table's bot plays it until the player is back. None: no clock.
    move_s: float | None = None
    # Deadlines on the host's progress, which every seat times (net/peer/progress.py): it passes
    # a seat's accepted move on within relay_s; a host-side bot moves within bot_budget_s (at a
    # table with a move clock, within move_s), and so does the host's own seat at such a table,
    # each plus margin_s (and any bot_delay_s). A host past one is left as if it had crashed. A
    # human host at a table without a move clock may think as long as they like.
    relay_s: float = 5.0
    bot_budget_s: float = 10.0
    margin_s: float = 2.0

    def __post_init__(self) -> None:
        for name in ("heartbeat_s", "liveness_s", "grace_s", "answer_s", "relay_s",
                     "bot_budget_s", "margin_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0")
        if self.move_s is not None and not self.move_s > 0:
            raise ValueError("move_s must be > 0 (or None: no move clock)")
        if self.bot_delay_s < 0:
            raise ValueError("bot_delay_s must be >= 0")
        if self.liveness_s <= self.heartbeat_s:
            raise ValueError("liveness_s must be longer than heartbeat_s")


@dataclass(frozen=True, slots=True)
class Sender:
    """Who a message came from, as the transport proved it: the connection and its CURVE key."""

    route: bytes  # the host ROUTER's routing id for the connection (opaque)
    curve: str  # the sender's CURVE public key, Z85
    ip: str | None = None  # the connection's source address as TCP saw it (None: unknown)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to send: to which connection (host side) and the wire object."""

    route: bytes
    message: dict[str, object]


# ----- events the sessions report (the node logs them, the UI shows them) -----------------


@dataclass(frozen=True, slots=True)
class SeatTaken:
    seat: int
    name: str
    kind: str  # host, human, bot
    rejoined: bool = False


@dataclass(frozen=True, slots=True)
class SeatDisconnected:
    seat: int


@dataclass(frozen=True, slots=True)
class SeatAway:
    """A seat ran out of time on the move clock (``away``: the table's bot plays it), or is back."""

    seat: int
    away: bool


@dataclass(frozen=True, slots=True)
class SeatLeft:
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatDeclined:
    """The player a rematch kept ``seat`` for said no: the seat is open to anyone now."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Joined:
    """A peer session was given its seat."""

    seat: int
    seats: int


@dataclass(frozen=True, slots=True)
class JoinRefused:
    code: str
    reason: str


class ObservationChanged:
    """The seat's view changed (a move, a deal, a snapshot).

    ``observation`` is the seat's Observation; a peer session hands out a maker instead and the
    Observation is built on first access (a headless peer, whose bot acts on ``YourTurn``, never
    asks, and a client asks once per redraw)."""

    __slots__ = ("_made", "_make")

    def __init__(self, observation: Observation | None = None, *,
                 make: Callable[[], Observation] | None = None) -> None:
        if (observation is None) == (make is None):
            raise ValueError("give an observation or a maker, not both")
        self._made, self._make = observation, make

    @property
    def observation(self) -> Observation:
        if self._made is None:
            assert self._make is not None
            self._made = self._make()
        return self._made

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObservationChanged) and self.observation == other.observation

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ObservationChanged(observation={self.observation!r})"


@dataclass(frozen=True, slots=True)
class YourTurn:
    """It is this seat's move: submit one of ``observation.legal`` (or resign)."""

    observation: Observation


@dataclass(frozen=True, slots=True)
class HandVerified:
    hand: int
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class TranscriptUpdated:
    """The match transcript as it stands (after each hand; ``finished`` at the match end)."""

    table: str  # table id, hex
    transcript: Mapping[str, object] = field(repr=False)  # as JSON
    finished: bool = False


@dataclass(frozen=True, slots=True)
class MatchOver:
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    verified: bool
    reason: str = ""  # how it ended if not by the host's closing (the host left a 2-player table)


@dataclass(frozen=True, slots=True)
class ProtocolProblem:
    """A message was refused or dropped (also counted in ``stats``)."""

    code: str
    detail: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SecretMade:
    """A commit-reveal secret this seat made: keep it until the hand ends (a restarted peer
    must reveal the secret it committed to)."""

    table: str
    hand: int
    attempt: int
    secret: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class HostSilent:
    """Nothing from the host for the liveness timeout (host migration starts here)."""

    since: float


@dataclass(frozen=True, slots=True)
class HostCaught:
    """The host signed something false and this seat holds the proof (``evidence``, as JSON): a
    move its seat did not sign, two heads at one place of the log (net/peer/arrival.py); or it
    broke a rule of progress this seat saw (it dealt a hand without the last hand's log). The
    seat leaves that host as if it had crashed (net/peer/session.py, ``_vote_out``)."""

    check: str
    detail: str
    evidence: Mapping[str, object] = field(repr=False)
    at: float = 0.0  # when this seat saw it (its clock)


@dataclass(frozen=True, slots=True)
class MoveDisputed:
    """``seat`` disputes move ``index`` (from 0) of ``hand``: the host made it for that seat (a
    resignation when ``resign``, else the table's move while it was counted away) while the seat
    was at the table and in time. Its signature is checked (fair/dispute_check.py); the transcript
    keeps it and ``lanomino verify`` lists it."""

    hand: int
    index: int
    seat: int
    resign: bool


@dataclass(frozen=True, slots=True)
class HostChanged:
    """A peer follows a new host candidate (``mine``: this peer is the candidate: become host)."""

    term: int
    seat: int
    curve: str
    mine: bool


@dataclass(frozen=True, slots=True)
class MigrationPaused:
    """A new host waits: fewer than a majority of the members have joined it."""

    term: int
    joined: int
    needed: int


@dataclass(frozen=True, slots=True)
class MigrationDone:
    """A new host rebuilt the table and play goes on (``rebuilt``: the hand in play, by escrow)."""

    term: int
    host: int
    rebuilt: bool


@dataclass(frozen=True, slots=True)
class SteppedDown:
    """This host saw a higher term: another host runs the table; this one is a peer now."""

    term: int
    host: int


@dataclass(frozen=True, slots=True)
class LostTouch:
    """This host has been cut off from a majority of the members for two grace periods: it stops
    (if the others went on under a new host, their transcripts hold the rest of the match)."""

    term: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Closed:
    reason: str


SessionEvent = (
    SeatTaken | SeatDisconnected | SeatLeft | SeatDeclined | SeatAway | Joined | JoinRefused
    | ObservationChanged | YourTurn | HandVerified | TranscriptUpdated | MatchOver
    | ProtocolProblem | SecretMade | HostSilent | HostCaught | Closed | MoveDisputed
    | HostChanged | MigrationPaused | MigrationDone | SteppedDown | LostTouch
)

Submit = Action


class Stats(Counter[str]):
    """Counters by name ("refused.out_of_turn", "malformed", ...); never reset."""


# ----- the join proofs ----------------------------------------------------------------------


def passphrase_key(passphrase: str, host_identity: bytes) -> bytes:
    """The key both sides derive from the passphrase (slow on purpose: guessing costs)."""
    return hashlib.pbkdf2_hmac("sha256", passphrase.encode("utf-8"), PASS_SALT + host_identity,
                               PASS_ITERATIONS)


def passphrase_proof(key: bytes, nonce: bytes, host_curve: str, peer_curve: str,
                     identity: bytes) -> bytes:
    """What a joining peer sends to show it knows the passphrase."""
    message = JOIN_TAG + nonce + z85_to_raw(host_curve) + z85_to_raw(peer_curve) + identity
    return hmac.new(key, message, hashlib.sha256).digest()


def join_statement(nonce: bytes, table: bytes, host_curve: str,
                   peer_curve: str) -> dict[str, object]:
    """What a joining peer signs with its identity key: it owns the key it claims."""
    return {"type": "lanomino.join/1", "nonce": nonce.hex(), "table": table.hex(),
            "host_curve": host_curve, "peer_curve": peer_curve}
