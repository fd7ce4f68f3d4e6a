"""Key bindings: each handler changes the ``UiState`` or queues an intent, nothing more."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.engine import PRESETS, Draw, Pass, RulesError
from lanomino.ui.history_keys import load_history_bindings
from lanomino.ui.lan import OpenLobby
from lanomino.ui.lobby_keys import load_lobby_bindings, open_host_form, typing
from lanomino.ui.menus import (
    SETTINGS_ROWS,
    choosing_preset,
    form_start,
    from_the_form,
    step_help_preset,
)
from lanomino.ui.panel_keys import load_panel_bindings
from lanomino.ui.settings import Settings, account_name, clean_name, default_level
from lanomino.ui.setup import SetupForm
from lanomino.ui.state import (
    PAUSES_S,
    AskHint,
    ContinueSaved,
    FinishMatch,
    Intent,
    LeaveTable,
    NextHand,
    OpenHistory,
    QuitApp,
    Rematch,
    ResignMatch,
    SaveSettings,
    Screen,
    Submit,
    UiState,
    UndoMove,
    cancel,
    confirm,
    draw_or_pass,
    menu_items,
    move_selection,
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
    _load_menu(kb, ui, intents)
    _load_setup(kb, ui, intents)
    _load_settings(kb, ui, intents)
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


def _on(screen: Screen, ui: UiState) -> Condition:
    return Condition(lambda: ui.screen is screen)


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


# ----- menu ------------------------------------------------------------------------------------


def activate_menu(ui: UiState, index: int, intents: Intents) -> None:
    """Enter (or a click, or the letter) on menu item ``index``."""
    items = menu_items(ui)
    if not 0 <= index < len(items):
        return
    ui.menu_index = index
    ui.notice = ""
    action = items[index][2]
    if action in ("host", "join") and ui.first_start:  # others will see the name: ask once
        ui.name_then, ui.screen, ui.settings_row = action, Screen.SETTINGS, 0
    elif action == "play":
        open_setup(ui)
    elif action == "continue":
        intents(ContinueSaved())
    elif action == "rules":
        ui.back, ui.screen, ui.help_scroll = Screen.MENU, Screen.HELP, 0
    elif action == "host":
        open_host_form(ui)
    elif action == "join":
        intents(OpenLobby())
    elif action == "history":
        intents(OpenHistory())
    elif action == "settings":
        ui.screen, ui.settings_row = Screen.SETTINGS, 0
    elif action == "quit":
        intents(QuitApp())


def open_setup(ui: UiState) -> None:
    """The new-game form, preset from the settings so that Enter starts a sensible game."""
    level = ui.settings.level if ui.settings.level in ui.levels else default_level(ui.levels)
    ui.setup = SetupForm(levels=[level] * 3, preset=ui.settings.preset)
    if PRESETS[ui.setup.preset]().partnership:
        ui.setup.players = 4
    ui.setup.row = len(ui.setup.rows()) - 1  # on "Start": Enter-Enter plays
    ui.message, ui.screen = "", Screen.SETUP


def _load_menu(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = _on(Screen.MENU, ui)

    @kb.add("up", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.menu_index = (ui.menu_index - 1) % len(menu_items(ui))

    @kb.add("down", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.menu_index = (ui.menu_index + 1) % len(menu_items(ui))

    @kb.add("enter", filter=on)
    def _(event: KeyPressEvent) -> None:
        activate_menu(ui, ui.menu_index, intents)

    for letter in "pctjhrsq":
        @kb.add(letter, filter=on)
        def _(event: KeyPressEvent) -> None:
            keys = [key for key, _, _ in menu_items(ui)]
            if event.data in keys:
                activate_menu(ui, keys.index(event.data), intents)


# ----- new game form -----------------------------------------------------------------------------


def start_from_setup(ui: UiState, intents: Intents) -> None:
    try:
        start = form_start(ui.setup)
    except RulesError as exc:
        ui.message = str(exc)
        return
    intents(start)


def _load_setup(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = Condition(lambda: ui.screen is Screen.SETUP and ui.pending_start is None)
    asking = Condition(lambda: ui.screen is Screen.SETUP and ui.pending_start is not None)

    @kb.add("y", filter=asking)
    def _(event: KeyPressEvent) -> None:
        start, ui.pending_start, ui.message = ui.pending_start, None, ""
        if start is not None:
            intents(replace(start, replace_saved=True))

    @kb.add("n", filter=asking)
    @kb.add("escape", filter=asking)
    def _(event: KeyPressEvent) -> None:
        # back to the form the start came from; a start from the command line had none: the menu
        if not from_the_form(ui):
            ui.screen, ui.notice = Screen.MENU, "The saved game is kept: c continues it."
        ui.pending_start, ui.message = None, ""

    @kb.add("up", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.setup.row = (ui.setup.row - 1) % len(ui.setup.rows())

    @kb.add("down", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.setup.row = (ui.setup.row + 1) % len(ui.setup.rows())

    @kb.add("left", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.setup.change(-1, ui.levels)
        ui.message = ""

    @kb.add("right", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.setup.change(1, ui.levels)
        ui.message = ""

    @kb.add("enter", filter=on)
    def _(event: KeyPressEvent) -> None:
        start_from_setup(ui, intents)

    @kb.add("escape", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.screen = Screen.MENU


# ----- settings ----------------------------------------------------------------------------------


def change_setting(ui: UiState, delta: int) -> None:
    key = SETTINGS_ROWS[ui.settings_row]
    s = ui.settings
    if key in ("colour", "sound", "auto_draw", "lines", "words"):
        ui.settings = Settings.from_dict({**s.to_dict(), key: not getattr(s, key)})
    elif key == "level" and ui.levels:
        options = ["", *ui.levels]
        i = options.index(s.level) if s.level in options else 0
        ui.settings = replace(s, level=options[(i + delta) % len(options)])
    elif key == "preset":
        names = list(PRESETS)
        ui.settings = replace(s, preset=names[(names.index(s.preset) + delta) % len(names)])
    elif key == "pause_s":
        i = min(range(len(PAUSES_S)), key=lambda j: abs(PAUSES_S[j] - s.pause_s))
        ui.settings = replace(s, pause_s=PAUSES_S[(i + delta) % len(PAUSES_S)])


def _load_settings(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = _on(Screen.SETTINGS, ui)
    on_name = on & Condition(lambda: SETTINGS_ROWS[ui.settings_row] == "name")

    @kb.add("up", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.settings_row = (ui.settings_row - 1) % len(SETTINGS_ROWS)

    @kb.add("down", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.settings_row = (ui.settings_row + 1) % len(SETTINGS_ROWS)

    @kb.add("left", filter=on)
    def _(event: KeyPressEvent) -> None:
        change_setting(ui, -1)

    @kb.add("right", filter=on)
    def _(event: KeyPressEvent) -> None:
        change_setting(ui, 1)

    @kb.add("<any>", filter=on_name)
    def _(event: KeyPressEvent) -> None:
        asked = ui.name_then and ui.first_start  # (the account's name offered: typing replaces it)
        text = clean_name(("" if asked else ui.settings.name) + event.data)
        ui.settings, ui.first_start = replace(ui.settings, name=text), False

    @kb.add("backspace", filter=on_name)
    def _(event: KeyPressEvent) -> None:
        asked = ui.name_then and ui.first_start
        ui.settings = replace(ui.settings, name="" if asked else ui.settings.name[:-1])
        ui.first_start = False

    @kb.add("enter", filter=on)
    @kb.add("escape", filter=on)
    def _(event: KeyPressEvent) -> None:
        if not clean_name(ui.settings.name):
            ui.settings = replace(ui.settings, name=account_name())
        ui.first_start = False
        intents(SaveSettings(ui.settings))
        ui.screen, then, ui.name_then = Screen.MENU, ui.name_then, ""
        if then == "host":
            open_host_form(ui)
        elif then == "join":
            intents(OpenLobby())


# ----- help --------------------------------------------------------------------------------------


def _load_help(kb: KeyBindings, ui: UiState) -> None:
    on = _on(Screen.HELP, ui)

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
