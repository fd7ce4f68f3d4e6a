"""Key bindings of the menu, the new-game form and Settings: each handler changes the
``UiState`` or queues an intent, as in keys.py, which loads them with the rest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.engine import PRESETS, RulesError
from lanomino.ui.lan import OpenLobby
from lanomino.ui.lobby_keys import open_host_form
from lanomino.ui.menus import (
    SETTINGS_ROWS,
    form_start,
    from_the_form,
)
from lanomino.ui.settings import Settings, account_name, clean_name, start_level
from lanomino.ui.setup import SetupForm
from lanomino.ui.state import (
    PAUSES_S,
    ConfirmStart,
    ContinueSaved,
    Intent,
    OpenHistory,
    QuitApp,
    SaveSettings,
    Screen,
    UiState,
    menu_items,
)

Intents = Callable[[Intent], None]


def load_menu_bindings(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    """The menu's, the new-game form's and Settings' keys, each active only on its screen."""
    _load_menu(kb, ui, intents)
    _load_setup(kb, ui, intents)
    _load_settings(kb, ui, intents)


def on_screen(screen: Screen, ui: UiState) -> Condition:
    """A filter: true while ``screen`` shows."""
    return Condition(lambda: ui.screen is screen)


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
    ui.setup = SetupForm(levels=[start_level(ui.settings, ui.levels)] * 3,
                         preset=ui.settings.preset)
    if PRESETS[ui.setup.preset]().partnership:
        ui.setup.players = 4
    ui.setup.row = len(ui.setup.rows()) - 1  # on "Start": Enter-Enter plays
    ui.message, ui.screen = "", Screen.SETUP


def _load_menu(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = on_screen(Screen.MENU, ui)

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
        intents(ConfirmStart())

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
    on = on_screen(Screen.SETTINGS, ui)
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
