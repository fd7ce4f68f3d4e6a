"""``PeerNode``: a seat at someone's table (PeerSession + PeerTransport); with migration on it
keeps a standby ROUTER and may become the table's host (docs/host-migration.md)."""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from pathlib import Path

from lanomino.discovery.announce import TableAnnouncement
from lanomino.engine import Action, Observation
from lanomino.engine.errors import seat_name
from lanomino.fair.keystore import load_or_create_identity
from lanomino.net.budget import Budgets
from lanomino.net.election import standby_of
from lanomino.net.keys import DirectAddress
from lanomino.net.member import Announce, Connect, Effect, Serve, TableMember, Watch, Withdraw
from lanomino.net.session import (
    Closed,
    HostChanged,
    HostSession,
    JoinRefused,
    MigrationDone,
    MigrationPaused,
    PeerSession,
    SeatLeft,
    SeatTaken,
    SecretMade,
    SteppedDown,
    Timings,
    YourTurn,
    deals_locked,
)
from lanomino.net.zmq_transport import CurveKeypair, HostTransport
from lanomino.runtime import standby
from lanomino.runtime.announcing import Announcing, Answering, announcement, watch_announced
from lanomino.runtime.base import (
    Hosting,
    NodeBase,
    Outcome,
    SeatRow,
    Serving,
    Takeover,
    bot_policy,
    hear,
    local_ip_toward,
    seat_rows,
)
from lanomino.runtime.host_link import IDLE_S, HostLink
from lanomino.runtime.secrets_file import load_secrets, save_secrets
from lanomino.runtime.stopping import cancelling

log = logging.getLogger("lanomino.node")


class PeerNode(NodeBase):
    """A seat at someone's table: PeerSession + PeerTransport; a bot plays when ``level`` is set.

    With ``migration`` (the default) the node also keeps a standby ROUTER bound (``host_port``) and
    takes part in host elections: it may end the match as the table's host (``self.host``)."""

    def __init__(self, *, data_dir: Path, address: DirectAddress, player: str,
                 passphrase: str | None, timings: Timings, level: str | None,
                 source_ip: str | None = None,
                 delay_s: float = 0.0, table_name: str | None = None, host_port: int = 0,
                 migration: bool = True, announce: bool = True, watch: bool = False) -> None:
        super().__init__(data_dir)
        assert address.server_key is not None
        self.address = address
        self.identity = load_or_create_identity(data_dir)
        self.keys = CurveKeypair.generate()  # kept for the match: the roster has its public half
        self.secrets_path = data_dir / "secrets.json"
        self.session = PeerSession(self.identity, self.keys.public, address.server_key, name=player,
                                   passphrase=passphrase, timings=timings,
                                   secrets=load_secrets(self.secrets_path), migration=migration,
                                   watch=watch)
        self.session.table_bot.make = bot_policy  # (the move clock's bot at a locked table)
        self.seat_session = self.session
        self.link = HostLink(self.keys, address, source_ip)  # to the host of the moment
        self.source_ip = source_ip
        self.policy = bot_policy(level) if level else None
        self.delay_s = delay_s
        self.table_name = table_name
        self.host_port = host_port
        self.migration = migration
        self.announce = announce
        self.watch = watch  # a watcher (net/watchers.py): follows elections, never hosts
        self.lan_ip = source_ip or ""  # this node's address on the table's LAN (set by start)
        self.passphrase = passphrase
        # the role switch (peer, candidate, host) is the member's; this node carries it out
        self.member = TableMember(self.session, policy=self.policy, bot_policy=bot_policy)
        self.standby: HostTransport | None = None
        self.announcing = Announcing()  # while this node hosts the table
        self.answering = Answering()  # its key service, while this node hosts
        self.links = standby.Links(self)  # to the other members: pre-votes, proof, points

    @property
    def host(self) -> HostSession | None:
        """The host session, once an election made this node the table's host."""
        return self.member.host

    def submit(self, action: Action) -> None:
        """This seat moves (a UI). Raises IllegalActionError."""
        self.member.submit(action, self.now())
        self._flush()

    def back(self) -> None:
        """The player is back at the seat the move clock ran out for: the table's bot stops
        playing it (``PeerSession.back``). Once this node hosts, its seat has no clock."""
        if self.host is None:
            self.session.back(self.now())
            self._flush()

    def my_seat(self) -> int | None:
        seat: int | None = self.session.seat
        return None if self.watch else seat

    def watching(self) -> int:
        """How many people watch the table (the roster says; this node's own count if it hosts)."""
        return len(self.host.watchers) if self.host is not None else self.session.watching

    def move_clock(self) -> float | None:
        """The move clock of the table's host (a new host after a migration keeps none)."""
        return self.host.timings.move_s if self.host is not None else self.session.move_clock_s

    def locked(self) -> bool | None:
        """The table deals the locked deck (None: no match header yet)."""
        if self.host is not None:
            return self.host.blind is not None
        return None if self.session.header is None else deals_locked(self.session)

    def table_label(self) -> str:
        return self.table_name or "LAN table"

    def players(self) -> int:
        return self.session.players

    def hosting(self) -> Hosting | None:
        host, seat = self.host, self.session.seat
        return None if host is None or seat is None else Hosting.of(
            self.table_label(), host, int(seat), self.passphrase, took_over=True)

    def member_address(self, seat: int) -> tuple[str, str, bytes] | None:
        return standby_of(self.session.roster, seat)

    def serving(self) -> Serving | None:
        if self.host is None or self.standby is None:  # (a peer: it serves nothing)
            return None
        return Serving.of(self.lan_ip, self.standby.port, self.keys.public,
                          self.identity.public_key, answering=self.answering.service is not None)

    def seats(self) -> tuple[SeatRow, ...]:
        """Who sits where, for a client (from the host session when this node hosts now)."""
        return seat_rows(self.member.roster())

    def observation(self) -> Observation | None:
        return self.member.observation()

    def quit(self, reason: str = "quit") -> None:
        """Say goodbye (``reason``: the bye's, e.g. net.watchers.DECLINE) and stop."""
        self.member.quit(self.now(), reason)
        self._flush()
        self._finish(Outcome(False, seat=self.session.seat, reason="quit"))

    async def start(self) -> None:
        ip = self.lan_ip = self.source_ip or local_ip_toward(self.address.host)  # (browsed on)
        if self.migration and not self.watch:
            self.standby = HostTransport(self.keys, bind_ip=ip, port=self.host_port,
                                         on_malformed=lambda _id, exc: self._malformed(),
                                         budgets=Budgets(), is_seated=self._seated_here)
            await self.standby.start()
            self.session.addr = f"{ip}:{self.standby.port}"
        await self.link.connect()
        self.session.connect(self.now())
        self._flush()

    def _seated_here(self, key: str) -> bool | str:
        return self.host is not None and self.host.shared.standing(key)

    def _malformed(self) -> None:
        if self.host is not None:
            self.host.stats.update(["malformed.frame"])

    async def run(self) -> Outcome:
        self.done = asyncio.get_running_loop().create_future()
        tasks = [asyncio.create_task(self._receive()), asyncio.create_task(standby.serve(self)),
                 asyncio.create_task(self._timers(self.member.handle_timer,
                                                  self.member.next_deadline))]
        outcome = await self._serve(tasks, linger_s=0.2 if self.host is not None else 0.05)
        await self.links.told()  # (the match's last points or log leave first: Links.tell)
        return outcome

    async def close(self) -> None:
        """Stop the background tasks, withdraw the announcement and the key service if this node
        hosts, close the transports (within about a second, as ``HostNode.close``). A run cut
        short says goodbye first, as ``quit`` does."""
        if self.cut_short():
            self.quit()
        await self._stop_tasks()
        await asyncio.gather(self.announcing.withdraw(), self.answering.close())
        self.link.close()
        self.links.close()
        if self.standby is not None:
            self.standby.close()

    async def _receive(self) -> None:
        while not cancelling():
            if self.host is not None:  # (it hears the table on its standby ROUTER now)
                await asyncio.sleep(IDLE_S)
                continue
            message = await self.link.receive()
            if message is None or self.host is not None:
                continue
            log.debug("in  %s", message if self.watch else str(message)[:120])  # (a watcher: all)
            hear(partial(self.session.receive, message, self.now()), message.get("type"),
                 self.session.stats)
            self._flush()
            self.wake.set()

    def _flush(self) -> None:
        member = self.member
        for seat, status in self.session.prevotes.take():  # (also while it hosts: answers)
            self.links.send(seat, status)
        if member.host is not None:
            self._flush_host(member.host)
            return
        session = self.session
        events = member.peer_events(self.now())  # (an election may make this member the host)
        for event in events:  # secrets reach the disk before the commitment leaves
            if isinstance(event, SecretMade):
                save_secrets(self.secrets_path, self.session.secrets)
            elif isinstance(event, HostChanged):
                self.hosts[event.term] = event.seat
        self._carry_out(member.take_effects())
        for message in member.peer_outgoing():
            self._spawn(self.link.send(message))
        self.links.tell(session.passing.take())
        for seat, status in session.prevotes.take():  # (an election began: prevotes.py)
            self.links.send(seat, status)
        for event in events:
            self._publish(event)
            if isinstance(event, YourTurn) and self.policy is not None and member.host is None:
                self._spawn(self._play(event.observation))
            elif self._ended(event, session.seat, session.stats):
                pass
            elif isinstance(event, JoinRefused):
                self._finish(Outcome(False, seat=None, reason=f"refused: {event.reason}",
                                     refused=True))
            elif isinstance(event, Closed):
                self._finish(Outcome(False, seat=session.seat, reason=event.reason))
        if member.host is not None:
            self._flush_host(member.host)

    def _flush_host(self, host: HostSession) -> None:
        assert self.standby is not None
        self._deliver_all(self.standby, host.take_outgoing())
        reannounce = False
        for event in self.member.host_events(self.now()):
            self._publish(event)
            if isinstance(event, (SeatTaken, SeatLeft)):
                reannounce = True  # e.g. a seat freed in a reopened lobby
            if isinstance(event, MigrationPaused):
                log.warning("term %d: waiting for a majority (%d of %d members here)", event.term,
                            event.joined, event.needed)
            elif isinstance(event, MigrationDone):
                self.migrations.append(Takeover(event.term, event.host, event.rebuilt,
                                                time.time()))
                log.warning("term %d: this seat hosts the table now", event.term)
            elif self._ended(event, self.session.seat, host.stats):
                pass
            elif isinstance(event, SteppedDown):
                self.hosts[event.term] = event.host
                log.warning("term %d has another host (%s): this one steps down, follows it",
                            event.term, seat_name(event.host))
                self._carry_out(self.member.take_effects())
                self._flush()  # the peer session follows the newer host (HostChanged)
                return
        if reannounce and self.announcing.active:
            self._spawn(self.announcing.update(self._announcement(host)))

    def _carry_out(self, effects: list[Effect]) -> None:
        """Do what the table member decided (net/member.py): connect, serve, announce, withdraw,
        watch."""
        can_announce = bool(self.announce and self.table_name and self.session.addr)
        for effect in effects:
            if isinstance(effect, Connect):
                self._follow(effect)
            elif isinstance(effect, Serve):
                self.link.drop()  # (the standby ROUTER serves: standby.serve)
                log.warning("term %d: this seat (%s) takes over the table", effect.term,
                            seat_name(self.session.seat))
                self._spawn(self._answer_keys())
            elif isinstance(effect, Announce) and can_announce and self.member.host is not None:
                self._spawn(self._announce(self.member.host))
            elif isinstance(effect, Withdraw):
                self._spawn(self.announcing.withdraw())
                self._spawn(self.answering.close())
            elif isinstance(effect, Watch) and self.announce and self.table_name:  # (watchers too)
                self._spawn(self._watch_terms())

    async def _answer_keys(self) -> None:
        """Serve the key service beside the standby ROUTER, as a first host does."""
        from lanomino.discovery.table_key import encode_answer

        if self.standby is None or self.session.addr is None:
            return
        answer = encode_answer(self.identity, self.table_label(), self.standby.port,
                               self.keys.public)
        await self.answering.start(answer, self.session.addr.rsplit(":", 1)[0], self.standby.port)

    def _announcement(self, host: HostSession) -> TableAnnouncement:
        assert self.table_name is not None
        return announcement(host, self.table_name, self.identity.peer_id,
                            self.passphrase is not None, self.keys.public)

    async def _announce(self, host: HostSession) -> None:
        assert self.standby is not None and self.session.addr is not None
        ip = self.session.addr.rsplit(":", 1)[0]
        await self.announcing.start([ip], self.standby.port, lambda: self._announcement(host))

    async def _watch_terms(self) -> None:
        """During and after an election: an announced host of this table in a higher term is
        followed (a candidate that never resumed goes back to being a peer; a host that did steps
        down)."""
        await watch_announced([self.lan_ip], lambda: self.done is None or not self.done.done(),
                              self._notice_terms)

    def _notice_terms(self, seen: list[TableAnnouncement]) -> None:
        announced = [(a.host_peer_id, a.term) for a in seen if a.name == self.table_name]
        if not self.member.notice_newer(announced, self.identity.peer_id, self.now()):
            return
        self._carry_out(self.member.take_effects())
        self._flush()
        self.wake.set()

    def _follow(self, effect: Connect) -> None:
        """Follow the host of a term: connect to its roster address with its roster key (once
        connected, the election gives it time to set itself up)."""
        timeout_s = max(1.0, 2 * self.session.timings.liveness_s)
        connecting = self.link.follow(effect, timeout_s,
                                      lambda: self.session.elections.reachable(self.now()))
        if connecting is not None:
            self._spawn(connecting)

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
