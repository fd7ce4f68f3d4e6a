"""Keys for the table's panels: ``s`` the score sheet, ``l`` the whole log, scrolled by arrows."""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.ui.state import Screen, UiState

PAGE = 10


def load_panel_bindings(kb: KeyBindings, ui: UiState) -> None:
    at_table = Condition(lambda: ui.screen is Screen.TABLE and ui.obs is not None
                         and not ui.confirm_quit)
    open_ = Condition(lambda: ui.screen is Screen.TABLE and bool(ui.view.panel))

    @kb.add("s", filter=at_table)
    def _(event: KeyPressEvent) -> None:
        ui.view.toggle("sheet")

    @kb.add("l", filter=at_table)
    def _(event: KeyPressEvent) -> None:
        ui.view.toggle("log")

    @kb.add("escape", filter=open_, eager=True)
    @kb.add("q", filter=open_, eager=True)
    @kb.add("enter", filter=open_, eager=True)
    def _(event: KeyPressEvent) -> None:
        ui.view.toggle(ui.view.panel)

    def scroll(delta: int) -> None:
        back = 1 if ui.view.panel == "log" else -1  # the log scrolls back in time
        ui.view.scroll = max(0, ui.view.scroll + back * delta)

    @kb.add("up", filter=open_, eager=True)
    def _(event: KeyPressEvent) -> None:
        scroll(1)

    @kb.add("down", filter=open_, eager=True)
    def _(event: KeyPressEvent) -> None:
        scroll(-1)

    @kb.add("pageup", filter=open_, eager=True)
    def _(event: KeyPressEvent) -> None:
        scroll(PAGE)

    @kb.add("pagedown", filter=open_, eager=True)
    def _(event: KeyPressEvent) -> None:
        scroll(-PAGE)
