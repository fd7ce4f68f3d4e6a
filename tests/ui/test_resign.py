"""Resigning from a local match of three or four: the computer players finish it, the standings
show, and the saved game lasts exactly as long as the match."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lanomino.client.controller import Controller
from lanomino.client.local import play_out
from lanomino.engine import RESIGN, Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import open_store
from lanomino.ui.screens import render_screen
from lanomino.ui.settings import Settings
from lanomino.ui.state import FinishMatch, LeaveTable, ResignMatch, Screen, UiState


def text(ui: UiState) -> str:
    return "".join(t for _, t in render_screen(ui, 80, 24))


def three_player_match(seed: int = 5) -> LocalMatch:
    return LocalMatch(make_config(Rules.classic(target=60), 3, ("random",), "Me", seed))


def test_play_out_finishes_a_resigned_match_with_the_computer_seats() -> None:
    match = three_player_match()
    match.deal()
    match.apply(0, RESIGN)
    events = play_out(match)
    assert match.is_over and events
    assert match.state.outcome is not None and match.state.outcome.winner in (1, 2)


def test_resigning_with_three_players_lets_the_others_finish_then_shows_the_standings(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path)
    writer = ThreadPoolExecutor(max_workers=1)
    ui = UiState(settings=Settings(pause_s=0.0))
    controller = Controller(ui, store, writer, seed=None)

    async def main() -> None:
        controller.open_local(three_player_match())
        controller.handle(ResignMatch())
        assert ui.screen is Screen.TABLE and ui.resigned and ui.match_result is None
        assert "You resigned: the others play on" in text(ui)
        await asyncio.sleep(0.05)
        assert writer.submit(store.has_saved_game).result(), "the save must outlive the resignation"
        controller.handle(FinishMatch())
        for _ in range(200):
            if ui.match_result is not None:
                break
            await asyncio.sleep(0.02)

    try:
        asyncio.run(main())
        assert ui.match_result is not None and not ui.finishing
        screen = text(ui)
        # the two who played on are ranked; you are marked as resigned, not ranked above them
        assert "The match is over: " in screen and "1. " in screen and "2. " in screen
        assert "3. " not in screen and re.search(r"- +You \(resigned\) +0 pts", screen)
        assert not writer.submit(store.has_saved_game).result(), "a finished match leaves no save"
        controller.handle(LeaveTable())
        assert ui.screen is Screen.MENU and not ui.has_saved_game and not ui.resigned
    finally:
        controller.close()
        writer.shutdown(wait=True)
        store.close()


def test_leaving_while_watching_keeps_the_game_to_continue(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    writer = ThreadPoolExecutor(max_workers=1)
    ui = UiState(settings=Settings(pause_s=0.0))
    controller = Controller(ui, store, writer, seed=None)

    async def main() -> None:
        controller.open_local(three_player_match(seed=9))
        controller.handle(ResignMatch())
        controller.handle(LeaveTable())

    try:
        asyncio.run(main())
        assert ui.screen is Screen.MENU and ui.has_saved_game
        assert writer.submit(store.has_saved_game).result()
        saved = writer.submit(store.load_game).result()
        resumed = LocalMatch.from_record(saved)
        assert not resumed.state.active[0] and not resumed.is_over
    finally:
        controller.close()
        writer.shutdown(wait=True)
        store.close()
