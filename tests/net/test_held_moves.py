"""A move the host holds back is witnessed by every member (net/peer/held_moves.py): past its relay
deadline the mover sends its signed move to the others, each times the host on it, and a host
that still holds it is left by the majority; a host that passes it on in time is only slow, and a
notice that does not check out moves nobody (in memory, tests/net/migrationkit.py; the host
patched by tests/net/hostile.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import relays_late  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from sessionkit import FAST  # noqa: E402
from test_host_voted_out import survivors_over  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.chain import genesis  # noqa: E402
from lanomino.net.peer.proof_passing import MAX_CHECKS  # noqa: E402
from lanomino.net.session import HostCaught, MigrationDone  # noqa: E402
from lanomino.net.wire import messages as m  # noqa: E402
from lanomino.net.wire.schemas import envelope  # noqa: E402


def caught(table: MigratingTable, seat: int) -> list[HostCaught]:
    return [e for e in table.by_seat(seat).events if isinstance(e, HostCaught)]


def test_a_host_that_holds_a_seats_move_is_left_by_the_majority_and_the_match_goes_on() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=31)
    host = table.by_seat(0).host
    assert host is not None
    arrived = relays_late(host, 2, delay_s=3 * FAST.relay_s)
    table.run(lambda: survivors_over(table, 0), max_time=900)
    assert arrived
    for seat in (1, 2, 3):  # the mover and both witnesses, each on its own clock
        proof = caught(table, seat)
        assert proof and proof[0].check == "relay-held", seat
        notice = proof[0].evidence["notice"]
        assert notice["move"]["seat"] == 2 and proof[0].evidence["host"] == 0
        assert proof[0].at - arrived[0] <= 2 * FAST.relay_s + 0.5
    new = table.by_seat(1)
    assert new.hosted_terms == [1]
    assert [e for e in new.events if isinstance(e, MigrationDone)]
    check_survivors(table, but=0)


def test_a_slow_host_that_relays_within_the_window_is_not_left() -> None:
    table = MigratingTable(Rules.preset("classic", target=50), 3, seed=33)
    host = table.by_seat(0).host
    assert host is not None
    arrived = relays_late(host, 1, delay_s=FAST.relay_s + 2)
    table.run(lambda: survivors_over(table, -1), max_time=900)
    assert len(arrived) > 3
    assert not any(caught(table, seat) for seat in (0, 1, 2))
    witness = table.by_seat(2).peer
    assert witness is not None and witness.stats["held.watched"] >= len(arrived) - 1
    assert table.by_seat(0).host is host and host.phase.value == "over"


def test_a_forged_or_misplaced_notice_moves_nobody() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=35)

    def turn_of_a_peer() -> bool:
        witness = next((x.peer for x in table.machines if x.seat == 1), None)
        view = None if witness is None else witness.view
        return view is not None and view.phase == "play" and view.turn in (2, 3)

    table.run(turn_of_a_peer, max_time=120)
    witness = table.by_seat(1).peer
    assert witness is not None and witness.view is not None
    mover = table.by_seat(witness.view.turn)
    hand = witness.hand
    index = len(witness.moves.get(hand, []))
    chain = witness.arrival.head(hand)
    head = chain[index - 1] if index else genesis(witness.digest, hand)
    base = {"kind": "held", "host": 0, "hand": hand, "move": {"seat": mover.seat, "pass": True},
            "signature": (b"\x01" * 64).hex(), "seen": head.hex()}
    before = witness.stats["dropped.false_proof"]
    for index_sent in (index, index + 3):  # a forged signature; a place this log is not at
        notice = {**base, "index": index_sent}
        witness.elections.proof(envelope(m.Proof(notice), witness.term, 0), mover.sender.curve,
                                table.now)
    assert witness.stats["dropped.false_proof"] == before + 2
    for index_sent in range(index + 4, index + 40):  # a flood: refused a few times, then ignored
        notice = {**base, "index": index_sent}
        witness.elections.proof(envelope(m.Proof(notice), witness.term, 0), mover.sender.curve,
                                table.now)
    assert witness.stats["dropped.false_proof"] == before + MAX_CHECKS
    assert not witness.held.watch and witness.election is None
    table.run(lambda: table.now > 60 + FAST.relay_s * 3, max_time=90)
    assert not any(caught(table, seat) for seat in (1, 2, 3))
