"""``lanomino bot TABLE|HOST:PORT/KEY``: a headless peer that plays its seat with a bot, verifies
every hand and exits 0 when the match ends (``--json``: one line with scores, winner, hands,
verified)."""

from __future__ import annotations

import argparse

from lanomino.cli.options import add_seat_arguments, add_table_arguments, bot_seat, table_seek


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser)
    add_seat_arguments(parser, "normal")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="the bot's name (default: its level)")


def run(args: argparse.Namespace) -> int:
    from lanomino.client import headless

    return headless.play(table_seek(args), args.json,
                         **bot_seat(args, args.player or f"{args.level} bot"))
