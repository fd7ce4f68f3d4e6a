"""A table by name or address, and whether to trust its host: one path for ``join``, ``watch``,
``bot`` and the lobby.

A name is looked up with zeroconf; an address (``HOST:PORT``, ``/CODE``, ``/KEY``) is asked who it
is (``client.address``). The known hosts (``store.known_hosts``) are read and written through one
``HostBook``, on the store's thread, never on the event loop. ``current`` is the one answer to
"which of these announcements are live tables": after a host migration the lost host's record may
linger a while beside the new host's, and only the newest host of a table is shown or joined.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lanomino import command
from lanomino.client import ClientError
from lanomino.client.address import CheckHost, Resolved, Trust, consent_question, is_bare_host

if TYPE_CHECKING:
    from lanomino.client.seam import Browser
    from lanomino.discovery.zeroconf_adapter import SeenTable
    from lanomino.store import Store
    from lanomino.store.known_hosts import HostCheck

# HOST:PORT[/...]; an empty port counts too, to be told it is missing
_ADDRESS = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]*(/.*)?")
# an IP address followed by anything after a ':' or '/' (a port that is no number, a code
# without a port): an address to be told what is wrong with it, never a table's name
_IP_FIRST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[0-9]{1,3}(\.[0-9]{1,3}){3})[:/].*")


def is_address(target: str) -> bool:
    """An address (``HOST:PORT``, ``HOST:PORT/CODE``, ``HOST:PORT/KEY``, a bare IP missing its
    port, or an IP followed by a port or code however mistyped) rather than a table's name."""
    return (bool(_ADDRESS.fullmatch(target) or _IP_FIRST.fullmatch(target))
            or is_bare_host(target))


@dataclass(frozen=True, slots=True)
class Seek:
    """A table to find, by name or address (``join``, ``watch``, ``bot``), and where."""

    table: str
    interface: str | None
    timeout_s: float
    data_dir: Path

    async def find(self, hosts: HostBook, ask: Callable[[str], bool] | None) -> Resolved:
        """The table, its host trusted (``HostBook.decide``). Raises ClientError."""
        found = await find_table(self.table, self.interface, self.timeout_s, hosts)
        hosts.decide(found, ask)
        return found


class HostBook:
    """The hosts this player trusts, read and written on the store's thread."""

    def __init__(self, store: Store, writer: Executor) -> None:
        self.store, self.writer = store, writer

    @classmethod
    @contextmanager
    def open(cls, data_dir: Path) -> Iterator[HostBook]:
        """The known hosts of ``data_dir``, with a thread of their own while in use."""
        from lanomino.store import StoreError, open_store

        try:
            store = open_store(data_dir)
        except (StoreError, OSError) as exc:
            raise ClientError(str(exc)) from None
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lanomino-hosts")
        try:
            yield cls(store, writer)
        finally:
            writer.shutdown(wait=True)
            store.close()

    async def check(self, host: str, identity: bytes) -> HostCheck:
        from lanomino.store.known_hosts import KnownHosts

        return await asyncio.wrap_future(self.writer.submit(KnownHosts(self.store).check, host,
                                                            identity))

    def remember(self, found: Resolved) -> None:
        """Trust ``found``'s host from now on (queued on the store's thread)."""
        from lanomino.store.known_hosts import KnownHosts

        if found.identity is not None:
            self.writer.submit(KnownHosts(self.store).remember, found.address.host,
                               found.identity, found.name)

    def decide(self, found: Resolved, ask: Callable[[str], bool] | None) -> None:
        """Trust ``found``'s host or raise ClientError: a host not met before is asked about
        (``ask`` shows the question and says yes or no; None: nobody is there to compare
        fingerprints, so only a code or a key will do)."""
        if found.needs_consent:
            if ask is None:
                where = f"{found.address.host}:{found.address.port}"
                raise ClientError(
                    f"{where} is a host not met before (fingerprint {found.fingerprint}) and "
                    "nobody is here to compare fingerprints: give the code the host's screen "
                    f"shows, {where}/CODE (the fingerprint's first 8 characters)")
            if not ask(consent_question(found)):
                raise ClientError("not joining")
        self.remember(found)


async def find_table(target: str, interface: str | None, timeout_s: float, hosts: HostBook,
                     browser_factory: Callable[[list[str]], Browser] | None = None) -> Resolved:
    """The table TABLE or HOST:PORT[/CODE|/KEY] names, and how far to trust its host (a name is
    looked for with ``browser_factory``, default zeroconf's, as in the lobby). Raises
    ClientError."""
    from lanomino.net.keys import DirectAddress

    if is_address(target):
        return await who_is(target, hosts.check)
    seen = await _look_up(target, interface, timeout_s, browser_factory or table_browser)
    address = DirectAddress(seen.addresses[0], seen.port, seen.announcement.host_key)
    return Resolved(address, seen.announcement.name, Trust.KEY)


async def who_is(address: str, check: CheckHost, timeout_s: float = 3.0) -> Resolved:
    """The table at ``address`` (``HOST:PORT[/CODE|/KEY]``) and how far to trust its host, as its
    key service answers (``address.resolve``; ``check``: is the host known). The one way an
    address is asked, for ``join``, ``watch``, ``bot``, the lobby and a rematch. Raises
    ClientError saying why not: a mistyped address, nobody there, not a lanomino table, not the
    table the code names."""
    from lanomino.client.address import parse_target, resolve
    from lanomino.discovery.key_service import KeyServiceError

    try:
        return await resolve(parse_target(address), check, timeout_s)
    except (KeyServiceError, ValueError) as exc:
        raise ClientError(str(exc)) from None


def current(tables: Iterable[SeenTable]) -> list[SeenTable]:
    """The live tables among ``tables``, by service name. Of the records that share a table name,
    one whose host has the newest term, when it alone has it and that term is past 0, is the
    table: the older ones are a host that lost its table in a migration, whose record lingers.
    Records of one name at the same term are different tables (or a split nobody has settled):
    all are kept, and joining by that name asks for the full name."""
    by_name: dict[str, list[SeenTable]] = {}
    for seen in tables:
        by_name.setdefault(seen.announcement.name, []).append(seen)
    kept: list[SeenTable] = []
    for same in by_name.values():
        top = max(t.announcement.term for t in same)
        newest = [t for t in same if t.announcement.term == top]
        kept += newest if top > 0 and len(newest) == 1 else same
    return sorted(kept, key=lambda t: t.service_name)


async def fingerprints(tables: list[SeenTable], timeout_s: float = 1.0) -> list[str]:
    """Each table's host fingerprint, the form the host's screen shows ("ad53-b143-…"), from the
    signed answer of its key service; "" for a table whose key service does not answer, or whose
    answer is not from the announced host key."""
    from lanomino.discovery.key_service import KeyServiceError, fetch_table_key

    async def one(seen: SeenTable) -> str:
        if not seen.addresses:
            return ""
        try:
            answer = await fetch_table_key(seen.addresses[0], seen.port, timeout_s)
        except KeyServiceError:
            return ""
        return answer.fingerprint if answer.curve == seen.announcement.host_key else ""

    return list(await asyncio.gather(*(one(seen) for seen in tables)))


def lan_interfaces(given: list[str] | None) -> list[str]:
    """Where to look for tables: ``given``, else this machine's LAN interfaces. Raises
    ClientError when there are none."""
    from lanomino.node import lan_addresses

    interfaces = given or lan_addresses()
    if not interfaces:
        raise ClientError("no LAN interface found: give one with --interface IP")
    return interfaces


async def live_tables(interfaces: list[str], timeout_s: float,
                      factory: Callable[[list[str]], Browser] | None = None) -> list[SeenTable]:
    """The tables the lobby would list (``current``) after listening on ``interfaces`` for
    ``timeout_s`` (``factory``: the browser, default zeroconf's): what ``tables`` prints. Raises
    ClientError: an interface that cannot be listened on."""
    try:
        browser = (factory or table_browser)(interfaces)
        await browser.start()
    except (ValueError, OSError) as exc:
        raise ClientError(f"cannot look for tables: {exc}") from None
    try:
        await asyncio.sleep(timeout_s)
        return current(browser.tables.values())
    finally:
        await browser.close()


def table_browser(interfaces: list[str]) -> Browser:
    """Zeroconf's table browser on ``interfaces``."""
    from lanomino.discovery.zeroconf_adapter import TableBrowser

    return TableBrowser(interfaces)


async def _look_up(target: str, interface: str | None, timeout_s: float,
                   factory: Callable[[list[str]], Browser]) -> SeenTable:
    """The one live table called ``target`` on the LAN. Raises ClientError."""
    loop = asyncio.get_running_loop()
    browser = factory(lan_interfaces([interface] if interface else None))
    await browser.start()
    try:
        deadline = loop.time() + timeout_s
        while True:
            matches = [t for t in current(browser.tables.values())
                       if target in (t.announcement.name, t.announcement.instance_name)]
            if len(matches) == 1 or loop.time() >= deadline:
                break
            await browser.next_event(max(0.05, deadline - loop.time()))
    finally:
        await browser.close()
    if not matches:
        raise ClientError(f"no table called {target!r} found (try `{command('tables')}`)")
    if len(matches) > 1:
        names = ", ".join(t.announcement.instance_name for t in matches)
        raise ClientError(f"several tables are called {target!r}: {names}; give the full name")
    return matches[0]
