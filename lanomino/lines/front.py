"""The line front end: typed lines in, intents out; the client's state in, sentences out.

``LineFront`` sits where the full-screen client's key bindings and screens sit: it reads the same
``UiState`` the controller keeps up to date and sends it the same intents. ``refresh`` is called
after every change and says only what is new; ``on_line`` answers one typed line. Questions
(hand, board, scores, help) are answered from the state; moves are checked against the
observation's legal actions before they are sent, so bad input changes nothing. The commands that
start a match or sit at a table are ``StartTalk``'s (starting.py); rules, settings, the play log
and the lobby are ``MenuTalk``'s (menus.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lanomino.engine import Draw, Observation, Pass
from lanomino.lines.menus import MenuTalk, menu_line
from lanomino.lines.moves import check_turn, draw_or_pass, play_for
from lanomino.lines.narrator import Narrator
from lanomino.lines.say import Voice
from lanomino.lines.starting import StartTalk
from lanomino.lines.talk import LanHeard, lan_news, sentence
from lanomino.lines.typed import Command, CommandError, help_lines, parse_command
from lanomino.ui.lan import CloseLobby, ComeBack
from lanomino.ui.state import (
    AskHint,
    FinishMatch,
    NextHand,
    QuitApp,
    ResignMatch,
    Screen,
    Submit,
    UiState,
    UndoMove,
    out_of_time,
)

COMES_BACK = ("back", "play", "draw", "pass")  # typed after the move clock ran out: back to play


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
        self.starts = StartTalk(ui, send, say, self.menus, self._fresh_table, self._leave_lobby)
        self.watch_said = False  # "you watch the others" was said
        self.quitting = False  # quit was said: no more prompts, the client is on its way out

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
            out += [sentence(ui.notice), menu_line(ui)]
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
        out += self.starts.questions()
        out += self._what_next(ui)
        return [line for line in out if line]

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
        ahead from a file may be taken); a seat that resigned may always type; after quit nothing
        waits for the reader."""
        obs = self.ui.obs
        if self.quitting:
            return False
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
        if self.starts.passphrase(text.strip()):
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
                handler = (getattr(self, f"_do_{verb}", None)
                           or getattr(self.starts, f"do_{verb}", None)
                           or getattr(self.menus, f"do_{verb}"))
                handler(command)
        except CommandError as exc:
            self.say(str(exc))
        self.refresh()

    def _obs(self) -> Observation:
        if self.ui.obs is None and self.ui.lan is not None:
            raise CommandError("The first hand has not been dealt yet: the table waits for "
                               "its players.")
        if self.ui.obs is None:
            raise CommandError("There is no game yet. " + menu_line(self.ui))
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

    def _do_finish(self, command: Command) -> None:
        if not self.ui.resigned:
            raise CommandError("Finish works after you resign: the others then play on at once.")
        self.send(FinishMatch())

    # ----- leaving lanomino -----------------------------------------------------------------

    def _do_quit(self, command: Command) -> None:
        self.quit()

    def quit(self) -> None:
        """Leave lanomino (typed, at the end of input, or on Ctrl-C): a local match stays saved,
        and the controller says how to resume it on the way out."""
        self.quitting = True
        self.send(QuitApp())
