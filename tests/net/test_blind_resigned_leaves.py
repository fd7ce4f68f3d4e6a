"""A person who resigned from a locked hand (its tiles left the table, its key did not: every
draw's tile and the reveals still need it) then leaves the table in that hand (issue 29), in
memory through the real codec: it quits, or stops answering and is let go past its grace period.
The host signs that it left (``left``, after the moves so far: no second resignation, its own
stays in the record) and every side does what it does for any holder who leaves the hand in
play (``blind/leave_rule.py``): the others stand in for its key with escrow, or re-shuffle blind
the tiles nobody holds without it. The match finishes at every remaining seat with the same
transcript/2, which ``lanomino verify`` accepts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table, leave, resigns_at  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, TranscriptUpdated  # noqa: E402


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


@pytest.mark.parametrize(("escrow", "silent", "seed"), [
    (True, False, 1), (False, False, 1), (True, True, 2), (False, True, 3)])
def test_a_person_who_resigned_and_then_leaves_the_hand_costs_the_match_nothing(
        escrow: bool, silent: bool, seed: int) -> None:
    # (to 40: past the first hand's points at these seeds; three or four hands, not a dozen)
    table = Table(Rules.preset("classic", target=40), 4, blind=True, seed=seed)
    table.host.escrow = escrow
    slot = table.slots[1]  # seat 3
    slot.bot = resigns_at(2, seed)
    blind = table.host.blind
    assert blind is not None

    def resigned() -> bool:
        hand = blind.hand
        return hand is not None and hand.view is not None and hand.view.outcome is None \
            and any(r.seat == 2 for r in hand.resignations)
    table.run(lambda: resigned() or table.over())
    assert resigned(), "the hand ended before seat 3 resigned"
    leave(table, slot, quits=not silent)
    table.run(table.over)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    stayed = [s for s in table.slots if s is not slot]
    for s in stayed:
        over = next(e for e in s.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
        assert not [e for e in s.events if isinstance(e, HostCaught)]
    doc = last_transcript(table.host_events)
    assert all(json.dumps(last_transcript(s.events), sort_keys=True)
               == json.dumps(doc, sort_keys=True) for s in stayed)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    first = doc["hands"][0]
    assert len(doc["hands"]) > 1  # (the match went on past that hand)
    resignations = first["record"].get("resignations", [])
    assert [(r["seat"], r["by"]) for r in resignations] == [(2, "seat")] or any(
        d["seat"] == 2 and d["by"] == "seat" for d in first.get("departures", []))
