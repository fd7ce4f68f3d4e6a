"""``lanomino join TABLE|HOST:PORT[/CODE]``: sit at a table found by name or given by address.

``join`` opens the terminal client at that table; with ``--headless`` (or ``--json``) a bot at
``--level`` plays the seat instead (like ``lanomino bot``, under your ``--player`` name). By
address, the host's key service says who the host is (``client.address``): a code from the host's
screen (``HOST:PORT/CODE``, the start of its fingerprint) or the full key (``HOST:PORT/KEY``)
settles it; with neither, a host joined before is trusted and a new one is shown with its
fingerprint and asked about (headless: refused). A table name is looked up with zeroconf on
``--interface`` (default: the LAN).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from lanomino.commands.host import add_timing_arguments, timings_from_args
from lanomino.commands.lineplay import add_line_arguments
from lanomino.narrate import plural

if TYPE_CHECKING:
    from collections.abc import Callable

    from lanomino.client.address import CheckHost, Resolved
    from lanomino.discovery.zeroconf_adapter import SeenTable
    from lanomino.node import Outcome, PeerNode

# HOST:PORT[/...]; an empty port counts too, to be told it is missing
_ADDRESS = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]*(/.*)?")


def add_peer_arguments(parser: argparse.ArgumentParser, level: str) -> None:
    parser.add_argument("table", metavar="TABLE|HOST:PORT[/CODE]",
                        help="a table name seen by `lanomino tables`, or the address on the host's "
                             "screen (CODE: the start of its fingerprint, or its full key)")
    parser.add_argument("--passphrase", metavar="P", help="the table's passphrase, if it has one")
    parser.add_argument("--interface", metavar="IP",
                        help="look for tables and connect from this address")
    parser.add_argument("--level", default=level, metavar="L",
                        help=f"bot level playing the seat (default {level})")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S",
                        help="the bot pauses before each move")
    parser.add_argument("--timeout", type=float, default=3.0, metavar="S",
                        help="how long to look for TABLE (default 3 s)")
    parser.add_argument("--data-dir", metavar="DIR", help="keys, secrets and transcripts live here")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON line with the result when the match ends")
    parser.add_argument("--host-port", type=int, default=0, metavar="PORT",
                        help="TCP port this seat serves on if it is elected host after the host "
                             "leaves (default: any)")
    parser.add_argument("--no-migration", action="store_true",
                        help="never take part in host elections (a silent host is waited for)")
    add_timing_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_peer_arguments(parser, "normal")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="your name at the table "
                             "(default: your name in Settings; headless: player)")
    parser.add_argument("--headless", action="store_true",
                        help="a bot at --level plays your seat (also with --json); "
                             "default: you play it in the client")
    add_line_arguments(parser)


def is_address(target: str) -> bool:
    """An address (``HOST:PORT``, ``HOST:PORT/CODE``, ``HOST:PORT/KEY``, or a bare IP missing its
    port) rather than a table's name."""
    from lanomino.client.address import is_bare_host

    return bool(_ADDRESS.fullmatch(target)) or is_bare_host(target)


async def find_table(target: str, interface: str | None, timeout_s: float,
                     data_dir: Path) -> Resolved:
    """The table TABLE or HOST:PORT[/CODE|/KEY] names, and how far to trust its host.
    Raises CliError."""
    from lanomino.cli import CliError
    from lanomino.client.address import Resolved, Trust, parse_target, resolve
    from lanomino.discovery.key_service import KeyServiceError
    from lanomino.net.keys import DirectAddress

    if is_address(target):
        try:
            return await resolve(parse_target(target), _known_hosts(data_dir))
        except (KeyServiceError, ValueError) as exc:
            raise CliError(str(exc)) from None
    seen = await _look_up(target, interface, timeout_s)
    address = DirectAddress(seen.addresses[0], seen.port, seen.announcement.host_key)
    return Resolved(address, seen.announcement.name, Trust.KEY)


async def _look_up(target: str, interface: str | None, timeout_s: float) -> SeenTable:
    """The one table called ``target`` on the LAN. Raises CliError."""
    import asyncio

    from lanomino.cli import CliError
    from lanomino.discovery.zeroconf_adapter import TableBrowser
    from lanomino.node import lan_addresses

    interfaces = [interface] if interface else lan_addresses()
    if not interfaces:
        raise CliError("no LAN interface found: give one with --interface IP")
    loop = asyncio.get_running_loop()
    async with TableBrowser(interfaces) as browser:
        deadline = loop.time() + timeout_s
        while True:
            matches = [t for t in browser.tables.values()
                       if target in (t.announcement.name, t.announcement.instance_name)]
            if len(matches) == 1 or loop.time() >= deadline:
                break
            await browser.next_event(max(0.05, deadline - loop.time()))
    if not matches:
        raise CliError(f"no table called {target!r} found (try `lanomino tables`)")
    if len(matches) > 1:  # after a migration the lost host's record may linger: take the newest
        top = max(t.announcement.term for t in matches)
        newest = [t for t in matches if t.announcement.term == top]
        if top > 0 and len(newest) == 1:
            matches = newest
    if len(matches) > 1:
        names = ", ".join(t.announcement.instance_name for t in matches)
        raise CliError(f"several tables are called {target!r}: {names}; give the full name")
    return matches[0]


def _known_hosts(data_dir: Path) -> CheckHost:
    """Look hosts up in the known hosts of ``data_dir`` (off the event loop)."""
    import asyncio

    from lanomino.store import open_store
    from lanomino.store.known_hosts import HostCheck, KnownHosts

    def check(host: str, identity: bytes) -> HostCheck:
        store = open_store(data_dir)
        try:
            return KnownHosts(store).check(host, identity)
        finally:
            store.close()

    async def check_host(host: str, identity: bytes) -> HostCheck:
        return await asyncio.to_thread(check, host, identity)

    return check_host


def fill_terminal(text: str) -> str:
    """``text`` wrapped between words to the terminal's width (a fingerprint is never split)."""
    import shutil
    import textwrap

    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    return textwrap.fill(text, width, break_on_hyphens=False)


def trust_host(found: Resolved, data_dir: Path, ask: bool) -> None:
    """Decide on a host not trusted yet (asking on the terminal when ``ask``), then remember the
    host. Raises CliError when the person (or, headless, the missing code) says no."""
    from lanomino.cli import CliError
    from lanomino.store import open_store
    from lanomino.store.known_hosts import KnownHosts

    if found.needs_consent:
        from lanomino.client.address import consent_question

        question = consent_question(found)
        if not ask:
            where = f"{found.address.host}:{found.address.port}"
            raise CliError(f"{where} is a host not met before (fingerprint {found.fingerprint}) "
                           "and nobody is here to compare fingerprints: give the code the host's "
                           f"screen shows, {where}/CODE (the fingerprint's first 8 characters)")
        print(fill_terminal(question), flush=True)
        try:
            answer = input("Join this table? [y/N] ").strip().lower()
        except EOFError:
            answer = ""
        if answer not in ("y", "yes"):
            raise CliError("not joining")
    if found.identity is not None:
        store = open_store(data_dir)
        try:
            KnownHosts(store).remember(found.address.host, found.identity, found.name)
        finally:
            store.close()


def run_peer(args: argparse.Namespace, player: str) -> int:
    import asyncio
    import logging
    import os
    import sys

    from lanomino.bots import get_bot
    from lanomino.cli import CliError
    from lanomino.node import PeerNode
    from lanomino.paths import data_dir

    try:
        get_bot(args.level)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    logging.basicConfig(level=os.environ.get("LANOMINO_LOG", "WARNING").upper(), stream=sys.stderr)
    timings = timings_from_args(args)

    folder = data_dir(args.data_dir)

    async def main() -> int:
        found = await find_table(args.table, args.interface, args.timeout, folder)
        trust_host(found, folder, ask=False)
        node = PeerNode(data_dir=folder, address=found.address, player=player,
                        passphrase=args.passphrase, timings=timings, level=args.level,
                        source_ip=args.interface, delay_s=args.delay,
                        table_name=found.name or None,
                        host_port=args.host_port, migration=not args.no_migration)
        seated: list[int] = []

        def on_event(event: object) -> None:
            from lanomino.net.session import Joined

            if args.json and isinstance(event, Joined) and not seated:  # (a script learns the seat)
                seated.append(event.seat)
                print(json.dumps({"event": "seated", "seat": event.seat}), flush=True)

        outcome = await run_node(node, on_event, args.json)
        if args.json:
            pass  # (run_node printed the outcome)
        elif outcome.finished:
            verified = "every hand verified" if outcome.verified else "NOT VERIFIED"
            print(f"match over: {_result(node, outcome)}; {plural(outcome.hands, 'hand')}, "
                  f"{verified}; transcript {outcome.transcript}")
        else:
            print(f"left the table: {outcome.reason}", file=sys.stderr)
        return exit_status(outcome)

    return asyncio.run(main())


def exit_status(outcome: Outcome) -> int:
    """A peer command's exit status: 0 the match ended, 3 the table refused it, 1 it left early."""
    if outcome.finished:
        return 0
    return 3 if outcome.refused else 1


async def run_node(node: PeerNode, listener: Callable[[object], None], as_json: bool) -> Outcome:
    """Start ``node``, run it to its end (``listener`` hears its events) and close it; with
    ``as_json`` the outcome is printed as one JSON line. Raises CliError when it cannot start."""
    from lanomino.cli import CliError
    from lanomino.node import install_quit_handlers

    try:
        await node.start()
    except OSError as exc:
        raise CliError(str(exc)) from None
    install_quit_handlers(node)
    node.subscribe(listener)
    try:
        outcome = await node.run()
    finally:
        await node.close()
    if as_json:
        print(json.dumps(outcome.to_json()), flush=True)
    return outcome


def _result(node: PeerNode, outcome: Outcome) -> str:
    """Who won, in people's words (seats by name, counted from 1; this seat is 'you')."""
    from lanomino.narrate import Cast, final_result

    rules = node.session.rules
    if rules is None:
        return f"scores {list(outcome.scores)}"
    names = {row.seat: row.name for row in node.seats()}
    players = 4 if rules.partnership else len(outcome.scores)
    cast = Cast(tuple(names.get(s, "") for s in range(players)), rules, outcome.seat)
    return final_result(outcome.winner, outcome.scores, cast)


def run(args: argparse.Namespace) -> int:
    if args.headless or args.json:
        return run_peer(args, args.player or "player")
    import asyncio

    from lanomino.commands.play import run_client
    from lanomino.paths import data_dir
    from lanomino.ui.lan import JoinTable

    if not is_address(args.table):
        print(f"looking for {args.table!r}…", flush=True)
    folder = data_dir(args.data_dir)
    found = asyncio.run(find_table(args.table, args.interface, args.timeout, folder))
    trust_host(found, folder, ask=True)
    join = JoinTable(str(found.address), args.passphrase, found.name)
    return run_client(args, join, player=args.player,
                      interfaces=[args.interface] if args.interface else None,
                      timings=timings_from_args(args))
