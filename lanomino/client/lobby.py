"""The client's way onto the LAN: the lobby's discovery, and the LAN tables it opens or joins.

``Lobby`` looks for tables while the lobby is open (a ``TableBrowser`` feeding ``ui.lobby``);
``host_table`` and ``join_table`` make the ``LanTable`` a host or join intent asks for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lanomino.client.find import current, table_browser
from lanomino.client.lan import LanTable
from lanomino.client.rematch import HOLD_S
from lanomino.client.seam import Browser, Frontend, TableNode
from lanomino.ui.lan import HostTable, JoinTable, TableInfo
from lanomino.ui.settings import account_name
from lanomino.ui.state import UiState

if TYPE_CHECKING:
    from lanomino.discovery.zeroconf_adapter import SeenTable
    from lanomino.net.keys import DirectAddress
    from lanomino.net.session import Timings
    from lanomino.node import PeerNode

log = logging.getLogger("lanomino.client")
LOBBY_TICK_S = 0.15  # how often the lobby redraws (the searching indicator turns)


@dataclass
class NetOptions:
    """Where the client's LAN play happens (from the command line; defaults as for real users)."""

    data_dir: Path
    interfaces: list[str] | None = None  # browse/announce here; None: the machine's LAN interfaces
    bind: str | None = None  # serve a hosted table here; None: every interface
    port: int = 0
    announce: bool = True
    timings: Timings | None = None  # None: the defaults
    watchers: int = 8  # how many may watch a table hosted here (net/watchers.py)
    browser_factory: Callable[[list[str]], Browser] | None = None  # tests pass a stand-in
    tasks: set[asyncio.Future[object]] = field(default_factory=set)

    def spawn(self, coro: Awaitable[object]) -> asyncio.Future[object]:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[object]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("client task failed: %r", task.exception())

    def timings_or_default(self) -> Timings:
        from lanomino.net.session import Timings

        return self.timings or Timings()


def table_info(seen: SeenTable) -> TableInfo:
    """A lobby row from a discovery ``SeenTable``."""
    from lanomino.net.keys import DirectAddress

    a = seen.announcement
    ip = seen.addresses[0] if seen.addresses else ""
    address = str(DirectAddress(ip, seen.port, a.host_key)) if ip else ""
    return TableInfo(seen.service_name, a.name, a.rules, a.seats_taken, a.seats_total,
                     a.has_passphrase, address, a.is_compatible)


class Lobby:
    """Looks for tables while the lobby is open and keeps ``ui.lobby`` up to date."""

    def __init__(self, ui: UiState, redraw: Callable[[], None], options: NetOptions) -> None:
        self.ui, self.redraw, self.options = ui, redraw, options
        self.task: asyncio.Future[object] | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = self.options.spawn(self._run())

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self.ui.lobby.searching = False

    async def _run(self) -> None:
        lobby = self.ui.lobby
        lobby.error, lobby.searching = "", True
        interfaces = self.options.interfaces
        if not interfaces:
            from lanomino.node import lan_addresses

            interfaces = await asyncio.to_thread(lan_addresses)
        if not interfaces:
            lobby.error = ("No LAN interface found: press a to join by address "
                           "(or start with --interface IP).")
            lobby.searching = False
            self.redraw()
            return
        factory = self.options.browser_factory or table_browser
        try:
            browser = factory(interfaces)
            await browser.start()
        except (ValueError, OSError) as exc:
            lobby.error, lobby.searching = f"Cannot look for tables: {exc}", False
            self.redraw()
            return
        try:
            while True:
                lobby.set_tables([table_info(t) for t in current(browser.tables.values())])
                lobby.tick += 1
                self.redraw()
                await browser.next_event(LOBBY_TICK_S)
        finally:
            await browser.close()


def player_name(ui: UiState) -> str:
    """The name others see: Settings' name (the account's name in place of an old "You")."""
    name = ui.settings.name
    return account_name() if name.casefold() == "you" else name


def join_table(ui: UiState, frontend: Frontend, options: NetOptions, intent: JoinTable,
               refused: Callable[[str, str], None]) -> LanTable | None:
    """The seat ``intent`` asks for, or None (with ``ui.lobby.message`` saying why)."""
    from lanomino.net.keys import DirectAddress, parse_direct_address

    try:
        address = parse_direct_address(intent.address)
        if address.server_key is None:
            raise ValueError("the address needs the host's key: HOST:PORT/KEY, "
                             "as the host shows it")
    except ValueError as exc:
        ui.lobby.message = str(exc)
        return None

    def make() -> TableNode:
        from lanomino.node import PeerNode

        return PeerNode(data_dir=options.data_dir, address=address, player=player_name(ui),
                        passphrase=intent.passphrase, timings=options.timings_or_default(),
                        level=None, table_name=intent.name or None, watch=intent.watch,
                        announce=options.announce)  # (as a new host after a migration)

    table = LanTable(ui, frontend, make, "peer", intent.name or str(address.host), refused)
    table.grace_s = options.timings_or_default().grace_s

    def watcher_at(where: DirectAddress) -> PeerNode:  # (one who declines a rematch: its host)
        from lanomino.node import PeerNode as Node

        return Node(data_dir=options.data_dir, address=where, player=player_name(ui),
                        passphrase=intent.passphrase, timings=options.timings_or_default(),
                        level=None, watch=True, migration=False, announce=False)

    table.offer.watcher_at = watcher_at
    if intent.watch:
        table.watch()
    where = str(DirectAddress(address.host, address.port))  # a rematch asks the key service again
    table.again = JoinTable(where, intent.passphrase, intent.name, intent.watch)
    table.key = address.server_key or ""
    return table


def host_table(ui: UiState, frontend: Frontend, options: NetOptions, intent: HostTable,
               port: int | None = None,
               kept: tuple[dict[bytes, int], dict[int, str]] = ({}, {}),
               on: str | None = None) -> LanTable | None:
    """The table ``intent`` opens, or None (with ``ui.host_form.message`` saying why); ``kept``:
    a rematch's seats kept for their players (client/rematch.py); ``on``: the one address to
    serve and announce on (a rematch after a migration: where the others reached this member),
    instead of the options'."""
    from lanomino.client.hosting import host_node, table_rules

    try:
        rules = table_rules(intent, options.watchers)
    except ValueError as exc:
        ui.host_form.message = str(exc)
        return None

    def make() -> TableNode:
        return host_node(intent, rules, options, player_name(ui), port=port,
                         on=on or intent.bind, reserve=kept[0], reserve_s=HOLD_S)

    table = LanTable(ui, frontend, make, "host", intent.name, lambda code, reason: None)
    table.again, table.kept_names = intent, dict(kept[1])
    table.grace_s = options.timings_or_default().grace_s
    return table
