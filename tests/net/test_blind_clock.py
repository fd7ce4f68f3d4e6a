"""Deadlines at a table that deals the locked deck (issue 29), in memory through the real codec:
each seat times the host's next deal, and the move clock's bot for a seat runs in that seat's
own client (net/peer/blind_clock.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import HostCaught, TranscriptUpdated  # noqa: E402


def caught(table: Table, check: str) -> list[list[HostCaught]]:
    return [[e for e in s.events if isinstance(e, HostCaught) and e.check == check]
            for s in table.slots]


def test_a_host_that_never_deals_the_next_locked_hand_is_left_as_silent() -> None:
    table = Table(Rules.preset("classic"), 3, blind=True)
    blind = table.host.blind
    assert blind is not None
    first, calls = blind.start_hand, []

    def holds_back() -> None:  # the first hand is dealt as usual; the host holds back the next
        calls.append(1)
        if len(calls) == 1:
            first()
    blind.start_hand = holds_back  # type: ignore[method-assign]
    table.run(lambda: all(caught(table, "blind-late")), max_time=120)
    for slot, late in zip(table.slots, caught(table, "blind-late"), strict=True):
        assert late, [type(e).__name__ for e in slot.events]
        # it came after the first hand's points, within the deadline on the host's progress
        ended = max(i for i, e in enumerate(slot.events) if isinstance(e, TranscriptUpdated))
        assert slot.events.index(late[0]) > ended
        assert not caught(table, "blind-order")[0]
