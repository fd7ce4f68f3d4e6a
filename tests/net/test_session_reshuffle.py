"""A migration whose escrow cannot be rebuilt: the survivors re-shuffle the unknown tiles (in
memory, on a fake clock). Four people; seat 1 leaves mid-hand and the host dies before it re-splits
the escrow, so seat 1's share is gone with it; seats 2 and 3 carry on."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import MigrationDone  # noqa: E402


def _in_play(table: MigratingTable, hand: int, moves: int) -> bool:
    h = table.by_seat(0).host
    assert h is not None
    return (h.deal is not None and h.deal.hand == hand and h.phase.value == "play"
            and len(h.deal.moves) >= moves)


def lose_host_and_a_holder(
    seed: int, hand: int = 2, moves: int = 4
) -> tuple[MigratingTable, list[Any], dict[int, set[Any]]]:
    """Seat 1 quits mid-hand; the host resigns it but dies before re-splitting the escrow."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=seed)
    table.run(lambda: _in_play(table, hand, moves))
    host = table.by_seat(0).host
    assert host is not None and _in_play(table, hand, moves)
    table.crash(1)
    host.dealing.split_escrow = lambda: None  # type: ignore[method-assign]  # it dies before the re-split
    host.play.seat_left(1, "quit")
    table.step()  # the roster and the resignation reach seats 2 and 3
    table.crash(0)
    assert host.deal is not None
    before = list(host.deal.moves)
    hands = {s: set(table.by_seat(s).peer.view.hand) for s in (2, 3)}  # type: ignore[union-attr]
    return table, before, hands


@pytest.mark.parametrize("seed", [3, 5])
def test_the_unknown_tiles_are_reshuffled_when_a_share_is_lost_with_the_host(seed: int) -> None:
    table, before, hands = lose_host_and_a_holder(seed)
    new = table.by_seat(2)
    table.run(lambda: new.host is not None
              and any(isinstance(e, MigrationDone) for e in new.events), max_time=30)
    assert new.host is not None and new.host.state is not None
    done = [e for e in new.events if isinstance(e, MigrationDone)]
    assert done and done[0].rebuilt
    assert new.host.deal is not None and new.host.deal.reshuffled is not None
    assert new.host.deal.moves[:len(before)] == before  # the move log is intact
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    doc = new.host.doc
    assert doc is not None
    entry = doc["hands"][1]
    assert entry["moves"][:len(before)] == before
    r = entry["reshuffled"]
    assert r["at"] == len(before) == entry["migrated"]["at"] and r["host"] == 2 and r["term"] == 1
    assert [c["seat"] for c in r["claims"]] == [2, 3] and len(r["secrets"]) == 2
    assert all(d["secrets"] == [] for d in entry["deals"])
    for claim in r["claims"]:  # the survivors kept their hands: what they claimed is what they held
        seat = claim["seat"]
        played = {m["play"] for m in before if m["seat"] == seat and "play" in m}
        assert {str(t) for t in hands[seat]} == (set(claim["dealt"]) | set(claim["drawn"])) - played
    assert {"seat": 0, "resign": True} in entry["moves"][len(before):]
