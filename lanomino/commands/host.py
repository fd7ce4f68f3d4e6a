"""``lanomino host``: open a table on the LAN, seat joiners in order, fill seats with bots, play.

Without ``--headless`` the host's own seat is played in the terminal client (it opens on the table's
waiting screen, showing the ``HOST:PORT/KEY`` address); with it, a bot at ``--level`` plays it.
``lanomino.node.HostNode`` is the object the client subscribes to and submits moves through. With
``--json`` the host prints a ``listening`` line (with the ``HOST:PORT/KEY`` address) when the table
is open and one ``match_over`` line at the end.
"""

from __future__ import annotations

import argparse
import json
import sys

from lanomino.commands.common import add_rules_arguments, rules_from_args
from lanomino.commands.lineplay import add_line_arguments

LIVENESS_BEATS = 5  # silence for this many heartbeat intervals counts as a drop (as in Timings)


def add_timing_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--grace", type=float, default=30.0, metavar="S",
                        help="how long a dropped player keeps its seat (default 30 s)")
    parser.add_argument("--heartbeat", type=float, default=0.25, metavar="S",
                        help="heartbeat interval; silence for 5 intervals counts as a drop "
                             "(default 0.25 s)")


def timings_from_args(args: argparse.Namespace, bot_delay: float = 0.0):  # type: ignore[no-untyped-def]
    from lanomino.cli import CliError
    from lanomino.net.session import Timings

    try:
        return Timings(heartbeat_s=args.heartbeat, liveness_s=LIVENESS_BEATS * args.heartbeat,
                       grace_s=args.grace, bot_delay_s=bot_delay,
                       move_s=getattr(args, "move_time", None))
    except ValueError as exc:
        raise CliError(str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--name", default="Lanomino", metavar="TABLE",
                        help="the table's name on the LAN")
    parser.add_argument("--seats", type=int, default=2, metavar="N",
                        help="seats at the table, 2-4 (default 2)")
    parser.add_argument("--bots", type=int, default=0, metavar="K",
                        help="seats played by host-side bots")
    parser.add_argument("--level", default="normal", metavar="L",
                        help="bot level: easy, normal, hard, expert, random, greedy "
                             "(default normal)")
    parser.add_argument("--passphrase", metavar="P",
                        help="joiners must know this (it never travels; wrong guesses are "
                             "throttled to about one a minute: three random words are best)")
    parser.add_argument("--watchers", type=int, default=8, metavar="N",
                        help="how many people may watch without a seat (default 8; 0: nobody; "
                             "the passphrase applies to them too)")
    escrow = parser.add_mutually_exclusive_group()
    escrow.add_argument("--escrow", dest="escrow", action="store_true", default=False,
                        help="deal with escrow: a lost host's hand is rebuilt exactly, but the "
                             "other players together could read every hand (see the README's "
                             "trust model)")
    escrow.add_argument("--no-escrow", dest="escrow", action="store_false",
                        help="deal without escrow (the default): no group of players can read "
                             "another's tiles; a lost host's unknown tiles are re-shuffled")
    parser.add_argument("--move-time", type=float, default=None, metavar="S",
                        help="a move clock: a player who has not moved S seconds after the turn "
                             "began is away, and the table's bot plays the seat until they are "
                             "back (default: no clock; a player may think as long as they like)")
    parser.add_argument("--bind", metavar="IP",
                        help="address to serve and advertise on (default: all LAN interfaces)")
    parser.add_argument("--port", type=int, default=0, metavar="PORT",
                        help="TCP port (default: any free one)")
    parser.add_argument("--interface", action="append", metavar="IP",
                        help="announce on this interface only "
                             "(repeatable; default: --bind or the LAN interfaces)")
    parser.add_argument("--headless", action="store_true",
                        help="play the host's seat with a bot at --level "
                             "(default: you play it in the terminal client)")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="the host player's name "
                             "(default: your name in Settings; headless: host)")
    parser.add_argument("--bot-delay", type=float, default=0.0, metavar="S",
                        help="host-side bots pause before moving")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not advertise (direct joins only)")
    parser.add_argument("--data-dir", metavar="DIR", help="keys and transcripts live here")
    parser.add_argument("--json", action="store_true",
                        help="print JSON lines: listening, then the result")
    add_timing_arguments(parser)
    add_line_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import os

    from lanomino.cli import CliError
    from lanomino.discovery.announce import AnnouncementError, check_name
    from lanomino.node import HostNode, install_quit_handlers
    from lanomino.paths import data_dir

    rules = rules_from_args(args)
    try:
        rules.check_players(args.seats)
        check_name(args.name)
    except (ValueError, AnnouncementError) as exc:
        raise CliError(str(exc)) from None
    if args.passphrase is not None:
        from lanomino.net.throttle import passphrase_advice

        advice = passphrase_advice(args.passphrase)
        if advice is not None:
            print(f"lanomino host: note: {advice}", file=sys.stderr)
    if not 0 <= args.watchers <= 64:
        raise CliError("--watchers must be 0..64")
    if not 0 <= args.bots < args.seats:
        raise CliError(f"--bots must be 0..{args.seats - 1} at a table of {args.seats}")
    try:
        from lanomino.bots import get_bot

        get_bot(args.level)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if not args.headless:  # the host's seat is played in the terminal client
        from lanomino.commands.play import run_client
        from lanomino.ui.lan import HostTable

        table = HostTable(args.name, args.rules, args.seats, args.bots, args.level, args.passphrase,
                          rules=rules, escrow=args.escrow)
        return run_client(args, table, player=args.player, interfaces=args.interface,
                          bind=args.bind, port=args.port, announce=not args.no_announce,
                          watchers=args.watchers, timings=timings_from_args(args, args.bot_delay))
    logging.basicConfig(level=os.environ.get("LANOMINO_LOG", "WARNING").upper(), stream=sys.stderr)
    timings = timings_from_args(args, args.bot_delay)

    async def main() -> int:
        node = HostNode(data_dir=data_dir(args.data_dir), rules=rules, rules_name=args.rules,
                        seats=args.seats, bots=args.bots, level=args.level, name=args.name,
                        player=args.player or "host",
                        passphrase=args.passphrase, bind=args.bind, port=args.port, timings=timings,
                        interfaces=args.interface, headless=True, announce=not args.no_announce,
                        escrow=args.escrow, watchers=args.watchers)
        try:
            await node.start()
        except OSError as exc:
            raise CliError(str(exc)) from None
        install_quit_handlers(node)
        try:
            where = node.serving()
            if args.json:
                listening = {"event": "listening", "address": where.address,
                             "port": where.port, "fingerprint": where.fingerprint,
                             "peer_id": node.identity.peer_id}
                print(json.dumps(listening), flush=True)
            else:
                print(f"table {args.name!r} open at {where.address}", flush=True)
                print(f"host key fingerprint {where.fingerprint}", flush=True)
                if where.short_address:
                    print(f"others join with: lanomino join {where.short_address}", flush=True)
            outcome = await node.run()
        finally:
            await node.close()
        if outcome.rejoin is not None and not args.json:
            print(f"another seat hosts the table now: following it at {outcome.rejoin}",
                  flush=True)
        outcome = await node.follow_on(outcome)  # (stepped down: see the end as a peer)
        if args.json:
            print(json.dumps(outcome.to_json()), flush=True)
        else:
            print(f"match over: winner {outcome.winner}, scores {list(outcome.scores)}, "
                  f"{outcome.hands} hands; transcript {outcome.transcript}")
        return 0 if outcome.finished else 1

    return asyncio.run(main())
