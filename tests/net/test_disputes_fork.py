"""A host that passes a seat's dispute back to that seat alone shows the others another log: the
dispute counts toward the log's next head (fair/chain.py), so the next seat's signed view of the
log exposes the fork (net/peer/arrival.py), the host is voted out with the proof, and the new
host passes the dispute on to everyone (issue 28, points 2 and 3)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import disputes_to_disputer_only  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from sessionkit import FAST, Table  # noqa: E402
from test_disputes import caught_by, disputes, marks_away_and_plays  # noqa: E402
from test_host_voted_out import survivors_over  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught, HostChanged, ProtocolProblem  # noqa: E402

CLOCK = replace(FAST, move_s=20.0)


def test_a_host_that_passes_a_dispute_back_to_the_disputer_alone_is_caught_by_a_fork() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, timings=CLOCK)
    host = table.by_seat(0).host
    assert host is not None
    forged = marks_away_and_plays(host, 2)
    hidden = disputes_to_disputer_only(host)
    table.run(lambda: bool(hidden) and any(caught_by(table, s) for s in (1, 2, 3)),
              max_time=300)
    hand, index = forged[0]
    assert hidden[0] == (hand, index, 2)
    proofs = [c for s in (1, 2, 3) for c in caught_by(table, s)]
    assert proofs, "nobody caught the host"
    d = host.deal
    assert d is not None
    relayed = next(i for i, xs in d.relayed.items() if any(x.index == index for x in xs))
    proof = proofs[0]
    # the dispute counts toward head(relayed): the host signed two heads there, and the next
    # seat's move after it carries that seat's signed view of the log, which is not the
    # disputer's (or, the disputer's move, not the others')
    nxt = next(j for j in range(relayed + 1, len(d.moves)) if d.moves[j]["seat"] != 0)
    assert proof.check == "fork" and "two heads it signed" in proof.detail
    assert proof.evidence["index"] == nxt and proof.evidence["proof"]["kind"] == "fork"
    assert proof.evidence["proof"]["index"] == nxt - 1
    table.run(lambda: survivors_over(table, 0), max_time=900)
    for seat in (1, 2, 3):
        assert [e for e in table.by_seat(seat).events if isinstance(e, HostChanged)], seat
    docs = check_survivors(table, but=0)
    entry = docs[0]["hands"][hand - 1]
    assert any(d["seat"] == 2 and d["index"] == index for d in entry["disputes"])
    report = verify_transcript(docs[0])
    assert "DISPUTED by seat 3" in "\n".join(report.lines())
    assert "Caught: the host (seat 1)" in "\n".join(report.lines())


def test_a_host_that_signs_one_head_for_all_is_left_at_once_by_the_seats_not_shown_it() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, timings=CLOCK)
    host = table.by_seat(0).host
    assert host is not None
    forged = marks_away_and_plays(host, 2)
    hidden = disputes_to_disputer_only(host, fork=False)
    table.run(lambda: all(any(m.seat == s and any(isinstance(e, HostCaught) for e in m.events)
                              for m in table.machines) for s in (1, 3)), max_time=300)
    hand, index = forged[0]
    assert hidden[0] == (hand, index, 2)
    # the head the host signed after the dispute is one the seats not shown it cannot compute:
    # each leaves the host at that move (its word: no proof the file can show)
    proofs = [caught_by(table, seat) for seat in (1, 3)]
    assert all(proofs), "the seats not shown the dispute did not leave the host"
    d = host.deal
    assert d is not None
    relayed = next(i for i, xs in d.relayed.items() if any(x.index == index for x in xs))
    for proof in proofs:
        assert proof[0].check == "head" and proof[0].evidence["index"] == relayed
    assert not caught_by(table, 2)


def test_an_honest_table_agrees_on_heads_with_disputes_in_them_across_a_resync() -> None:
    # a dispute counts toward the next head at the host and every seat alike; a seat that asks
    # for a snapshot afterwards gets the dispute with its place and computes the same heads
    table = Table(Rules.preset("classic"), 3, seed=5, timings=CLOCK)
    watcher = table.add_watcher("w")
    forged = marks_away_and_plays(table.host, 1, limit=4)  # (one mid-hand, not a hand's last)
    other = table.slots[1].session  # seat 3

    def passed_on_in_play() -> bool:
        d = table.host.shared.deal
        return bool(disputes(table.slots[1].events)) and d is not None and any(
            i <= len(d.moves) for i in d.relayed)

    table.run(passed_on_in_play, max_time=300)
    d = table.host.shared.deal
    assert forged and d is not None and d.relayed
    other.dealing.ask_resync()
    table.run(table.over, max_time=900)
    assert table.over()
    for slot in (*table.slots, watcher):
        assert not [e for e in slot.events if isinstance(e, HostCaught | ProtocolProblem)]
