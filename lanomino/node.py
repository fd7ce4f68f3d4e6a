"""The composition root: one asyncio loop wiring the transport, a session, discovery, bots and files.

No game rules live here. A node moves messages between the ZeroMQ transport and a sans-I/O
session, fires the session's timers, plays a bot when the session says it is the seat's turn,
keeps the table's announcement up to date and writes transcripts and commit secrets to the data
directory. ``HostNode`` and ``PeerNode`` are also the API a user interface attaches to:
``subscribe(callback)`` to see every session event (observations included), ``submit(action)``
to move, ``quit()`` to leave.

Host migration (see docs/host-migration.md): every peer binds a standby ROUTER with its own CURVE
keypair at start and tells the host where (``hello.addr``; the roster carries it to every peer). When
its session elects a new host (``HostChanged``), a peer connects to the candidate's roster address
with the candidate's roster CURVE key; the candidate turns its peer session into a host session
(``successor_host``), serves on its standby ROUTER and announces the table with the new term. A host
leaving on purpose (quit, Ctrl-C, SIGTERM) hands over at once; a host that sees its table announced
with a higher term steps down. Elections run only at tables of three or more people (with two, the
one left cannot make a majority: it waits for its host as before).

Direct joins (``HOST:PORT/KEY``): the host prints its address with its CURVE public key, and a peer
that joins by address must be given that key; CURVE then proves it is talking to that host (the key
is the fingerprint; nothing is trusted on first use).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
import socket
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanomino.bots import get_bot
from lanomino.discovery.announce import TableAnnouncement
from lanomino.engine import Action, Observation, Rules
from lanomino.fair.identity import Identity
from lanomino.fair.keystore import load_or_create_identity
from lanomino.net.budget import Budgets
from lanomino.net.codec import DirectAddress, key_fingerprint
from lanomino.net.election import entry_of, host_address, newer_host
from lanomino.net.errors import TransportError
from lanomino.net.session import (
    Closed,
    HandVerified,
    HostChanged,
    HostSession,
    JoinRefused,
    LocalSeat,
    LostTouch,
    MatchOver,
    MigrationDone,
    MigrationPaused,
    PeerSession,
    ProtocolProblem,
    SeatLeft,
    SeatTaken,
    SecretMade,
    Sender,
    SessionEvent,
    SteppedDown,
    Timings,
    TranscriptUpdated,
    YourTurn,
    successor_host,
)
from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport

log = logging.getLogger("lanomino.node")
Listener = Callable[[SessionEvent], None]


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


def lost_touch_reason(event: LostTouch) -> str:
    return (f"lost touch with most of the table for {event.seconds:.0f} s: this host stops here "
            "(if the others went on under a new host, their transcripts hold the rest of the match)")


def bot_policy(level: str, seed: int | None = None) -> Callable[[Observation], Action]:
    bot, rng = get_bot(level), random.Random(seed)
    return lambda obs: bot(obs, rng)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of the table as a client shows it (the typed face of a roster entry)."""

    seat: int
    name: str
    kind: str  # host | human | bot
    connected: bool = True


def seat_rows(roster: list[dict[str, Any]]) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(int(e["seat"]), str(e["name"]), str(e["kind"]),
                         bool(e.get("connected", True))) for e in roster)


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
    migrations: list[dict[str, Any]] = field(default_factory=list)  # what this node did as a new host
    rejoin: DirectAddress | None = None  # a host that stepped down: where the table's new host is

    def to_json(self) -> dict[str, Any]:
        return {"event": "match_over" if self.finished else "stopped", "finished": self.finished,
                "winner": self.winner, "scores": list(self.scores), "hands": self.hands,
                "verified": self.verified, "seat": self.seat, "transcript": self.transcript,
                "reason": self.reason, "problems": self.problems,
                "hosts": {str(t): s for t, s in sorted(self.hosts.items())}, "migrations": self.migrations,
                "stepped_down": self.rejoin is not None or self.reason.startswith("stepped down")}


class _Node:
    """What host and peer nodes share: listeners, transcript files, the wake-up for timers."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.listeners: list[Listener] = []
        self.wake = asyncio.Event()
        self.done: asyncio.Future[Outcome] | None = None
        self.transcript_path: Path | None = None
        self.verified: dict[int, bool] = {}
        self.tasks: set[asyncio.Future[Any]] = set()
        self.hosts: dict[int, int] = {0: 0}  # term -> host seat, as this node saw it
        self.migrations: list[dict[str, Any]] = []

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
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
            folder = self.data_dir / "transcripts"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{event.table}.json"
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(event.transcript, indent=1))
            tmp.replace(path)
            self.transcript_path = path
            self._spawn(asyncio.to_thread(self._log_play, event))
        elif isinstance(event, HandVerified):
            self.verified[event.hand] = event.ok
            if not event.ok:
                log.warning("hand %d does not verify: %s", event.hand, event.detail)
        elif isinstance(event, ProtocolProblem):
            guess = event.code in ("passphrase", "throttled")  # someone may be guessing: say so
            log.log(logging.WARNING if guess else logging.INFO, "refused (%s): %s", event.code,
                    event.detail)

    def my_seat(self) -> int | None:
        """This node's seat at the table, once it has one."""
        return None

    def table_label(self) -> str:
        return "LAN table"

    def _log_play(self, event: TranscriptUpdated) -> None:
        """Add the match, as it stands, to the play log behind history and stats (off the loop)."""
        from lanomino.store import PlayLog, open_store

        verified = all(self.verified.values()) if self.verified else None
        store = open_store(self.data_dir)
        try:
            PlayLog(store).log_match(event.transcript, uid=f"lan:{event.table}", me=self.my_seat(),
                                     table=self.table_label(), verified=verified)
        finally:
            store.close()

    def _finish(self, outcome: Outcome) -> None:
        if self.done is not None and not self.done.done():
            outcome.hosts, outcome.migrations = dict(self.hosts), list(self.migrations)
            outcome.transcript = str(self.transcript_path) if self.transcript_path else None
            self.done.set_result(outcome)

    async def _timers(self, handle: Callable[[float], None], deadline: Callable[[], float | None]) -> None:
        late: float | None = None
        while True:
            due = deadline()
            delay = 1.0 if due is None else max(0.0, due - self.now())
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), min(delay, 1.0))
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

    async def _serve(self, tasks: list[asyncio.Task[Any]], linger_s: float) -> Outcome:
        """Run ``tasks`` until the match's outcome is known, then ``linger_s`` more (the last
        messages, e.g. the hand log and the closing, leave meanwhile); stop them either way."""
        assert self.done is not None
        try:
            outcome = await self.done
            await asyncio.sleep(linger_s)
            return outcome
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


class HostNode(_Node):
    """A table: HostSession + HostTransport + TableAnnouncer."""

    def __init__(self, *, data_dir: Path, rules: Rules, rules_name: str, seats: int, bots: int,
                 level: str, name: str, player: str, passphrase: str | None, bind: str | None,
                 port: int, timings: Timings, interfaces: list[str] | None,
                 headless: bool = True, announce: bool = True, escrow: bool = True) -> None:
        super().__init__(data_dir)
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()
        self.table_name, self.rules_name = name, rules_name
        self.bind, self.port, self.interfaces, self.announce = bind, port, interfaces, announce
        local_bots = [LocalSeat(f"{level} bot {i + 1}", Identity.generate(), bot_policy(level), level)
                      for i in range(bots)]
        self.session = HostSession(self.identity, self.keys.public, rules, seats, name=player,
                                   host_policy=bot_policy(level) if headless else None, bots=local_bots,
                                   passphrase=passphrase, timings=timings, escrow=escrow,
                                   away_policy=bot_policy(level))
        self.transport = HostTransport(self.keys, bind_ip=bind or "0.0.0.0", port=port,
                                       on_malformed=lambda _id, exc: self.session.stats.update(
                                           ["malformed.frame"]),
                                       budgets=Budgets(), is_seated=self._seated)
        self.announcer: Any = None
        self.has_passphrase = passphrase is not None
        self.passphrase = passphrase  # (a host that steps down rejoins the new host with it)
        self.addresses: list[str] = []

    def _seated(self, key: str) -> bool:
        return key in self.session.by_curve

    def my_seat(self) -> int | None:
        return 0  # the host sits at seat 0

    def table_label(self) -> str:
        return self.table_name

    def seats(self) -> tuple[SeatRow, ...]:
        """Who sits where, for a client."""
        return seat_rows(self.session.roster())

    @property
    def address(self) -> str:
        ip = self.addresses[0] if self.addresses else (self.bind or "127.0.0.1")
        return str(DirectAddress(ip, self.transport.port, self.keys.public))

    def submit(self, action: Action) -> None:
        """The host's own seat moves (a UI). Raises IllegalActionError."""
        self.session.submit(action, self.now())
        self._flush()

    def observation(self) -> Observation | None:
        return self.session.observation(0)

    def quit(self) -> None:
        """Leave: a running match with two or more other people in it is handed over at once."""
        handed = self.session.leave("the host quit")
        reason = "the host handed the table over" if handed else "the host closed the table"
        self._flush()
        self._finish(Outcome(False, seat=self.session.host_seat, reason=reason))

    def _announcement(self) -> TableAnnouncement:
        return TableAnnouncement(name=self.table_name, rules=self.rules_name[:64],
                                 seats_taken=self.session.seats_taken, seats_total=self.session.players,
                                 host_peer_id=self.identity.peer_id, term=self.session.term,
                                 has_passphrase=self.has_passphrase, host_key=self.keys.public)

    async def start(self) -> None:
        await self.transport.start()
        self.addresses = [self.bind] if self.bind and self.bind != "0.0.0.0" else (self.interfaces or lan_addresses())
        if self.announce and self.addresses:
            from lanomino.discovery.zeroconf_adapter import TableAnnouncer

            self.announcer = TableAnnouncer(self.interfaces or self.addresses)
            await self.announcer.register(self._announcement(), self.transport.port, self.addresses)

    async def run(self) -> Outcome:
        """Serve until the match ends (or ``quit``)."""
        self.done = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(self._receive()),
                 asyncio.create_task(self._timers(self.session.handle_timer, self.session.next_deadline))]
        if self.announcer is not None:
            tasks.append(asyncio.create_task(self._watch_terms()))
        return await self._serve(tasks, linger_s=0.2)

    async def close(self) -> None:
        if self.announcer is not None:
            await self.announcer.close()
        self.transport.close()

    async def _watch_terms(self) -> None:
        """Step down when this table is announced by one of its members with a higher term."""
        from lanomino.discovery.zeroconf_adapter import TableBrowser

        while True:  # a fresh browser asks again at once: done every second while a seat is away
            try:
                async with TableBrowser(self.interfaces or self.addresses) as browser:
                    since = self.now()
                    while not (self._someone_away() and self.now() - since >= 1.0):
                        await browser.next_event(0.5)
                        seen = [(s.announcement.host_peer_id, s.announcement.term)
                                for s in list(browser.tables.values())
                                if s.announcement.name == self.table_name]
                        newer = newer_host(seen, self.session.roster(), self.session.term,
                                           self.identity.peer_id)
                        if newer is not None:
                            self.session.notice_term(*newer)
                            self._flush()
            except (OSError, RuntimeError) as exc:  # e.g. the link is down: try again shortly
                log.info("cannot watch for a newer host: %s", exc)
                await asyncio.sleep(1.0)

    def _new_host_address(self, seat: int) -> DirectAddress | None:
        """Where the host of a newer term serves: its roster address (its standby ROUTER) and key."""
        where = host_address(entry_of(self.session.roster(), seat))
        return None if where is None else DirectAddress(*where)

    def _someone_away(self) -> bool:
        return any(not e["connected"] and not e["left"] and e["kind"] == "human" for e in self.session.roster())

    async def _receive(self) -> None:
        while True:
            incoming = await self.transport.receive()
            if incoming is None:
                continue
            log.debug("in  %s", str(incoming.message)[:120])
            self.session.receive(Sender(incoming.identity, incoming.peer_key), incoming.message, self.now())
            self._flush()
            self.wake.set()

    def _flush(self) -> None:
        for out in self.session.take_outgoing():
            self._spawn(self.transport.send(out.route, out.message))
        reannounce = False
        for event in self.session.take_events():
            self._publish(event)
            if isinstance(event, (SeatTaken, SeatLeft)):
                reannounce = True
                log.info("%s", event)
            elif isinstance(event, MatchOver):
                self._finish(Outcome(True, event.winner, event.scores, event.hands, event.verified,
                                     self.session.host_seat, problems=dict(self.session.stats)))
            elif isinstance(event, LostTouch):
                log.warning("%s", lost_touch_reason(event))
                self._finish(Outcome(False, seat=self.session.host_seat, reason=lost_touch_reason(event)))
            elif isinstance(event, SteppedDown):
                self.hosts[event.term] = event.host
                log.warning("term %d has another host (seat %d): this one steps down", event.term, event.host)
                self._finish(Outcome(False, seat=self.session.host_seat,
                                     reason=f"stepped down: seat {event.host} hosts term {event.term}",
                                     rejoin=self._new_host_address(event.host)))
        if reannounce and self.announcer is not None:
            self._spawn(self.announcer.update(self._announcement()))


class PeerNode(_Node):
    """A seat at someone's table: PeerSession + PeerTransport; a bot plays when ``level`` is set.

    With ``migration`` (the default) the node also keeps a standby ROUTER bound (``host_port``) and
    takes part in host elections: it may end the match as the table's host (``self.host``)."""

    def __init__(self, *, data_dir: Path, address: DirectAddress, player: str, passphrase: str | None,
                 timings: Timings, level: str | None, source_ip: str | None = None,
                 delay_s: float = 0.0, table_name: str | None = None, host_port: int = 0,
                 migration: bool = True, announce: bool = True) -> None:
        super().__init__(data_dir)
        assert address.server_key is not None
        self.address = address
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()  # kept for the whole match: the roster carries its public half
        self.secrets_path = data_dir / "secrets.json"
        self.session = PeerSession(self.identity, self.keys.public, address.server_key, name=player,
                                   passphrase=passphrase, timings=timings, secrets=self._load_secrets(),
                                   migration=migration)
        self.transport = PeerTransport(self.keys, address.server_key, address.host, address.port,
                                       source_ip=source_ip)
        self.source_ip = source_ip
        self.policy = bot_policy(level) if level else None
        self.delay_s = delay_s
        self.table_name, self.host_port = table_name, host_port
        self.migration, self.announce = migration, announce
        self.passphrase = passphrase
        self.host: HostSession | None = None  # set when an election made this node the host
        self.standby: HostTransport | None = None
        self.announcer: Any = None
        self.ready = True  # the transport to the current host has finished its handshake
        self.backlog: list[dict[str, Any]] = []  # messages for a host still being connected to
        self.generation = 0
        self.watching = False  # browsing for a newer host (from the first election on)

    def submit(self, action: Action) -> None:
        """This seat moves (a UI). Raises IllegalActionError."""
        if self.host is not None:
            self.host.submit(action, self.now())
        else:
            self.session.submit(action, self.now())
        self._flush()

    def my_seat(self) -> int | None:
        seat: int | None = self.session.seat
        return seat

    def seats(self) -> tuple[SeatRow, ...]:
        """Who sits where, for a client (from the host session when this node hosts now)."""
        return seat_rows(self.host.roster() if self.host is not None else self.session.roster)

    def observation(self) -> Observation | None:
        if self.host is not None:
            return self.host.observation()
        obs: Observation | None = self.session.observation()
        return obs

    def quit(self) -> None:
        if self.host is not None:
            self.host.leave("the host quit")
        else:
            self.session.quit(self.now(), "quit")
        self._flush()
        self._finish(Outcome(False, seat=self.session.seat, reason="quit"))

    def _load_secrets(self) -> dict[tuple[str, int, int], bytes]:
        try:
            raw = json.loads(self.secrets_path.read_text())
            return {(t, int(h), int(a)): bytes.fromhex(s) for t, h, a, s in raw}
        except (OSError, ValueError, TypeError):
            return {}

    def _save_secret(self, event: SecretMade) -> None:
        known = [[t, h, a, s.hex()] for (t, h, a), s in self.session.secrets.items()][-64:]
        tmp = self.secrets_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(known))
        tmp.replace(self.secrets_path)

    async def start(self) -> None:
        if self.migration:
            ip = self.source_ip or local_ip_toward(self.address.host)
            self.standby = HostTransport(self.keys, bind_ip=ip, port=self.host_port,
                                         on_malformed=lambda _id, exc: self._malformed(),
                                         budgets=Budgets(), is_seated=self._seated_here)
            await self.standby.start()
            self.session.addr = f"{ip}:{self.standby.port}"
        await self.transport.connect()
        self.session.connect(self.now())
        self._flush()

    def _seated_here(self, key: str) -> bool:
        return self.host is not None and key in self.host.by_curve

    def _malformed(self) -> None:
        if self.host is not None:
            self.host.stats.update(["malformed.frame"])

    def _active(self) -> HostSession | PeerSession:
        return self.host if self.host is not None else self.session

    async def run(self) -> Outcome:
        self.done = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(self._receive()), asyncio.create_task(self._host_receive()),
                 asyncio.create_task(self._timers(lambda now: self._active().handle_timer(now),
                                                  lambda: self._active().next_deadline()))]
        return await self._serve(tasks, linger_s=0.2 if self.host is not None else 0.05)

    async def close(self) -> None:
        if self.announcer is not None:
            await self.announcer.close()
        self.transport.close()
        if self.standby is not None:
            self.standby.close()

    async def _receive(self) -> None:
        while True:
            transport = self.transport
            if not self.ready or self.host is not None:
                await asyncio.sleep(0.01)
                continue
            try:
                message = await transport.receive(0.25)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the node stops
                continue  # the transport was closed under a pending receive (a new host)
            except Exception as exc:  # noqa: BLE001 - the transport was swapped (closed) under us
                log.debug("receive stopped: %r", exc)
                await asyncio.sleep(0.01)
                continue
            if message is None or transport is not self.transport or self.host is not None:
                continue
            log.debug("in  %s", str(message)[:120])
            self.session.receive(message, self.now())
            self._flush()
            self.wake.set()

    async def _host_receive(self) -> None:
        """After an election made this node the host: serve on the standby ROUTER."""
        while self.host is None or self.standby is None:
            await asyncio.sleep(0.01)
        while True:
            if self.host is None:
                await asyncio.sleep(0.01)
                continue
            incoming = await self.standby.receive()
            if incoming is None or self.host is None:
                continue  # (a candidate that went back to being a peer ignores late joiners)
            log.debug("in  %s", str(incoming.message)[:120])
            try:
                self.host.receive(Sender(incoming.identity, incoming.peer_key), incoming.message, self.now())
            except Exception:  # a bug in the migration code must not silence the table
                log.exception("the host session failed on %s", str(incoming.message)[:200])
                self.host.stats.update(["migration.error"])
            self._flush()
            self.wake.set()

    def _flush(self) -> None:
        if self.host is not None:
            self._flush_host(self.host)
            return
        session = self.session
        events = session.take_events()
        for event in events:  # secrets reach the disk before the commitment leaves
            if isinstance(event, SecretMade):
                self._save_secret(event)
            elif isinstance(event, HostChanged):
                self.hosts[event.term] = event.seat
                if not self.watching and self.announce and self.table_name and self.session.addr:
                    self.watching = True
                    self._spawn(self._watch_terms())
                if event.mine:
                    self._become_host(event)
                else:
                    self._reconnect(event)
        if self.host is not None:  # the peer session's last words (none for a candidate) are moot
            session.take_outgoing()
        for message in session.take_outgoing():
            self._spawn(self._send(message))
        for event in events:
            self._publish(event)
            if isinstance(event, YourTurn) and self.policy is not None and self.host is None:
                self._spawn(self._play(event.observation))
            elif isinstance(event, MatchOver):
                self._finish(Outcome(True, event.winner, event.scores, event.hands, event.verified,
                                     session.seat, reason=event.reason, problems=dict(session.stats)))
            elif isinstance(event, JoinRefused):
                self._finish(Outcome(False, seat=None, reason=f"refused: {event.reason}"))
            elif isinstance(event, Closed):
                self._finish(Outcome(False, seat=session.seat, reason=event.reason))
        if self.host is not None:
            self._flush_host(self.host)

    def _flush_host(self, host: HostSession) -> None:
        assert self.standby is not None
        for out in host.take_outgoing():
            self._spawn(self.standby.send(out.route, out.message))
        reannounce = False
        for event in host.take_events():
            self._publish(event)
            if isinstance(event, (SeatTaken, SeatLeft)):
                reannounce = True  # e.g. the lost host's seat is free again (lost before the first deal)
            if isinstance(event, MigrationPaused):
                log.warning("term %d: waiting for a majority (%d of %d members here)", event.term,
                            event.joined, event.needed)
            elif isinstance(event, MigrationDone):
                self.migrations.append({"term": event.term, "host": event.host, "rebuilt": event.rebuilt,
                                        "at": time.time()})
                log.warning("term %d: this seat hosts the table now", event.term)
            elif isinstance(event, MatchOver):
                self._finish(Outcome(True, event.winner, event.scores, event.hands, event.verified,
                                     self.session.seat, problems=dict(host.stats)))
            elif isinstance(event, LostTouch):
                log.warning("%s", lost_touch_reason(event))
                self._finish(Outcome(False, seat=self.session.seat, reason=lost_touch_reason(event)))
            elif isinstance(event, SteppedDown):
                self.hosts[event.term] = event.host
                log.warning("term %d has another host (seat %d): this one steps down and rejoins it as a peer",
                            event.term, event.host)
                self._back_to_peer(event.term, event.host)
                self._flush()  # the peer session follows the newer host (HostChanged)
                return
        if reannounce and self.announcer is not None:
            self._spawn(self._reannounce(host))

    def _become_host(self, event: HostChanged) -> None:
        """This seat is the election's candidate: host the table from the peer's replicated state."""
        assert self.standby is not None
        self.generation += 1
        self.transport.close()
        self.host = successor_host(self.session, self.now(), policy=self.policy, bot_policy=bot_policy)
        log.warning("term %d: this seat (%d) takes over the table", event.term, event.seat)
        if self.announce and self.table_name and self.session.addr:
            self._spawn(self._announce(self.host))

    def _announcement(self, host: HostSession) -> TableAnnouncement:
        assert self.table_name is not None
        spec = host.rules.to_spec()
        rules = spec["preset"] + ("+" if len(spec) > 1 else "")  # e.g. "classic+": a preset with options
        return TableAnnouncement(
            name=self.table_name, rules=rules, seats_taken=host.seats_taken, seats_total=host.players,
            host_peer_id=self.identity.peer_id, term=host.term, has_passphrase=self.passphrase is not None,
            host_key=self.keys.public)

    async def _announce(self, host: HostSession) -> None:
        from lanomino.discovery.zeroconf_adapter import TableAnnouncer

        assert self.standby is not None and self.session.addr is not None and self.table_name is not None
        ip = self.session.addr.rsplit(":", 1)[0]
        announcer = self.announcer = TableAnnouncer([ip])
        first = self._announcement(host)
        await announcer.register(first, self.standby.port, [ip])
        if self.announcer is announcer and self._announcement(host) != first:
            await announcer.update(self._announcement(host))  # seats changed while it registered

    async def _reannounce(self, host: HostSession) -> None:
        announcer = self.announcer
        try:
            if announcer is not None:
                await announcer.update(self._announcement(host))
        except RuntimeError:
            pass  # still registering: ``_announce`` sends the fresh facts when it is done

    async def _watch_terms(self) -> None:
        """During and after an election: an announced host of this table in a higher term is followed
        (a candidate that never resumed goes back to being a peer; a host that did steps down)."""
        from lanomino.discovery.zeroconf_adapter import TableBrowser

        assert self.session.addr is not None
        try:
            async with TableBrowser([self.session.addr.rsplit(":", 1)[0]]) as browser:
                while self.done is None or not self.done.done():
                    await browser.next_event(1.0)
                    self._notice_terms([seen.announcement for seen in list(browser.tables.values())])
        except (OSError, RuntimeError) as exc:
            log.info("cannot watch for a newer host: %s", exc)

    def _notice_terms(self, seen: list[TableAnnouncement]) -> None:
        roster = self.host.roster() if self.host is not None else self.session.roster
        mine = self.host.term if self.host is not None else self.session.term
        newer = newer_host([(a.host_peer_id, a.term) for a in seen if a.name == self.table_name],
                           roster, mine, self.identity.peer_id)
        if newer is None:
            return
        term, seat = newer
        host = self.host
        if host is not None and host.never_resumed():
            log.warning("term %d is hosted by seat %d: this candidate goes back to being a peer", term, seat)
            host.take_events()  # (what it queued as a candidate is moot)
            host.take_outgoing()
            self._back_to_peer(term, seat)
        elif host is not None:
            host.notice_term(term, seat)
        elif self.session.election is not None:
            self.session.follow(term, seat, self.now())
        else:
            return
        self._flush()
        self.wake.set()

    def _back_to_peer(self, term: int, seat: int) -> None:
        """Stop hosting (a newer term has a host) and follow that host as the peer this node was; a
        snapshot brings the peer session up to date (its seat may have left: then it watches)."""
        self.host = None
        if self.announcer is not None:  # no longer the host: withdraw the announcement
            announcer, self.announcer = self.announcer, None
            self._spawn(announcer.close())
        self.session.rejoin(term, seat, self.now())

    def _reconnect(self, event: HostChanged) -> None:
        """Follow the election's candidate: connect to its roster address with its roster key."""
        where = host_address(entry_of(self.session.roster, event.seat))
        self.generation += 1
        self.transport.close()
        self.ready, self.backlog = False, []
        if where is None or not event.curve:
            log.warning("term %d: seat %d left no address: waiting for the next candidate", event.term, event.seat)
            return
        host, port, _ = where
        self.transport = PeerTransport(self.keys, event.curve, host, port, source_ip=self.source_ip)
        log.info("term %d: following seat %d at %s:%d", event.term, event.seat, host, port)
        self._spawn(self._connect(self.transport, self.generation))

    async def _connect(self, transport: PeerTransport, generation: int) -> None:
        try:
            await transport.connect(timeout_s=max(1.0, 2 * self.session.timings.liveness_s))
        except TransportError as exc:
            log.info("cannot reach the candidate: %s", exc)
            return
        if generation != self.generation:
            transport.close()
            return
        self.ready = True
        backlog, self.backlog = self.backlog, []
        for message in backlog:
            await self._send(message)

    async def _send(self, message: dict[str, Any]) -> None:
        if not self.ready:
            self.backlog.append(message)
            return
        try:
            await self.transport.send(message)
        except (OSError, TransportError) as exc:  # the host is away: heartbeats and seq gaps sort it out
            log.info("send failed: %s", exc)

    async def _play(self, obs: Observation) -> None:
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        assert self.policy is not None
        if self.host is not None:
            return  # this node hosts now: its host session plays the seat
        try:
            self.session.submit(self.policy(obs), self.now())
        except ValueError as exc:
            log.info("bot move not sent: %s", exc)
        self._flush()


async def follow_to_end(host: HostNode, stepped: Outcome,
                        on_start: Callable[[PeerNode], None] | None = None) -> Outcome:
    """A host that stepped down rejoins the table's new host as a peer and follows the match to its
    end (its own seat has left: it watches, it cannot play). Returns the match's outcome as this
    peer saw it, or ``stepped`` when the new host cannot be reached."""
    if stepped.rejoin is None:
        return stepped
    name = host.session.local[host.session.host_seat].name
    peer = PeerNode(data_dir=host.data_dir, address=stepped.rejoin, player=name, passphrase=host.passphrase,
                    timings=host.session.timings, level=None, migration=False, announce=False)
    if on_start is not None:
        on_start(peer)  # e.g. a client subscribes to it
    try:
        await peer.start()
        outcome = await peer.run()
    except (OSError, TransportError) as exc:
        log.warning("cannot rejoin the new host at %s: %s", stepped.rejoin, exc)
        return stepped
    finally:
        await peer.close()
    outcome.hosts = {**outcome.hosts, **stepped.hosts}
    outcome.rejoin = stepped.rejoin
    return outcome


def install_quit_handlers(node: HostNode | PeerNode) -> None:
    """SIGTERM and SIGINT make the node say goodbye and stop."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, node.quit)
        except (NotImplementedError, RuntimeError):
            pass


def host_fingerprint(node: HostNode) -> str:
    return key_fingerprint(node.keys.public)
