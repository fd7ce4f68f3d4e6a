"""Keys of the lobby, the host form and the waiting room: edit the state or queue an intent."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.engine import Rules
from lanomino.ui.lan import (
    HOST_ROWS,
    TEXT_ROWS,
    CloseLobby,
    ConfirmJoin,
    HostForm,
    finish_entry,
    join_selected,
)
from lanomino.ui.settings import start_level, table_name
from lanomino.ui.state import Intent, LeaveTable, Screen, UiState

Intents = Callable[[Intent], None]
TYPED = ("address", "passphrase")  # lobby entries that are text being typed


def typing(ui: UiState) -> bool:
    """True while a key is text being typed (so `?`, `q` and letters are not commands)."""
    if ui.screen is Screen.LOBBY:
        return ui.lobby.entry in TYPED
    if ui.screen is Screen.HOST:
        return HOST_ROWS[ui.host_form.row] in TEXT_ROWS
    return False


def open_host_form(ui: UiState) -> None:
    """The host form, preset from the settings so that Enter opens a sensible table."""
    ui.host_form = HostForm(name=table_name(ui.settings), preset=ui.settings.preset,
                            level=start_level(ui.settings, ui.levels), choices=ui.addresses)
    if Rules.preset(ui.host_form.preset).partnership:
        ui.host_form.seats = 4
    ui.screen = Screen.HOST


def load_lobby_bindings(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    _load_lobby(kb, ui, intents)
    _load_host_form(kb, ui, intents)
    _load_waiting(kb, ui, intents)


def _load_lobby(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    browsing = Condition(lambda: ui.screen is Screen.LOBBY and not ui.lobby.entry)
    entering = Condition(lambda: ui.screen is Screen.LOBBY and ui.lobby.entry in TYPED)
    deciding = Condition(lambda: ui.screen is Screen.LOBBY and ui.lobby.entry == "trust")

    @kb.add("y", filter=deciding)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.entry, ui.lobby.message = "", ""
        intents(ConfirmJoin())

    @kb.add("n", filter=deciding)
    @kb.add("escape", filter=deciding)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.entry, ui.lobby.target, ui.lobby.message = "", None, "not joined"

    @kb.add("up", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.index = (ui.lobby.index - 1) % (len(ui.lobby.tables) + 1)
        ui.lobby.message = ""

    @kb.add("down", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.index = (ui.lobby.index + 1) % (len(ui.lobby.tables) + 1)
        ui.lobby.message = ""

    @kb.add("enter", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        join = join_selected(ui.lobby)
        if join is not None:
            intents(join)

    @kb.add("w", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        join = join_selected(ui.lobby, watch=True)  # watch the table, without a seat
        if join is not None:
            intents(join)

    @kb.add("a", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.entry, ui.lobby.text, ui.lobby.message = "address", "", ""
        ui.lobby.watch = False

    @kb.add("escape", filter=browsing)
    @kb.add("q", filter=browsing)
    def _(event: KeyPressEvent) -> None:
        intents(CloseLobby())

    @kb.add("<any>", filter=entering)
    def _(event: KeyPressEvent) -> None:
        if event.data.isprintable():
            ui.lobby.text = (ui.lobby.text + event.data)[:200]

    @kb.add("backspace", filter=entering)
    def _(event: KeyPressEvent) -> None:
        ui.lobby.text = ui.lobby.text[:-1]

    @kb.add("enter", filter=entering)
    def _(event: KeyPressEvent) -> None:
        join = finish_entry(ui.lobby)
        if join is not None:
            intents(join)

    @kb.add("escape", filter=entering)
    def _(event: KeyPressEvent) -> None:
        direct = not ui.lobby.searching and not ui.lobby.tables  # (a join by address: no list)
        ui.lobby.entry, ui.lobby.text, ui.lobby.target, ui.lobby.message = "", "", None, ""
        if direct:
            intents(CloseLobby())  # back to the menu, not to a lobby that never looked


def _load_host_form(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = Condition(lambda: ui.screen is Screen.HOST)
    on_text = on & Condition(lambda: HOST_ROWS[ui.host_form.row] in TEXT_ROWS)

    @kb.add("up", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.host_form.row = (ui.host_form.row - 1) % len(HOST_ROWS)

    @kb.add("down", filter=on)
    @kb.add("tab", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.host_form.row = (ui.host_form.row + 1) % len(HOST_ROWS)

    @kb.add("left", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.host_form.change(-1, ui.levels)
        ui.host_form.message = ""

    @kb.add("right", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.host_form.change(1, ui.levels)
        ui.host_form.message = ""

    @kb.add("<any>", filter=on_text)
    def _(event: KeyPressEvent) -> None:
        if event.data.isprintable():
            ui.host_form.type(event.data)

    @kb.add("backspace", filter=on_text)
    def _(event: KeyPressEvent) -> None:
        ui.host_form.backspace()

    @kb.add("enter", filter=on)
    def _(event: KeyPressEvent) -> None:
        table = ui.host_form.intent()
        if table is not None:
            intents(table)

    @kb.add("escape", filter=on)
    def _(event: KeyPressEvent) -> None:
        ui.screen = Screen.MENU


def _load_waiting(kb: KeyBindings, ui: UiState, intents: Intents) -> None:
    on = Condition(lambda: ui.screen is Screen.WAITING)
    closed = on & Condition(lambda: ui.lan is not None and bool(ui.lan.closed))

    @kb.add("q", filter=on)
    @kb.add("escape", filter=on)
    @kb.add("enter", filter=closed)
    def _(event: KeyPressEvent) -> None:
        intents(LeaveTable())
