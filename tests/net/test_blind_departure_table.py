"""Departures from a locked hand (issue 29), in memory through the real codec: a seat that
resigns signs its resignation for the hand's record (``blind_resign``) and stays a holder until
the hand's end (its key is still needed); the match goes on, and from the next hand on that seat
follows as a watcher does, holding no key."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table, resigns_at  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, TranscriptUpdated  # noqa: E402


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


@pytest.mark.parametrize(("players", "who", "decision", "bots", "target"), [
    (4, 1, 3, 0, 40), (3, 0, 2, 0, 30), (4, "host", 2, 0, 40), (4, "host", 2, 1, 40),
    (2, 0, 2, 0, 100), (2, "host", 2, 0, 100)])  # (at two: the resignation ends the match, the
# other person wins, and the hand still settles; with a bot the host keeps a key after it
# resigned. target: past the first hand's points, so that a hand or three follow it)
def test_a_seat_that_resigns_from_a_locked_hand_is_in_its_record_and_the_match_goes_on(
        players: int, who: int | str, decision: int, bots: int, target: int) -> None:
    table = Table(Rules.preset("classic", target=target), players, bots=bots, blind=True)
    if who == "host":
        local = table.host.shared.local
        local[0] = replace(local[0], policy=resigns_at(decision, 5))
    else:
        assert isinstance(who, int)
        table.slots[who].bot = resigns_at(decision, 5)
    table.run(table.over)
    assert table.over()
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason
    for slot in table.slots:  # the seat that resigned too: it followed to the end
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
    assert table.host.blind is not None
    records = table.host.blind.records
    resigned = [r for record in records for r in record.resignations]
    assert len(resigned) == 1 and resigned[0].by == "seat"
    gone = resigned[0].seat
    assert players > 2 or host_over.winner == 1 - gone
    later = records[next(i for i, r in enumerate(records) if r.resignations) + 1:]
    assert later or players == 2  # (the match went on past the resignation's hand)
    if not bots:
        assert all(gone not in r.holders for r in later)  # no key from the next hand on
    else:  # the host opens its bot's tiles: it keeps a key
        assert all(gone in r.holders for r in later)
    docs = [last_transcript(events) for events in (table.host_events,
                                                   *(s.events for s in table.slots))]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok, report.failure
