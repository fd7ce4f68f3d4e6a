"""The full-screen front end: the one place an ``Application`` is built, and the controller's
``Frontend`` over it."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import DynamicStyle

from lanomino.ui.history import ReplayView
from lanomino.ui.keys import load_key_bindings
from lanomino.ui.layout import build_layout
from lanomino.ui.menu_keys import activate_menu
from lanomino.ui.state import Intent, QuitApp, Screen, UiState
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
        key_bindings=merge_key_bindings([load_key_bindings(ui, intents), _repaint()]),
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


def _repaint() -> KeyBindings:
    """Ctrl-L draws the whole screen again (over anything another program wrote on it)."""
    bindings = KeyBindings()

    @bindings.add("c-l", eager=True)
    def _(event: KeyPressEvent) -> None:
        event.app.renderer.clear()
        event.app.invalidate()

    return bindings


class AppFrontend:
    """The full-screen app as the client controller's ``Frontend``."""

    def __init__(self, app: Application[int]) -> None:
        self.app = app

    def redraw(self) -> None:
        self.app.invalidate()

    def bell(self) -> None:
        self.app.output.bell()

    def exit(self) -> None:
        app = self.app
        if app.is_running and not app.future.done():  # type: ignore[union-attr]
            app.exit(result=0)


def show_replay(view: ReplayView) -> None:
    """Step through ``view`` full screen until the reader leaves it."""
    ui = UiState(screen=Screen.REPLAY)
    ui.replay = view
    view.quit_on_leave = True

    def intents(intent: Intent) -> None:
        if isinstance(intent, QuitApp):
            app.exit(result=0)

    app = build_app(ui, intents)
    app.run()
