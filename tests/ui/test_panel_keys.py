"""Keys for what the words screens added: s and l open the score sheet and the log over the
table (arrows scroll them and move no tile), and ←/→ in Help away from a table shows the other
rules."""

from __future__ import annotations

from tablekit import game, play, show
from test_keys import LEFT, RIGHT, UP, run_keys

from lanomino.engine import End, Rules
from lanomino.ui.settings import Settings
from lanomino.ui.state import Screen, Submit, UiState


def table() -> UiState:
    state = game(Rules.classic(), ["6-6 6-4 2-1 0-0 3-3 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    play(state, 0, "6-6")
    play(state, 1, "6-5", End.LEFT)
    ui = UiState(screen=Screen.TABLE, names=("You", "Ana"), seat_levels=("", "greedy"),
                 settings=Settings(colour=False))
    return show(ui, state)


def test_s_and_l_open_the_panels_and_arrows_there_move_no_tile() -> None:
    ui = table()
    selected = ui.selected
    assert run_keys(ui, ["s"]) == [] and ui.view.panel == "sheet"
    assert run_keys(ui, [RIGHT, RIGHT, UP, "\r"]) == []  # Enter closes the panel, plays nothing
    assert ui.view.panel == "" and ui.selected == selected
    assert run_keys(ui, ["l", UP, UP]) == [] and ui.view.panel == "log" and ui.view.scroll == 2
    assert run_keys(ui, ["l"]) == [] and ui.view.panel == ""
    intents = run_keys(ui, ["\r"])  # back at the table, Enter plays again
    assert len(intents) == 1 and isinstance(intents[0], Submit)


def test_left_and_right_in_help_from_the_menu_show_every_preset() -> None:
    ui = UiState(screen=Screen.MENU)
    run_keys(ui, ["r", RIGHT])
    assert ui.screen is Screen.HELP and ui.help_preset == "block"
    run_keys(ui, [LEFT, LEFT])
    assert ui.help_preset == "partnership"
