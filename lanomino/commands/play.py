"""``lanomino play``: the full-screen client (plain ``lanomino`` runs it).

With no game options it opens the main menu; ``--rules/--set/--players/--level/--seed`` start a
local game against the computer straight away and ``--continue`` resumes the saved one.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lanomino.commands.common import add_rules_arguments, rules_from_args

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from prompt_toolkit.application import Application

    from lanomino.commands.netplay import NetDriver, NetOptions
    from lanomino.localgame import LocalMatch, LocalTable
    from lanomino.store import Store
    from lanomino.ui.state import Intent, StartLocal, UiState


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--players", type=int, metavar="N", help="players at the table, you included (2-4)")
    parser.add_argument("--level", metavar="L", help="computer level, or a comma list, one per opponent")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for the shuffles (replayable games)")
    parser.add_argument("--continue", dest="resume", action="store_true", help="resume the saved game")
    parser.add_argument("--pause", type=float, metavar="SECONDS",
                        help="how long a computer opponent pauses before its move shows")
    parser.add_argument("--data-dir", metavar="DIR", help="where settings and the saved game live")
    parser.add_argument("--interface", action="append", metavar="IP",
                        help="look for and announce LAN tables on this address (repeatable; default: the LAN)")


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
        from lanomino.commands.netplay import NetOptions
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
    levels = tuple(x.strip().lower() for x in args.level.split(",")) if args.level else (default_level(known),)
    for level in levels:
        if level not in known:
            raise CliError(f"unknown level {level!r}; levels: {', '.join(known)}")
    return StartLocal(rules, players, levels)


def _run_app(args: argparse.Namespace, store: Store, start: Intent | None, net: NetOptions,
             player: str | None) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from lanomino.bots import bot_names
    from lanomino.ui.app import build_app
    from lanomino.ui.state import ContinueSaved, Settings, UiState

    settings = Settings.from_dict(store.settings())
    ui = UiState(settings=settings, levels=bot_names(), has_saved_game=store.has_saved_game())
    pause = getattr(args, "pause", None)
    if pause is not None or player:
        ui.settings = type(settings).from_dict({**settings.to_dict(), **({"pause_s": pause} if pause is not None else {}),
                                                **({"name": player} if player else {})})
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lanomino-store")
    controller = Controller(ui, store, writer, getattr(args, "seed", None), getattr(args, "player_id", "local:you"),
                            net=net)
    app = build_app(ui, controller.handle)
    controller.app = app
    first = start if start is not None else ContinueSaved() if getattr(args, "resume", False) else None

    def pre_run() -> None:  # inside the event loop, so bots can start at once
        if first is not None:
            controller.handle(first)

    try:
        app.run(pre_run=pre_run)
    finally:
        controller.close()
        writer.shutdown(wait=True)
    return 0


class Controller:
    """Turns the UI's intents into local matches, saves and settings (the local 'node')."""

    def __init__(self, ui: UiState, store: Store, writer: ThreadPoolExecutor, seed: int | None,
                 player_id: str = "local:you", net: NetOptions | None = None) -> None:
        self.ui = ui
        self.player_id = player_id  # the local human's peer id in the play log
        self.store = store
        self.writer = writer
        self.seed = seed
        self.app: Application[int] | None = None
        self.table: LocalTable | None = None
        self.net: NetDriver | None = None
        if net is not None:
            from lanomino.commands.netplay import NetDriver

            self.net = NetDriver(ui, self._redraw, self._bell, net)
        self._dealer: Any = None  # the pending automatic deal while watching
        self._finisher: Any = None  # the task playing the match out

    def handle(self, intent: Intent) -> None:
        from lanomino.ui import state as s

        if self.net is not None and (self.net.handle(intent) or self._at_lan_table(intent)):
            self._redraw()
            return
        if isinstance(intent, s.StartLocal):
            self._start(intent)
        elif isinstance(intent, s.ContinueSaved):
            self._continue()
        elif isinstance(intent, s.Submit) and self.table is not None:
            self.table.submit(intent.action)
        elif isinstance(intent, s.NextHand) and self.table is not None:
            self.table.next_hand()
        elif isinstance(intent, s.ResignMatch) and self.table is not None:
            self.table.resign()  # with 3-4 players the others play on; the standings follow
            self.ui.resigned = not self.table.match.is_over
        elif isinstance(intent, s.FinishMatch) and self.table is not None:
            self._finish()
        elif isinstance(intent, s.LeaveTable):
            self._leave("The game is saved: choose Continue to resume it." if self._saved_game() else "")
        elif isinstance(intent, s.SaveSettings):
            self.writer.submit(self.store.set_settings, intent.settings.to_dict())
        elif isinstance(intent, s.OpenHistory):
            self._open_history()
        elif isinstance(intent, s.OpenReplay):
            self._open_replay(intent.match_id)
        elif isinstance(intent, s.QuitApp) and self.app is not None:
            self._quit()
        self._redraw()

    def _at_lan_table(self, intent: Intent) -> bool:
        """Route a table intent to the LAN table when sitting at one."""
        from lanomino.ui import state as s

        net = self.net
        table = net.table if net is not None else None
        if net is None or table is None or isinstance(intent, s.QuitApp):
            return False
        if isinstance(intent, s.Submit):
            table.submit(intent.action)
        elif isinstance(intent, s.NextHand):
            table.next_hand()
        elif isinstance(intent, s.ResignMatch):
            if not table.resign():
                self._leave_lan("You left the table.")
        elif isinstance(intent, s.LeaveTable):
            host = self.ui.lan is not None and self.ui.lan.role == "host"
            over = self.ui.lan is not None and self.ui.lan.over
            self._leave_lan("" if over else "You closed the table." if host else "You left the table.")
        else:
            return False
        return True

    def _leave_lan(self, notice: str) -> None:
        from lanomino.ui.state import Screen

        if self.net is not None:
            self.net.leave()
        self.ui.screen, self.ui.notice, self.ui.menu_index = Screen.MENU, notice, 0
        self.ui.obs, self.ui.hand_result, self.ui.match_result = None, None, None
        self.ui.resigned = self.ui.confirm_quit = False

    def _quit(self) -> None:
        """Exit the app; at a LAN table say goodbye first (within a second)."""
        import asyncio

        app, net = self.app, self.net
        if app is None:
            return
        if net is None:
            app.exit(result=0)
            return

        async def bye() -> None:
            try:
                await net.shutdown()
            finally:
                if app.is_running and not app.future.done():  # type: ignore[union-attr]
                    app.exit(result=0)

        asyncio.ensure_future(bye())

    def _start(self, intent: StartLocal) -> None:
        import secrets

        from lanomino.localgame import LocalMatch, make_config

        seed = self.seed if self.seed is not None else secrets.randbelow(2**31)
        self.seed = None  # --seed applies to the first game only
        config = make_config(intent.rules, intent.players, intent.levels, self.ui.settings.name, seed)
        self._open(LocalMatch(config))

    def _continue(self) -> None:
        from lanomino.localgame import LocalMatch
        from lanomino.ui.state import Screen

        data = self.store.load_game()
        try:
            if data is None:
                raise ValueError("there is no saved game")
            match = LocalMatch.from_record(data)
        except ValueError as exc:
            self.ui.screen, self.ui.notice = Screen.MENU, f"Cannot continue: {exc}."
            return
        self._open(match)

    def _open(self, match: Any) -> None:
        from lanomino.localgame import LocalTable

        if self.table is not None:
            self.table.stop()
        self.ui.obs = None
        self.table = LocalTable(match, self.ui, self._save, self._changed, self._bell, log=self._log)
        self.table.start()
        self.ui.resigned, self.ui.finishing = not match.state.active[0] and not match.is_over, False

    def _save(self, record: dict[str, Any] | None) -> None:
        table = self.table
        if record is None and table is not None and not table.match.is_over:
            record = table.match.to_record()  # resigned: the save goes when the match is over
        if record is None:
            self.writer.submit(self.store.clear_game)
        else:
            self.writer.submit(self.store.save_game, record)

    def _changed(self) -> None:
        """The table moved on: redraw; a seat that resigned sees the next hand dealt by itself."""
        self._redraw()
        ui, table = self.ui, self.table
        if (ui.resigned and ui.hand_result is not None and ui.match_result is None and table is not None
                and not ui.finishing and self._dealer is None):
            self._dealer = asyncio_later(max(1.5, 3 * ui.settings.pause_s), self._deal_for_watcher)

    def _deal_for_watcher(self) -> None:
        self._dealer = None
        if self.table is not None and self.ui.resigned and not self.ui.finishing and self.ui.hand_result:
            self.ui.hand_result = None
            self.table.next_hand()

    def _finish(self) -> None:
        """Play the rest of the match out in a worker thread, then show the standings."""
        import asyncio

        table = self.table
        if table is None or table.match.is_over or table.match.state.active[0] or self.ui.finishing:
            return
        table.stop()
        self.ui.finishing, self.ui.thinking = True, None

        async def run() -> None:
            events = await asyncio.to_thread(play_out, table.match)
            if self.table is table:
                self.ui.finishing, self.ui.hand_result = False, None
                table._after_move(events)  # saves (clears), logs and shows the standings

        self._finisher = asyncio.ensure_future(run())

    def _saved_game(self) -> bool:
        t = self.table
        return t is not None and not t.match.is_over

    def _leave(self, notice: str) -> None:
        from lanomino.ui.state import Screen

        self.ui.has_saved_game = self._saved_game()
        for pending in (self._dealer, self._finisher):
            if pending is not None:
                pending.cancel()
        self._dealer = self._finisher = None
        self.ui.resigned = self.ui.finishing = False
        if self.table is not None:
            self.table.stop()
            self.table = None
        self.ui.screen, self.ui.notice, self.ui.menu_index = Screen.MENU, notice, 0
        self.ui.obs, self.ui.hand_result, self.ui.match_result = None, None, None

    # ----- the play log: written on the store thread, read for History and stats -----------

    def _log(self, match: Any) -> None:
        """Log the match as it stands (after a finished hand or match) off the event loop."""
        import copy

        from lanomino.store import Player, PlayLog, bot_player

        c = match.config
        players = [Player(self.player_id, c.names[0]),
                   *(bot_player(c.levels[s], c.names[s]) for s in range(1, c.players))]
        document = copy.deepcopy(match.record.to_json())  # a snapshot: the match goes on
        self.writer.submit(PlayLog(self.store).log_match, document, uid=f"local:{match.uid}", me=0,
                           players=players, started_at=match.started_at)

    def _open_history(self) -> None:
        from lanomino.store import PlayLog
        from lanomino.ui.history import HistoryView
        from lanomino.ui.state import Screen

        def load() -> HistoryView:  # on the store thread: after every queued write
            log = PlayLog(self.store)
            return HistoryView([m.to_json() for m in log.matches(200)], log.stats().to_json())

        tab = self.ui.history.tab
        self.ui.history = self.writer.submit(load).result()
        self.ui.history.tab = tab
        self.ui.screen = Screen.HISTORY

    def _open_replay(self, match_id: int) -> None:
        from lanomino.store import PlayLog, PlayLogError
        from lanomino.ui.state import Screen

        try:
            logged = self.writer.submit(PlayLog(self.store).get, match_id).result()
            self.ui.replay = logged_replay(logged.document, f"Match #{match_id}")
        except (PlayLogError, ValueError) as exc:
            self.ui.history.message = f"Cannot replay match #{match_id}: {exc}"
            return
        self.ui.history.message = ""
        self.ui.screen = Screen.REPLAY

    def close(self) -> None:
        if self.table is not None:
            self.table.stop()

    def _redraw(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    def _bell(self) -> None:
        if self.app is not None:
            self.app.output.bell()


def asyncio_later(delay_s: float, callback: Callable[[], None]) -> Any:
    """Call ``callback`` on the running loop after ``delay_s`` (a handle with ``cancel``)."""
    import asyncio

    return asyncio.get_running_loop().call_later(delay_s, callback)


def play_out(match: LocalMatch) -> list[Any]:
    """Play a match the human seat resigned from to its end with the computer seats (a worker
    thread runs this); the events of every move, in order."""
    from lanomino.bots import get_bot
    from lanomino.engine import Phase

    events: list[Any] = []
    while not match.is_over:
        if match.state.phase is Phase.DEAL:
            events += match.deal()
            continue
        seat = match.bot_to_move()
        if seat is None:
            break
        bot = get_bot(match.config.levels[seat])
        events += match.apply(seat, bot(match.observe(seat), match.bot_rng()))
    return events


def logged_replay(document: dict[str, Any], title: str) -> Any:
    """The replay viewer for a logged record or transcript. Raises ValueError when it cannot be
    replayed (a damaged document, or a transcript that does not verify)."""
    from lanomino.commands.replay import replay_view
    from lanomino.record import parse_record

    if document.get("format") == "lanomino.transcript/1":
        from lanomino.fair import to_record

        document = to_record(document)
    return replay_view(parse_record(document), title)
