from __future__ import annotations

import asyncio
import time

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lanomino.engine import Draw, End, Play, Rules, apply, new_game, observe, parse_tile, start_hand
from lanomino.engine.events import MatchEnd, MatchEnded
from lanomino.engine.tiles import TILES
from lanomino.ui.app import build_app
from lanomino.ui.keys import MATCH_PAUSE_S
from lanomino.ui.state import (
    LeaveTable,
    QuitApp,
    ResignMatch,
    Screen,
    StartLocal,
    Submit,
    UiState,
    on_new_observation,
)

LEFT, RIGHT, UP, DOWN = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B"
CTRL_C = "\x03"


def run_keys(ui: UiState, keys: list[str]) -> list[object]:
    """Feed ``keys`` to the real app, then Ctrl-C; return the intents it produced."""
    intents: list[object] = []

    async def main() -> None:
        with create_pipe_input() as pipe:
            app = build_app(ui, lambda i: (intents.append(i),
                                           isinstance(i, QuitApp) and app.exit(result=0)),
                            input=pipe, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.05)
            for key in [*keys, CTRL_C]:
                pipe.send_text(key)
                await asyncio.sleep(0.08)  # past the Esc timeout, so each key stands alone
            await asyncio.wait_for(task, 5)

    asyncio.run(main())
    assert isinstance(intents[-1], QuitApp)
    return intents[:-1]


def table_ui(state) -> UiState:
    ui = UiState(screen=Screen.TABLE, names=("You", "Ana"), seat_levels=("", "greedy"),
                 levels=["random", "greedy"])
    on_new_observation(ui, observe(state, 0))
    return ui


def state_with(hands: list[str]):
    state = new_game(Rules.classic(), 2)
    dealt = [[parse_tile(t) for t in h.split()] for h in hands]
    used = {t for h in dealt for t in h}
    start_hand(state, dealt, [t for t in TILES if t not in used])
    return state


@pytest.fixture
def both_ends_state():
    # The line ends up showing 3 and 2 and you hold 3-2: it fits two different ends.
    state = state_with(["6-6 6-4 2-1 0-0 3-2 5-5 1-1", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-2"), End.RIGHT))
    apply(state, 0, Play(parse_tile("2-1"), End.RIGHT))
    apply(state, 1, Play(parse_tile("0-1"), End.RIGHT))
    apply(state, 0, Play(parse_tile("0-0"), End.RIGHT))
    apply(state, 1, Play(parse_tile("0-2"), End.RIGHT))
    apply(state, 0, Play(parse_tile("6-4"), End.LEFT))
    apply(state, 1, Play(parse_tile("4-3"), End.LEFT))
    return state


def test_enter_enter_from_the_menu_starts_a_default_game() -> None:
    ui = UiState(levels=["random", "greedy"])
    intents = run_keys(ui, ["\r", "\r"])
    assert len(intents) == 1 and isinstance(intents[0], StartLocal)
    start = intents[0]
    assert start.players == 2 and start.rules == Rules.classic() and start.levels == ("greedy",)


def test_setup_form_changes_players_and_rules_with_arrows() -> None:
    ui = UiState(levels=["random", "greedy"])
    # p opens the form on Start; up x N to reach Players, right twice: 4 players
    keys = ["p", *[UP] * len(["players", "level0", "preset", "target", "reserve", "dwp", "free"]),
            RIGHT, RIGHT, "\r"]
    intents = run_keys(ui, keys)
    assert isinstance(intents[0], StartLocal) and intents[0].players == 4
    assert len(intents[0].levels) == 3


def test_menu_letters_open_help_and_escape_comes_back() -> None:
    ui = UiState()
    run_keys(ui, ["r"])
    assert ui.screen is Screen.HELP
    run_keys(ui, ["\x1b"])
    assert ui.screen is Screen.MENU


def test_a_tile_that_fits_both_ends_asks_where_and_plays_there(both_ends_state) -> None:
    ui = table_ui(both_ends_state)
    hand = [str(t) for t in ui.obs.hand]
    number = str(hand.index("3-2") + 1)
    intents = run_keys(ui, [number])
    assert intents == [] and len(ui.places) == 2  # asked where
    intents = run_keys(ui, ["2"])
    assert intents == [Submit(Play(parse_tile("3-2"), End.RIGHT))]


def test_nothing_fits_says_draw_and_d_draws() -> None:
    state = state_with(["6-6 6-4 5-1 0-0 3-3 5-5 4-4", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-5"), End.RIGHT))
    apply(state, 0, Play(parse_tile("5-1"), End.RIGHT))
    apply(state, 1, Play(parse_tile("6-2"), End.LEFT))
    # ends are 2 and 1; nothing of ours fits: the message says so and nothing is sent
    ui = table_ui(state)
    intents = run_keys(ui, ["\r"])
    assert intents == [] and "press d to draw" in ui.message
    intents = run_keys(ui, ["d"])
    assert intents == [Submit(Draw())]


def test_drawing_while_a_tile_fits_is_refused_with_the_tile_named(both_ends_state) -> None:
    ui = table_ui(both_ends_state)
    intents = run_keys(ui, ["d"])
    assert intents == []
    assert ui.message == "you may not draw: you must play: 3-2 fits"


def test_place_choice_by_arrows_then_enter(both_ends_state) -> None:
    ui = table_ui(both_ends_state)
    index = [str(t) for t in ui.obs.hand].index("3-2")
    moves = [RIGHT] * ((index - ui.selected) % len(ui.obs.hand))
    intents = run_keys(ui, [*moves, "\r", RIGHT, "\r"])
    assert len(intents) == 1
    action = intents[0].action
    assert action == Play(parse_tile("3-2"), End.RIGHT)


def test_q_asks_first_then_leaves_or_resigns(both_ends_state) -> None:
    ui = table_ui(both_ends_state)
    assert run_keys(ui, ["q", "n"]) == [] and not ui.confirm_quit
    assert run_keys(ui, ["q", "y"]) == [LeaveTable()]
    assert run_keys(ui, ["q", "r"]) == [ResignMatch()]


def test_a_drawn_tile_that_fits_becomes_the_selection() -> None:
    state = state_with(["6-6 6-4 5-1 0-0 3-3 5-5 4-4", "6-5 4-3 6-2 2-2 0-1 0-2 0-3"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-5"), End.RIGHT))
    apply(state, 0, Play(parse_tile("5-1"), End.RIGHT))
    apply(state, 1, Play(parse_tile("6-2"), End.LEFT))
    ui = table_ui(state)  # ends 2 and 1: nothing fits, the selection stays where it was
    while not any(isinstance(a, Play) for a in observe(state, 0).legal):
        apply(state, 0, Draw())
    on_new_observation(ui, observe(state, 0))
    assert ui.obs is not None
    chosen = ui.obs.hand[ui.selected]
    assert any(isinstance(a, Play) and a.tile == chosen for a in ui.obs.legal)


def test_ctrl_c_at_a_lan_table_asks_like_q_and_a_second_one_quits(both_ends_state) -> None:
    from lanomino.ui.lan import LanView

    ui = table_ui(both_ends_state)
    ui.lan = LanView("peer", "Kitchen", seats=2)
    # Ctrl-C asks; n stays; Ctrl-C asks again; the last Ctrl-C (run_keys's own) quits
    intents = run_keys(ui, [CTRL_C, "n", CTRL_C])
    assert intents == [] and ui.confirm_quit  # (the question was open when the app quit)
    ui = table_ui(both_ends_state)
    ui.lan = LanView("peer", "Kitchen", seats=2)
    ui.lan.over = True  # once the match is over there is nothing to lose: it just quits
    assert run_keys(ui, []) == []


def test_y_starts_over_a_saved_game_and_n_keeps_it() -> None:
    from lanomino.ui.setup import SetupForm
    from lanomino.ui.state import ConfirmStart

    start = StartLocal(Rules.block(), 2, ("random",))
    form = SetupForm(levels=["random"] * 3)
    ui = UiState(screen=Screen.SETUP, levels=["random"], pending_start=start, setup=form)
    assert run_keys(ui, ["y"]) == [ConfirmStart()]  # (the controller starts it: test_leaving)
    ui = UiState(screen=Screen.SETUP, levels=["random"], pending_start=start, setup=form)
    assert run_keys(ui, ["n"]) == [] and ui.pending_start is None


def test_h_asks_for_a_hint_and_u_takes_a_move_back(both_ends_state) -> None:
    from lanomino.ui.state import AskHint, UndoMove

    assert run_keys(table_ui(both_ends_state), ["h", "u"]) == [AskHint(), UndoMove()]


def test_an_enter_meant_for_the_hand_summary_does_not_skip_a_match_result_that_just_arrived(
        both_ends_state) -> None:
    """Over the LAN the match's result may come a moment after its last hand's: an Enter pressed
    in that moment (to leave the hand summary) must not take the player to the menu unseen."""
    ui = table_ui(both_ends_state)
    ui.match_result = MatchEnded(1, (40, 101), (1, 0), MatchEnd.TARGET)
    ui.match_at = time.monotonic()
    assert run_keys(ui, ["\r"]) == []
    ui.match_at = time.monotonic() - MATCH_PAUSE_S
    assert run_keys(ui, ["\r"]) == [LeaveTable()]


def test_out_of_time_b_or_any_key_that_plays_comes_back(both_ends_state) -> None:
    """The move clock ran out for this seat (the roster says it is away): b, or a key that
    would play, says the player is back instead; otherwise b does nothing."""
    from lanomino.ui.lan import ComeBack, LanView, SeatInfo

    def at_lan_table(away: bool) -> UiState:
        ui = table_ui(both_ends_state)
        ui.lan = LanView("peer", "Kitchen", seats=2, roster=[
            SeatInfo(0, "You", "human", away=away), SeatInfo(1, "Ana", "host")])
        return ui
    for key in ("b", "\r", RIGHT, "5", "d"):  # (Ctrl-C at a LAN table asks; the next quits)
        assert run_keys(at_lan_table(True), [key, CTRL_C]) == [ComeBack()], key
    ui = at_lan_table(True)
    assert ui.lan is not None
    ui.lan.back_said = True  # (said once: until the roster agrees, keys play again)
    assert run_keys(ui, ["b", CTRL_C]) == []
    assert run_keys(at_lan_table(False), ["b", CTRL_C]) == []
