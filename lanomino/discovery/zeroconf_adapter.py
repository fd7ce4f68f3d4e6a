"""The zeroconf adapter: announce a table, browse for tables. The only module importing zeroconf.

Both sides take an explicit, non-empty list of interface IP addresses and never fall back to
zeroconf's default of "every interface": the caller decides where multicast goes (tests pass the
address of a network namespace they made, so nothing leaves the machine).

Theory of operation:

* ``TableAnnouncer`` registers ``<name> [<peer id prefix>]._lanomino._tcp.local.``. The instance
  name is unique by construction (it carries the host's peer id), so we skip the RFC 6762 probing
  round by default (about a second of silence) and announce at once; that is what lets a running
  browser see a new table well inside 1.5 s. ``update`` re-sends the TXT record (seats, term) and
  ``unregister`` sends goodbyes so browsers drop the table at once.
* ``TableBrowser`` runs an ``AsyncServiceBrowser`` (which hears every announcement and goodbye)
  and, when it starts, sends one query of its own from a private port: responders answer that
  by unicast, at once and to that socket only. Zeroconf's own first query is answered by unicast
  to port 5353, which on a machine with two mDNS stacks (``lanomino host`` and ``lanomino
  tables`` side by side) reaches only one of them, and its multicast answers may be held back a
  second by flood protection; the private query makes a fresh browse fast either way.
  For each added or changed service it resolves
  the SRV/TXT/A records (usually already in the cache from the announcement's additional records),
  validates the TXT record with ``announce.parse_txt`` and queues a ``TableEvent``. Invalid records
  are counted and dropped. A removal that overtakes a pending resolution wins (generation counter).
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import socket
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from zeroconf import (  # type: ignore[attr-defined]  # the DNS* classes are public, not in __all__
    DNSIncoming,
    DNSOutgoing,
    DNSQuestion,
    DNSQuestionType,
    IPVersion,
    ServiceStateChange,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lanomino.discovery.announce import (
    SERVICE_TYPE,
    AnnouncementError,
    TableAnnouncement,
    build_txt,
    parse_txt,
)

RECORD_TTL_S = 120  # a table whose host vanished without goodbye expires from caches after this
RESOLVE_TIMEOUT_S = 1.5
LEGACY_LISTEN_S = 2.0  # how long the one-shot query socket waits for answers
# The most a goodbye, then the sockets' release, may take when an announcer closes: a node stopped
# by a signal exits within 2 s (runtime/stopping.py), its goodbye included
GOODBYE_S, RELEASE_S = 0.8, 0.3
_FLAGS_QUERY, _TYPE_PTR, _CLASS_IN = 0x0000, 12, 1  # DNS wire constants (RFC 1035)
_MDNS_GROUP, _MDNS_PORT = "224.0.0.251", 5353


def _check_interfaces(interfaces: Sequence[str]) -> tuple[list[str], IPVersion]:
    """Validate the interface list; return it and the IP version zeroconf should use."""
    if isinstance(interfaces, str) or not interfaces:
        raise ValueError("give at least one interface IP address (never the default interfaces)")
    parsed = [ipaddress.ip_address(ip) for ip in interfaces]  # raises ValueError on junk
    if all(ip.version == 4 for ip in parsed):
        version = IPVersion.V4Only
    elif all(ip.version == 6 for ip in parsed):
        version = IPVersion.V6Only
    else:
        version = IPVersion.All
    return [str(ip) for ip in parsed], version


class TableAnnouncer:
    """Advertises one table on the given interfaces. Use ``async with`` or call ``close``."""

    def __init__(self, interfaces: Sequence[str], *, probe: bool = False) -> None:
        self._interfaces, self._ip_version = _check_interfaces(interfaces)
        self._probe = probe
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._announcement: TableAnnouncement | None = None

    async def __aenter__(self) -> TableAnnouncer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def announcement(self) -> TableAnnouncement | None:
        """What is currently advertised (None when nothing is)."""
        return self._announcement

    def _zeroconf(self) -> AsyncZeroconf:
        if self._azc is None:
            self._azc = AsyncZeroconf(interfaces=self._interfaces, ip_version=self._ip_version)
        return self._azc

    def _service_info(
        self, announcement: TableAnnouncement, port: int, addresses: Sequence[str]
    ) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            announcement.service_name,
            port=port,
            properties=build_txt(announcement),
            server=f"lanomino-{announcement.host_peer_id[:16]}.local.",
            addresses=[ipaddress.ip_address(a).packed for a in addresses],
            host_ttl=RECORD_TTL_S,
            other_ttl=RECORD_TTL_S,
        )

    async def register(
        self, announcement: TableAnnouncement, port: int, addresses: Sequence[str] | None = None
    ) -> None:
        """Start advertising a table served on ``port`` at ``addresses`` (default: interfaces).

        Raises:
            RuntimeError: a table is already registered (use ``update``).
            ValueError: a bad port or address.
        """
        if self._info is not None:
            raise RuntimeError("a table is already registered; call update() or unregister()")
        if not 1 <= port <= 65535:
            raise ValueError(f"port {port} is out of range")
        addrs, _ = _check_interfaces(addresses if addresses is not None else self._interfaces)
        info = self._service_info(announcement, port, addrs)
        azc = self._zeroconf()
        await azc.zeroconf.async_wait_for_start()
        task = await azc.async_register_service(info, cooperating_responders=not self._probe)
        await task
        self._info, self._announcement = info, announcement

    async def update(self, announcement: TableAnnouncement) -> None:
        """Re-advertise with new facts (seats, term, ...); a new name means a new service."""
        info, old = self._info, self._announcement
        if info is None or old is None:
            raise RuntimeError("no table is registered")
        if announcement.service_name != old.service_name:
            port, addresses = info.port, info.parsed_addresses()
            await self.unregister()
            await self.register(announcement, port or 0, addresses)
            return
        new_info = self._service_info(announcement, info.port or 0, info.parsed_addresses())
        task = await self._zeroconf().async_update_service(new_info)
        await task
        self._info, self._announcement = new_info, announcement

    async def unregister(self) -> None:
        """Stop advertising (browsers are told at once). Does nothing when nothing is registered."""
        info, self._info, self._announcement = self._info, None, None
        if info is not None and self._azc is not None:
            task = await self._azc.async_unregister_service(info)
            await task

    async def close(self) -> None:
        """Unregister within ``GOODBYE_S``, then release the sockets within ``RELEASE_S``: a
        goodbye that cannot go out (a link down, a registration still probing) must not hold up
        a node's exit."""
        try:
            async with asyncio.timeout(GOODBYE_S):
                await self.unregister()
        except TimeoutError:
            pass  # (the record expires from the others' caches after RECORD_TTL_S)
        finally:
            azc, self._azc = self._azc, None
            if azc is not None:
                try:
                    async with asyncio.timeout(RELEASE_S):
                        await azc.async_close()
                except TimeoutError:
                    pass


@dataclass(frozen=True, slots=True)
class SeenTable:
    """A table seen on the network: its facts and where to reach it."""

    service_name: str
    announcement: TableAnnouncement
    addresses: tuple[str, ...]
    port: int


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A change in the set of visible tables."""

    kind: Literal["added", "updated", "removed"]
    table: SeenTable


class _AnswerSink(asyncio.DatagramProtocol):
    """Feeds mDNS answers that arrive on the one-shot query socket into zeroconf's cache."""

    def __init__(self, azc: AsyncZeroconf) -> None:
        self._azc = azc

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        if addr[1] != _MDNS_PORT:
            return  # answers come from port 5353; anything else is not for us
        try:
            message = DNSIncoming(data)
        except Exception:  # zeroconf's parser is robust; never let junk reach the loop
            return
        if message.valid and message.is_response():
            self._azc.zeroconf.record_manager.async_updates_from_response(message)


class TableBrowser:
    """Watches the given interfaces for tables. Use ``async with`` or call ``start``/``close``."""

    def __init__(self, interfaces: Sequence[str]) -> None:
        self._interfaces, self._ip_version = _check_interfaces(interfaces)
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._queue: asyncio.Queue[TableEvent] = asyncio.Queue()
        self._tables: dict[str, SeenTable] = {}
        self._generation: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.invalid_records = 0  # TXT records refused by parse_txt, or unresolvable services

    async def __aenter__(self) -> TableBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def tables(self) -> dict[str, SeenTable]:
        """The tables visible now, by service name (a copy)."""
        return dict(self._tables)

    async def start(self) -> None:
        """Open the sockets and send the first query."""
        if self._azc is not None:
            return
        self._azc = AsyncZeroconf(interfaces=self._interfaces, ip_version=self._ip_version)
        await self._azc.zeroconf.async_wait_for_start()
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf,
            SERVICE_TYPE,
            handlers=[self._on_change],
        )
        self._spawn(self._legacy_query())

    async def next_event(self, timeout_s: float | None = None) -> TableEvent | None:
        """The next change, or None after ``timeout_s`` without one."""
        try:  # (asyncio.timeout: wait_for on 3.11 may swallow a cancel, docs/architecture.md)
            async with asyncio.timeout(timeout_s):
                return await self._queue.get()
        except TimeoutError:
            return None

    async def events(self) -> AsyncIterator[TableEvent]:
        """Every change, as it happens, until closed or cancelled."""
        while True:
            yield await self._queue.get()

    async def close(self) -> None:
        """Stop browsing and release the sockets."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        browser, self._browser = self._browser, None
        if browser is not None:
            await browser.async_cancel()
        azc, self._azc = self._azc, None
        if azc is not None:
            await azc.async_close()

    def _on_change(self, **kwargs: Any) -> None:
        name: str = kwargs["name"]
        change: ServiceStateChange = kwargs["state_change"]
        generation = self._generation.get(name, 0) + 1
        self._generation[name] = generation
        if change is ServiceStateChange.Removed:
            seen = self._tables.pop(name, None)
            if seen is not None:
                self._queue.put_nowait(TableEvent("removed", seen))
            return
        self._spawn(self._resolve(name, generation))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _legacy_query(self) -> None:
        """Ask every table at once through a one-shot socket of our own (RFC 6762 section 6.7).

        A query from a port other than 5353 is answered by unicast to that port, immediately
        (no multicast back-off, no flood protection delay) and to our socket alone, even when
        other mDNS stacks share port 5353 on this machine. The answers go into zeroconf's cache
        like any other, so the browser reports them as usual.
        """
        azc = self._azc
        if azc is None:
            return
        loop = asyncio.get_running_loop()
        # A fresh id keeps two browsers' queries apart: responders drop a byte-identical packet
        # seen within the last second as a duplicate.
        out = DNSOutgoing(_FLAGS_QUERY, multicast=False, id_=secrets.randbelow(0xFFFF) + 1)
        out.add_question(DNSQuestion(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN))
        transports: list[asyncio.DatagramTransport] = []
        try:
            for ip in self._interfaces:
                if ipaddress.ip_address(ip).version != 4:
                    continue
                sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(ip))
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
                sock.bind((ip, 0))
                transport, _ = await loop.create_datagram_endpoint(
                    lambda: _AnswerSink(azc), sock=sock
                )
                transports.append(transport)
                for packet in out.packets():
                    transport.sendto(packet, (_MDNS_GROUP, _MDNS_PORT))
            await asyncio.sleep(LEGACY_LISTEN_S)
        finally:
            for transport in transports:
                transport.close()

    async def _resolve(self, name: str, generation: int) -> None:
        azc = self._azc
        if azc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        found = await info.async_request(
            azc.zeroconf, RESOLVE_TIMEOUT_S * 1000, question_type=DNSQuestionType.QM
        )
        if self._generation.get(name) != generation:
            return  # removed or changed again while we were resolving
        try:
            if not found or info.port is None:
                raise AnnouncementError("service did not resolve")
            announcement = parse_txt(info.properties)
            if announcement.service_name.lower() != name.lower():
                raise AnnouncementError("instance name does not match the TXT record")
        except AnnouncementError:
            self.invalid_records += 1
            return
        seen = SeenTable(name, announcement, tuple(info.parsed_addresses()), info.port)
        previous = self._tables.get(name)
        if previous == seen:
            return
        self._tables[name] = seen
        self._queue.put_nowait(TableEvent("added" if previous is None else "updated", seen))
