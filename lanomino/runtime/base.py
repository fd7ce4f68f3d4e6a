"""What host and peer nodes share: the match's outcome, the seat rows a client reads, a bot
policy, this machine's addresses, and ``NodeBase`` (listeners, transcript files, the play log,
the timer loop). I/O lives here: asyncio, files, the clock."""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lanomino.bots import get_bot
from lanomino.engine import Action, Observation, Rules
from lanomino.net.errors import LocalProtocolError, TransportError
from lanomino.net.keys import DirectAddress
from lanomino.net.session import (
    HandVerified,
    LostTouch,
    MatchOver,
    ProtocolProblem,
    SessionEvent,
    TranscriptUpdated,
)
from lanomino.net.session_base import Outgoing
from lanomino.net.wire.messages import RosterEntry
from lanomino.runtime.match_log import MatchLog
from lanomino.runtime.stopping import cancel_all, cancelling

if TYPE_CHECKING:
    from lanomino.net.session import HostSession, PeerSession
    from lanomino.net.zmq_transport import HostTransport
    from lanomino.runtime.peer_node import PeerNode

log = logging.getLogger("lanomino.node")
Listener = Callable[[SessionEvent], None]
TASKS_STOP_S = 0.3  # the most a node's tasks take to end once cancelled (a bug if they do not)



def lan_addresses() -> list[str]:
    """This machine's IPv4 LAN addresses (no loopback, no link-local)."""
    import ifaddr  # zeroconf's own dependency: lists interfaces without root

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254.")):
                found.append(ip.ip)
    return found


def local_ip_toward(host: str) -> str:
    """The local address this machine uses to reach ``host`` (a UDP connect: nothing is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect((host, 9))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


LeftMatch = tuple[str, Rules, list[tuple[str, bytes]], int]  # uid, rules, (name, key)s, seat


def left_match_of(session: PeerSession) -> LeftMatch | None:
    """A seat's match for the play log (None before the match began, or without a seat)."""
    s = session
    if s.rules is None or not s.table or s.seat < 0:
        return None
    seats = [(r.name, r.identity) for r in sorted(s.roster, key=lambda r: r.seat)]
    return f"lan:{s.table.hex()}", s.rules, seats, s.seat


def lost_touch_reason(event: LostTouch) -> str:
    stops = f"lost touch with most of the table for {event.seconds:.0f} s: this host stops here"
    why = "if the others went on under a new host, their transcripts hold the rest of the match"
    return f"{stops} ({why})"


def bot_policy(level: str, seed: int | None = None) -> Callable[[Observation], Action]:
    bot, rng = get_bot(level), random.Random(seed)
    return lambda obs: bot(obs, rng)


def hear(receive: Callable[[], None], kind: object, stats: Counter[str]) -> None:
    """Give the session one message (``receive``). A session that fails on it (our fault: it
    refuses bad input itself) must not leave the node deaf to every later message while its
    timers still ping: the message is dropped, counted (``failed.<type>``: the outcome's
    problems) and logged with its traceback, and the node hears on."""
    try:
        receive()
    except Exception:  # noqa: BLE001 - whatever it was, the next message is heard
        stats[f"failed.{kind}"] += 1
        log.exception("this node failed on a %s message (dropped; it hears on)", kind)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of the table as a client shows it (the typed face of a roster entry)."""

    seat: int
    name: str
    kind: str  # host | human | bot
    connected: bool = True
    away: bool = False  # out of time on the move clock: the table's bot plays the seat
    left: bool = False  # out of the match (resigned, said goodbye, or did not come back)


def seat_rows(roster: Sequence[RosterEntry]) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(e.seat, e.name, e.kind, e.connected, e.away, e.left) for e in roster)



@dataclass(frozen=True, slots=True)
class Takeover:
    """This node became the table's host: in ``term``, as seat ``host``, at ``at`` (wall clock);
    ``rebuilt``: the hand in play was rebuilt from the escrow."""

    term: int
    host: int
    rebuilt: bool
    at: float

    def to_json(self) -> dict[str, object]:
        return {"term": self.term, "host": self.host, "rebuilt": self.rebuilt, "at": self.at}


@dataclass(frozen=True, slots=True)
class Serving:
    """Where others reach a table this node serves (a host's screen shows it): its IP and port,
    its CURVE key, the fingerprint of the host's identity key, and the short join code while its
    key service answers ("" when none does)."""

    ip: str
    port: int
    curve_key: str  # (Z85, as a direct address writes it)
    fingerprint: str
    code: str = ""

    @classmethod
    def of(cls, ip: str, port: int, curve_key: str, identity_key: bytes,
           answering: bool) -> Serving:
        """Where a host serves: the fingerprint is of its identity key; the short code only
        while its key service is ``answering``."""
        from lanomino.discovery.table_key import identity_fingerprint, join_code

        fingerprint = identity_fingerprint(identity_key)
        return cls(ip, port, curve_key, fingerprint, join_code(fingerprint) if answering else "")

    @property
    def address(self) -> str:
        """``HOST:PORT/KEY``: a direct join with the key that proves the host."""
        return str(DirectAddress(self.ip, self.port, self.curve_key))

    @property
    def short_address(self) -> str:
        """``HOST:PORT/CODE`` while the key service answers, else ""."""
        return f"{DirectAddress(self.ip, self.port)}/{self.code}" if self.code else ""


@dataclass(frozen=True, slots=True)
class Hosting:
    """The table as the node that hosts it sees it, for a rematch that opens it again: who sat
    where (``seat``: this node's own), the rules, the bots' levels, the passphrase, whether it
    deals the locked deck, and whether this node took the table over from another host
    (``took_over``)."""

    name: str
    roster: tuple[RosterEntry, ...]
    seat: int
    rules: Rules
    players: int
    escrow: bool
    bot_levels: tuple[str, ...]
    passphrase: str | None
    took_over: bool
    blind: bool

    @classmethod
    def of(cls, name: str, host: HostSession, seat: int, passphrase: str | None,
           took_over: bool) -> Hosting:
        levels = sorted({local.level for local in host.local.values() if local.level})
        return cls(name, tuple(host.roster()), seat, host.rules, host.players, host.escrow,
                   tuple(levels), passphrase, took_over, host.blind is not None)


@dataclass
class Outcome:
    """How a node's match ended (what ``--json`` prints)."""

    finished: bool
    winner: int | None = None
    scores: tuple[int, ...] = ()
    hands: int = 0
    verified: bool = False
    seat: int | None = None
    transcript: str | None = None
    reason: str = ""
    problems: dict[str, int] = field(default_factory=dict)
    hosts: dict[int, int] = field(default_factory=dict)  # term -> the host seat this node saw in it
    migrations: list[Takeover] = field(default_factory=list)  # what it did as a new host
    stepped_down: bool = False  # a host that saw another host of a newer term
    rejoin: DirectAddress | None = None  # where that new host is, when this host learnt it
    refused: bool = False  # the table would not seat this node (``reason`` says why)

    def to_json(self) -> dict[str, object]:
        """The ``--json`` line of the match's end."""
        return {"event": "match_over" if self.finished else "stopped", "finished": self.finished,
                "winner": self.winner, "scores": list(self.scores), "hands": self.hands,
                "verified": self.verified, "seat": self.seat, "transcript": self.transcript,
                "reason": self.reason, "problems": self.problems,
                "hosts": {str(t): s for t, s in sorted(self.hosts.items())},
                "migrations": [m.to_json() for m in self.migrations],
                "stepped_down": self.stepped_down}


class NodeBase:
    """What host and peer nodes share: listeners, transcript files, the wake-up for timers."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.listeners: list[Listener] = []
        self.wake = asyncio.Event()
        self.done: asyncio.Future[Outcome] | None = None
        self.transcript_path: Path | None = None
        self.match_log = MatchLog(data_dir)  # the transcript file and the play log
        self.verified: dict[int, bool] = {}
        self.tasks: set[asyncio.Future[None]] = set()
        self.hosts: dict[int, int] = {0: 0}  # term -> host seat, as this node saw it
        self.migrations: list[Takeover] = []
        self.seat_session: PeerSession | None = None  # a seat's (PeerNode): History keeps its match

    async def follow_on(self, outcome: Outcome,
                        on_start: Callable[[PeerNode], None] | None = None) -> Outcome:
        """After ``run``: what else this node does before the match is over for it (a host that
        stepped down follows the new host: ``HostNode``). Returns the match's outcome."""
        return outcome

    def _spawn(self, coro: Awaitable[None]) -> None:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    @classmethod
    def _deliver_all(cls, transport: HostTransport, outgoing: Sequence[Outgoing]) -> None:
        """Hand a host session's output to the transport now, as one batch (a body that several
        peers get alike, an update or a hand's log, is encoded once)."""
        with transport.batch():
            for out in outgoing:
                cls._deliver(transport, out)

    @staticmethod
    def _deliver(transport: HostTransport, outgoing: Outgoing) -> None:
        """Hand one host message to the transport now (``send_now`` never blocks): a message
        queued in a task instead may still be waiting when the node closes at the match's end,
        and the last update or hand log is then never sent."""
        try:
            transport.send_now(outgoing.route, outgoing.message)
        except (TransportError, LocalProtocolError) as exc:
            log.warning("cannot send %s: %s", outgoing.message.get("type"), exc)

    def _done(self, task: asyncio.Future[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("background task failed: %r", task.exception())

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every session event from now on."""
        self.listeners.append(listener)

    def now(self) -> float:
        return time.monotonic()

    def _publish(self, event: SessionEvent) -> None:
        log.debug("%s", event)
        for listener in self.listeners:
            listener(event)
        if isinstance(event, TranscriptUpdated):
            self.transcript_path = self.match_log.write(event)
            verified = all(self.verified.values()) if self.verified else None
            self._spawn(asyncio.to_thread(self.match_log.log_play, event, self.my_seat(),
                                          self.table_label(), verified))
        elif isinstance(event, HandVerified):
            self.verified[event.hand] = event.ok
            if not event.ok:
                log.warning("hand %d does not verify: %s", event.hand, event.detail)
        elif isinstance(event, ProtocolProblem):
            # a wrong passphrase was checked: someone may be guessing, say so (a refusal unchecked,
            # ``throttled``, is not: a flood of them would flood the log, at most a few a minute)
            guess = event.code == "passphrase"
            log.log(logging.WARNING if guess else logging.INFO, "refused (%s): %s", event.code,
                    event.detail)

    def my_seat(self) -> int | None:
        """This node's seat at the table, once it has one."""
        return None

    def table_label(self) -> str:
        return "LAN table"

    def _ended(self, event: SessionEvent, seat: int | None, stats: Mapping[str, int]) -> bool:
        """The match is over for this node when ``event`` says so: its end, or (a host) no touch
        with the table any more. Finishes with the outcome for ``seat``; returns whether it
        did."""
        if isinstance(event, MatchOver):  # (finished: it was decided; a match its host left
            # with more than one side standing, or whose locked deal failed, was not: stopped)
            settled = event.winner is not None or not event.reason
            self._finish(Outcome(settled, event.winner, event.scores, event.hands,
                                 event.verified, seat, reason=event.reason, problems=dict(stats)))
        elif isinstance(event, LostTouch):
            reason = lost_touch_reason(event)
            log.warning("%s", reason)
            self._finish(Outcome(False, seat=seat, reason=reason))
        else:
            return False
        if isinstance(event, LostTouch) or event.reason:  # (no closing statement: the host left)
            decided = event if isinstance(event, MatchOver) and event.winner is not None else None
            self._spawn(asyncio.to_thread(self._log_abandoned, decided))
        return True

    def _log_abandoned(self, decided: MatchOver | None = None) -> None:
        """History keeps a match its host left as abandoned, even with no hand of it logged, and
        the outcome this node decided, if it did (a table of two: the other player won)."""
        from lanomino.store import PlayLog, open_store

        left = None if self.seat_session is None else left_match_of(self.seat_session)
        if left is None:
            return
        store = open_store(self.data_dir)
        try:
            PlayLog(store).keep_abandoned(
                *left, table=self.table_label(),
                winner=None if decided is None else decided.winner,
                scores=() if decided is None else decided.scores)
        finally:
            store.close()

    def _finish(self, outcome: Outcome) -> None:
        if self.done is not None and not self.done.done():
            outcome.hosts, outcome.migrations = dict(self.hosts), list(self.migrations)
            outcome.transcript = str(self.transcript_path) if self.transcript_path else None
            self.done.set_result(outcome)

    async def _timers(self, handle: Callable[[float], None],
                      deadline: Callable[[], float | None]) -> None:
        late: float | None = None
        while not cancelling():
            due = deadline()
            delay = 1.0 if due is None else max(0.0, due - self.now())
            self.wake.clear()
            try:  # (asyncio.timeout, never wait_for: runtime/stopping.py)
                async with asyncio.timeout(min(delay, 1.0)):
                    await self.wake.wait()
            except TimeoutError:
                pass
            if due is not None and self.now() >= due:
                if self.now() - due > 0.1 and late != due:
                    # this process was stalled (CPU, a debugger...): what arrived meanwhile is read
                    # before any silence is judged, or a stall here would look like a silent host
                    late = due
                    await asyncio.sleep(0.02)
                    continue
                handle(self.now())
                self._flush()

    def _flush(self) -> None:
        raise NotImplementedError

    async def _serve(self, tasks: list[asyncio.Task[None]], linger_s: float) -> Outcome:
        """Run ``tasks`` until the match's outcome is known, then ``linger_s`` more (the last
        messages, e.g. the hand log and the closing, leave meanwhile); stop them either way."""
        assert self.done is not None
        try:
            outcome = await self.done
            await asyncio.sleep(linger_s)
            return outcome
        finally:
            await cancel_all(tasks, TASKS_STOP_S)

    def cut_short(self) -> bool:
        """The node's run was cancelled before its match was over for it (its client gone, its
        terminal hung up): closing it then leaves the table as quitting does."""
        return self.done is not None and self.done.cancelled()

    async def _stop_tasks(self) -> None:
        """Stop what runs in the background (closing: an election's watch, a send, an update of
        the announcement)."""
        await cancel_all(list(self.tasks), TASKS_STOP_S)


