"""The line mode over pipes with a game saved (issue 30, item 4): ``new`` asks again and never
gives the saved game up; ``yes`` does, and History then shows it as abandoned, even with no
hand of it finished."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from linekit import LinePipe  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.localgame import LocalMatch, make_config  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402

QUESTION = "Type yes to start the new match anyway, or continue to resume the saved one."


def save_a_game(data_dir: Path) -> LocalMatch:
    """A match saved in ``data_dir``, its first hand under way (nothing of it logged yet)."""
    saved = LocalMatch(make_config(Rules.classic(), 2, ("greedy",), "You", 3))
    saved.deal()
    store = open_store(data_dir)
    store.save_game(saved.to_record())
    store.close()
    return saved


def test_new_over_a_saved_game_asks_again_and_yes_leaves_it_abandoned(tmp_path: Path) -> None:
    saved = save_a_game(tmp_path)
    pipe = LinePipe(["play", "--lines", "--pause", "0", "--data-dir", str(tmp_path)])
    try:
        pipe.until("Type new")
        pipe.send("new")
        assert pipe.until("Type yes") == QUESTION
        pipe.send("new")  # again: still a question, the saved game stays
        assert pipe.until("Type yes") == QUESTION
        pipe.send("history")
        assert "No matches" in pipe.until("No matches|#1")
        pipe.send("yes")
        pipe.until(r"^Hand 1: ")
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        pipe.kill()
    store = open_store(tmp_path)
    try:
        matches = PlayLog(store).matches()
    finally:
        store.close()
    assert len(matches) == 1, matches
    [old] = matches
    assert old.abandoned and old.hands == 0 and old.started_at == saved.started_at


def test_continue_answers_the_question_so_a_later_yes_gives_nothing_up(tmp_path: Path) -> None:
    save_a_game(tmp_path)
    pipe = LinePipe(["play", "--lines", "--pause", "0", "--data-dir", str(tmp_path)])
    try:
        pipe.until("Type new")
        pipe.send("new")
        assert pipe.until("Type yes") == QUESTION
        pipe.send("continue")  # the saved match, after all
        pipe.until(r"^Hand 1: ")
        pipe.send("yes")  # the new match is no longer waiting: nothing to say yes to
        assert pipe.until("question") == "There is no question to say yes to."
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        pipe.kill()
    store = open_store(tmp_path)
    try:
        assert PlayLog(store).matches() == []  # the saved match was not given up
        assert store.load_game() is not None
    finally:
        store.close()
