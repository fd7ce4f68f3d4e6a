"""Leaving is deliberate: what the player is told on the way out of a local game."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lanomino.client.controller import Controller
from lanomino.engine import Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import open_store
from lanomino.ui.state import Settings, UiState


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
