"""The line front end: typed lines in, intents out; the client's state in, sentences out.

``LineFront`` sits where the full-screen client's key bindings and screens sit: it reads the same
``UiState`` the controller keeps up to date and sends it the same intents. ``refresh`` is called
after every change and says only what is new; ``on_line`` answers one typed line. Questions
(hand, board, scores, rules, settings, help) are answered from the state; moves are checked
against the observation's legal actions before they are sent, so bad input changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from lanomino import command
from lanomino.engine import PRESETS, Draw, Observation, Pass, Rules, RulesError
from lanomino.lines.menus import MenuTalk, at_menu
from lanomino.lines.moves import check_turn, draw_or_pass, play_for
from lanomino.lines.narrator import Narrator
from lanomino.lines.say import Voice
from lanomino.lines.talk import (
    LanHeard,
    lan_news,
    sentence,
)
from lanomino.lines.typed import Command, CommandError, help_lines, parse_command
from lanomino.ui.lan import (
    CloseLobby,
    ComeBack,
    ConfirmJoin,
    HostTable,
    JoinTable,
    looks_like_address,
)
from lanomino.ui.settings import default_level
from lanomino.ui.state import (
    AskHint,
    ContinueSaved,
    FinishMatch,
    LeaveTable,
    NextHand,
    QuitApp,
    Rematch,
    ResignMatch,
    Screen,
    StartLocal,
    Submit,
    UiState,
    UndoMove,
    out_of_time,
)

DEALS = {"locked": True, "blind": True, "fair": False}  # host ... fair: the deal (locked: issue 29)
COMES_BACK = ("back", "play", "draw", "pass")  # typed after the move clock ran out: back to play
MENU_LINE = ("Type new to play the computer, {saved}host, tables or join to play on the LAN, "
             "history, rules, settings, help or quit.")


class LineFront:
    """One reader's conversation with the client. ``send`` takes an intent, ``say`` one line."""

    def __init__(self, ui: UiState, send: Callable[[Any], None], say: Callable[[str], None],
                 words: bool = False, plays: bool = True) -> None:
        self.ui, self.send, self.say = ui, send, say
        self.plays = plays
        self.narrator = Narrator(words, plays)
        self.heard = LanHeard()
        self.screen: Screen | None = None  # the screen last spoken about
        self.message = ""  # the client's message last said
        self.next_said: int | None = None  # the hand whose "type next" was said
        self.over_said = False
        self.resigning = False  # resign was typed once
        self.menus = MenuTalk(ui, send, say, lambda: self.narrator.words, self._set_words,
                              self._leave_lobby)
        self.watch_said = False  # "you watch the others" was said
        self.asked = ""  # the controller's question last explained ("start", "trust")

    @property
    def words(self) -> bool:
        return self.narrator.words

    # ----- what changed ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Say whatever is new in the client's state."""
        for line in self._news():
            self.say(line)

    def _news(self) -> list[str]:
        ui, out = self.ui, []
        if ui.screen is Screen.MENU and self.screen is not Screen.MENU:
            out += [sentence(ui.notice), self.menu_line()]
        self.screen = ui.screen
        out += self.menus.lobby_news()
        if ui.lan is not None:
            me = -1 if ui.obs is None or ui.lan.watching else ui.obs.seat
            out += lan_news(ui.lan, self.heard, me)
            self.narrator.departures = tuple(sorted(ui.lan.departures.items()))
            self.narrator.away = out_of_time(ui)
        if ui.message != self.message:  # (before the game's news: "taken back", then the board)
            self.message = ui.message
            said = self.narrator.voice(ui.obs, ui.names).spell(sentence(ui.message)) if (
                ui.obs is not None) else sentence(ui.message)
            out += [said] if said and said not in out else []
        if ui.obs is not None:
            out += self.narrator.update(ui.obs, ui.names)
        out += self._questions(ui)
        out += self._what_next(ui)
        return [line for line in out if line]

    def _questions(self, ui: UiState) -> list[str]:
        """How to answer a question the controller asks (once per question)."""
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

    def _what_next(self, ui: UiState) -> list[str]:
        obs = ui.obs
        if obs is None:
            return []
        if ui.match_result is not None or obs.outcome is not None:
            if self.over_said:
                return []
            self.over_said = True
            if ui.lan is not None and ui.lan.role == "host":
                return ["Type again to offer the others a rematch, everyone in the same seat, "
                        "menu for the menu, or quit."]
            if ui.lan is not None:
                return ["Type again to play on here when the host offers a rematch, menu for "
                        "the menu, or quit."]
            return ["Type new for another match, menu for the menu, or quit."]
        if ui.resigned and not self.watch_said:
            self.watch_said = True
            finish = "type finish to see the end at once, " if ui.lan is None else ""
            return [f"You watch the others play on: {finish}menu to leave, or quit."]
        if (ui.hand_result is not None and ui.lan is None and not ui.resigned
                and self.next_said != obs.hand_no):
            self.next_said = obs.hand_no
            return ["Type next, or press Enter, to deal the next hand."]
        return []

    def waiting(self) -> bool:
        """Whether the game waits for the reader (a prompt is worth showing, and a line read
        ahead from a file may be taken); a seat that resigned may always type."""
        obs = self.ui.obs
        return (self.menus.replaying() or obs is None or obs.phase != "play" or obs.is_my_turn
                or self.ui.resigned or self._watching() or out_of_time(self.ui))

    def at_once(self, text: str | None) -> bool:
        """A line read ahead that is taken at once, not at the reader's turn: quit at a LAN
        table (a player on a pipe may leave while the others think, as at a terminal; against
        the computer it keeps its place, so a file of commands plays the same match again)."""
        if text is None or self.ui.lan is None:
            return False
        try:
            return parse_command(text).verb == "quit"
        except CommandError:
            return False

    def _watching(self) -> bool:
        """This reader watches a LAN table: it never moves, so every line is answered at once."""
        return self.ui.lan is not None and self.ui.lan.watching

    def menu_line(self) -> str:
        return MENU_LINE.format(saved="continue to resume the saved match, "
                                if self.ui.has_saved_game else "")

    def _leave_lobby(self) -> None:
        """Stop looking for tables (quietly: the next screen is about to be said)."""
        if self.ui.screen is Screen.LOBBY and self.ui.lan is None:
            self.screen = Screen.MENU
            self.send(CloseLobby())

    def _set_words(self, on: bool) -> None:
        self.narrator.words = on

    def _fresh_table(self) -> None:
        """A new match or table: forget what was said about the last one."""
        self.narrator = Narrator(self.words, self.plays)
        self.heard, self.next_said, self.over_said = LanHeard(), None, False
        self.resigning = self.watch_said = False

    # ----- one typed line -------------------------------------------------------------------

    def on_line(self, text: str) -> None:
        """Answer one typed line; bad input gets a sentence and changes nothing."""
        if self._passphrase(text.strip()):
            self.refresh()
            return
        try:
            command = parse_command(text)
            if command.verb != "resign":
                self.resigning = False
            verb = command.verb or "enter"
            if verb in COMES_BACK and out_of_time(self.ui) and not self.menus.replaying():
                self.send(ComeBack())  # the move clock ran out for this seat: the player is back
            else:
                handler = getattr(self, f"_do_{verb}", None) or getattr(self.menus, f"do_{verb}")
                handler(command)
        except CommandError as exc:
            self.say(str(exc))
        self.refresh()

    def _passphrase(self, text: str) -> bool:
        """A table asked for its passphrase: the line is it (menu or quit give up). True when the
        line was taken as a passphrase."""
        lobby = self.ui.lobby
        target = lobby.target
        if (self.ui.screen is not Screen.LOBBY or lobby.entry != "passphrase" or target is None
                or not text or text.lower() in ("menu", "quit")):
            return False
        lobby.entry, lobby.target, lobby.message = "", None, ""
        self._fresh_table()
        self.send(JoinTable(target.address, text, target.name, target.watch))
        return True

    def _obs(self) -> Observation:
        if self.ui.obs is None and self.ui.lan is not None:
            raise CommandError("The first hand has not been dealt yet: the table waits for "
                               "its players.")
        if self.ui.obs is None:
            raise CommandError("There is no game yet. " + self.menu_line())
        return self.ui.obs

    def _do_enter(self, command: Command) -> None:
        if self.menus.replaying():
            self.menus.step(1)
        elif self.ui.hand_result is not None and self.ui.lan is None and self.ui.obs is not None:
            self._do_next(command)

    def _do_help(self, command: Command) -> None:
        for line in help_lines():
            self.say(line)

    def _do_hand(self, command: Command) -> None:
        for line in self.narrator.hand(self._obs(), self.ui.names):
            self.say(line)

    def _do_board(self, command: Command) -> None:
        for line in self.narrator.board(self._obs(), names=self.ui.names):
            self.say(line)

    def _do_scores(self, command: Command) -> None:
        for line in self.narrator.scores(self._obs(), self.ui.names):
            self.say(line)

    # ----- moves ----------------------------------------------------------------------------

    def _my_turn(self) -> tuple[Observation, Voice]:
        if self._watching():
            raise CommandError("You are watching: you have no seat to move from.")
        obs = self._obs()
        voice = self.narrator.voice(obs, self.ui.names)
        check_turn(obs, voice, local=self.ui.lan is None)
        return obs, voice

    def _do_play(self, command: Command) -> None:
        obs, voice = self._my_turn()
        self.send(Submit(play_for(obs, voice, command, self.narrator.choices(obs, voice))))

    def _do_draw(self, command: Command) -> None:
        obs, voice = self._my_turn()
        self.send(Submit(draw_or_pass(obs, Draw, self.narrator.choices(obs, voice))))

    def _do_pass(self, command: Command) -> None:
        obs, voice = self._my_turn()
        self.send(Submit(draw_or_pass(obs, Pass, self.narrator.choices(obs, voice))))

    def _do_next(self, command: Command) -> None:
        if self.menus.replaying():
            if command.args[:1] == ("hand",):
                self.menus.jump(1)
            else:
                self.menus.step(1)
            return
        obs = self._obs()
        if obs.outcome is not None:
            raise CommandError("The match is over. " + ("Type quit to leave." if self.ui.lan
                                                        else "Type new for another one."))
        if obs.phase != "deal":
            raise CommandError("The hand is still being played.")
        if self.ui.lan is not None:
            raise CommandError("The host deals the next hand by itself.")
        self.send(NextHand())

    def _do_resign(self, command: Command) -> None:
        obs = self._obs()
        if obs.outcome is not None or self.ui.resigned:
            raise CommandError("You are not playing in this match any more.")
        if not self.resigning:
            self.resigning = True
            self.say("Type resign again to leave the match; anything else keeps you in it.")
            return
        self.resigning = False
        self.send(ResignMatch())

    def _do_hint(self, command: Command) -> None:
        self._obs()
        self.message = ""  # the same hint asked again is said again
        self.send(AskHint())

    def _do_undo(self, command: Command) -> None:
        self._obs()
        self.message, self.next_said, self.over_said = "", None, False
        self.send(UndoMove())

    def _do_yes(self, command: Command) -> None:
        pending, lobby = self.ui.pending_start, self.ui.lobby
        if pending is not None:
            self._fresh_table()
            self.send(replace(pending, replace_saved=True))
        elif lobby.entry == "trust" and self.ui.screen is Screen.LOBBY:
            self._fresh_table()
            self.send(ConfirmJoin())
        else:
            raise CommandError("There is no question to say yes to.")

    def _do_finish(self, command: Command) -> None:
        if not self.ui.resigned:
            raise CommandError("Finish works after you resign: the others then play on at once.")
        self.send(FinishMatch())

    # ----- leaving, starting ----------------------------------------------------------------

    def _do_quit(self, command: Command) -> None:
        self.quit()

    def quit(self) -> None:
        """Leave lanomino (typed, at the end of input, or on Ctrl-C): a local match stays saved."""
        if self.ui.lan is None and self.ui.obs is not None and self.ui.obs.outcome is None:
            self.say(f"The match is saved: {command('play --lines --continue')} resumes it.")
        self.send(QuitApp())

    def _do_again(self, command: Command) -> None:
        if self.ui.lan is None or self.ui.match_result is None:
            raise CommandError("A rematch comes after a LAN match is over.")
        self._fresh_table()
        self.send(Rematch())

    def _do_menu(self, command: Command) -> None:
        if self.ui.screen is Screen.LOBBY and self.ui.lan is None:
            self.send(CloseLobby())
        elif self.menus.replaying():
            self.menus.do_stop(command)
        elif self.ui.obs is not None or self.ui.lan is not None:
            self.send(LeaveTable())
        else:
            self.say(self.menu_line())

    def _do_new(self, command: Command) -> None:
        at_menu(self.ui)
        start = self.new_match(command.args)
        self._leave_lobby()
        self._fresh_table()
        self.asked = ""  # over a saved game: the question again, never a yes
        self.send(start)

    def new_match(self, words: tuple[str, ...]) -> StartLocal:
        """'new 3 allfives hard': players, preset and computer level, in any order.
        Raises CommandError."""
        s, levels = self.ui.settings, self.ui.levels
        preset, players, level = s.preset, 0, s.level if s.level in levels else ""
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
        return StartLocal(rules, players, (level or default_level(levels),))

    def _do_continue(self, command: Command) -> None:
        at_menu(self.ui)
        if not self.ui.has_saved_game:
            raise CommandError("There is no saved match. Type new to start one.")
        self._leave_lobby()
        self._fresh_table()
        self.send(ContinueSaved())

    def _do_host(self, command: Command) -> None:
        """'host 3 1 classic hard fair': seats, computer players (the second number), preset, level,
        and the deal (locked, the default, or fair)."""
        at_menu(self.ui)  # (sitting down stops the lobby's search)
        numbers = [int(w) for w in command.args if w.isdigit()]
        rest = [w for w in command.args if not w.isdigit()]
        preset = next((w for w in rest if w in PRESETS), self.ui.settings.preset)
        level = next((w for w in rest if w in self.ui.levels), default_level(self.ui.levels))
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
        self._fresh_table()
        self.send(HostTable("Lanomino", preset, seats, bots, level, None,
                            blind=deals != {False}))

    def _do_join(self, command: Command) -> None:
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
        self._fresh_table()
        self.send(join)
