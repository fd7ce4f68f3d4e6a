"""A host caught cheating is voted out: every seat that holds the proof leaves it as if it had
crashed, the next member hosts, the cheat's seat resigns, and the match goes on to a verified end
(in memory, tests/net/migrationkit.py; the host patched by tests/net/hostile.py)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import (  # noqa: E402
    plays_for,
    relays_late,
    resigns,
    shows_another_move,
    silent_bot,
    two_sets,
    withholds_logs,
)
from migrationkit import MigratingTable  # noqa: E402
from sessionkit import FAST, Table  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.host.reports import longest_log  # noqa: E402
from lanomino.net.session import HostCaught, MigrationDone  # noqa: E402


def caught(table: Table) -> list[list[HostCaught]]:
    return [[e for e in s.events if isinstance(e, HostCaught)] for s in table.slots]


def survivors_over(table: MigratingTable, cheat: int) -> bool:
    machines = [m for m in table.machines if m.seat != cheat]
    return all((m.host is not None and m.host.phase.value == "over")
               or (m.peer is not None and m.peer.phase.value in ("over", "closed"))
               for m in machines)


def test_a_host_that_moves_for_a_connected_seat_is_voted_out_and_the_match_goes_on() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    host = table.by_seat(0).host
    assert host is not None
    forged = plays_for(host, 2, away=False, limit=1)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    assert forged
    for seat in (1, 2, 3):
        proof = [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]
        assert proof and proof[0].evidence["host"] == 0, seat
    new = table.by_seat(1)
    assert new.hosted_terms == [1]
    assert [e for e in new.events if isinstance(e, MigrationDone)]
    doc = check_survivors(table, but=0)[0]
    hand, index = forged[0]
    entry = doc["hands"][hand - 1]  # type: ignore[index]
    assert entry["migrated"]["host"] == 1  # type: ignore[index]
    assert {"seat": 0, "resign": True} in entry["moves"]  # type: ignore[index]
    assert len(entry["moves"]) > index  # type: ignore[arg-type]


def test_a_host_that_resigns_a_connected_seat_is_voted_out() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=5)
    host = table.by_seat(0).host
    assert host is not None
    done = resigns(host, 2, at=2)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    assert done()
    check_survivors(table, but=0)
    doc = table.by_seat(2).peer.doc  # type: ignore[union-attr]
    assert doc is not None
    assert not any(mv == {"seat": 2, "resign": True} for h in doc["hands"] for mv in h["moves"])


def test_a_host_that_withholds_a_hands_log_is_left_at_the_next_deal() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=7)
    host = table.by_seat(0).host
    assert host is not None
    withheld = withholds_logs(host)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    assert withheld and withheld[0] == 1
    for seat in (1, 2, 3):
        proof = [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]
        assert proof and proof[0].check == "log-withheld" and proof[0].evidence["hand"] == 2
    check_survivors(table, but=0)


def test_a_takeover_with_no_report_of_the_hand_starts_it_afresh_instead_of_crashing() -> None:
    stats: Counter[str] = Counter()
    assert longest_log([], 3, stats) == ([], [])  # (was: max() arg is an empty sequence)
    assert not stats


def test_a_host_bot_that_never_moves_is_noticed_within_its_budget_and_the_table_goes_on() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=9, bots=1)
    host = table.by_seat(0).host
    assert host is not None
    silent_bot(host, 3)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    budget = FAST.bot_delay_s + FAST.bot_budget_s + FAST.margin_s
    for seat in (1, 2):
        m = table.by_seat(seat)
        proof = [e for e in m.events if isinstance(e, HostCaught)]
        assert proof and proof[0].check == "turn-late", seat
        assert "seat 4, moved by the host, did not move within" in proof[0].detail
        waited = float(proof[0].detail.rsplit("within ", 1)[1].split(" s")[0])
        assert budget <= waited <= budget + 0.5  # (the kit's clock moves in 0.25 s ticks)
    check_survivors(table, but=0)


def test_a_move_relayed_late_at_a_table_of_two_is_noticed_by_its_mover_in_time() -> None:
    # (with other members to witness it, a held move is timed by all: test_held_moves.py)
    table = Table(Rules.preset("classic"), 2, seed=19)
    arrived = relays_late(table.host, 1, delay_s=FAST.relay_s + 2)
    table.run(lambda: any(caught(table)), max_time=120)
    assert arrived
    mover = table.slots[0]
    proof = [e for e in mover.events if isinstance(e, HostCaught)]
    assert proof and proof[0].check == "relay-late"
    assert table.now - arrived[0] <= FAST.relay_s + 0.5


def test_a_host_that_shows_one_seat_another_commitment_set_is_caught_before_any_reveal() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=21)
    host = table.by_seat(0).host
    assert host is not None
    done = two_sets(host, 2)
    table.run(lambda: sum(any(isinstance(e, HostCaught) for e in m.events)
                          for m in table.machines) == 3, max_time=60)
    assert done == [1]
    assert host.deal is not None and set(host.deal.current.round.secrets) <= {0}  # none revealed
    for seat in (1, 2, 3):
        proof = [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]
        assert proof[0].check == "echo"
        assert "echoed another commitment set than this seat's" in proof[0].detail
    table.run(lambda: survivors_over(table, 0), max_time=900)
    check_survivors(table, but=0)


def test_a_host_that_shows_one_seat_another_move_of_its_own_is_caught_at_that_seats_move() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=23)
    host = table.by_seat(0).host
    assert host is not None
    done = shows_another_move(host, 2)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    assert done
    proof = [e for e in table.by_seat(2).events if isinstance(e, HostCaught)]
    # at the next seat's move: its signed view of the log is not the victim's, and the host
    # signed both heads
    assert proof and proof[0].check == "fork" and "two heads it signed" in proof[0].detail
    assert proof[0].evidence["host"] == 0 and proof[0].evidence["index"] == done[0][1] + 1
    check_survivors(table, but=0)
