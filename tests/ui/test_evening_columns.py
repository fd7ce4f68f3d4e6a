"""Nothing cut at 80 columns (issue 30 item 23) and stats that agree with History (item 24)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))

from playkit import local_players, play_local  # noqa: E402

from lanomino.commands.tables import table_lines  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402
from lanomino.ui.history import (  # noqa: E402
    HistoryView,
    draw_history,
    history_row,
    last_said,
    stats_lines,
)
from lanomino.ui.render import Canvas  # noqa: E402


def logged_history(tmp_path: Path) -> HistoryView:
    """A finished match played with a hint and an undo, and one left after its first hand."""
    store = open_store(tmp_path)
    try:
        log = PlayLog(store)
        done = play_local(3, level="greedy")
        log.log_match(done.record.to_json(), uid=f"local:{done.uid}", me=0,
                      players=local_players(done), started_at=1_700_000_000.0,
                      assists=["hint", "undo"])
        left = play_local(4, Rules.classic(target=300), stop_after_hands=1)
        log.log_match(left.record.to_json(), uid=f"local:{left.uid}", me=0,
                      players=local_players(left), started_at=1_700_000_100.0)
        return HistoryView([m.to_json() for m in log.matches()], log.stats().to_json())
    finally:
        store.close()


def test_a_history_row_goes_on_to_a_second_line_rather_than_hide_the_help(tmp_path: Path) -> None:
    view = logged_history(tmp_path)
    done = view.rows[1]
    lines = history_row(done)
    assert all(len(line) <= 78 for line in lines)
    assert "(hint+undo)" in "\n".join(lines) and "…" not in "\n".join(lines), lines
    canvas = Canvas(80, 24)
    view.selected = 1
    draw_history(view, canvas)
    assert "(hint+undo)" in canvas.text()


def test_a_history_message_is_shown_whole(tmp_path: Path) -> None:
    view = logged_history(tmp_path)
    view.message = ("Cannot replay match #2: the transcript does not verify: hand 2: the host "
                    "published a secret for seat 3 that does not open its commitment.")
    canvas = Canvas(80, 24)
    draw_history(view, canvas)
    shown = " ".join(line.strip() for line in canvas.text().splitlines())
    assert view.message in " ".join(shown.split())


def test_stats_count_every_match_history_lists(tmp_path: Path) -> None:
    view = logged_history(tmp_path)
    assert view.stats is not None and len(view.rows) == 2
    assert view.stats["played"] == 2 and view.stats["matches"] == 1
    assert stats_lines(view.stats)[0].startswith("Matches 2 (1 not finished) · won ")


def test_the_replays_last_lines_start_where_their_sentences_start() -> None:
    texts = ("Hand 1: you to open with 6-6; 14 tiles in the boneyard.",
             "Ana played 6-4 on the right: 4 showing, and the line is now long enough to wrap.",
             "You played 4-2 on the right: 2 showing.")
    shown = last_said(texts, 40, 3)
    assert shown[0].startswith("Ana played") and shown[-1].endswith("2 showing.")
    assert last_said(("one long " * 20,), 40, 2)[0].startswith("one long")


def test_tables_lines_fit_80_columns() -> None:
    table = {"name": "The kitchen table by the window", "rules": "allfives", "seats": "1/4",
             "host": "fa6c9a80f98bc128", "fingerprint": "ad53-b143-7e1c-0a9d",
             "address": "192.168.100.200:47000/abcd1234", "passphrase": True}
    lines = table_lines(table)
    assert len(lines) == 2 and all(len(line) <= 78 for line in lines)
    assert " ".join(" ".join(lines).split()) == (  # the host as its screen shows it (item 16)
        "The kitchen table by the window · allfives · 1/4 seats (passphrase) · "
        "192.168.100.200:47000/abcd1234 · fingerprint ad53-b143-7e1c-0a9d")


def test_a_headless_hosts_lines_fit_80_columns(tmp_path: Path) -> None:
    """Item 23: the headless host printed its address (a full key: 73 columns alone) and the
    join command after words on one line, which a terminal of 80 columns broke mid-key."""
    import subprocess

    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--bind", "127.0.0.1",
         "--no-announce", "--seats", "2", "--name", "The kitchen table by the window",
         "--data-dir", str(tmp_path)],
        cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        lines = [host.stdout.readline().rstrip("\n") for _ in range(5)]
    finally:
        host.terminate()
        host.communicate(timeout=10)
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[0] == "table 'The kitchen table by the window' is open at", lines
    assert lines[1].startswith("  127.0.0.1:") and lines[2].startswith("  host key fingerprint ")
    assert lines[3] == "others join or watch with:" and " join 127.0.0.1:" in lines[4], lines


def test_the_hands_won_add_up_in_stats(tmp_path: Path) -> None:
    """'Hands 2 · you won 2: 0 by domino, 1 by block': a hand won because the other player left
    (or, in All Fives, at the target) was counted and not said."""
    from playkit import log_local

    from lanomino.engine import RESIGN
    from lanomino.localgame import LocalMatch, make_config

    match = LocalMatch(make_config(Rules.classic(target=30), 2, ("greedy",), "You", 3))
    match.deal()
    while match.state.turn != 1:
        match.apply(0, match.observe(0).legal[0])
    match.apply(1, RESIGN)  # the computer gives up: you win the hand and the match
    store = open_store(tmp_path)
    try:
        log = PlayLog(store)
        log_local(log, match)
        stats = log.stats().to_json()
    finally:
        store.close()
    assert stats["hands_won"] == 1 and stats["won_by_resignation"] == 1, stats
    line = stats_lines(stats)[1]
    assert "you won 1: 0 by domino, 0 by block, 1 when the others resigned or left" in line, line
