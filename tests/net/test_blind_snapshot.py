"""A locked table sends a snapshot (issue 29), in memory through the real codec: a holder whose
program restarted comes back on a new connection within its grace period, rebuilds its hand from
the public statements and its own key, and plays on; a watcher who arrives mid-match follows it;
a snapshot that does not hold names the host."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import PeerSlot, Table, in_play  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify2 import verify_transcript2  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HostCaught,
    MatchOver,
    SecretMade,
    TranscriptUpdated,
)


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def restart(table: Table, old: PeerSlot, curve_n: int) -> PeerSlot:
    """``old``'s program dies; a new one with the same identity and kept secrets joins."""
    old.connected = False
    saved = {(e.table, e.hand, e.attempt): e.secret
             for e in old.events if isinstance(e, SecretMade)}
    table.slots.remove(old)
    return table.add_peer(old.session.name, identity=old.session.identity, curve_n=curve_n,
                          secrets=saved, seed=curve_n)


def test_a_restarted_holder_rebuilds_its_hand_and_the_match_finishes_verified() -> None:
    table = Table(Rules.preset("classic", target=60), 3, blind=True, seed=3)
    blind = table.host.blind
    table.run(in_play(blind, 3))
    old = table.slots[0]
    seat = old.session.seat
    held = set(old.session.view.hand)
    new = restart(table, old, 42)
    table.run(lambda: new.session.blind.hand is not None and new.session.view is not None)
    assert new.session.seat == seat
    assert set(new.session.view.hand) == held
    table.run(table.over)
    assert table.over()
    docs = [last_transcript(table.host_events), *(last_transcript(s.events) for s in table.slots)]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    assert verify_transcript2(docs[0]).ok and docs[0]["end"]["finished"]
    for slot in table.slots:
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
        assert next(e for e in slot.events if isinstance(e, MatchOver)).verified
