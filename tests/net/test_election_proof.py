"""Only proof moves a table: a seat leaves its host on proof it checked itself, and no seat's word
moves the others (in memory, tests/net/migrationkit.py).

A seat that says "the host is caught" without proof (a patched client) leaves that host alone: it
may even host a newer term and announce it, but the host, still heard by a majority, keeps the
table, and the other seats, who hold no proof, never vote. A proof one member sends the others is
checked by each before it moves anyone (net/peer/proof_passing.py): one that does not hold is
refused. A host whose signed hand log fails the seats' checks is voted out by every seat that
checked it, and the new host deals that hand again with fresh secrets."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import false_score  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.peer.session import PeerSession  # noqa: E402
from lanomino.net.session import HostCaught, HostChanged  # noqa: E402
from lanomino.net.wire.messages import Proof  # noqa: E402
from lanomino.net.wire.schemas import envelope  # noqa: E402


def claims_caught(peer: PeerSession, seat: int, after: int) -> list[float]:
    """Patch ``peer`` to say its host is caught, with no proof, if it sits at ``seat``, once it
    holds ``after`` moves of a hand (as a client edited to lie would). Returns when it did."""
    receive, said = peer.receive, []

    def patched(message: Any, now: float) -> None:
        receive(message, now)
        if not said and peer.seat == seat and len(peer.moves.get(peer.hand, [])) >= after:
            said.append(now)
            peer.caught.append(HostCaught("fork", "made up", {"check": "fork", "host": 0}, now))
            peer.elections.vote_out(now)

    peer.receive = patched  # type: ignore[method-assign]
    return said


def over(table: MigratingTable, seats: list[int]) -> bool:
    machines = [m for m in table.machines if m.seat in seats]
    return len(machines) == len(seats) and all((m.host is not None and m.host.phase.value == "over")
               or (m.peer is not None and m.peer.phase.value in ("over", "closed"))
               for m in machines)


def test_a_lone_seat_that_claims_the_host_is_caught_does_not_move_the_table() -> None:
    # seat 1 is next in the succession: its claim makes it a candidate that announces term 1
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    # (seats are taken as they join: whichever peer sits at seat 2 lies)
    said = [claims_caught(m.peer, 1, after=3) for m in table.machines[1:]
            if m.peer is not None]
    table.run(lambda: over(table, [0, 2, 3]), max_time=900)
    assert [when for lie in said for when in lie]
    host = table.by_seat(0)
    assert host.host is not None and host.host.phase.value == "over", host.host
    assert host.stepped_down == [] and host.hosted_terms == [0]
    for seat in (2, 3):  # no proof reached them: they never voted, never followed another host
        events = table.by_seat(seat).events
        assert not [e for e in events if isinstance(e, (HostCaught, HostChanged))], seat
    assert table.by_seat(1).hosted_terms == [1]  # the liar hosted its own term, alone
    doc = host.host.doc
    assert doc is not None and doc["end"]["finished"]
    # the liar's seat left the table it walked out of; nobody else did
    resigned = {mv["seat"] for h in doc["hands"] for mv in h["moves"] if mv.get("resign")}
    assert resigned == {1}


def test_a_host_refuted_at_a_hands_end_is_voted_out_and_the_hand_dealt_again() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    host = table.by_seat(0).host
    assert host is not None
    cheated = false_score(host)
    seat2 = table.machines[1]
    table.run(lambda: any(isinstance(e, HostCaught) for e in seat2.events), max_time=900)
    assert seat2.member is not None and seat2.member.peer.doc is not None
    refuted = seat2.member.peer.doc["hands"][0]  # (its own copy: it may host already)
    table.run(lambda: over(table, [1, 2, 3]), max_time=900)
    assert cheated == [1]
    for seat in (1, 2, 3):
        proof = [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]
        assert [(e.check, e.evidence["host"]) for e in proof] == [("hand-check", 0)], seat
        assert "score" in proof[0].detail and "the host (seat 1)" in proof[0].detail
    assert table.by_seat(1).hosted_terms == [1]
    doc = check_survivors(table, but=0)[0]
    again = doc["hands"][0]
    assert again["host"] == 1 and refuted["host"] == 0  # dealt again by the new host
    old = {s for a in refuted["deals"] for s in a["secrets"]}
    new = {s for a in again["deals"] for s in a["secrets"]}
    assert not old & new  # with fresh secrets: the refuted hand's were published


def test_a_proof_that_does_not_hold_is_refused_and_moves_nobody() -> None:
    """A member sends the others a fork 'proof' whose second head the host never signed: each
    checks it, refuses it (``dropped.false_proof``), and stays with its host."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    sent: list[bool] = []

    def forge(peer: PeerSession) -> None:
        receive = peer.receive

        def patched(message: Any, now: float) -> None:
            receive(message, now)
            chain = peer.arrival.head(peer.hand)
            signed = peer.arrival.signed.get(peer.hand, {})
            if sent or peer.seat != 1 or not chain or 0 not in signed:
                return
            sent.append(True)
            fake = {"kind": "fork", "host": 0, "hand": peer.hand, "index": 0,
                    "heads": [[chain[0].hex(), signed[0].hex()], ["ab" * 32, "cd" * 64]]}
            for seat in (2, 3):
                peer.passing._out.append((seat, envelope(Proof(fake), peer.term, 0)))

        peer.receive = patched  # type: ignore[method-assign]

    for m in table.machines[1:]:
        assert m.peer is not None
        forge(m.peer)
    table.run(lambda: over(table, [0, 1, 2, 3]), max_time=900)
    assert sent
    assert table.by_seat(0).hosted_terms == [0] and table.by_seat(0).stepped_down == []
    for seat in (2, 3):
        peer = table.by_seat(seat).peer
        assert peer is not None
        assert peer.stats["dropped.false_proof"] == 1, seat
        assert not [e for e in table.by_seat(seat).events
                    if isinstance(e, (HostCaught, HostChanged))], seat
    check_survivors(table)  # everyone, the host included, finished the same verified match
