"""``lanomino bot TABLE|HOST:PORT/KEY``: a headless peer that plays its seat with a bot, verifies
every hand and exits 0 when the match ends (``--json``: one line with scores, winner, hands,
verified)."""

from __future__ import annotations

import argparse

from lanomino.commands.join import add_peer_arguments, run_peer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_peer_arguments(parser, "normal")
    parser.add_argument("--player", default=None, metavar="NAME",
                        help="the bot's name (default: its level)")


def run(args: argparse.Namespace) -> int:
    return run_peer(args, args.player or f"{args.level} bot")
