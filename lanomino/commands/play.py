"""``lanomino play``: the full-screen client (plain ``lanomino`` runs it).

With no game options it opens the main menu; ``--rules/--set/--players/--level/--seed`` start a
local game against the computer straight away and ``--continue`` resumes the saved one.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from lanomino.cli.errors import CliError
from lanomino.cli.options import add_line_arguments, add_rules_arguments, rules_from_args

if TYPE_CHECKING:
    from lanomino.ui.state import StartLocal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--players", type=int, metavar="N",
                        help="players at the table, you included (2-4)")
    parser.add_argument("--level", metavar="L",
                        help="computer level, or a comma list, one per opponent")
    parser.add_argument("--seed", type=int, metavar="S",
                        help="seed for the shuffles (replayable games)")
    parser.add_argument("--continue", dest="resume", action="store_true",
                        help="resume the saved game")
    parser.add_argument("--pause", type=float, metavar="SECONDS",
                        help="how long a computer opponent pauses before its move shows")
    parser.add_argument("--data-dir", metavar="DIR", help="where settings and the saved game live")
    parser.add_argument("--interface", action="append", metavar="IP",
                        help="look for and announce LAN tables on this address "
                             "(repeatable; default: the LAN)")
    add_line_arguments(parser)


def _wants_new_game(argv: argparse.Namespace) -> bool:
    return bool(argv.seed is not None or argv.players or argv.level or argv.settings
                or argv.rules != "classic")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.launch import Launch, launch

    start = _start_intent(args) if _wants_new_game(args) else None
    if args.pause is not None and not 0 <= args.pause <= 10:
        raise CliError("--pause must be between 0 and 10 seconds")
    return launch(Launch(args.data_dir, start, pause=args.pause, seed=args.seed,
                         resume=args.resume, lines=args.lines, words=args.words),
                  interfaces=args.interface)


def _start_intent(args: argparse.Namespace) -> StartLocal:
    """The new game asked for on the command line. Raises CliError."""
    from lanomino.bots import bot_names
    from lanomino.engine import RulesError
    from lanomino.ui.settings import default_level
    from lanomino.ui.state import StartLocal

    rules = rules_from_args(args)
    players = args.players or (4 if rules.partnership else 2)
    try:
        rules.check_players(players)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    known = bot_names()
    levels = (tuple(x.strip().lower() for x in args.level.split(",")) if args.level
              else (default_level(known),))
    for level in levels:
        if level not in known:
            raise CliError(f"unknown level {level!r}; levels: {', '.join(known)}")
    return StartLocal(rules, players, levels)
