"""End to end in tmux at 80x24: what a newcomer met on a second evening (issue 30): a new game
asked for on the command line over a saved one, the hint and the footer at the table."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from test_tmux_play import ROOT, TILE, Tmux, wait_for

from lanomino.engine import Rules
from lanomino.localgame import LocalMatch, make_config
from lanomino.store import open_store

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def save_a_game(data: Path) -> LocalMatch:
    """A local match saved in ``data`` in the middle of its first hand, as Ctrl-C leaves one."""
    match = LocalMatch(make_config(Rules.classic(), 2, ("greedy",), "You", 3))
    match.deal()
    store = open_store(data)
    try:
        store.save_game(match.to_record())
    finally:
        store.close()
    return match


def start(tmux: Tmux, data: Path, args: str) -> None:
    play = f"cd {ROOT} && {sys.executable} -m lanomino play {args} --data-dir {data}"
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{play}; sleep 30")
    tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()


@pytest.mark.parametrize("args", ["--rules allfives", "--seed 5"])
def test_a_new_game_from_the_command_line_over_a_saved_one_asks_first(tmp_path: Path,
                                                                      args: str) -> None:
    save_a_game(tmp_path)
    tmux = Tmux()
    try:
        start(tmux, tmp_path, args)
        asked = wait_for(tmux, "y start anyway", 20)
        assert "Traceback" not in asked
        assert "A saved game is waiting" in asked
        game = "All Fives to 150" if "allfives" in args else "Draw game to 100"
        assert game in asked, asked
        tmux.keys("n")
        menu = wait_for(tmux, "What would you like to do?", 10)
        assert "Continue the saved game" in menu and "The saved game is kept" in menu
        tmux("respawn-pane", "-k", "-t", "play",
             f"cd {ROOT} && {sys.executable} -m lanomino play {args} --data-dir {tmp_path}")
        wait_for(tmux, "y start anyway", 20)
        tmux.keys("y")
        wait_for(tmux, "Your hand", 20)
    finally:
        tmux.kill()


def hand_marks(screen: str) -> list[tuple[str, str]]:
    """(tile "a-b", the mark under it) for each tile of your hand, as the screen shows them."""
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if "Your hand" in line)
    tiles, marks = lines[at + 1], lines[at + 2].ljust(len(lines[at + 1]))
    return [(f"{m.group(1)}-{m.group(2)}", marks[m.start() + 2])
            for m in TILE.finditer(tiles)]


def test_the_hint_selects_its_tile_and_a_tile_that_does_not_fit_looks_it(tmp_path: Path) -> None:
    tmux = Tmux()
    try:
        start(tmux, tmp_path, "--seed 6 --level greedy --pause 0.05")
        screen = wait_for(tmux, "your turn", 20)
        footer = screen.rstrip().splitlines()[-1]
        assert "h hint" in footer and "u undo" in footer, footer
        for _ in range(10):  # to the first tile, 0-0: it fits nowhere here (6-x is wanted)
            if hand_marks(screen)[0][1] in "▲×":
                break
            tmux.keys("Left")
            time.sleep(0.1)
            screen = tmux.screen()
        first, mark = hand_marks(screen)[0]
        assert (first, mark) == ("0-0", "×"), hand_marks(screen)
        assert "▲" not in [m for _, m in hand_marks(screen)]
        tmux.keys("h")
        said = wait_for(tmux, "Expert would play", 20)
        hinted = re.search(r"Expert would play (\d-\d)", said)
        assert hinted is not None
        marks = dict(hand_marks(said))
        assert marks[hinted.group(1)] == "▲", hand_marks(said)  # the hint's tile is selected
        assert "×" not in marks.values()
        tmux.keys("Enter")  # plays it (after "Play where?" when it fits two places)
        deadline = time.monotonic() + 10
        while hinted.group(1) in dict(hand_marks(screen := tmux.screen())):
            assert time.monotonic() < deadline, "Enter did not play the hinted tile"
            if "Play where?" in screen:
                tmux.keys("1")
            time.sleep(0.05)
    finally:
        tmux.kill()


def test_history_at_80x24_hides_nothing_and_stats_count_what_it_lists(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    from test_evening_columns import logged_history

    logged_history(tmp_path)  # a finished match with a hint and an undo, one left unfinished
    tmux = Tmux()
    try:
        start(tmux, tmp_path, "")
        wait_for(tmux, "What would you like to do?", 20)
        tmux.keys("h")
        listed = wait_for(tmux, "Checked", 20)  # (the column titles: the History screen is up)
        assert "(hint+undo)" in listed, listed  # the row goes on to a second line
        assert all(len(line) <= 80 for line in listed.splitlines())
        tmux.keys("Tab")
        stats = wait_for(tmux, "Matches 2 (1 not finished)", 10)
        assert "won " in stats
    finally:
        tmux.kill()
