"""Whole screens as pure functions of ``UiState`` and the terminal size."""

from __future__ import annotations

from lanomino.ui.chrome import wrap
from lanomino.ui.history import draw_history, draw_replay
from lanomino.ui.lobby import draw_host_form, draw_lobby, draw_waiting
from lanomino.ui.menus import (
    MENU_TOP,
    SETTINGS_ROWS,
    draw_help,
    draw_menu,
    draw_settings,
    draw_setup,
)
from lanomino.ui.render import Canvas, Fragments
from lanomino.ui.state import Screen, UiState
from lanomino.ui.summary import draw_hand_end, draw_panel
from lanomino.ui.table import draw_table

__all__ = ["MENU_TOP", "MIN_H", "MIN_W", "SETTINGS_ROWS", "draw_screen", "render_screen"]

MIN_W, MIN_H = 40, 16


def render_screen(ui: UiState, width: int, height: int) -> Fragments:
    """The full screen for ``ui`` at this terminal size."""
    return draw_screen(ui, Canvas(width, height)).fragments()


def draw_screen(ui: UiState, canvas: Canvas) -> Canvas:
    """Draw the screen for ``ui`` on ``canvas`` (its size is the terminal's)."""
    if canvas.width < MIN_W or canvas.height < MIN_H:
        ask = f"Please make the terminal at least {MIN_W}x{MIN_H}."
        for y, line in enumerate(wrap(ask, max(1, canvas.width))):
            canvas.put(0, y, line, "class:warn")
        return canvas
    {
        Screen.MENU: draw_menu,
        Screen.SETUP: draw_setup,
        Screen.TABLE: _draw_table,
        Screen.HELP: draw_help,
        Screen.SETTINGS: draw_settings,
        Screen.HISTORY: lambda ui, canvas: draw_history(ui.history, canvas),
        Screen.REPLAY: _draw_replay,
        Screen.LOBBY: lambda ui, canvas: draw_lobby(ui.lobby, canvas),
        Screen.HOST: lambda ui, canvas: draw_host_form(ui.host_form, canvas),
        Screen.WAITING: _draw_waiting,
    }[ui.screen](ui, canvas)
    return canvas


def _draw_table(ui: UiState, canvas: Canvas) -> None:
    if ui.obs is not None and ui.view.panel:
        draw_panel(ui, canvas)
    elif ui.obs is not None and (ui.hand_result is not None or ui.match_result is not None):
        draw_hand_end(ui, canvas)
    else:
        draw_table(ui, canvas)


def _draw_waiting(ui: UiState, canvas: Canvas) -> None:
    if ui.lan is not None:
        draw_waiting(ui.lan, canvas, ui.lobby.tick)


def _draw_replay(ui: UiState, canvas: Canvas) -> None:
    if ui.replay is not None:
        draw_replay(ui.replay, canvas, ui.settings.colour)
