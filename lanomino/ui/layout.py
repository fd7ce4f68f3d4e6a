"""Containers: one full-screen window drawn by ``screens.render_screen``, with menu clicks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from lanomino.ui.screens import MENU_TOP, render_screen
from lanomino.ui.state import Screen, UiState

if TYPE_CHECKING:
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone


class ScreenControl(FormattedTextControl):
    """The whole screen; a click on a menu row chooses that item."""

    def __init__(self, ui: UiState, on_menu_click: Callable[[int], None]) -> None:
        super().__init__(self._text, focusable=True, show_cursor=False)
        self.ui = ui
        self.on_menu_click = on_menu_click

    def _text(self) -> StyleAndTextTuples:
        size = get_app().output.get_size()
        return list(render_screen(self.ui, size.columns, size.rows))

    def mouse_handler(self, mouse_event: MouseEvent) -> NotImplementedOrNone:
        if mouse_event.event_type is MouseEventType.MOUSE_UP and self.ui.screen is Screen.MENU:
            self.on_menu_click(mouse_event.position.y - MENU_TOP)
            return None
        return NotImplemented


def build_layout(ui: UiState, on_menu_click: Callable[[int], None]) -> Layout:
    control = ScreenControl(ui, on_menu_click)
    return Layout(Window(control, always_hide_cursor=True))
