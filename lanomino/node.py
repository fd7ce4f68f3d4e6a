"""The composition root: one asyncio loop wiring the transport, a session, discovery, bots and files.

No game rules live here. A node moves messages between the ZeroMQ transport and a sans-I/O
session, fires the session's timers, plays a bot when the session says it is the seat's turn,
keeps the table's announcement up to date and writes transcripts and commit secrets to the data
directory. ``HostNode`` and ``PeerNode`` are also the API a user interface attaches to:
``subscribe(callback)`` to see every session event (observations included), ``submit(action)``
to move, ``quit()`` to leave.

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
from lanomino.net.codec import DirectAddress, key_fingerprint
from lanomino.net.session import (
    Closed,
    HandVerified,
    HostSession,
    JoinRefused,
    LocalSeat,
    MatchOver,
    PeerSession,
    ProtocolProblem,
    SeatLeft,
    SeatTaken,
    SecretMade,
    Sender,
    SessionEvent,
    Timings,
    TranscriptUpdated,
    YourTurn,
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


def bot_policy(level: str, seed: int | None = None) -> Callable[[Observation], Action]:
    bot, rng = get_bot(level), random.Random(seed)
    return lambda obs: bot(obs, rng)


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

    def to_json(self) -> dict[str, Any]:
        return {"event": "match_over" if self.finished else "stopped", "finished": self.finished,
                "winner": self.winner, "scores": list(self.scores), "hands": self.hands,
                "verified": self.verified, "seat": self.seat, "transcript": self.transcript,
                "reason": self.reason, "problems": self.problems}


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
            log.info("refused (%s): %s", event.code, event.detail)

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
            outcome.transcript = str(self.transcript_path) if self.transcript_path else None
            self.done.set_result(outcome)

    async def _timers(self, handle: Callable[[float], None], deadline: Callable[[], float | None]) -> None:
        while True:
            due = deadline()
            delay = 1.0 if due is None else max(0.0, due - self.now())
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), min(delay, 1.0))
            except TimeoutError:
                pass
            if due is not None and self.now() >= due:
                handle(self.now())
                self._flush()

    def _flush(self) -> None:
        raise NotImplementedError


class HostNode(_Node):
    """A table: HostSession + HostTransport + TableAnnouncer."""

    def __init__(self, *, data_dir: Path, rules: Rules, rules_name: str, seats: int, bots: int,
                 level: str, name: str, player: str, passphrase: str | None, bind: str | None,
                 port: int, timings: Timings, interfaces: list[str] | None,
                 headless: bool = True, announce: bool = True) -> None:
        super().__init__(data_dir)
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()
        self.table_name, self.rules_name = name, rules_name
        self.bind, self.port, self.interfaces, self.announce = bind, port, interfaces, announce
        local_bots = [LocalSeat(f"{level} bot {i + 1}", Identity.generate(), bot_policy(level))
                      for i in range(bots)]
        self.session = HostSession(self.identity, self.keys.public, rules, seats, name=player,
                                   host_policy=bot_policy(level) if headless else None, bots=local_bots,
                                   passphrase=passphrase, timings=timings)
        self.transport = HostTransport(self.keys, bind_ip=bind or "0.0.0.0", port=port,
                                       on_malformed=lambda _id, exc: self.session.stats.update(["malformed.frame"]))
        self.announcer: Any = None
        self.has_passphrase = passphrase is not None
        self.addresses: list[str] = []

    def my_seat(self) -> int | None:
        return 0  # the host sits at seat 0

    def table_label(self) -> str:
        return self.table_name

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
        self.session.close()
        self._flush()
        self._finish(Outcome(False, reason="the host closed the table"))

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
        try:
            outcome = await self.done
            await asyncio.sleep(0.2)  # let the last messages (hand log, closing) leave
            return outcome
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        if self.announcer is not None:
            await self.announcer.close()
        self.transport.close()

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
                self._finish(Outcome(True, event.winner, event.scores, event.hands, event.verified, 0,
                                     problems=dict(self.session.stats)))
        if reannounce and self.announcer is not None:
            self._spawn(self.announcer.update(self._announcement()))


class PeerNode(_Node):
    """A seat at someone's table: PeerSession + PeerTransport; a bot plays when ``level`` is set."""

    def __init__(self, *, data_dir: Path, address: DirectAddress, player: str, passphrase: str | None,
                 timings: Timings, level: str | None, source_ip: str | None = None,
                 delay_s: float = 0.0) -> None:
        super().__init__(data_dir)
        assert address.server_key is not None
        self.address = address
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()
        self.secrets_path = data_dir / "secrets.json"
        self.session = PeerSession(self.identity, self.keys.public, address.server_key, name=player,
                                   passphrase=passphrase, timings=timings, secrets=self._load_secrets())
        self.transport = PeerTransport(self.keys, address.server_key, address.host, address.port,
                                       source_ip=source_ip)
        self.policy = bot_policy(level) if level else None
        self.delay_s = delay_s

    def submit(self, action: Action) -> None:
        """This seat moves (a UI). Raises IllegalActionError."""
        self.session.submit(action, self.now())
        self._flush()

    def my_seat(self) -> int | None:
        seat: int | None = self.session.seat
        return seat

    def observation(self) -> Observation | None:
        obs: Observation | None = self.session.observation()
        return obs

    def quit(self) -> None:
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
        await self.transport.connect()
        self.session.connect(self.now())
        self._flush()

    async def run(self) -> Outcome:
        self.done = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(self._receive()),
                 asyncio.create_task(self._timers(self.session.handle_timer, self.session.next_deadline))]
        try:
            outcome = await self.done
            await asyncio.sleep(0.05)
            return outcome
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        self.transport.close()

    async def _receive(self) -> None:
        while True:
            message = await self.transport.receive()
            if message is None:
                continue
            log.debug("in  %s", str(message)[:120])
            self.session.receive(message, self.now())
            self._flush()
            self.wake.set()

    def _flush(self) -> None:
        events = self.session.take_events()
        for event in events:  # secrets reach the disk before the commitment leaves
            if isinstance(event, SecretMade):
                self._save_secret(event)
        for message in self.session.take_outgoing():
            self._spawn(self._send(message))
        for event in events:
            self._publish(event)
            if isinstance(event, YourTurn) and self.policy is not None:
                self._spawn(self._play(event.observation))
            elif isinstance(event, MatchOver):
                self._finish(Outcome(True, event.winner, event.scores, event.hands, event.verified,
                                     self.session.seat, problems=dict(self.session.stats)))
            elif isinstance(event, JoinRefused):
                self._finish(Outcome(False, seat=None, reason=f"refused: {event.reason}"))
            elif isinstance(event, Closed):
                self._finish(Outcome(False, seat=self.session.seat, reason=event.reason))

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.transport.send(message)
        except OSError as exc:  # the host is away: heartbeats and seq gaps sort it out
            log.info("send failed: %s", exc)

    async def _play(self, obs: Observation) -> None:
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        assert self.policy is not None
        try:
            self.session.submit(self.policy(obs), self.now())
        except ValueError as exc:
            log.info("bot move not sent: %s", exc)
        self._flush()


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
