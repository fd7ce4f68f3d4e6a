"""A person who leaves a locked hand IN PLAY when that leaves one side (issue 29): at a table of
two people, the other one; in a partnership game, a partner. At a fair table the leaver's
resignation ends the match, won by the side left. At a locked table the resignation would end
the hand, whose end needs every key, and the leaver's went with it: before, the host waited for
that key, gave up ("the locked deal waited in vain for seat 2") and nobody won, at the table
shape the locked deal now deals by default. Now the attempt is given up and the leaver resigned
before the next, which ends the match as the fair table's: won by the side left, the departure
in the closing statement, every seat that stayed told, and the transcript verifies."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import SHORT, Table, in_play, leave  # noqa: E402
from test_blind_dealleave import last_transcript  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, SeatLeft  # noqa: E402


def leave_in_play(rules: Rules, players: int, hand: int, quits: bool, drawing: bool = False,
                  seed: int = 1) -> Table:
    """Seat 1's person (slot 0) leaves hand ``hand`` once it has 3 moves (``drawing``: while a
    draw waits for shares): with a goodbye (``quits``) or by going silent past its grace
    period. The match runs to its end."""
    table = Table(rules, players, blind=True, seed=seed)
    locked = table.host.blind
    assert locked is not None
    due = in_play(locked, 3, drawing)
    table.run(lambda: locked.number == hand and due() or table.over())
    assert locked.number == hand and due(), f"hand {hand} never got to its 3rd move"
    leave(table, table.slots[0], quits, drawing)
    table.run(table.over)
    return table


@pytest.mark.parametrize(("hand", "quits", "drawing"),
                         [(1, False, False), (1, True, False), (2, False, True), (2, True, False)])
def test_the_other_person_leaving_a_two_person_locked_hand_ends_the_match_won_by_the_host(
        hand: int, quits: bool, drawing: bool) -> None:
    table = leave_in_play(SHORT, 2, hand, quits, drawing)
    over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert len(over) == 1 and over[0].winner == 0, over
    assert over[0].verified and not over[0].reason, over[0]
    assert [e.seat for e in table.host_events if isinstance(e, SeatLeft)] == [1]
    doc = last_transcript(table.host_events)
    end = doc["end"]
    assert end["finished"] and end["winner"] == 0 and len(doc["hands"]) == hand - 1
    assert [(d["seat"], d["by"]) for d in end["departures"]] == [(1, "left")]
    assert over[0].scores == tuple(end["scores"])
    report = verify_transcript(doc)
    assert report.ok, report.failure


def test_a_partner_who_leaves_a_hand_in_play_concedes_and_the_people_left_are_told() -> None:
    """Four people in two teams: seat 2's partner quits hand 2 in play; its side concedes. The
    two other peers get the host's result, with the same verified transcript, naming nobody."""
    table = leave_in_play(Rules.preset("partnership"), 4, 2, quits=True)
    over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert len(over) == 1 and over[0].winner == 0 and over[0].verified, over
    doc = last_transcript(table.host_events)
    for slot in table.slots[1:]:
        theirs = [e for e in slot.events if isinstance(e, MatchOver)]
        assert len(theirs) == 1 and theirs[0].winner == 0 and theirs[0].verified, theirs
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
        assert json.dumps(last_transcript(slot.events), sort_keys=True) == \
            json.dumps(doc, sort_keys=True)
    report = verify_transcript(doc)
    assert report.ok, report.failure


def test_a_person_leaving_a_three_person_hand_still_has_it_re_shuffled() -> None:
    """Two people are left: the hand goes on (the blind re-shuffle), as before."""
    table = leave_in_play(SHORT, 3, 1, quits=True)
    locked = table.host.blind
    assert locked is not None and locked.records[0].unheld is not None
    over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert len(over) == 1 and over[0].verified and not over[0].reason
