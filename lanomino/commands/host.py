"""``lanomino host``: open a table on the LAN, seat joiners in order, fill seats with bots, play.

Without ``--headless`` the host's own seat is played in the terminal client (it opens on the table's
waiting screen, showing the ``HOST:PORT/KEY`` address); with it, a bot at ``--level`` plays it.
``lanomino.node.HostNode`` is the object the client subscribes to and submits moves through. With
``--json`` the host prints a ``listening`` line (with the ``HOST:PORT/KEY`` address) when the table
is open and one ``match_over`` line at the end.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from lanomino.cli.errors import CliError
from lanomino.cli.options import (
    add_line_arguments,
    add_rules_arguments,
    add_timing_arguments,
    rules_from_args,
    timings_from_args,
)


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
    parser.add_argument("--deal", choices=("blind", "fair"), default="blind",
                        help="how hands are dealt. blind (the default): the locked deck: nobody, "
                             "the host included, can see a tile that is not theirs; host-side "
                             "bots are not holders: the host opens their tiles, so it sees them. "
                             "fair: every player helps shuffle and checks each hand when it ends, "
                             "but the host's program works out every hand. A table where the host "
                             "is the only person (every other seat a host-side bot) deals fair: "
                             "there is nobody to hide a tile from")
    escrow = parser.add_mutually_exclusive_group()
    escrow.add_argument("--escrow", dest="escrow", action="store_true", default=False,
                        help="deal with escrow: the deal of a host who is lost mid-hand (and, "
                             "at a locked table, of any player who leaves) plays on exactly, "
                             "where without escrow the tiles nobody holds are re-shuffled; but "
                             "all the other players together could read every hand (see the "
                             "README's trust model)")
    escrow.add_argument("--no-escrow", dest="escrow", action="store_false",
                        help="deal without escrow (the default): no group of players can pool "
                             "what they hold to read another's tiles; when someone leaves "
                             "mid-hand, the tiles nobody holds are re-shuffled instead")
    parser.add_argument("--move-time", type=float, default=None, metavar="S",
                        help="a move clock: a player who has not moved S seconds after the turn "
                             "began is away, and the table's bot plays the seat until they are "
                             "back (at a locked table, the bot runs in that player's own "
                             "program, the only one that can open their tiles; default: no "
                             "clock; a player may think as long as they like)")
    parser.add_argument("--bind", metavar="IP",
                        help="address to serve and advertise on (default: all LAN interfaces)")
    parser.add_argument("--port", type=int, default=0, metavar="PORT",
                        help="TCP port; the table also takes the next one, for its key "
                             "service (default: any free one)")
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
    from lanomino.client.hosting import host_node, table_rules
    from lanomino.client.launch import Launch, launch
    from lanomino.ui.lan import HostTable

    intent = HostTable(args.name, args.rules, args.seats, args.bots, args.level, args.passphrase,
                       rules=rules_from_args(args), escrow=args.escrow,
                       blind=args.deal == "blind")
    try:
        rules = table_rules(intent, args.watchers)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.passphrase is not None:
        from lanomino.net.throttle import passphrase_advice

        advice = passphrase_advice(args.passphrase)
        if advice is not None:
            print(f"lanomino host: note: {advice}", file=sys.stderr)
    net: dict[str, Any] = {"interfaces": args.interface, "bind": args.bind, "port": args.port,
                           "announce": not args.no_announce, "watchers": args.watchers,
                           "timings": timings_from_args(args, args.bot_delay)}
    if not args.headless:  # the host's seat is played in the terminal client
        return launch(Launch(args.data_dir, intent, args.player, lines=args.lines,
                             words=args.words), **net)
    from lanomino.client import headless
    from lanomino.client.lobby import NetOptions
    from lanomino.paths import data_dir

    options = NetOptions(data_dir(args.data_dir), **net)
    try:
        node = host_node(intent, rules, options, args.player or "host", headless=True)
    except ValueError as exc:  # a port asked for is taken
        raise CliError(str(exc)) from None
    return headless.host(node, args.name, args.json)
