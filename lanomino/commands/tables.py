"""``lanomino tables``: list the tables seen on the LAN (zeroconf), then exit: the tables the
lobby lists (``client.find.current``: of a table that changed host, the newest host), each host
named by the fingerprint its screen shows (from the table's key service, ``client.find``)."""

from __future__ import annotations

import argparse
import json

from lanomino.cli.errors import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=1.0, metavar="S",
                        help="how long to look (default 1 s)")
    parser.add_argument("--interface", action="append", metavar="IP",
                        help="look on this interface only "
                             "(repeatable; default: the LAN interfaces)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per table")


def run(args: argparse.Namespace) -> int:
    import asyncio

    from lanomino.client.find import fingerprints, lan_interfaces, live_tables
    from lanomino.client.lobby import table_info

    if not 0 < args.timeout <= 60:
        raise CliError("--timeout must be between 0 and 60 seconds")
    interfaces = lan_interfaces(args.interface)

    async def browse() -> list[dict[str, object]]:
        live = await live_tables(interfaces, args.timeout)  # (the lobby lists the same tables)
        out = []
        for seen, fingerprint in zip(live, await fingerprints(live), strict=True):
            a, row = seen.announcement, table_info(seen)
            out.append({"name": row.name, "rules": row.rules,
                        "seats": f"{row.seats_taken}/{row.seats_total}", "host": a.host_peer_id,
                        "fingerprint": fingerprint,
                        "address": row.address, "passphrase": row.locked, "term": a.term,
                        "compatible": row.compatible, "service": row.key})
        return out

    found = asyncio.run(browse())
    for table in found:
        if args.json:
            print(json.dumps(table))
        else:
            print("\n".join(table_lines(table)))
    if not found and not args.json:
        print("no tables found")
    return 0


def table_lines(table: dict[str, object], width: int = 78) -> list[str]:
    """One table in lines of at most ``width`` columns, broken between its parts."""
    from lanomino.ui.chrome import wrap

    lock = " (passphrase)" if table["passphrase"] else ""
    host = f" · fingerprint {table['fingerprint']}" if table["fingerprint"] else ""
    text = f"{table['name']} · {table['rules']} · {table['seats']} seats{lock} · {table['address']}"
    text += host  # (as the host's screen shows it; none when its key service did not answer)
    first, *rest = wrap(text, width)
    return [first, *("  " + line for line in wrap(" ".join(rest), width - 2))] if rest else [first]
