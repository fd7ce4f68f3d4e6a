"""``HostNode``: a table on the LAN (HostSession + HostTransport + TableAnnouncer)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from lanomino.discovery.announce import TableAnnouncement
from lanomino.engine import Action, Observation, Rules
from lanomino.engine.errors import seat_name
from lanomino.fair.identity import Identity
from lanomino.fair.keystore import load_or_create_identity
from lanomino.net.budget import Budgets
from lanomino.net.election import entry_of, host_address, newer_host
from lanomino.net.keys import DirectAddress
from lanomino.net.session import (
    HostSession,
    LocalSeat,
    SeatLeft,
    SeatTaken,
    Sender,
    SteppedDown,
    Timings,
)
from lanomino.net.zmq_transport import CurveKeypair, HostTransport
from lanomino.runtime.announcing import announcement
from lanomino.runtime.base import (
    Hosting,
    NodeBase,
    Outcome,
    SeatRow,
    Serving,
    bot_policy,
    hear,
    lan_addresses,
    seat_rows,
)
from lanomino.runtime.stopping import cancelling, on_stop_signals

if TYPE_CHECKING:  # (zeroconf and the key service are imported when the table is announced)
    from lanomino.discovery.key_service import KeyService
    from lanomino.discovery.zeroconf_adapter import TableAnnouncer
    from lanomino.runtime.peer_node import PeerNode

log = logging.getLogger("lanomino.node")


class HostNode(NodeBase):
    """A table: HostSession + HostTransport + TableAnnouncer."""

    def __init__(self, *, data_dir: Path, rules: Rules, seats: int, bots: int,
                 level: str, name: str, player: str, passphrase: str | None, bind: str | None,
                 port: int, timings: Timings, interfaces: list[str] | None,
                 headless: bool = True, announce: bool = True, escrow: bool = False,
                 watchers: int = 8, reserve: Mapping[bytes, int] | None = None,
                 reserve_s: float = 60.0, blind: bool = False) -> None:
        super().__init__(data_dir)
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()
        self.table_name = name
        self.bind, self.port, self.interfaces, self.announce = bind, port, interfaces, announce
        local_bots = [LocalSeat(f"{level} bot {i + 1}", Identity.generate(), bot_policy(level),
                                level) for i in range(bots)]
        self.session = HostSession(self.identity, self.keys.public, rules, seats, name=player,
                                   host_policy=bot_policy(level) if headless else None,
                                   bots=local_bots,
                                   passphrase=passphrase, timings=timings, escrow=escrow,
                                   away_policy=bot_policy(level), watchers=watchers,
                                   blind=blind)
        self.session.shared.away_level = level  # (a locked table's seats run it themselves)
        self.transport = HostTransport(self.keys, bind_ip=bind or "0.0.0.0", port=port,
                                       on_malformed=lambda _id, exc: self.session.stats.update(
                                           ["malformed.frame"]),
                                       budgets=Budgets(), is_seated=self.session.shared.standing)
        self.announcer: TableAnnouncer | None = None
        self.key_service: KeyService | None = None  # for joins by HOST:PORT
        self.has_passphrase = passphrase is not None
        self.passphrase = passphrase  # (a host that steps down rejoins the new host with it)
        self.addresses: list[str] = []
        self.reserve, self.reserve_s = dict(reserve or {}), reserve_s  # a rematch's kept seats
        self.follower: PeerNode | None = None  # stepped down: the peer that follows the match

    def my_seat(self) -> int | None:
        return 0  # the host sits at seat 0

    def watching(self) -> int:
        """How many people watch this table."""
        return len(self.session.watchers)

    def move_clock(self) -> float | None:
        return self.session.timings.move_s

    def locked(self) -> bool:
        return self.session.blind is not None

    def back(self) -> None:
        """Nothing to come back to: the host's own seat has no move clock."""

    def table_label(self) -> str:
        return self.table_name

    def players(self) -> int:
        return self.session.players

    def hosting(self) -> Hosting:
        return Hosting.of(self.table_name, self.session, 0, self.passphrase, took_over=False)

    def member_address(self, seat: int) -> tuple[str, str, bytes] | None:
        return None  # (the host itself: a rematch opens where it served)

    def seats(self) -> tuple[SeatRow, ...]:
        """Who sits where, for a client."""
        return seat_rows(self.session.roster())

    @property
    def address(self) -> str:
        return self.serving().address

    def serving(self) -> Serving:
        """Where others join this table: its address, key fingerprint and short join code."""
        ip = self.addresses[0] if self.addresses else (self.bind or "127.0.0.1")
        return Serving.of(ip, self.transport.port, self.keys.public, self.identity.public_key,
                          answering=self.key_service is not None)

    async def follow_on(self, outcome: Outcome,
                        on_start: Callable[[PeerNode], None] | None = None) -> Outcome:
        """After ``run``: a host that stepped down follows the match to its end as a peer of the
        new host (``on_start`` sees that peer first); otherwise ``outcome`` as it is."""
        from lanomino.runtime.watch import follow_to_end

        return await follow_to_end(self, outcome, on_start)

    def submit(self, action: Action) -> None:
        """The host's own seat moves (a UI). Raises IllegalActionError."""
        self.session.submit(action, self.now())
        self._flush()

    def observation(self) -> Observation | None:
        return self.session.observation(0)

    def quit(self) -> None:
        """Leave: a running match with two or more other people in it is handed over at once
        (after stepping down: the peer following the match leaves)."""
        if self.follower is not None:
            self.follower.quit()
            return
        handed = self.session.leave("the host quit")
        reason = "the host handed the table over" if handed else "the host closed the table"
        self._flush()
        self._finish(Outcome(False, seat=self.session.host_seat, reason=reason))

    def _announcement(self) -> TableAnnouncement:
        return announcement(self.session, self.table_name, self.identity.peer_id,
                            self.has_passphrase, self.keys.public)

    async def start(self) -> None:
        from lanomino.discovery.key_service import start_key_service
        from lanomino.discovery.table_key import encode_answer

        await self.transport.start()
        if self.reserve:
            self.session.reserve(self.reserve, self.now() + self.reserve_s)
        port = self.transport.port
        answer = encode_answer(self.identity, self.table_name, port, self.keys.public)
        self.key_service = await start_key_service(answer, self.bind or "0.0.0.0", port)
        bind = self.bind if self.bind != "0.0.0.0" else None
        self.addresses = [bind] if bind else (self.interfaces or lan_addresses())
        if self.announce and self.addresses:
            from lanomino.discovery.zeroconf_adapter import TableAnnouncer

            self.announcer = TableAnnouncer(self.interfaces or self.addresses)
            await self.announcer.register(self._announcement(), self.transport.port, self.addresses)

    async def run(self) -> Outcome:
        """Serve until the match ends (or ``quit``)."""
        self.done = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(self._receive()),
                 asyncio.create_task(self._timers(self.session.handle_timer,
                                                  self.session.next_deadline))]
        if self.announcer is not None:
            tasks.append(asyncio.create_task(self._watch_terms()))
        return await self._serve(tasks, linger_s=0.2)

    async def close(self) -> None:
        """Stop the background tasks, say goodbye on the LAN, close the key service and the
        transport (within about a second: a stopped node exits within 2 s). A run cut short
        hands the table over or closes it first, as ``quit`` does."""
        if self.cut_short():
            self.quit()
        await self._stop_tasks()
        closing = [part.close() for part in (self.announcer, self.key_service) if part is not None]
        await asyncio.gather(*closing)
        self.transport.close()

    async def _watch_terms(self) -> None:
        """Step down when this table is announced by one of its members with a higher term."""
        from lanomino.discovery.zeroconf_adapter import TableBrowser

        # a fresh browser asks again at once: done every second while a seat is away
        while not cancelling():
            try:
                async with TableBrowser(self.interfaces or self.addresses) as browser:
                    since = self.now()
                    while not (cancelling() or self._someone_away() and self.now() - since >= 1.0):
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
        """Where the host of a newer term serves: its roster address (standby ROUTER) and key."""
        where = host_address(entry_of(self.session.roster(), seat))
        return None if where is None else DirectAddress(*where)

    def _someone_away(self) -> bool:
        return any(not e.connected and not e.left and e.kind == "human"
                   for e in self.session.roster())

    async def _receive(self) -> None:
        while not cancelling():
            incoming = await self.transport.receive()
            if incoming is None:
                continue
            log.debug("in  %s", str(incoming.message)[:120])
            sender = Sender(incoming.identity, incoming.peer_key, incoming.peer_ip)
            hear(partial(self.session.receive, sender, incoming.message, self.now()),
                 incoming.message.get("type"), self.session.stats)
            self._flush()
            self.wake.set()

    def _flush(self) -> None:
        self._deliver_all(self.transport, self.session.take_outgoing())
        reannounce = False
        for event in self.session.take_events():
            self._publish(event)
            if isinstance(event, (SeatTaken, SeatLeft)):
                reannounce = True
                log.info("%s", event)
            elif self._ended(event, self.session.host_seat, self.session.stats):
                pass
            elif isinstance(event, SteppedDown):
                self.hosts[event.term] = event.host
                log.warning("term %d has another host (%s): this one steps down", event.term,
                            seat_name(event.host))
                reason = f"stepped down: {seat_name(event.host)} hosts term {event.term}"
                self._finish(Outcome(False, seat=self.session.host_seat, reason=reason,
                                     stepped_down=True,
                                     rejoin=self._new_host_address(event.host)))
        if reannounce and self.announcer is not None:
            self._spawn(self.announcer.update(self._announcement()))


def install_quit_handlers(node: HostNode | PeerNode) -> None:
    """SIGTERM, SIGHUP and SIGINT make a headless node leave as quitting does (goodbye on the
    LAN, the table closed or handed over) and exit within 2 s (runtime/stopping.py)."""
    on_stop_signals(node.quit)
