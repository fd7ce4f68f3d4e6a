"""``lanomino watch TABLE|HOST:PORT[/CODE]``: follow a table without a seat.

The table is found and its host checked as for ``join`` (a code or the full key, or a host met
before; in the client a new host's fingerprint is shown and asked about). The watcher is sent
only what is public (net/watchers.py), checks every hand's deal when its log arrives and keeps
the transcript. By default the client shows the table (full screen, or ``--lines``); with
``--headless`` each event is one sentence on stdout (the line mode's narrator, from no seat, and
the line mode's words for who watches, the move clock and a seat out of time) and it exits 0
when the match ends; ``--json`` prints JSON lines instead: ``{"event": "watching"}``
once let in, one line per checked hand, and the outcome.
"""

from __future__ import annotations

import argparse

from lanomino.cli.options import (
    add_line_arguments,
    add_table_arguments,
    table_seek,
    timings_from_args,
)
from lanomino.cli.output import ask_yes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser)
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="the name the table knows you by (default: your name in Settings; "
                             "headless: watcher)")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines (let in, each checked hand, the outcome) "
                             "instead of sentences")
    parser.add_argument("--headless", action="store_true",
                        help="no client: one sentence per event on stdout, "
                             "exit when the match ends")
    add_line_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.headless or args.json:
        from lanomino.client import headless

        return headless.watch(table_seek(args), args.json, bool(args.words),
                              player=args.player or "watcher", passphrase=args.passphrase,
                              timings=timings_from_args(args))
    from lanomino.client.launch import sit_at

    return sit_at(table_seek(args), args.passphrase, watch=True,
                  ask=lambda question: ask_yes(question, "Watch this table? [y/N] "),
                  player=args.player, timings=timings_from_args(args), lines=args.lines,
                  words=args.words)
