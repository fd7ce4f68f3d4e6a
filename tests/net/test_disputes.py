"""A seat disputes a move the host made for it while it was at the table and in time (issue 28:
only a seat moves or resigns itself; the roster is the host's word, the dispute the seat's): the
dispute is signed by the seat's own client, passed on by the host to every seat and watcher, kept
in every transcript, listed by ``verify``; a host that keeps it to itself misses the relay
deadline (net/peer/progress.py) and is left as a silent one."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import _host_move  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from sessionkit import FAST, Table  # noqa: E402

from lanomino.engine import RESIGN, Rules, observe  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.statements import dispute_statement  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.host.session import HostSession  # noqa: E402
from lanomino.net.host.table import Phase  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HostCaught,
    HostChanged,
    MoveDisputed,
    ProtocolProblem,
    TranscriptUpdated,
)
from lanomino.net.wire import messages as m  # noqa: E402
from lanomino.net.wire.schemas import envelope  # noqa: E402

CLOCK = replace(FAST, move_s=20.0)


def marks_away_and_plays(host: HostSession, seat: int, limit: int = 1) -> list[tuple[int, int]]:
    """The host says ``seat`` (connected, its clock running) is out of time the moment its turn
    comes, and plays it as the table's bot (host-signed, listed under ``away``)."""
    play, t = host.play, host.shared
    original = play.run_local_seats
    forged: list[tuple[int, int]] = []

    def patched(fire: bool = False) -> None:
        while (t.phase is Phase.PLAY and t.state is not None and t.deal is not None
               and t.state.turn == seat and len(forged) < limit):
            target = t.seat(seat)
            target.away = True
            t.broadcast_roster()
            forged.append((t.deal.hand, len(t.deal.moves)))
            _host_move(host, seat, observe(t.state, seat).legal[0], away=True)
        original(fire)

    play.run_local_seats = patched  # type: ignore[method-assign]
    return forged


def resigns_connected(host: HostSession, seat: int, at: int) -> list[tuple[int, int]]:
    """The host says ``seat`` (connected) has left at move ``at`` and resigns it."""
    play, t = host.play, host.shared
    original = play.run_local_seats
    done: list[tuple[int, int]] = []

    def patched(fire: bool = False) -> None:
        if (not done and t.phase is Phase.PLAY and t.deal is not None and t.state is not None
                and len(t.deal.moves) >= at and t.state.active[seat]):
            roster = t.roster  # the roster lies: the seat left (the host still talks to it)
            t.roster = lambda: [replace(e, left=True, connected=False) if e.seat == seat  # type: ignore[method-assign]
                                else e for e in roster()]
            t.broadcast_roster()
            done.append((t.deal.hand, len(t.deal.moves)))
            _host_move(host, seat, RESIGN, away=False)
        original(fire)

    play.run_local_seats = patched  # type: ignore[method-assign]
    return done


def caught_by(table: MigratingTable, seat: int) -> list[HostCaught]:
    return [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]


def disputes(events: list[Any]) -> list[MoveDisputed]:
    return [e for e in events if isinstance(e, MoveDisputed)]


def last_doc(events: list[Any]) -> dict[str, Any]:
    return dict(next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated)))


def test_a_seat_marked_away_while_its_clock_runs_disputes_the_move_and_everyone_keeps_it() -> None:
    table = Table(Rules.preset("classic"), 3, seed=5, timings=CLOCK)
    watcher = table.add_watcher("w")
    forged = marks_away_and_plays(table.host, 1)
    table.run(table.over, max_time=900)
    assert forged and table.over()
    hand, index = forged[0]
    # the first, and any the table's bot made for it before its "back" came (it was here)
    said = [(d.hand, d.index, d.seat, d.resign) for d in disputes(table.host_events)]
    assert said[0] == (hand, index, 1, False)
    for slot in (*table.slots, watcher):
        assert [(d.hand, d.index, d.seat, d.resign) for d in disputes(slot.events)] == said
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
    docs = [last_doc(s.events) for s in (*table.slots, watcher)] + [last_doc(table.host_events)]
    for doc in docs:
        entry = doc["hands"][hand - 1]
        assert [(1, i) for _, i, _, _ in said] == [(d["seat"], d["index"])
                                                  for d in entry["disputes"]]
        assert all(i in entry["away"] for _, i, _, _ in said)
        report = verify_transcript(doc)
        assert report.ok, report.failure
        text = "\n".join(report.lines())
        assert f"move {index + 1} (seat 2:" in text and "DISPUTED by seat 2" in text
        assert f"{len(said)} of them disputed by their seat" in report.verdict()


def test_a_connected_seat_the_host_resigns_as_left_disputes_the_resignation() -> None:
    table = Table(Rules.preset("classic"), 3, seed=13)
    done = resigns_connected(table.host, 2, at=2)
    table.run(table.over, max_time=900)
    assert done and table.over()
    hand, index = done[0]
    said = disputes(table.slots[0].events)
    assert [(d.hand, d.index, d.seat, d.resign) for d in said] == [(hand, index, 2, True)]
    assert disputes(table.slots[1].events) == said  # its own, kept and shown too
    for doc in (last_doc(table.slots[0].events), last_doc(table.host_events)):
        assert doc["hands"][hand - 1]["disputes"][0]["index"] == index
        report = verify_transcript(doc)
        assert report.ok
        assert (f"move {index + 1} (seat 3 resigns: the host says seat 3 had left, which could "
                "not be checked; DISPUTED by seat 3") in "\n".join(report.lines())


def test_a_host_that_keeps_a_dispute_to_itself_is_left_within_the_relay_deadline() -> None:
    # (the kit's bots answer at once: without the host's own seat thinking a little, a whole match
    # could pass in no time at all; the deadline is short for the same reason)
    quick = replace(CLOCK, relay_s=0.05, bot_delay_s=0.02)
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, timings=quick)
    host = table.by_seat(0).host
    assert host is not None
    forged = marks_away_and_plays(host, 2)
    swallowed: list[float] = []
    handlers = host._handlers

    def swallow(seat: Any, body: m.Dispute, seq: int) -> None:
        swallowed.append(host.shared.now)

    handlers["dispute"] = swallow  # type: ignore[assignment]
    table.run(lambda: bool(forged) and bool(caught_by(table, 2)), max_time=300)
    proof = caught_by(table, 2)
    assert swallowed and proof[0].check == "dispute-withheld"
    assert quick.relay_s <= proof[0].at - swallowed[0] <= quick.relay_s + 0.25
    hand, index = forged[0]
    victim = table.by_seat(2)
    assert [e for e in victim.events if isinstance(e, HostChanged)]  # it left that host
    assert victim.peer is not None and index in victim.peer.disputes.held[hand]  # its own word
    # a withheld dispute is this seat's word alone (no proof the others can check): it leaves
    # that host, but does not move the table (net/peer/proofs.py): the host, still followed by a
    # majority, does not step down for its term, and the others finish the match with it
    table.run(lambda: all((x.host is not None and x.host.phase.value == "over")
                          or (x.peer is not None and x.peer.phase.value in ("over", "closed"))
                          for x in table.machines if x.seat not in (0, 2)), max_time=900)
    assert table.by_seat(0).stepped_down == [] and table.by_seat(0).hosted_terms == [0]
    for seat in (1, 3):
        assert not [e for e in table.by_seat(seat).events if isinstance(e, HostChanged)], seat


def test_a_forged_or_moved_dispute_is_refused_on_arrival_by_the_host_and_by_every_seat() -> None:
    table = Table(Rules.preset("classic"), 3, seed=5, timings=CLOCK)
    victim, other = table.slots[0], table.slots[1]  # seats 2 and 3
    victim.mute = frozenset({"dispute"})  # (its own dispute never leaves: the test sends them)
    forged = marks_away_and_plays(table.host, 1)
    table.run(lambda: bool(forged), max_time=300)
    hand, index = forged[0]
    own = victim.session.disputes.held[hand][index]  # it signed one, kept in its transcript
    move = victim.session.moves[hand][index]
    stranger = Identity.generate().sign_statement(
        dispute_statement(victim.session.digest, hand, index, 1, move))

    def to_host(signature: bytes, at: int = index) -> ProtocolProblem:
        table.host.receive(victim.sender, envelope(m.Dispute(hand, at, signature),
                                                   victim.session.term, 10_000 + at), table.now)
        return [e for e in table.host.take_events() if isinstance(e, ProtocolProblem)][-1]

    def passed_on(signature: bytes, at: int = index) -> ProtocolProblem:
        peer = other.session
        peer.receive(envelope(m.Disputed(hand, at, 1, signature), peer.term, peer.host_seq + 1),
                     table.now)
        return [e for e in peer.take_events() if isinstance(e, ProtocolProblem)][-1]

    # signed by another key: the host refuses it, and so does a seat the host passes it to
    assert to_host(stranger).code == "bad_dispute"
    assert "is not signed by seat 2" in passed_on(stranger).detail
    # the seat's own signature fits only the move it signed it for (hand, place, move): moved
    # to another place, or replayed in another hand, it is refused
    assert passed_on(own.signature, index + 1).code == "refused"
    peer = other.session
    peer.receive(envelope(m.Disputed(hand + 1, index, 1, own.signature), peer.term,
                          peer.host_seq + 1), table.now)
    assert [e for e in peer.take_events() if isinstance(e, ProtocolProblem)][-1].code == "refused"
    assert not table.host.shared.deal.disputes  # type: ignore[union-attr]
    assert hand not in other.session.disputes.held
    assert not disputes(other.events) and not disputes(table.host_events)
    assert not [e for e in other.events if isinstance(e, HostCaught)]


def test_a_seat_cannot_dispute_a_move_it_signed_itself() -> None:
    table = Table(Rules.preset("classic"), 3, seed=5)
    seat = table.slots[1].session
    table.run(lambda: any(mv["seat"] == seat.seat for mv in seat.moves.get(1, [])), max_time=300)
    mine = next(i for i, mv in enumerate(seat.moves[1]) if mv["seat"] == seat.seat)
    sig = seat.identity.sign_statement(dispute_statement(seat.digest, 1, mine, seat.seat,
                                                         seat.moves[1][mine]))
    table.host.receive(table.slots[1].sender, envelope(m.Dispute(1, mine, sig), seat.term,
                                                       seat.my_seq + 1), table.now)
    refused = [e for e in table.host.take_events() if isinstance(e, ProtocolProblem)]
    assert refused and refused[-1].code == "bad_dispute"
    who = f"seat {seat.seat + 1}"
    assert (f"{who} disputes move {mine + 1}, which {who} signed itself: its own signature on the "
            "move refutes the dispute") == refused[-1].detail
    # and a host that passes such a dispute on finds every seat refusing it
    other = table.slots[0].session
    other.receive(envelope(m.Disputed(1, mine, seat.seat, sig), other.term, other.host_seq + 1),
                  table.now)
    problems = [e for e in other.take_events() if isinstance(e, ProtocolProblem)]
    assert problems and "its own signature on the move refutes the dispute" in problems[-1].detail
    assert not other.disputes.held
    assert not table.host.shared.deal.disputes  # type: ignore[union-attr]
