"""The line mode away from the table: rules, settings, the play log and its replays, the lobby.

``MenuTalk`` answers those commands from the client's state and sends the controller the same
intents the full-screen screens send; it knows nothing of the game in progress.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lanomino.engine import PRESETS, Rules
from lanomino.lines.say import join_words
from lanomino.lines.talk import (
    history_lines,
    parse_setting,
    replay_lines,
    rules_lines,
    sentence,
    settings_lines,
    stats_lines,
)
from lanomino.lines.typed import Command, CommandError
from lanomino.ui.lan import JoinTable, OpenLobby, TableInfo, cannot_join, deal_line
from lanomino.ui.settings import Settings
from lanomino.ui.state import OpenHistory, OpenReplay, SaveSettings, Screen, UiState

MENU_LINE = ("Type new to play the computer, {saved}host, tables or join to play on the LAN, "
             "history, rules, settings, help or quit.")


def menu_line(ui: UiState) -> str:
    """What may be typed at the menu (continue only with a match saved)."""
    return MENU_LINE.format(saved="continue to resume the saved match, "
                            if ui.has_saved_game else "")


def table_line(number: int, table: TableInfo) -> str:
    """'Table 1: Kitchen, classic, 1 of 2 seats taken, needs a passphrase.'"""
    notes = [table.rules, f"{table.seats_taken} of {table.seats_total} seats taken"]
    if table.locked:
        notes.append("needs a passphrase")
    if not table.compatible:
        notes.append("another version of lanomino")
    return f"Table {number}: {table.name}, {', '.join(notes)}."


def at_menu(ui: UiState) -> None:
    """Raises CommandError while the reader sits at a table."""
    if ui.obs is not None or ui.lan is not None:
        raise CommandError("Leave the table first: type menu.")


class MenuTalk:
    """Commands about everything but the game in progress. ``words`` says whether tiles are
    words now; ``set_words`` changes that when the setting changes; ``leave_lobby`` stops
    looking for tables before another screen opens."""

    def __init__(self, ui: UiState, send: Callable[[Any], None], say: Callable[[str], None],
                 words: Callable[[], bool], set_words: Callable[[bool], None],
                 leave_lobby: Callable[[], None]) -> None:
        self.ui, self.send, self.say, self.leave_lobby = ui, send, say, leave_lobby
        self.words, self.set_words = words, set_words
        self.tables: tuple[TableInfo, ...] = ()  # the lobby's tables last said
        self.lobby_said = ("", "")  # the lobby's error and message last said

    # ----- the lobby ------------------------------------------------------------------------

    def do_tables(self, command: Command) -> None:
        at_menu(self.ui)
        if self.ui.screen is Screen.LOBBY:
            self.tables = ()  # say them all again
        else:
            self.send(OpenLobby())
            self.say("Looking for tables on the LAN. Type join and a table's number (and its "
                     "passphrase if it has one), or menu to stop looking.")

    def lobby_news(self) -> list[str]:
        """The tables seen since last time, and anything the lobby has to say."""
        lobby, out = self.ui.lobby, list[str]()
        if self.ui.screen is not Screen.LOBBY:
            self.tables, self.lobby_said = (), ("", "")
            return out
        said = (lobby.error, lobby.message)
        if said != self.lobby_said:
            self.lobby_said = said
            out += [sentence(text) for text in said if text]
            if lobby.entry == "passphrase" and lobby.target is not None:
                out.append("Type the passphrase on a line of its own, or menu to give up.")
        tables = tuple(lobby.tables)
        if tables != self.tables:
            self.tables = tables
            out += [table_line(i, t) for i, t in enumerate(tables, start=1)] or (
                ["No tables seen yet."] if not lobby.error else [])
        return out

    def join_by_number(self, number: int, passphrase: str | None) -> JoinTable:
        """The join for lobby row ``number``. Raises CommandError."""
        tables = self.ui.lobby.tables
        if self.ui.screen is not Screen.LOBBY or not tables:
            raise CommandError("No tables are listed: type tables to look for them, or join "
                               "HOST:PORT/KEY.")
        if not 1 <= number <= len(tables):
            raise CommandError(f"There are {len(tables)} tables listed; pick 1 to {len(tables)}.")
        table = tables[number - 1]
        if cannot_join(table):
            raise CommandError(sentence(cannot_join(table)))
        if table.locked and not passphrase:
            raise CommandError(f"{table.name} needs a passphrase: say join {number} PASSPHRASE.")
        return JoinTable(table.address, passphrase, table.name)

    # ----- rules, settings ------------------------------------------------------------------

    def do_rules(self, command: Command) -> None:
        if command.args:
            name = command.args[0]
            if name not in PRESETS:
                presets = join_words(list(PRESETS), "or")
                raise CommandError(f"There is no preset {name!r}: say {presets}.")
            rules, players = Rules.preset(name), 4 if Rules.preset(name).partnership else 2
        elif self.ui.obs is not None:
            rules, players = self.ui.obs.rules, self.ui.obs.players
        else:
            rules = Rules.preset(self.ui.settings.preset)
            players = 4 if rules.partnership else 2
        deal = deal_line(self.ui.lan) if self.ui.lan is not None and not command.args else ""
        for line in (*rules_lines(rules, players), deal) if deal else rules_lines(rules, players):
            self.say(line)

    def do_settings(self, command: Command) -> None:
        for line in settings_lines(self.ui.settings.to_dict()):
            self.say(line)

    def do_set(self, command: Command) -> None:
        values = self.ui.settings.to_dict()
        try:
            key, value = parse_setting(command.args, command.text, values)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if key == "level" and value not in self.ui.levels:
            raise CommandError(f"There is no level {value!r}: say "
                               f"{join_words(self.ui.levels, 'or')}.")
        changed = Settings.from_dict({**values, key: value})
        if changed.to_dict()[key] != value and key != "name":
            raise CommandError(f"The setting {command.args[0]} cannot be {value!r}: type "
                               "settings to hear what each one takes.")
        self.ui.settings = changed
        if key == "words":
            self.set_words(bool(value))
        self.send(SaveSettings(changed))
        shown = changed.to_dict()[key]
        shown = ("on" if shown else "off") if isinstance(shown, bool) else shown
        self.say(f"{command.args[0]} is now {shown}.")

    # ----- history, stats, replay -----------------------------------------------------------

    def do_history(self, command: Command) -> None:
        at_menu(self.ui)
        self.leave_lobby()
        self.send(OpenHistory())
        for line in history_lines(self.ui.history.rows):
            self.say(line)

    def do_stats(self, command: Command) -> None:
        at_menu(self.ui)
        self.leave_lobby()
        self.send(OpenHistory())
        for line in stats_lines(self.ui.history.stats):
            self.say(line)

    def do_replay(self, command: Command) -> None:
        at_menu(self.ui)
        if len(command.args) != 1 or not command.args[0].lstrip("#").isdigit():
            raise CommandError("Say replay and a match number from history, for example: replay 3.")
        self.leave_lobby()
        self.send(OpenReplay(int(command.args[0].lstrip("#"))))
        view = self.ui.replay
        if self.ui.screen is not Screen.REPLAY or view is None:
            why = sentence(self.ui.history.message)
            raise CommandError(why or "That match cannot be replayed.")
        self.say(f"{sentence(view.title)} Type next or press Enter for each move, back, "
                 "next hand, back hand, or stop.")
        self._speak_step(None)

    def replaying(self) -> bool:
        """Whether a logged match is being stepped through."""
        return self.ui.screen is Screen.REPLAY and self.ui.replay is not None

    def step(self, delta: int) -> None:
        """One move on or back in the replay, and what happened in it."""
        view = self.ui.replay
        assert view is not None
        hand, move = view.hand, view.move
        view.step(delta)
        if (view.hand, view.move) == (hand, move):
            self.say("That is the end of the match." if delta > 0 else "That is the first move.")
            return
        self._speak_step(move if view.hand == hand and delta > 0 else None)

    def jump(self, delta: int) -> None:
        """To the start of the next or previous hand of the replay."""
        view = self.ui.replay
        assert view is not None
        hand = view.hand
        view.jump(delta)
        if view.hand == hand:
            self.say("There is no other hand that way.")
            return
        self._speak_step(None)

    def _speak_step(self, before: int | None) -> None:
        assert self.ui.replay is not None
        for line in replay_lines(self.ui.replay, self.words(), before):
            self.say(line)

    def do_back(self, command: Command) -> None:
        if not self.replaying():
            raise CommandError("Back works in a replay, or at a LAN table after your time ran "
                               "out; type menu to leave a table.")
        if command.args[:1] == ("hand",):
            self.jump(-1)
        else:
            self.step(-1)

    def do_stop(self, command: Command) -> None:
        if not self.replaying():
            raise CommandError("There is no replay to stop.")
        self.ui.replay, self.ui.screen = None, Screen.MENU
