"""Key bindings: each handler changes the ``UiState`` or queues an intent, nothing more."""

from __future__ import annotations

import time
from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.engine import Draw, Pass
from lanomino.ui.history_keys import load_history_bindings
from lanomino.ui.lan import ComeBack
from lanomino.ui.lobby_keys import load_lobby_bindings, typing
from lanomino.ui.menu_keys import load_menu_bindings, on_screen
from lanomino.ui.menus import (
    choosing_preset,
    step_help_preset,
)
from lanomino.ui.panel_keys import load_panel_bindings
from lanomino.ui.state import (
    AskHint,
    FinishMatch,
    Intent,
    LeaveTable,
    NextHand,
    QuitApp,
    Rematch,
    ResignMatch,
    Screen,
    Submit,
    UiState,
    UndoMove,
    cancel,
    confirm,
    draw_or_pass,
    move_selection,
    out_of_time,
    pick_number,
)

Intents = Callable[[Intent], None]

# An Enter pressed on a hand's summary just before the match's result arrives over the LAN would
# otherwise leave the table unseen: for this long after the result shows (less than a person
# takes to read it and react), Enter does nothing.
MATCH_PAUSE_S = 0.5


def load_key_bindings(ui: UiState, intents: Intents) -> KeyBindings:
    """Every binding of the client, each active only on its screen."""
    kb = KeyBindings()
    _load_global(kb, ui, intents)
    load_menu_bindings(kb, ui, intents)
    _load_help(kb, ui)
    _load_table(kb, ui, intents)
    load_history_bindings(kb, ui, intents)
    load_lobby_bindings(kb, ui, intents)
    load_panel_bindings(kb, ui)
    return kb


def asks_before_quitting(ui: UiState) -> bool:
    """Ctrl-C at a LAN table in play asks first (a local game is saved, so it just quits)."""
    lan = ui.lan
    return (ui.screen is Screen.TABLE and lan is not None and not lan.over and not lan.closed
            and not ui.confirm_quit and not ui.resigned and ui.match_result is None)


def _load_global(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    @kb.add("c-c")
    def _(event: KeyPressEvent) -> None:
        if asks_before_quitting(ui):
            cancel(ui)
            ui.confirm_quit = True  # as q does: at a LAN table, leaving is a seat given up
        else:
            intents(QuitApp())

    @kb.add("?", filter=Condition(lambda: ui.screen is not Screen.HELP and not typing(ui)))
    def _(event: KeyPressEvent) -> None:
        ui.back, ui.screen, ui.help_scroll = ui.screen, Screen.HELP, 0


# ----- help --------------------------------------------------------------------------------------


def _load_help(kb: KeyBindings, ui: UiState) -> None:
    on = on_screen(Screen.HELP, ui)

    @kb.add("escape", filter=on)
    @kb.add("enter", filter=on)
    @kb.add("?", filter=on)
    @kb.add("q", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.screen = ui.back

    @kb.add("down", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.help_scroll += 1

    @kb.add("up", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.help_scroll = max(0, ui.help_scroll - 1)

    other_rules = Condition(lambda: ui.screen is Screen.HELP and choosing_preset(ui))

    @kb.add("left", filter=other_rules)
    @kb.add("right", filter=other_rules)
    def _(event: KeyPressEvent) -> None:
        step_help_preset(ui, -1 if event.key_sequence[0].key == "left" else 1)


# ----- the table ---------------------------------------------------------------------------------


def _load_table(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    calm = Condition(lambda: ui.screen is Screen.TABLE and not (ui.confirm_quit or ui.view.panel))
    ended = Condition(lambda: ui.hand_result is not None or ui.match_result is not None)
    playing = calm & ~ended
    asking = Condition(lambda: ui.screen is Screen.TABLE and ui.confirm_quit)
    between = calm & ended

    def send(action: object) -> None:
        if action is not None:
            intents(Submit(action))  # type: ignore[arg-type]

    @kb.add("left", filter=playing)
    def _(event: KeyPressEvent) -> None:
        move_selection(ui, -1)

    @kb.add("right", filter=playing)
    def _(event: KeyPressEvent) -> None:
        move_selection(ui, 1)

    for digit in "1234567890":
        @kb.add(digit, filter=playing)
        def _(event: KeyPressEvent) -> None:
            send(pick_number(ui, int(event.data)))

    @kb.add("enter", filter=playing)
    @kb.add(" ", filter=playing)
    def _(event: KeyPressEvent) -> None:
        send(confirm(ui))

    @kb.add("h", filter=playing)
    def _(event: KeyPressEvent) -> None:
        intents(AskHint())

    @kb.add("u", filter=playing)
    def _(event: KeyPressEvent) -> None:
        intents(UndoMove())

    @kb.add("d", filter=playing)
    def _(event: KeyPressEvent) -> None:
        send(draw_or_pass(ui, Draw))

    @kb.add("p", filter=playing)
    def _(event: KeyPressEvent) -> None:
        send(draw_or_pass(ui, Pass))

    @kb.add("escape", filter=playing)
    def _(event: KeyPressEvent) -> None:
        cancel(ui)

    @kb.add("f", filter=Condition(lambda: ui.screen is Screen.TABLE and ui.resigned
                                  and not ui.finishing and ui.match_result is None))
    def _(event: KeyPressEvent) -> None:
        intents(FinishMatch())

    @kb.add("q", filter=Condition(lambda: ui.screen is Screen.TABLE and not ui.confirm_quit))
    def _(event: KeyPressEvent) -> None:
        if ui.match_result is not None or ui.resigned or (ui.lan is not None and ui.lan.closed):
            intents(LeaveTable())
        else:
            cancel(ui)
            ui.confirm_quit = True

    @kb.add("y", filter=asking)
    def _(event: KeyPressEvent) -> None:
        ui.confirm_quit = False
        intents(LeaveTable())

    @kb.add("r", filter=asking)
    def _(event: KeyPressEvent) -> None:
        ui.confirm_quit = False
        intents(ResignMatch())

    @kb.add("n", filter=asking)
    @kb.add("escape", filter=asking)
    @kb.add("q", filter=asking)
    def _(event: KeyPressEvent) -> None:
        ui.confirm_quit = False

    @kb.add("r", filter=Condition(lambda: ui.screen is Screen.TABLE and not ui.confirm_quit
                                  and ui.lan is not None and ui.match_result is not None))
    def _(event: KeyPressEvent) -> None:
        intents(Rematch())

    @kb.add("enter", filter=between)
    @kb.add(" ", filter=between)
    def _(event: KeyPressEvent) -> None:
        if ui.match_result is None:
            intents(NextHand())
        elif time.monotonic() - ui.match_at >= MATCH_PAUSE_S:
            intents(LeaveTable())
        # else the result came over the LAN a moment ago: that Enter was meant for the hand summary

    # the move clock ran out for this seat: b, or any key above that acts in play, brings the
    # player back (bound last: while it lasts these win over the same keys above)
    away = playing & Condition(lambda: out_of_time(ui))

    def come_back(event: KeyPressEvent) -> None:
        intents(ComeBack())

    for key in ("b", "enter", " ", "left", "right", "d", "p", "h", "u", *"1234567890"):
        kb.add(key, filter=away)(come_back)
