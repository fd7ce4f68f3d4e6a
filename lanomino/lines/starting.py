"""The line mode's ways to a table and back: a new or saved match against the computer, a LAN
table hosted or joined, a rematch, and the way back to the menu.

``StartTalk`` turns those commands into the intents the full-screen menu, host form and lobby send,
and answers the controller's questions about them (a saved match in the way, a host not seen
before, a passphrase); like ``MenuTalk`` it knows nothing of the game in progress. ``fresh_table``
makes the front end forget what it said about the last table; ``leave_lobby`` stops looking for
tables before another screen opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lanomino.engine import PRESETS, Rules, RulesError
from lanomino.lines.menus import MenuTalk, at_menu, menu_line
from lanomino.lines.talk import sentence
from lanomino.lines.typed import Command, CommandError
from lanomino.ui.lan import (
    CloseLobby,
    ConfirmJoin,
    HostTable,
    JoinTable,
    finish_entry,
    looks_like_address,
)
from lanomino.ui.settings import start_level, table_name
from lanomino.ui.state import (
    ConfirmStart,
    ContinueSaved,
    LeaveTable,
    Rematch,
    Screen,
    StartLocal,
    UiState,
)

DEALS = {"locked": True, "blind": True, "fair": False}  # host ... fair: the deal (locked: issue 29)


class StartTalk:
    """Commands that start a match or sit at a table, and the one that leaves it (menu)."""

    def __init__(self, ui: UiState, send: Callable[[Any], None], say: Callable[[str], None],
                 menus: MenuTalk, fresh_table: Callable[[], None],
                 leave_lobby: Callable[[], None]) -> None:
        self.ui, self.send, self.say, self.menus = ui, send, say, menus
        self.fresh_table, self.leave_lobby = fresh_table, leave_lobby
        self.asked = ""  # the controller's question last explained ("start", "trust")

    # ----- the controller's questions -------------------------------------------------------

    def questions(self) -> list[str]:
        """How to answer a question the controller asks (once per question)."""
        ui = self.ui
        asked = ("start" if ui.pending_start is not None else
                 "trust" if ui.lobby.entry == "trust" and ui.screen is Screen.LOBBY else "")
        if asked == self.asked:
            return []
        self.asked = asked
        if asked == "start":
            return ["Type yes to start the new match anyway, or continue to resume the saved one."]
        if asked == "trust":
            return ["Type yes to join this table, or menu to leave it."]
        return []

    def do_yes(self, command: Command) -> None:
        lobby = self.ui.lobby
        if self.ui.pending_start is not None:
            self.fresh_table()
            self.send(ConfirmStart())
        elif lobby.entry == "trust" and self.ui.screen is Screen.LOBBY:
            self.fresh_table()
            self.send(ConfirmJoin())
        else:
            raise CommandError("There is no question to say yes to.")

    def passphrase(self, text: str) -> bool:
        """A table asked for its passphrase: the line is it (menu or quit give up). True when the
        line was taken as a passphrase."""
        lobby = self.ui.lobby
        if (self.ui.screen is not Screen.LOBBY or lobby.entry != "passphrase"
                or lobby.target is None or not text or text.lower() in ("menu", "quit")):
            return False
        lobby.text = text
        join = finish_entry(lobby)  # (as Enter after typing it on the full screen)
        assert join is not None  # (a passphrase was typed, for a table waiting for one)
        self.fresh_table()
        self.send(join)
        return True

    # ----- against the computer -------------------------------------------------------------

    def do_new(self, command: Command) -> None:
        at_menu(self.ui)
        start = self.new_match(command.args)
        self.leave_lobby()
        self.fresh_table()
        self.asked = ""  # over a saved game: the question again, never a yes
        self.send(start)

    def new_match(self, words: tuple[str, ...]) -> StartLocal:
        """'new 3 allfives hard': players, preset and computer level, in any order.
        Raises CommandError."""
        s, levels = self.ui.settings, self.ui.levels
        preset, players, level = s.preset, 0, start_level(s, levels)
        for word in words:
            if word.isdigit():
                players = int(word)
            elif word in PRESETS:
                preset = word
            elif word in levels:
                level = word
            else:
                raise CommandError(f"I do not know {word!r} here: say a number of players, a "
                                   f"preset ({', '.join(PRESETS)}) or a level "
                                   f"({', '.join(levels)}).")
        rules = Rules.preset(preset)
        players = players or (4 if rules.partnership else 2)
        try:
            rules.check_players(players)
        except RulesError as exc:
            raise CommandError(sentence(str(exc))) from None
        return StartLocal(rules, players, (level,))

    def do_continue(self, command: Command) -> None:
        at_menu(self.ui)
        if not self.ui.has_saved_game:
            raise CommandError("There is no saved match. Type new to start one.")
        self.leave_lobby()
        self.fresh_table()
        self.send(ContinueSaved())

    # ----- on the LAN -----------------------------------------------------------------------

    def do_host(self, command: Command) -> None:
        """'host 3 1 classic hard fair': seats, computer players (the second number), preset, level,
        and the deal (locked, the default, or fair); the table's name and the level not said come
        from the settings, as in the full screen's host form."""
        at_menu(self.ui)  # (sitting down stops the lobby's search)
        numbers = [int(w) for w in command.args if w.isdigit()]
        rest = [w for w in command.args if not w.isdigit()]
        preset = next((w for w in rest if w in PRESETS), self.ui.settings.preset)
        level = next((w for w in rest if w in self.ui.levels),
                     start_level(self.ui.settings, self.ui.levels))
        deals = {DEALS[w] for w in rest if w in DEALS}
        unknown = [w for w in rest if w not in PRESETS and w not in self.ui.levels
                   and w not in DEALS]
        if unknown or len(numbers) > 2 or len(deals) > 1:
            raise CommandError("Say host SEATS BOTS PRESET LEVEL DEAL, for example: host 3 1 "
                               "classic, or host 3 1 classic fair (the deal is locked unless you "
                               "say fair).")
        seats = numbers[0] if numbers else (4 if Rules.preset(preset).partnership else 2)
        bots = numbers[1] if len(numbers) > 1 else 0
        try:
            Rules.preset(preset).check_players(seats)
        except RulesError as exc:
            raise CommandError(sentence(str(exc))) from None
        if not 0 <= bots < seats:
            raise CommandError(f"A table of {seats} takes 0 to {seats - 1} computer players.")
        self.fresh_table()
        self.send(HostTable(table_name(self.ui.settings), preset, seats, bots, level, None,
                            blind=deals != {False}))

    def do_join(self, command: Command) -> None:
        at_menu(self.ui)
        parts = command.text.split()
        passphrase = " ".join(parts[1:]) or None
        if parts and parts[0].isdigit():
            join = self.menus.join_by_number(int(parts[0]), passphrase)
        elif parts and (looks_like_address(parts[0]) or any(c in parts[0] for c in ":/.")):
            # (an address, or one mistyped: the client says what is wrong with it)
            join = JoinTable(parts[0], passphrase)
        else:
            raise CommandError("Say join and a table's number from tables, or join HOST:PORT/KEY "
                               "with the address the host shows; the passphrase goes after it.")
        self.fresh_table()
        self.send(join)

    def do_again(self, command: Command) -> None:
        if self.ui.lan is None or self.ui.match_result is None:
            raise CommandError("A rematch comes after a LAN match is over.")
        self.fresh_table()
        self.send(Rematch())

    # ----- back to the menu -----------------------------------------------------------------

    def do_menu(self, command: Command) -> None:
        if self.ui.screen is Screen.LOBBY and self.ui.lan is None:
            self.send(CloseLobby())
        elif self.menus.replaying():
            self.menus.do_stop(command)
        elif self.ui.obs is not None or self.ui.lan is not None:
            self.send(LeaveTable())
        else:
            self.say(menu_line(self.ui))
