"""``lanomino tables``: list the tables seen on the LAN (zeroconf), then exit."""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=1.0, metavar="S",
                        help="how long to look (default 1 s)")
    parser.add_argument("--interface", action="append", metavar="IP",
                        help="look on this interface only "
                             "(repeatable; default: the LAN interfaces)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per table")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from lanomino.cli import CliError
    from lanomino.discovery.zeroconf_adapter import TableBrowser
    from lanomino.net.keys import DirectAddress
    from lanomino.node import lan_addresses

    interfaces = args.interface or lan_addresses()
    if not interfaces:
        raise CliError("no LAN interface found: give one with --interface IP")
    if not 0 < args.timeout <= 60:
        raise CliError("--timeout must be between 0 and 60 seconds")

    async def browse() -> list[dict[str, object]]:
        try:
            browser = TableBrowser(interfaces)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        async with browser:
            await asyncio.sleep(args.timeout)
            tables = browser.tables
        out = []
        for seen in sorted(tables.values(), key=lambda t: t.service_name):
            a = seen.announcement
            ip = seen.addresses[0] if seen.addresses else ""
            address = str(DirectAddress(ip, seen.port, a.host_key)) if ip else ""
            out.append({"name": a.name, "rules": a.rules,
                        "seats": f"{a.seats_taken}/{a.seats_total}", "host": a.host_peer_id,
                        "address": address, "passphrase": a.has_passphrase, "term": a.term,
                        "compatible": a.is_compatible,
                        "service": seen.service_name})
        return out

    found = asyncio.run(browse())
    for table in found:
        if args.json:
            print(json.dumps(table))
        else:
            lock = " (passphrase)" if table["passphrase"] else ""
            print(f"{table['name']}  {table['rules']}  {table['seats']} seats  "
                  f"host {table['host']}  {table['address']}{lock}")
    if not found and not args.json:
        print("no tables found")
    return 0
