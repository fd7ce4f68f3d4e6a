"""Starting the client: the store, the controller, and the full screen or the line mode."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lanomino.client import ClientError
from lanomino.client.logfile import LOG_NAME, log_to_file, stderr_to_log

if TYPE_CHECKING:
    from collections.abc import Callable

    from lanomino.client.find import Seek
    from lanomino.client.lobby import NetOptions
    from lanomino.net.session import Timings
    from lanomino.store import Store
    from lanomino.ui.settings import Settings
    from lanomino.ui.state import Intent, UiState


@dataclass(frozen=True, slots=True)
class Launch:
    """How to open the client (from the command line)."""

    data_dir: str | None = None
    first: Intent | None = None  # an intent to act on at once
    player: str | None = None  # the name to use at a LAN table instead of the one in Settings
    pause: float | None = None  # a computer opponent's pause, over the setting
    seed: int | None = None  # the first local game's shuffles
    resume: bool = False  # continue the saved game
    lines: bool | None = None  # the line mode (None: the lines setting)
    words: bool | None = None  # the line mode says tiles as words (None: the words setting)

    def wants_lines(self, settings: Settings) -> bool:
        return bool(settings.lines if self.lines is None else self.lines)


def launch(how: Launch, **net: Any) -> int:
    """Open the client and run it until the person quits. ``net`` holds ``NetOptions`` fields
    (interfaces, bind, port, announce, watchers, timings). Raises ClientError when the data
    directory cannot be used."""
    from lanomino.paths import data_dir
    from lanomino.store import StoreError, local_player_id, open_store

    try:
        folder = data_dir(how.data_dir)
        store = open_store(folder)
    except (StoreError, OSError) as exc:
        raise ClientError(str(exc)) from None
    try:
        from lanomino.client.lobby import NetOptions

        with log_to_file(folder / LOG_NAME):
            return _run(how, store, local_player_id(store, folder), NetOptions(folder, **net))
    finally:
        store.close()


def _run(how: Launch, store: Store, player_id: str, net: NetOptions) -> int:
    import errno
    from concurrent.futures import ThreadPoolExecutor

    from lanomino.bots import bot_names
    from lanomino.client.controller import Controller
    from lanomino.ui.settings import Settings
    from lanomino.ui.state import ContinueSaved, UiState

    stored = store.settings()
    settings = Settings.from_dict({**stored,
                                   **({"pause_s": how.pause} if how.pause is not None else {}),
                                   **({"name": how.player} if how.player else {})})
    ui = UiState(settings=settings, levels=bot_names(), has_saved_game=store.has_saved_game())
    ui.first_start = "name" not in stored and not how.player  # (asked at the first LAN table)
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lanomino-store")
    writer.submit(_find_addresses, ui)  # (off the screen's way: the network code is slow to load)
    controller = Controller(ui, store, writer, how.seed, player_id, net=net)
    first = how.first if how.first is not None else ContinueSaved() if how.resume else None
    if how.wants_lines(ui.settings):  # the line mode, for screen readers and pipes
        from lanomino.lines.run import run_lines

        words = ui.settings.words if how.words is None else how.words
        try:
            return run_lines(ui, controller, first, words)
        finally:
            controller.close()
            writer.shutdown(wait=True)
    from lanomino.runtime.stopping import on_stop_signals, terminal_restorer
    from lanomino.ui.app import AppFrontend, build_app
    from lanomino.ui.state import QuitApp

    app = build_app(ui, controller.handle)
    controller.frontend = AppFrontend(app)
    restore = terminal_restorer()  # (before the app takes the terminal over)

    def pre_run() -> None:  # inside the event loop, so bots can start at once
        # SIGTERM, SIGHUP and SIGINT quit as the menu's Quit does (no question asked)
        on_stop_signals(lambda: controller.handle(QuitApp()), restore=restore)
        if first is not None:
            controller.handle(first)

    hung_up = False
    try:
        with stderr_to_log(net.data_dir / LOG_NAME):
            app.run(pre_run=pre_run, handle_sigint=False)
    except (EOFError, OSError) as exc:  # the terminal hung up (its window closed): as SIGHUP
        if isinstance(exc, OSError) and exc.errno != errno.EIO:
            raise
        hung_up = True
    finally:
        farewell = controller.close()
        writer.shutdown(wait=True)
    if farewell and not hung_up:
        print(farewell)
    return 0


def _find_addresses(ui: UiState) -> None:
    """The addresses the host form offers to serve on: this machine's LAN addresses, and the
    loopback address for a table on this machine only."""
    from lanomino.node import lan_addresses
    from lanomino.ui.lan import LOOPBACK

    ui.addresses = ui.host_form.choices = (*lan_addresses(), LOOPBACK)


def sit_at(seek: Seek, passphrase: str | None, *, watch: bool, ask: Callable[[str], bool],
           player: str | None, timings: Timings, lines: bool | None, words: bool | None) -> int:
    """Open the client at the table ``seek`` names (``watch``: without a seat); a host not met
    before is asked about first (``ask``). Raises ClientError."""
    import asyncio

    from lanomino.client.find import HostBook, is_address
    from lanomino.ui.lan import JoinTable

    if not is_address(seek.table):
        print(f"looking for {seek.table!r}…", flush=True)
    with HostBook.open(seek.data_dir) as hosts:
        found = asyncio.run(seek.find(hosts, ask))
    join = JoinTable(str(found.address), passphrase, found.name, watch=watch)
    return launch(Launch(str(seek.data_dir), join, player, lines=lines, words=words),
                  interfaces=[seek.interface] if seek.interface else None, timings=timings)

