"""``lanomino watch TABLE|HOST:PORT[/CODE]``: follow a table without a seat.

The table is found and its host checked as for ``join`` (a code or the full key, or a host met
before; in the client a new host's fingerprint is shown and asked about). The watcher is sent
only what is public (net/watchers.py), checks every hand's deal when its log arrives and keeps
the transcript. By default the client shows the table (full screen, or ``--lines``); with
``--headless`` each event is one sentence on stdout (the line mode's narrator, from no seat) and
it exits 0 when the match ends; ``--json`` prints JSON lines instead: ``{"event": "watching"}``
once let in, one line per checked hand, and the outcome.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from lanomino.commands.host import add_timing_arguments, timings_from_args
from lanomino.commands.lineplay import add_line_arguments
from lanomino.narrate import plural

if TYPE_CHECKING:
    from lanomino.node import PeerNode


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", metavar="TABLE|HOST:PORT[/CODE]",
                        help="a table name seen by `lanomino tables`, or the address the host's "
                             "screen shows (CODE: the start of its fingerprint, or its full key)")
    parser.add_argument("--passphrase", metavar="P", help="the table's passphrase, if it has one")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="the name the table knows you by (default: your name in Settings; "
                             "headless: watcher)")
    parser.add_argument("--interface", metavar="IP",
                        help="look for tables and connect from this address")
    parser.add_argument("--timeout", type=float, default=3.0, metavar="S",
                        help="how long to look for TABLE (default 3 s)")
    parser.add_argument("--data-dir", metavar="DIR", help="keys and transcripts live here")
    parser.add_argument("--json", action="store_true",
                        help="JSON lines (let in, each checked hand, the outcome) "
                             "instead of sentences")
    parser.add_argument("--headless", action="store_true",
                        help="no client: one sentence per event on stdout, "
                             "exit when the match ends")
    add_timing_arguments(parser)
    add_line_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.headless or args.json:
        return _run_headless(args)
    import asyncio

    from lanomino.commands.join import find_table, is_address, trust_host
    from lanomino.commands.play import run_client
    from lanomino.paths import data_dir
    from lanomino.ui.lan import JoinTable

    if not is_address(args.table):
        print(f"looking for {args.table!r}…", flush=True)
    folder = data_dir(args.data_dir)
    found = asyncio.run(find_table(args.table, args.interface, args.timeout, folder))
    trust_host(found, folder, ask=True)
    watch = JoinTable(str(found.address), args.passphrase, found.name, watch=True)
    return run_client(args, watch, player=args.player,
                      interfaces=[args.interface] if args.interface else None,
                      timings=timings_from_args(args))


def _run_headless(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import os
    import sys

    from lanomino.commands.join import exit_status, find_table, run_node, trust_host
    from lanomino.node import PeerNode
    from lanomino.paths import data_dir

    logging.basicConfig(level=os.environ.get("LANOMINO_LOG", "WARNING").upper(), stream=sys.stderr)
    folder = data_dir(args.data_dir)

    async def main() -> int:
        found = await find_table(args.table, args.interface, args.timeout, folder)
        trust_host(found, folder, ask=False)
        node = PeerNode(data_dir=folder, address=found.address, player=args.player or "watcher",
                        passphrase=args.passphrase, timings=timings_from_args(args), level=None,
                        source_ip=args.interface, table_name=found.name or None, watch=True)
        outcome = await run_node(node, _printer(node, args.json, bool(args.words)), args.json)
        if args.json:
            pass  # (run_node printed the outcome)
        elif outcome.finished:
            checked = "every hand checked out" if outcome.verified else "NOT every hand checked out"
            print(f"The match is over after {plural(outcome.hands, 'hand')}; {checked}."
                  f" Transcript: {outcome.transcript}", flush=True)
        else:
            print(f"stopped watching: {outcome.reason}", file=sys.stderr)
        return exit_status(outcome)

    return asyncio.run(main())


def _printer(node: PeerNode, as_json: bool, words: bool) -> Any:
    """A listener for the node's events: sentences (or JSON lines) on stdout."""
    from lanomino.lines.narrator import Narrator
    from lanomino.net.session import HandVerified, Joined, ObservationChanged, ProtocolProblem

    narrator = Narrator(words=words, plays=False)
    told = [0]  # the watching count last said (nobody, until a roster says)
    clock: list[float | None] = [None]  # the move clock last said
    away: set[int] = set()  # the seats last said to be out of time

    def say(text: str) -> None:
        print(text, flush=True)

    def on_event(event: object) -> None:
        if isinstance(event, Joined):
            say(json.dumps({"event": "watching", "seats": event.seats}) if as_json
                else f"Watching a table of {event.seats}.")
        elif isinstance(event, HandVerified):
            if as_json:
                say(json.dumps({"event": "hand", "hand": event.hand, "verified": event.ok,
                                "detail": event.detail}))
            else:
                say(f"Hand {event.hand}'s deal {'checks out' if event.ok else 'does NOT check out'}"
                    f": {event.detail}.")
        elif isinstance(event, ProtocolProblem) and event.code == "watcher":
            say(f"Refused: {event.detail}.")
        elif isinstance(event, ObservationChanged) and not as_json:
            names = tuple(row.name for row in sorted(node.seats(), key=lambda r: r.seat))
            for line in narrator.update(event.observation, names):
                say(line)
        if as_json or not node.session.joined:
            return
        if node.session.watching != told[0]:
            told[0] = node.session.watching
            say(f"{told[0]} watching.")
        if node.move_clock() != clock[0]:
            clock[0] = node.move_clock()
            say("No move clock." if clock[0] is None else f"Move clock: {clock[0]:g} s a move.")
        rows = node.seats()
        for row in rows:
            if row.away != (row.seat in away):
                away.symmetric_difference_update({row.seat})
                say(f"{row.name} is out of time: the table's bot plays for them." if row.away
                    else f"{row.name} is back.")

    return on_event
