"""Keys of the History and stats screen and of the replay viewer."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from lanomino.ui.state import Intent, OpenReplay, QuitApp, Screen, UiState


def load_history_bindings(kb: KeyBindings, ui: UiState, intents: Callable[[Intent], None]) -> None:
    on_history = Condition(lambda: ui.screen is Screen.HISTORY)
    on_replay = Condition(lambda: ui.screen is Screen.REPLAY and ui.replay is not None)

    @kb.add("up", filter=on_history)
    def _(event: KeyPressEvent) -> None:
        ui.history.move(-1)

    @kb.add("down", filter=on_history)
    def _(event: KeyPressEvent) -> None:
        ui.history.move(1)

    @kb.add("tab", filter=on_history)
    @kb.add("left", filter=on_history)
    @kb.add("right", filter=on_history)
    def _(event: KeyPressEvent) -> None:
        ui.history.tab = "stats" if ui.history.tab == "matches" else "matches"

    @kb.add("enter", filter=on_history)
    def _(event: KeyPressEvent) -> None:
        view = ui.history
        if view.tab == "matches" and view.rows:
            intents(OpenReplay(int(view.rows[view.selected]["id"])))

    @kb.add("escape", filter=on_history)
    @kb.add("q", filter=on_history)
    def _(event: KeyPressEvent) -> None:
        ui.screen, ui.history.message = Screen.MENU, ""

    def step(delta: int) -> None:
        if ui.replay is not None:
            ui.replay.step(delta)

    def jump(delta: int) -> None:
        if ui.replay is not None:
            ui.replay.jump(delta)

    kb.add("right", filter=on_replay)(lambda event: step(1))
    kb.add("left", filter=on_replay)(lambda event: step(-1))
    kb.add("down", filter=on_replay)(lambda event: jump(1))
    kb.add("up", filter=on_replay)(lambda event: jump(-1))
    kb.add("home", filter=on_replay)(lambda event: jump(-10_000))
    kb.add("end", filter=on_replay)(
        lambda event: ui.replay.last() if ui.replay is not None else None)

    @kb.add("q", filter=on_replay)
    @kb.add("escape", filter=on_replay)
    def _(event: KeyPressEvent) -> None:
        if ui.replay is not None and ui.replay.quit_on_leave:
            intents(QuitApp())
        else:
            ui.screen, ui.replay = Screen.HISTORY, None
