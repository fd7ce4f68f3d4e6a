"""Per-connection budgets and deferred expensive answers (lanomino.net.budget)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.budget import (  # noqa: E402
    RESYNC,
    SEATED,
    UNSEATED,
    Bucket,
    Budgets,
    Deferrals,
    Limit,
)
from lanomino.net.wire.messages import Resync  # noqa: E402


def test_bucket_spends_its_burst_then_refills_at_its_rate() -> None:
    bucket = Bucket.full(Limit(rate_per_s=2.0, burst=3.0), now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.ready_at(0.0) == pytest.approx(0.5)
    assert not bucket.take(0.49)
    assert bucket.take(0.5)
    assert not bucket.take(0.5)
    assert bucket.take(100.0) and bucket.tokens == pytest.approx(2.0)  # never above the burst


def test_limit_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        Limit(rate_per_s=0.0, burst=1.0)
    with pytest.raises(ValueError):
        Limit(rate_per_s=1.0, burst=0.5)


def test_unseated_connection_gets_a_small_budget_and_a_seated_one_a_large_one() -> None:
    budgets = Budgets()
    stranger = sum(budgets.admit(b"a", seated=False, now=0.0) for _ in range(1000))
    member = sum(budgets.admit(b"b", seated=True, now=0.0) for _ in range(1000))
    assert stranger == UNSEATED.burst
    assert member == SEATED.burst
    assert budgets.dropped == 2000 - stranger - member
    # one second later each has its rate back, not more
    assert (
        sum(budgets.admit(b"a", seated=False, now=1.0) for _ in range(100)) == UNSEATED.rate_per_s
    )


def test_a_joiner_is_admitted_while_other_connections_flood() -> None:
    budgets = Budgets()
    for now in range(5):
        for flooder in range(40):
            for _ in range(100):
                budgets.admit(flooder, seated=False, now=float(now))
    assert budgets.admit("joiner", seated=False, now=5.0)  # hello
    assert budgets.admit("joiner", seated=False, now=5.1)  # auth


def test_taking_a_seat_switches_to_the_seated_budget() -> None:
    budgets = Budgets()
    while budgets.admit(b"c", seated=False, now=0.0):
        pass
    assert budgets.admit(b"c", seated=True, now=0.0)


def test_memory_is_bounded_by_the_number_of_connections_kept() -> None:
    budgets = Budgets(max_connections=8)
    for n in range(10_000):
        budgets.admit(n, seated=False, now=0.0)
    assert len(budgets) == 8


def test_expensive_answers_over_budget_are_owed_once_and_answered_when_due() -> None:
    d = Deferrals(Limit(rate_per_s=0.2, burst=2.0))
    assert d.ask(1, 0.0) and d.ask(1, 0.0)
    assert not any(d.ask(1, 0.1) for _ in range(1000))  # owed, once
    assert d.ask(2, 0.1)  # another seat has its own budget
    due = d.next_due(0.1)
    assert due == pytest.approx(5.0)
    assert d.due(4.9) == []
    assert d.due(5.0) == [1]
    assert d.due(5.0) == [] and d.next_due(5.0) is None


def test_a_seat_that_left_is_owed_nothing() -> None:
    d = Deferrals(RESYNC)
    for _ in range(5):
        d.ask(3, 0.0)
    d.forget(3)
    assert d.next_due(0.0) is None and d.due(100.0) == []


def test_a_host_answers_a_resync_flood_with_few_snapshots() -> None:
    """Two snapshots at once, then one owed answer per window, however many resyncs came in."""
    table = Table(Rules.preset("classic", target=100), 2, seed=4)
    table.run(lambda: table.host.phase.value == "play")
    slot = table.slots[0]
    session = slot.session
    for _ in range(100):
        session._send(Resync())
    for message in session.take_outgoing():
        table.to_host(slot, message)
    sent = [o for o in table.host.take_outgoing() if o.message["type"] == "snapshot"]
    assert len(sent) == RESYNC.burst
    due = table.host.next_deadline()
    assert due is not None and due <= table.now + RESYNC.refill_s
    table.host.handle_timer(table.now + RESYNC.refill_s)
    later = [o for o in table.host.take_outgoing() if o.message["type"] == "snapshot"]
    assert len(later) == 1  # the 98 others were one owed answer


def test_a_watcher_gets_a_small_budget_between_a_joiner_and_a_seat() -> None:
    from lanomino.net.budget import WATCHING

    budgets = Budgets()
    watcher = sum(budgets.admit("w", "watching", 0.0) for _ in range(100))
    joiner = sum(budgets.admit("j", False, 0.0) for _ in range(100))
    seat = sum(budgets.admit("s", True, 0.0) for _ in range(100))
    assert watcher == WATCHING.burst and joiner < watcher < seat
    assert budgets.admit("w", "watching", 1.0)  # it refills: pings keep flowing
