"""Whole matches at a table that deals the locked deck (net/host/blind.py, net/peer/blind.py), in
memory through the real codec: every person a holder, the host on the public view."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.blind.gate import DealLayout  # noqa: E402
from lanomino.blind.hand_check import check_blind_hand, replay_moves  # noqa: E402
from lanomino.engine import Rules, new_game  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HandVerified,
    HostCaught,
    MatchOver,
    TranscriptUpdated,
)


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def _finish(table: Table) -> None:
    table.run(table.over)
    assert table.over(), (table.host.phase, [s.session.phase for s in table.slots])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_match_at_a_locked_table_ends_verified_with_the_same_scores_everywhere(
        players: int) -> None:
    table = Table(Rules.preset("classic"), players, blind=True)
    _finish(table)
    host_over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert len(host_over) == 1 and host_over[0].verified
    scores = host_over[0].scores
    assert max(scores) >= 100
    for slot in table.slots:
        over = [e for e in slot.events if isinstance(e, MatchOver)]
        assert len(over) == 1 and over[0].verified and over[0].scores == scores
        hands = [e for e in slot.events if isinstance(e, HandVerified)]
        assert hands and all(h.ok for h in hands), [h.detail for h in hands if not h.ok]
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
    assert table.host.blind is not None
    assert len(table.host.blind.records) == host_over[0].hands
    # every seat wrote the same transcript/2, and lanomino verify accepts it
    docs = [last_transcript(events) for events in (table.host_events,
                                                   *(s.events for s in table.slots))]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    assert docs[0]["format"] == "lanomino.transcript/2" and docs[0]["end"]["finished"]
    assert len(docs[0]["hands"]) == host_over[0].hands
    report = verify_transcript(docs[0])
    assert report.ok, report.failure


@pytest.mark.parametrize(("preset", "players", "bots"), [
    ("classic", 3, 1), ("allfives", 3, 0), ("partnership", 4, 1), ("block", 2, 0)])
def test_presets_and_host_side_bots_at_a_locked_table(preset: str, players: int,
                                                      bots: int) -> None:
    table = Table(Rules.preset(preset), players, bots=bots, blind=True)
    _finish(table)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified
    for slot in table.slots:
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
    # every hand's record verifies offline, hand after hand (blind/hand_check.py)
    assert table.host.blind is not None
    before = new_game(Rules.preset(preset), players)
    for record in table.host.blind.records:
        verdict = check_blind_hand(record, before)
        assert verdict.ok, verdict.describe()
        layout = DealLayout.for_deal(record.tiles, before.active,
                                     before.rules.hand_size_for(players))
        _, before, _ = replay_moves(before, layout, verdict.tiles, record.moves, record.host)
    assert tuple(before.scores) == host_over.scores
    # the holders are the people: a host-side bot holds no key, and the host opens its tiles
    people = tuple(range(players - bots))
    assert all(r.holders == people for r in table.host.blind.records)


def test_a_watcher_follows_a_locked_table_and_checks_every_hand_as_a_seat_does() -> None:
    table = Table(Rules.preset("classic"), 3, blind=True)
    watcher = table.add_watcher("watcher")
    _finish(table)
    over = next(e for e in watcher.events if isinstance(e, MatchOver))
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert over.verified and over.scores == host_over.scores
    hands = [e for e in watcher.events if isinstance(e, HandVerified)]
    assert len(hands) == host_over.hands and all(h.ok for h in hands)
    assert last_transcript(watcher.events) == last_transcript(table.host_events)
    assert not any(isinstance(e, HostCaught) for e in watcher.events)
    assert not [m for m in watcher.inbox if m["type"] == "blind_ask"]  # (holders only)

