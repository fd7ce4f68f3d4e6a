"""The one place an ``Application`` is built."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import DynamicStyle

from lanomino.ui.keys import activate_menu, load_key_bindings
from lanomino.ui.layout import build_layout
from lanomino.ui.state import Intent, UiState
from lanomino.ui.style import build_style, colour_allowed


def build_app(
    ui: UiState,
    intents: Callable[[Intent], None],
    input: Input | None = None,
    output: Output | None = None,
) -> Application[int]:
    """The full-screen client for ``ui``; intents go to ``intents``."""
    colour = colour_allowed()
    styles = {True: build_style(True), False: build_style(False)}
    app: Application[int] = Application(
        layout=build_layout(ui, lambda index: activate_menu(ui, index, intents)),
        key_bindings=load_key_bindings(ui, intents),
        style=DynamicStyle(lambda: styles[colour and ui.settings.colour]),
        color_depth=None if colour else ColorDepth.DEPTH_1_BIT,
        full_screen=True,
        mouse_support=True,
        input=input,
        output=output,
    )
    app.ttimeoutlen = 0.05  # Esc reacts at once instead of waiting for a longer sequence
    app.timeoutlen = 0.05
    return app
