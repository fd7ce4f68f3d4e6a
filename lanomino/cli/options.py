"""The option groups several commands share: rules, timings, a table to join, a seat, line mode."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from lanomino.cli.errors import CliError
from lanomino.engine import PRESETS, Rules, RulesError, rules_from_cli

if TYPE_CHECKING:
    from lanomino.client.find import Seek
    from lanomino.net.session import Timings

LIVENESS_BEATS = 5  # silence for this many heartbeat intervals counts as a drop (as in Timings)


def add_rules_arguments(parser: argparse.ArgumentParser, default: str = "classic") -> None:
    parser.add_argument("--rules", default=default, metavar="NAME",
                        help=f"rules preset: {', '.join(PRESETS)} (default {default})")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="change one rule option (repeatable); see `lanomino rules`")


def rules_from_args(args: argparse.Namespace) -> Rules:
    try:
        return rules_from_cli(args.rules, args.settings)
    except RulesError as exc:
        raise CliError(str(exc)) from None


def add_timing_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--grace", type=float, default=30.0, metavar="S",
                        help="how long a dropped player keeps its seat (default 30 s)")
    parser.add_argument("--heartbeat", type=float, default=0.25, metavar="S",
                        help="heartbeat interval; silence for 5 intervals counts as a drop "
                             "(default 0.25 s)")


def timings_from_args(args: argparse.Namespace, bot_delay: float = 0.0) -> Timings:
    from lanomino.net.session import Timings

    try:
        return Timings(heartbeat_s=args.heartbeat, liveness_s=LIVENESS_BEATS * args.heartbeat,
                       grace_s=args.grace, bot_delay_s=bot_delay,
                       move_s=getattr(args, "move_time", None))
    except ValueError as exc:
        raise CliError(str(exc)) from None


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """A table to sit at or watch, found by name or given by address (join, watch, bot)."""
    parser.add_argument("table", metavar="TABLE|HOST:PORT[/CODE]",
                        help="a table name seen by `lanomino tables`, or the address on the host's "
                             "screen (CODE: the start of its fingerprint, or its full key)")
    parser.add_argument("--passphrase", metavar="P", help="the table's passphrase, if it has one")
    parser.add_argument("--interface", metavar="IP",
                        help="look for tables and connect from this address")
    parser.add_argument("--timeout", type=float, default=3.0, metavar="S",
                        help="how long to look for TABLE (default 3 s)")
    parser.add_argument("--data-dir", metavar="DIR", help="keys, secrets and transcripts live here")
    add_timing_arguments(parser)


def table_seek(args: argparse.Namespace) -> Seek:
    """The table ``add_table_arguments`` named, and where to look for it."""
    from lanomino.client.find import Seek
    from lanomino.paths import data_dir

    return Seek(args.table, args.interface, args.timeout, data_dir(args.data_dir))


def add_seat_arguments(parser: argparse.ArgumentParser, level: str) -> None:
    """A seat a bot may play headless (join, bot)."""
    parser.add_argument("--level", default=level, metavar="L",
                        help=f"bot level playing the seat (default {level})")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S",
                        help="the bot pauses before each move")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON line with the result when the match ends")
    parser.add_argument("--host-port", type=int, default=0, metavar="PORT",
                        help="TCP port this seat serves on if it is elected host after the host "
                             "leaves (default: any)")
    parser.add_argument("--no-migration", action="store_true",
                        help="never take part in host elections (a silent host is waited for)")


def bot_seat(args: argparse.Namespace, player: str) -> dict[str, Any]:
    """The ``PeerNode`` keywords of a seat a bot plays (``add_seat_arguments``; join, bot)."""
    from lanomino.bots import get_bot

    try:
        get_bot(args.level)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return {"player": player, "passphrase": args.passphrase, "timings": timings_from_args(args),
            "level": args.level, "delay_s": args.delay, "host_port": args.host_port,
            "migration": not args.no_migration}


def add_line_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lines", action=argparse.BooleanOptionalAction, default=None,
                        help="line mode: one sentence per line and typed commands, for screen "
                             "readers and pipes (default: the lines setting)")
    parser.add_argument("--words", action=argparse.BooleanOptionalAction, default=None,
                        help="line mode: say tiles as words, five-three "
                             "(default: the words setting)")
