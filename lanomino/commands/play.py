"""``lanomino play``: the full-screen client (plain ``lanomino`` runs it).

With no game options it opens the main menu; ``--rules/--set/--players/--level/--seed`` start a
local game against the computer straight away and ``--continue`` resumes the saved one.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from lanomino.commands.common import add_rules_arguments, rules_from_args
from lanomino.commands.lineplay import add_line_arguments

if TYPE_CHECKING:
    from prompt_toolkit.application import Application

    from lanomino.client.lobby import NetOptions
    from lanomino.store import Store
    from lanomino.ui.state import Intent, StartLocal


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
    from lanomino.cli import CliError

    start = _start_intent(args) if _wants_new_game(args) else None
    if args.pause is not None and not 0 <= args.pause <= 10:
        raise CliError("--pause must be between 0 and 10 seconds")
    return run_client(args, start, interfaces=args.interface)


def run_client(args: argparse.Namespace, first: Intent | None, *, player: str | None = None,
               **net: Any) -> int:
    """Open the full-screen client (``first``: an intent to act on at once). ``net`` holds
    ``NetOptions`` fields (interfaces, bind, port, announce, rules, rules_name, timings); ``player``
    is the name to use at a LAN table instead of the one in Settings."""
    from lanomino.cli import CliError
    from lanomino.paths import data_dir
    from lanomino.store import StoreError, open_store

    try:
        folder = data_dir(getattr(args, "data_dir", None))
        store = open_store(folder)
    except (StoreError, OSError) as exc:
        raise CliError(str(exc)) from None
    try:
        from lanomino.client.lobby import NetOptions
        from lanomino.store import local_player_id

        args.player_id = local_player_id(store, folder)
        options = NetOptions(folder, **net)
        return _run_app(args, store, first, options, player)
    finally:
        store.close()


def _start_intent(args: argparse.Namespace) -> StartLocal:
    """The new game asked for on the command line. Raises CliError."""
    from lanomino.bots import bot_names
    from lanomino.cli import CliError
    from lanomino.engine import RulesError
    from lanomino.ui.state import StartLocal, default_level

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


def _run_app(args: argparse.Namespace, store: Store, start: Intent | None, net: NetOptions,
             player: str | None) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from lanomino.bots import bot_names
    from lanomino.client.controller import Controller
    from lanomino.commands.lineplay import run_lines, wants_lines
    from lanomino.ui.state import ContinueSaved, Settings, UiState

    stored = store.settings()
    pause = getattr(args, "pause", None)
    settings = Settings.from_dict({**stored, **({"pause_s": pause} if pause is not None else {}),
                                   **({"name": player} if player else {})})
    ui = UiState(settings=settings, levels=bot_names(), has_saved_game=store.has_saved_game())
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lanomino-store")
    controller = Controller(ui, store, writer, getattr(args, "seed", None),
                            getattr(args, "player_id", "local:you"), net=net)
    resume = getattr(args, "resume", False)
    first = start if start is not None else ContinueSaved() if resume else None
    if wants_lines(args, ui.settings):  # the line mode, for screen readers and pipes
        try:
            return run_lines(args, ui, controller, first)
        finally:
            controller.close()
            writer.shutdown(wait=True)
    from lanomino.ui.app import build_app

    app = build_app(ui, controller.handle)
    controller.frontend = AppFrontend(app)

    def pre_run() -> None:  # inside the event loop, so bots can start at once
        if first is not None:
            controller.handle(first)

    try:
        app.run(pre_run=pre_run)
    finally:
        farewell = controller.close()
        writer.shutdown(wait=True)
    if farewell:
        print(farewell)
    return 0


class AppFrontend:
    """The full-screen app as the controller's ``Frontend``."""

    def __init__(self, app: Application[int]) -> None:
        self.app = app

    def redraw(self) -> None:
        self.app.invalidate()

    def bell(self) -> None:
        self.app.output.bell()

    def exit(self) -> None:
        app = self.app
        if app.is_running and not app.future.done():  # type: ignore[union-attr]
            app.exit(result=0)
