"""Host migration in memory on a fake clock: the host crashes (or leaves) and the table goes on."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import MigrationDone  # noqa: E402


def _in_play_of_hand(table: MigratingTable, hand: int, moves: int) -> bool:
    h = table.by_seat(0).host
    assert h is not None
    return h.deal is not None and h.deal.hand == hand and h.phase.value == "play" and len(h.deal.moves) >= moves


def check_survivors(table: MigratingTable) -> None:
    """Every live machine finished with the same verified transcript; one host per term."""
    docs = []
    for m in table.machines:
        if not m.up:
            continue
        doc = m.host.doc if m.host is not None else m.peer.doc  # type: ignore[union-attr]
        assert doc is not None and doc["end"]["finished"], m.seat
        report = verify_transcript(doc)
        assert report.ok, report.failure
        docs.append(doc)
    assert all(d == docs[0] for d in docs)
    terms = [t for m in table.machines for t in m.hosted_terms]
    assert len(terms) == len(set(terms)), terms


def test_the_host_crashes_mid_hand_and_the_next_seat_rebuilds_the_hand_from_escrow() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    table.run(lambda: _in_play_of_hand(table, 2, 3))
    host = table.by_seat(0).host
    assert host is not None and host.deal is not None
    before = list(host.deal.moves)
    table.crash(0)
    table.run(table.over)
    assert table.over()
    new = table.by_seat(1)
    assert new.host is not None and new.hosted_terms == [1]
    done = [e for e in new.events if isinstance(e, MigrationDone)]
    assert done and done[0].rebuilt
    doc = new.host.doc
    assert doc is not None
    hand2 = doc["hands"][1]
    assert hand2["moves"][:len(before)] == before  # no move lost, none applied twice
    assert hand2["migrated"]["host"] == 1 and hand2["migrated"]["term"] == 1
    assert {"seat": 0, "resign": True} in hand2["moves"]
    check_survivors(table)
