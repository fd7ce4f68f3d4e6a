"""The table's announcement on the LAN while this node hosts it: one ``TableAnnouncer``, kept up
to date, withdrawn when the node stops hosting (zeroconf is imported only when it is used)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from lanomino.discovery.announce import TableAnnouncement
from lanomino.runtime.stopping import cancelling

log = logging.getLogger("lanomino.node")

if TYPE_CHECKING:  # (imported when used: zeroconf is not a start-up import)
    from lanomino.discovery.key_service import KeyService
    from lanomino.discovery.zeroconf_adapter import TableAnnouncer
    from lanomino.net.session import HostSession


def announcement(host: HostSession, name: str, peer_id: str, has_passphrase: bool,
                 host_key: str) -> TableAnnouncement:
    """What this node announces while it hosts ``host``: its rules as History names them
    ('Draw 100', 'Pairs Block 100'), so a lobby, `tables` and History say the same."""
    rules = host.rules.short_name()
    return TableAnnouncement(name=name, rules=rules[:64], seats_taken=host.seats_taken,
                             seats_total=host.players, host_peer_id=peer_id, term=host.term,
                             has_passphrase=has_passphrase, host_key=host_key)


async def watch_announced(ips: list[str], still: Callable[[], bool],
                          seen: Callable[[list[TableAnnouncement]], None]) -> None:
    """Browse the tables announced on ``ips`` while ``still()``, giving ``seen`` every table in
    view about once a second (a member watching for a host of its table in a newer term)."""
    from lanomino.discovery.zeroconf_adapter import TableBrowser

    try:
        async with TableBrowser(ips) as browser:
            while still() and not cancelling():
                await browser.next_event(1.0)
                seen([t.announcement for t in list(browser.tables.values())])
    except (OSError, RuntimeError) as exc:
        log.info("cannot watch for a newer host: %s", exc)


class Announcing:
    """Register, refresh and withdraw one table announcement (a part of a node)."""

    def __init__(self) -> None:
        self.announcer: TableAnnouncer | None = None

    @property
    def active(self) -> bool:
        return self.announcer is not None

    async def start(self, ips: list[str], port: int,
                    fresh: Callable[[], TableAnnouncement]) -> None:
        """Register ``fresh()`` on ``ips``; if the facts changed while it registered, update."""
        from lanomino.discovery.zeroconf_adapter import TableAnnouncer

        announcer = self.announcer = TableAnnouncer(ips)
        first = fresh()
        await announcer.register(first, port, ips)
        if self.announcer is announcer and fresh() != first:
            await announcer.update(fresh())  # seats changed while it registered

    async def update(self, announcement: TableAnnouncement) -> None:
        announcer = self.announcer
        try:
            if announcer is not None:
                await announcer.update(announcement)
        except RuntimeError:
            pass  # still registering: ``start`` sends the fresh facts when it is done

    async def withdraw(self) -> None:
        """Stop announcing (no longer the host, or closing)."""
        announcer, self.announcer = self.announcer, None
        if announcer is not None:
            await announcer.close()


class Answering:
    """The key service (``discovery.key_service``, port + 1) while this node hosts: a member that
    took the table over answers joins by ``HOST:PORT`` as the first host did."""

    def __init__(self) -> None:
        self.service: KeyService | None = None
        self.generation = 0  # bumped by close: a start still binding then closes what it made

    async def start(self, answer: bytes, ip: str, port: int) -> None:
        from lanomino.discovery.key_service import start_key_service

        await self.close()
        generation = self.generation
        service = await start_key_service(answer, ip, port)
        if service is not None and generation != self.generation:
            await service.close()
        elif service is not None:
            self.service = service

    async def close(self) -> None:
        self.generation += 1
        service, self.service = self.service, None
        if service is not None:
            await service.close()
