"""The one client controller: the UI's intents in, a table (local or LAN), saves and settings out.

Key handlers (or a line mode) queue intents; ``Controller.handle`` acts on them. A table intent
(move, next hand, resign, finish, leave) goes to the ``Table`` the player sits at, whichever kind
it is; the rest open tables, the lobby, History and stats, or quit. Which LAN table to sit at and
whether to trust its host is the join-and-trust dialogue's (client/joining.py). Nothing here blocks
the loop: the store is written on one worker thread, bots think on others, the network runs as
tasks.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING

from lanomino import command
from lanomino.client.find import HostBook
from lanomino.client.joining import Joining, say_refused
from lanomino.client.local import LocalTable
from lanomino.client.logbook import Logbook
from lanomino.client.seam import Frontend, Headless, Table
from lanomino.ui import state as s
from lanomino.ui.lan import (
    CloseLobby,
    ComeBack,
    ConfirmJoin,
    HostTable,
    JoinTable,
    OpenLobby,
)

if TYPE_CHECKING:
    from lanomino.client.lobby import Lobby, NetOptions
    from lanomino.localgame import LocalMatch, SavedGame
    from lanomino.store import Store

TABLE_INTENTS = (s.Submit, s.NextHand, s.ResignMatch, s.FinishMatch, s.LeaveTable, s.AskHint,
                 s.UndoMove, ComeBack)


class Controller:
    """Turns the UI's intents into tables, saves, settings and the play log."""

    def __init__(self, ui: s.UiState, store: Store, writer: ThreadPoolExecutor, seed: int | None,
                 player_id: str = "local:you", net: NetOptions | None = None,
                 frontend: Frontend | None = None) -> None:
        self.ui, self.store, self.writer = ui, store, writer
        self.seed = seed  # for the first local game only (--seed)
        self.frontend: Frontend = frontend or Headless()
        self.logbook = Logbook(store, writer, player_id)
        self.table: Table | None = None
        self.net = net
        self.lobby: Lobby | None = None
        self.joining: Joining | None = None  # which table to sit at, whether to trust its host
        if net is not None:
            from lanomino.client.lobby import Lobby

            self.lobby = Lobby(ui, self.redraw, net)
            self.joining = Joining(ui, HostBook(store, writer), net.spawn, self._sit_at,
                                   lambda: self.table is not None, self.redraw)

    def handle(self, intent: s.Intent) -> None:
        if isinstance(intent, TABLE_INTENTS):
            self._at_table(intent)
        elif isinstance(intent, OpenLobby | CloseLobby | JoinTable | HostTable | ConfirmJoin):
            self._on_lan(intent)
        elif isinstance(intent, s.StartLocal):
            self._start(intent)
        elif isinstance(intent, s.ConfirmStart):
            self._confirm_start()
        elif isinstance(intent, s.ContinueSaved):
            self._continue()
        elif isinstance(intent, s.SaveSettings):
            self.writer.submit(self.store.set_settings, intent.settings.to_dict())
        elif isinstance(intent, s.OpenHistory):
            tab = self.ui.history.tab
            self.ui.history = self.logbook.history()
            self.ui.history.tab, self.ui.screen = tab, s.Screen.HISTORY
        elif isinstance(intent, s.OpenReplay):
            self._open_replay(intent.match_id)
        elif isinstance(intent, s.QuitApp):
            self._quit()
        elif isinstance(intent, s.Rematch):
            self._rematch()
        self.redraw()

    def _at_table(self, intent: s.Intent) -> None:
        table = self.table
        if isinstance(intent, s.LeaveTable):
            self._leave()
        elif table is None:
            return
        elif isinstance(intent, s.Submit):
            table.submit(intent.action)
        elif isinstance(intent, s.NextHand):
            table.next_hand()
        elif isinstance(intent, s.ResignMatch) and not table.resign():
            self._leave()
        elif isinstance(intent, s.FinishMatch):
            table.finish()
        elif isinstance(intent, s.AskHint):
            table.hint()
        elif isinstance(intent, s.UndoMove):
            table.undo()
        elif isinstance(intent, ComeBack):
            table.come_back()

    # ----- local games ------------------------------------------------------------------------

    def _start(self, intent: s.StartLocal) -> None:
        """A new local game; with a game saved, only once the player says yes."""
        from lanomino.localgame import LocalMatch, make_config

        if self.ui.has_saved_game and not intent.replace_saved:
            self.ui.pending_start, self.ui.screen = intent, s.Screen.SETUP
            self.ui.message = ("A saved game is waiting: starting a new one gives it up "
                               "(History will show it as abandoned).")
            return
        self.ui.pending_start = None
        if self.ui.has_saved_game:
            self.writer.submit(self._abandon_saved)

        seed = self.seed if self.seed is not None else secrets.randbelow(2**31)
        self.seed = None
        name = self.ui.settings.name
        config = make_config(intent.rules, intent.players, intent.levels, name, seed)
        self.open_local(LocalMatch(config))

    def _confirm_start(self) -> None:
        """Yes to the saved game's question (y on the full screen, yes in the line mode)."""
        pending, self.ui.message = self.ui.pending_start, ""
        if pending is not None:
            self._start(replace(pending, replace_saved=True))

    def _continue(self) -> None:
        from lanomino.localgame import LocalMatch

        self.ui.pending_start = None  # (a new match waiting for a yes is not wanted after all)
        data = self.store.load_game()
        try:
            if data is None:
                raise ValueError("there is no saved game")
            match = LocalMatch.from_record(data)
        except ValueError as exc:
            self.ui.screen, self.ui.notice = s.Screen.MENU, f"Cannot continue: {exc}."
            return
        self.open_local(match)

    def open_local(self, match: LocalMatch) -> LocalTable:
        """Sit down at ``match`` (any table sat at before is left)."""
        self._close_table()
        table = LocalTable(match, self.ui, self._save, self.frontend, log=self.logbook.log_local)
        self.table = table
        table.start()
        return table

    def _abandon_saved(self) -> None:
        """On the store's thread: the saved game is given up; History says so."""
        data = self.store.load_game()
        if data is not None:
            self.logbook.abandon(data)
        self.store.clear_game()

    def _save(self, record: SavedGame | None) -> None:
        if record is None:
            self.writer.submit(self.store.clear_game)
        else:
            self.writer.submit(self.store.save_game, record)

    # ----- LAN tables -------------------------------------------------------------------------

    def _on_lan(self, intent: OpenLobby | CloseLobby | JoinTable | HostTable | ConfirmJoin) -> None:
        from lanomino.client.lobby import host_table

        net, lobby, joining, ui = self.net, self.lobby, self.joining, self.ui
        if net is None or lobby is None or joining is None:
            return
        if isinstance(intent, OpenLobby):
            ui.screen, ui.lobby.message = s.Screen.LOBBY, ""
            lobby.start()
        elif isinstance(intent, CloseLobby):
            net.spawn(lobby.stop())
            joining.forget()  # (the line mode's menu leaves a question unanswered)
            ui.screen = s.Screen.MENU
        elif isinstance(intent, JoinTable):
            ui.screen = s.Screen.LOBBY  # (where a bad address is explained)
            joining.join(intent)
        elif isinstance(intent, ConfirmJoin):
            joining.confirm()
        elif isinstance(intent, HostTable):
            self._sit(host_table(ui, self.frontend, net, intent))

    def _sit(self, table: Table | None) -> None:
        from lanomino.client.lan import LanTable

        if table is None or self.net is None or self.lobby is None:
            return
        self.net.spawn(self.lobby.stop())
        self._close_table(keep_screen=True)
        self.table = table
        if isinstance(table, LanTable):
            table.on_abandon = self._abandoned
            table.start(self.net.spawn)

    def _rematch(self) -> None:
        """After a LAN match: a host opens the same table at the same port once the old one has
        closed, each person's seat kept for them (client/rematch.py); a joiner asks that address
        again until it answers (client/joining.py) and sits down in its kept seat."""
        from lanomino.client.lan import LanTable
        from lanomino.client.lobby import host_table
        from lanomino.client.rematch import kept_seats

        table, net, joining = self.table, self.net, self.joining
        if not isinstance(table, LanTable) or table.again is None or net is None or joining is None:
            return
        again, port, done, old_key = table.again, table.port, table.task, table.key
        on = table.serves_on or None  # (a host after a migration: where the others reached it)
        played_with = table.host_identity  # (a host after a migration: the match vouches for it)
        table.offer.accept()  # (leaving this table declines nothing)
        kept = kept_seats(table.node)  # the same seats for the same people
        self._close_table()
        if isinstance(again, HostTable):
            async def reopen() -> None:
                if done is not None:
                    await asyncio.wait([done], timeout=2.0)  # its port is free again
                self._sit(host_table(self.ui, self.frontend, net, again, port=port or None,
                                     kept=kept, on=on))
                self.redraw()

            net.spawn(reopen())
            return
        self.ui.screen, self.ui.lan = s.Screen.LOBBY, None
        self.ui.lobby.message = "waiting for the host to open the table again…"
        net.spawn(joining.ask_again(again, old_key, played_with))

    def _abandoned(self, uid: str) -> None:
        from lanomino.store import PlayLog

        self.writer.submit(PlayLog(self.store).mark_abandoned, uid)

    def _sit_at(self, join: JoinTable) -> None:
        """Join the table the join-and-trust dialogue settled on."""
        from lanomino.client.lobby import join_table

        assert self.net is not None
        self._sit(join_table(self.ui, self.frontend, self.net, join, self._refused(join)))

    def _refused(self, join: JoinTable) -> Callable[[str, str], None]:
        # a join from the lobby's list goes back to it; a direct one (an address given on the
        # command line) is answered where it is, without a LAN search
        from_lobby = self.lobby is not None and self.lobby.task is not None

        def refused(code: str, reason: str) -> None:
            self.table, self.ui.lan = None, None
            if from_lobby:
                self.handle(OpenLobby())
            else:
                self.ui.screen, self.ui.lobby.message = s.Screen.LOBBY, ""
            say_refused(self.ui.lobby, join, code, reason)
        return refused

    # ----- leaving ----------------------------------------------------------------------------

    def _close_table(self, keep_screen: bool = False) -> str:
        table, self.table = self.table, None
        notice = table.leave() if table is not None else ""
        if isinstance(table, LocalTable):
            self.ui.has_saved_game = not table.match.is_over
        if not keep_screen:
            self.ui.obs = self.ui.hand_result = self.ui.match_result = None
        self.ui.resigned = self.ui.finishing = self.ui.confirm_quit = False
        return notice

    def _leave(self) -> None:
        notice = self._close_table()
        self.ui.screen, self.ui.notice, self.ui.menu_index = s.Screen.MENU, notice, 0
        self.ui.lan = None

    def _open_replay(self, match_id: int) -> None:
        try:
            self.ui.replay = self.logbook.replay(match_id)
        except ValueError as exc:
            self.ui.history.message = f"Cannot replay match #{match_id}: {exc}"
            return
        self.ui.history.message = ""
        self.ui.screen = s.Screen.REPLAY

    def _quit(self) -> None:
        """Exit the client; at a LAN table say goodbye first (within a second)."""
        table, lobby = self.table, self.lobby

        async def bye() -> None:
            try:
                if table is not None:
                    await table.shutdown()
                if lobby is not None:
                    await lobby.stop()
            finally:
                self.frontend.exit()

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self.frontend.exit()
            return
        asyncio.ensure_future(bye())

    def close(self, lines: bool = False) -> str:
        """The client is gone: stop any automatic moves. Returns what to tell the player on the
        way out ("" for nothing): that a local game in play is saved, and how to resume it in
        the full screen or (``lines``) the line mode."""
        table = self.table
        if not isinstance(table, LocalTable):
            return ""
        table.stop()
        if table.match.is_over:
            return ""
        resume = (command("play --lines --continue") if lines
                  else f"`{command('play --continue')}` (or Continue in the menu)")
        return f"The game is saved: {resume} resumes it."

    def redraw(self) -> None:
        self.frontend.redraw()
