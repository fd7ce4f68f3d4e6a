"""Leaving is deliberate: what the player is told on the way out of a local game."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lanomino.client.controller import Controller
from lanomino.engine import Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import open_store
from lanomino.ui.settings import Settings
from lanomino.ui.state import Submit, UiState


def controller(tmp_path: Path) -> Controller:
    store = open_store(tmp_path)
    return Controller(UiState(settings=Settings(pause_s=0.0)), store,
                      ThreadPoolExecutor(max_workers=1), seed=None)


def test_quitting_during_a_local_game_says_it_is_saved(tmp_path: Path) -> None:
    c = controller(tmp_path)
    match = LocalMatch(make_config(Rules.classic(), 2, ("random",), "Me", 3))
    c.open_local(match)
    farewell = c.close()
    assert "The game is saved" in farewell and "--continue" in farewell
    c.writer.shutdown(wait=True)
    assert c.store.has_saved_game()
    c.store.close()


def test_quitting_from_the_menu_says_nothing(tmp_path: Path) -> None:
    c = controller(tmp_path)
    assert c.close() == ""
    c.writer.shutdown(wait=True)
    c.store.close()


def play_first_hand(c: Controller, match: LocalMatch) -> None:
    """Play this seat with its first legal move until the first hand ends (it is logged)."""
    import asyncio

    table = c.open_local(match)

    async def play() -> None:
        while not match.state.results:
            while await table.step():
                pass
            obs = c.ui.obs
            assert obs is not None
            if obs.is_my_turn and obs.phase == "play":
                table.submit(obs.legal[0])

    asyncio.run(play())


def test_a_new_game_over_a_saved_one_asks_first_and_marks_it_abandoned(tmp_path: Path) -> None:
    from lanomino.store import PlayLog
    from lanomino.ui.state import ConfirmStart, LeaveTable, Screen, StartLocal

    c = controller(tmp_path)
    old = LocalMatch(make_config(Rules.classic(target=500), 2, ("random",), "Me", 4))
    play_first_hand(c, old)
    c.handle(LeaveTable())
    assert c.ui.has_saved_game and c.ui.screen is Screen.MENU
    new = StartLocal(Rules.block(), 2, ("random",))
    c.handle(new)
    assert c.ui.pending_start == new and c.ui.screen is Screen.SETUP and c.table is None
    assert "saved game is waiting" in c.ui.message
    c.handle(new)  # the same start again: still a question, never a yes
    assert c.ui.pending_start == new and c.table is None
    c.handle(ConfirmStart())  # y in the full-screen client, yes in lines
    assert c.table is not None and c.ui.pending_start is None
    assert c.ui.obs is not None and c.ui.obs.rules == new.rules  # the new match, not the saved
    [logged] = c.writer.submit(PlayLog(c.store).matches).result()
    assert logged.abandoned and not logged.finished and logged.hands == 1
    c.close()
    c.writer.shutdown(wait=True)
    saved = c.store.load_game()
    assert saved is not None and saved["uid"] != old.uid  # the save is the new game's now
    c.store.close()


def test_an_abandoned_match_reads_abandoned_in_history() -> None:
    from lanomino.ui.history import result_label

    row = {"finished": False, "scores": [12, 30], "you_won": None}
    assert result_label(row) == "unfinished 12-30"
    assert result_label({**row, "abandoned": True}) == "abandoned 12-30"


def test_undo_takes_back_the_last_move_and_a_hint_names_experts_move(tmp_path: Path) -> None:
    import asyncio

    from lanomino.store import PlayLog
    from lanomino.ui.state import AskHint, UndoMove

    c = controller(tmp_path)
    match = LocalMatch(make_config(Rules.classic(target=500), 2, ("random",), "Me", 4))
    play_first_hand(c, match)  # (logged: the marks must reach the play log too)
    table = c.table
    assert table is not None

    async def main() -> None:
        table.next_hand()
        while await table.step():
            pass
        obs = c.ui.obs
        assert obs is not None and obs.is_my_turn
        c.handle(UndoMove())
        assert "no move of yours" in c.ui.message  # nothing of this hand to take back yet
        before = (obs.hand, obs.line.tiles, list(obs.line.ends), obs.boneyard)
        c.handle(AskHint())
        assert c.ui.message == "Expert is thinking…"
        for _ in range(500):
            if c.ui.message.startswith("Expert would "):
                break
            await asyncio.sleep(0.02)
        hint = c.ui.message
        assert hint.startswith("Expert would ")
        c.handle(Submit(obs.legal[0]))
        while await table.step():
            pass
        c.handle(UndoMove())
        again = c.ui.obs
        assert again is not None and again.is_my_turn
        assert (again.hand, again.line.tiles, list(again.line.ends), again.boneyard) == before
        assert c.ui.message == "Your last move is taken back."

    asyncio.run(main())
    assert table.match.assists == {"hint", "undo"}
    [logged] = c.writer.submit(PlayLog(c.store).matches).result()
    assert set(logged.assists) == {"hint", "undo"}
    c.close()
    c.writer.shutdown(wait=True)
    saved = c.store.load_game()
    assert saved is not None and saved["assists"] == ["hint", "undo"]
    assert LocalMatch.from_record(saved).assists == {"hint", "undo"}
    c.store.close()


def test_a_lan_table_gives_no_hints_and_takes_nothing_back() -> None:
    from lanomino.client.lan import LanTable
    from lanomino.client.seam import Headless

    ui = UiState()
    table = LanTable(ui, Headless(), lambda: None, "peer", "Kitchen",
                     lambda code, why: None)
    for ask in (table.hint, table.undo):
        ui.message = ""
        ask()
        assert "against the computer" in ui.message


def test_a_host_who_leaves_a_running_match_of_three_people_is_told_it_goes_on() -> None:
    """Hal, hosting Bea and Cy, quit mid-hand: the table was handed over and play went on, yet
    his question said 'Close the table for everyone?' and the menu 'You closed the table.'"""
    from lanomino.client.lan import LanTable
    from lanomino.client.seam import Headless
    from lanomino.engine import TILES, new_game, observe, start_hand
    from lanomino.ui.lan import SeatInfo
    from lanomino.ui.render import Canvas
    from lanomino.ui.screens import draw_screen
    from lanomino.ui.state import Screen

    def hosting(people: int) -> tuple[UiState, LanTable]:
        ui = UiState()
        table = LanTable(ui, Headless(), lambda: None, "host", "Den", lambda code, why: None)
        state = new_game(Rules.classic(hand_size=5), people)
        start_hand(state, [list(TILES[i * 5:i * 5 + 5]) for i in range(people)],
                   list(TILES[people * 5:]))
        ui.obs, ui.screen, ui.confirm_quit = observe(state, 0), Screen.TABLE, True
        assert ui.lan is not None
        ui.lan.roster = [SeatInfo(0, "Hal", "host"), *(SeatInfo(n, f"P{n}", "human")
                                                       for n in range(1, people))]
        return ui, table

    ui, table = hosting(3)
    assert "The others play on under a new host" in draw_screen(ui, Canvas(80, 24)).text()
    assert table.leave() == "You left the table: the others play on under a new host."
    ui, table = hosting(2)  # one other person: leaving closes the table
    assert "Close the table for everyone?" in draw_screen(ui, Canvas(80, 24)).text()
    assert table.leave() == "You closed the table."
