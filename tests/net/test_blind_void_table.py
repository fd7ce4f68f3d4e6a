"""A locked table writes the deals it calls void into the hand dealt after them (issue 29), in
memory through the real codec: under ``no_double=reshuffle`` a deal where nobody holds a double
is void; every holder then reveals its key and seed for it, every side keeps its record with
the signatures of its keys, shuffles, "not me" answers and reveals, and the transcript/2 of the
hand dealt again carries it (``voided``), which ``lanomino verify`` checks as a deal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402
from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.host import blind as host_blind  # noqa: E402
from lanomino.net.host.blind import BlindDealing  # noqa: E402
from lanomino.net.host.blind_close import reveal_key  # noqa: E402
from lanomino.net.session import HandVerified, HostCaught, MatchOver, TranscriptUpdated  # noqa: E402

# hands of 2: a deal with no double in it is frequent; every hand asks "who holds 6-6?"
VOIDING = {"preset": "classic", "target": 30, "hand_size": 2, "no_double": "reshuffle",
           "next_opener": "highest-double"}


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def test_void_deals_at_a_locked_table_are_in_every_transcript_and_verify() -> None:
    table = Table(Rules.from_spec(VOIDING), 3, blind=True, seed=5)
    watcher = table.add_watcher("watcher")
    table.run(table.over)
    assert table.over()
    docs = [last_transcript(events) for events in (
        table.host_events, *(s.events for s in table.slots), watcher.events)]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    doc = docs[0]
    voided = [len(h.get("voided", [])) for h in doc["hands"]]
    assert sum(voided) >= 1, voided  # (the seed deals a void one)
    for hand, count in zip(doc["hands"], voided, strict=True):
        assert hand["record"]["attempt"] == count + 1
        for i, void in enumerate(hand.get("voided", []), start=1):
            record = void["record"]
            assert record["attempt"] == i and not record["moves"] and not record["points"]
            assert len(record["reveals"]) == len(record["holders"]) == 3
            assert len(void["not_me_signatures"]) == len(record["opening"]) == 3 * 7
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert not any(h.unchecked for h in report.hands)  # nothing left "could not check"
    assert any(h.attempts > 1 for h in report.hands)
    for events in (table.host_events, *(s.events for s in table.slots), watcher.events):
        assert not [e for e in events if isinstance(e, HostCaught)]
        over = next(e for e in events if isinstance(e, MatchOver))
        assert over.verified
        assert all(h.ok for h in events if isinstance(h, HandVerified))


def test_a_host_that_deals_again_before_a_void_deals_keys_are_out_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The host skips the void deal's reveals and deals again: the deal it would leave out of
    the file (verify could then only say it could not check it) is refused at every seat."""
    table = Table(Rules.from_spec(VOIDING), 3, blind=True, seed=2)  # (its first deal is void)
    skipped: list[int] = []

    def skips(d: BlindDealing) -> None:  # at a void deal, straight to the next attempt
        hand = d.hand
        if hand is None or not hand.void:
            reveal_key(d)
            return
        skipped.append(hand.ctx.attempt)
        d.revealed = True
        d.new_attempt()
    monkeypatch.setattr(host_blind, "reveal_key", skips)
    table.run(lambda: all(caught(s.events) for s in table.slots), max_time=600)
    for slot in table.slots:
        found = caught(slot.events)
        assert found and "attempt 2" in found[0].detail, found
    assert skipped == [1]


def caught(events: list[Any]) -> list[HostCaught]:
    return [e for e in events if isinstance(e, HostCaught) and e.check == "blind-order"]
