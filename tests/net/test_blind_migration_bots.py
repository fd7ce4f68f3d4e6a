"""A locked table without escrow with a host-side bot, its host lost in a hand in play (issue
29). The bot's tiles were opened by the host that dealt the hand, so they leave with it: the
survivors re-shuffle blind the tiles nobody holds, the bot's among them, and finish the match.
Before, ``lanomino verify`` took the bot's tiles for the new host's (the record's host) and
found the transcript NOT FAIR, naming the new host ("the record lacks a lost holder's share of a
tile a survivor held"); it now takes them for the dealer's (``hand_check.dealer_of``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_blind_migration import check_finished, last_transcript, locked_table, mid_hand  # noqa: E402

from lanomino.client.replay import document_view  # noqa: E402


@pytest.mark.parametrize(("seed", "moves", "drawing"), [(1, 2, False), (2, 3, True), (3, 5, False)])
def test_a_lost_hosts_bot_goes_with_it_and_the_transcript_verifies(
        seed: int, moves: int, drawing: bool) -> None:
    table = locked_table(4, seed, bots=1)
    due = mid_hand(table, moves, drawing)
    table.run(due, max_time=120)
    assert due(), "the first hand ended before the host could be lost"
    table.crash(0)
    table.run(table.over, max_time=300)
    doc = check_finished(table)  # (every survivor's transcript verifies: the fix is there)
    first = doc["hands"][0]["record"]
    assert first["host"] == 1 and "unheld" in first and 0 in first["unheld"]["lost"]
    view = document_view(doc, "a locked match its host left")  # (a replay walks it too)
    assert len(view.hands) == len(doc["hands"])
    survivor = table.by_seat(1)
    assert last_transcript(survivor.events) == doc
