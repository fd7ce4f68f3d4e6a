"""``lanomino join TABLE|HOST:PORT[/CODE]``: sit at a table found by name or given by address.

``join`` opens the terminal client at that table; with ``--headless`` (or ``--json``) a bot at
``--level`` plays the seat instead (like ``lanomino bot``, under your ``--player`` name). By
address, the host's key service says who the host is (``client.address``): a code from the host's
screen (``HOST:PORT/CODE``, the start of its fingerprint) or the full key (``HOST:PORT/KEY``)
settles it; with neither, a host joined before is trusted and a new one is shown with its
fingerprint and asked about (headless: refused). A table name is looked up with zeroconf on
``--interface`` (default: the LAN); of a table that changed host, the newest host is joined
(``client.find.current``, as in the lobby).
"""

from __future__ import annotations

import argparse

from lanomino.cli.options import (
    add_line_arguments,
    add_seat_arguments,
    add_table_arguments,
    bot_seat,
    table_seek,
    timings_from_args,
)
from lanomino.cli.output import ask_yes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser)
    add_seat_arguments(parser, "normal")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="your name at the table "
                             "(default: your name in Settings; headless: player)")
    parser.add_argument("--headless", action="store_true",
                        help="a bot at --level plays your seat (also with --json); "
                             "default: you play it in the client")
    add_line_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.headless or args.json:
        from lanomino.client import headless

        return headless.play(table_seek(args), args.json, **bot_seat(args, args.player or "player"))
    from lanomino.client.launch import sit_at

    return sit_at(table_seek(args), args.passphrase, watch=False, ask=consent,
                  player=args.player, timings=timings_from_args(args), lines=args.lines,
                  words=args.words)


def consent(question: str) -> bool:
    return ask_yes(question, "Join this table? [y/N] ")
