"""The host of a locked table (``--deal blind``, issue 29) is lost: the members elect a new host
as at a fair table, which carries the transcript/2 and the match on
(``net/host/locked_takeover.py``). In memory on a fake clock, every message through the real
codec: what can be carried on finishes at every survivor with the same verified transcript; what
cannot yet ends the match in words that say why, and never hangs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402

from lanomino.blind.deal_round import Step  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    Closed,
    HostCaught,
    MatchOver,
    MigrationDone,
    TranscriptUpdated,
)


def locked_table(players: int, seed: int, *, escrow: bool = False, bots: int = 0,
                 target: int = 150) -> MigratingTable:
    table = MigratingTable(Rules.preset("classic", target=target), players, seed=seed,
                           blind=True, bots=bots)
    host = table.by_seat(0).host
    assert host is not None
    host.escrow = escrow
    return table


def lost_host_blind(table: MigratingTable) -> Any:
    host = table.by_seat(0).host
    assert host is not None and host.blind is not None
    return host.blind


def in_deal_round(table: MigratingTable, hand: int, step: Step) -> Callable[[], bool]:
    """The lost host's deal of ``hand`` waits at ``step`` (no tile has opened yet)."""
    def due() -> bool:
        blind = lost_host_blind(table)
        return (blind.number == hand and blind.hand is not None
                and blind.hand.deal.step is step)
    return due


def last_transcript(events: list[Any]) -> dict[str, Any] | None:
    return next((e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated)),
                None)


def survivors(table: MigratingTable, lost: int = 0) -> list[Any]:
    return [m for m in table.machines if m.seat != lost and m.up]


def check_finished(table: MigratingTable, lost: int = 0) -> dict[str, Any]:
    """Every survivor finished the match, verified, with the same transcript/2; one host per
    term; nobody caught anybody."""
    docs = []
    for m in survivors(table, lost):
        over = [e for e in m.events if isinstance(e, MatchOver)]
        assert over and over[-1].verified and not over[-1].reason, (m.seat, over)
        assert not [e for e in m.events if isinstance(e, HostCaught)], m.seat
        doc = last_transcript(m.events)
        assert doc is not None and doc["end"]["finished"]
        docs.append(doc)
    assert all(d == docs[0] for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok, report.failure
    terms = [t for m in table.machines for t in m.hosted_terms]
    assert len(terms) == len(set(terms)), terms
    return docs[0]


@pytest.mark.parametrize(("players", "seed", "step"), [
    (3, 1, Step.KEYS), (4, 2, Step.KEYS), (3, 3, Step.SHUFFLE), (4, 4, Step.SHUFFLE),
    (4, 5, Step.SHARES)])
def test_a_host_lost_before_a_later_hand_opened_a_tile_is_replaced(
        players: int, seed: int, step: Step) -> None:
    """Lost after a hand's points, in the next hand's deal round (no tile open yet): the next
    seat hosts, deals that hand again locked among the people left (the lost host's seat
    resigns as its first move, signed by the new host), and the match finishes verified."""
    table = locked_table(players, seed)
    table.run(in_deal_round(table, 2, step), max_time=120)
    assert in_deal_round(table, 2, step)(), "the match ended before the second hand"
    table.crash(0)
    table.run(table.over, max_time=300)
    assert table.over()
    new = table.by_seat(1)
    assert new.hosted_terms == [1]
    assert [e for e in new.events if isinstance(e, MigrationDone)]
    doc = check_finished(table)
    second = doc["hands"][1]["record"]
    assert second["host"] == 1 and 0 not in second["holders"]
    assert second["resignations"][0] == {"seat": 0, "at": 0, "by": "left"}
    assert all(h["record"]["host"] == 0 for h in doc["hands"][:1])


def test_a_host_lost_in_a_locked_hand_in_play_ends_the_match_in_clear_words() -> None:
    """Not carried on yet (no escrow, tiles dealt): every survivor's match ends, saying why."""
    table = locked_table(4, 1)
    blind = lost_host_blind(table)
    table.run(lambda: blind.hand is not None and blind.hand.view is not None
              and len(blind.hand.moves) >= 3, max_time=120)
    table.crash(0)
    table.run(lambda: all(m.peer is None or m.peer.phase.value in ("over", "closed")
                          for m in survivors(table)), max_time=300)
    for m in survivors(table):
        said = [e.reason for e in m.events if isinstance(e, Closed | MatchOver)]
        assert said and "cannot carry on yet" in said[-1], (m.seat, said)


def test_the_lost_hosts_bots_leave_with_it_and_the_people_play_on() -> None:
    """Three people and a host-side bot: the bot's key went with the lost host, so it resigns
    with it (``left``, signed by the new host) and the two people left finish the match."""
    table = locked_table(4, 6, bots=1)
    table.run(in_deal_round(table, 2, Step.KEYS), max_time=120)
    assert in_deal_round(table, 2, Step.KEYS)()
    table.crash(0)
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    second = doc["hands"][1]["record"]
    assert [(r["seat"], r["by"]) for r in second["resignations"]] == [(0, "left"), (3, "left")]
    assert second["holders"] == [1, 2]
