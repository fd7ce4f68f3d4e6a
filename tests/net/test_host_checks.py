"""Every seat and watcher checks what the host passes on before applying it (net/peer/arrival.py,
fair/chain.py): a host patched to cheat is caught with its own signed words as the proof."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import plays_for, resigns  # noqa: E402
from sessionkit import FAST, Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.chain import Fork, genesis, head_statement, heads, link  # noqa: E402
from lanomino.fair.identity import Identity, KeyRing  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.fair_round import HandDeal  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, TranscriptUpdated  # noqa: E402


def caught(table: Table) -> list[list[HostCaught]]:
    return [[e for e in s.events if isinstance(e, HostCaught)] for s in table.slots]


def test_the_chain_names_every_move_before_and_two_signed_heads_at_one_place_are_a_fork() -> None:
    moves = [{"seat": 0, "play": "6-6", "end": "left"}, {"seat": 1, "draw": True}]
    sigs = [b"\x01" * 64, b"\x02" * 64]
    chain = heads("h" * 64, 1, moves, sigs)
    assert chain[0] == link(genesis("h" * 64, 1), moves[0], sigs[0])
    assert chain[1] == link(chain[0], moves[1], sigs[1])
    other = heads("h" * 64, 1, [moves[0], {"seat": 1, "pass": True}], sigs)
    assert other[0] == chain[0] and other[1] != chain[1]
    assert heads("h" * 64, 2, moves, sigs)[0] != chain[0]  # a hand's chain fits no other hand
    host, ring = Identity.generate(), KeyRing()

    def signed(head: bytes) -> tuple[bytes, bytes]:
        return head, host.sign_statement(head_statement("h" * 64, 1, 1, head))

    fork = Fork("h" * 64, 1, 1, signed(chain[1]), signed(other[1]))
    assert fork.holds(ring, host.public_key)
    assert not fork.holds(ring, Identity.generate().public_key)  # someone else's words
    assert not Fork("h" * 64, 1, 1, signed(chain[1]), signed(chain[1])).holds(ring,
                                                                               host.public_key)


def test_an_honest_match_checks_every_update_and_catches_nothing() -> None:
    table = Table(Rules.preset("classic"), 3, bots=1, seed=3)
    watcher = table.add_watcher("w")
    table.run(table.over)
    assert table.over()
    assert caught(table) == [[], []]  # a peer and the watcher
    for slot in (*table.slots[:1], watcher):
        arrival = slot.session.arrival
        assert arrival.signed and all(arrival.signed.values())  # the host's head, every move
    over = [e for e in table.slots[0].events if isinstance(e, MatchOver)]
    assert over and over[0].verified


def test_a_move_the_host_signed_for_a_connected_seat_is_caught_on_arrival_and_not_applied() -> None:
    table = Table(Rules.preset("classic"), 3, seed=5)
    watcher = table.add_watcher("w")
    forged = plays_for(table.host, 1, away=False, limit=1)
    table.run(lambda: bool(forged) and all(caught(table)))
    hand, index = forged[0]
    for slot in (*table.slots[:2], watcher):
        proof = [e for e in slot.events if isinstance(e, HostCaught)]
        assert proof and proof[0].check == "move-signature", slot.events[-5:]
        assert "not signed by seat 2 but by the host" in proof[0].detail
        assert proof[0].evidence["index"] == index and proof[0].evidence["hand"] == hand
        assert len(slot.session.moves[hand]) == index  # never applied


def test_a_head_the_host_signed_wrong_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = HandDeal.signed_head

    def wrong(self: HandDeal, identity: Identity) -> bytes:
        sig = honest(self, identity)
        return sig if len(self.moves) < 3 else identity.sign(b"something else")

    monkeypatch.setattr(HandDeal, "signed_head", wrong)
    table = Table(Rules.preset("classic"), 3, seed=7)
    table.run(lambda: all(caught(table)), max_time=60)
    for proof in caught(table):
        assert proof[0].check == "head" and proof[0].evidence["index"] == 2


@pytest.mark.parametrize("away", [True, False])
def test_at_a_table_without_a_move_clock_the_host_cannot_move_for_a_connected_seat(
        away: bool) -> None:
    table = Table(Rules.preset("classic"), 3, seed=11)
    forged = plays_for(table.host, 2, away=away, limit=1)
    table.run(lambda: bool(forged) and all(caught(table)), max_time=60)
    assert table.host.shared.header is not None and table.host.shared.header.move_clock is None
    for proof in caught(table):
        assert proof[0].check == "move-signature"
        assert "at a table without a move clock" in proof[0].detail


def test_at_a_table_with_a_move_clock_the_host_cannot_move_for_a_seat_that_is_not_away() -> None:
    table = Table(Rules.preset("classic"), 3, seed=11, timings=replace(FAST, move_s=5.0))
    forged = plays_for(table.host, 2, away=True, limit=1)
    table.run(lambda: bool(forged) and all(caught(table)), max_time=60)
    assert table.host.shared.header is not None and table.host.shared.header.move_clock == 5000
    for proof in caught(table):
        assert "seat 3 is not away" in proof[0].detail


def test_the_host_cannot_resign_a_seat_that_has_not_left() -> None:
    table = Table(Rules.preset("classic"), 3, seed=13)
    done = resigns(table.host, 1, at=1)
    table.run(lambda: done() and all(caught(table)), max_time=60)
    for proof in caught(table):
        assert proof[0].check == "move-signature"
        assert "but by the host, and seat 2 has not left" in proof[0].detail
    victim = table.slots[0].session
    assert victim.view is not None and victim.view.active[1]  # its seat still plays here


def test_the_match_header_declares_the_move_clock_and_the_transcript_verifies() -> None:
    timed = Table(Rules.preset("classic"), 2, seed=17, timings=replace(FAST, move_s=30.0))
    timed.run(timed.over)
    plain = Table(Rules.preset("classic"), 2, seed=17)
    plain.run(plain.over)
    docs = [next(e.transcript for e in reversed(t.slots[0].events)
                 if isinstance(e, TranscriptUpdated)) for t in (timed, plain)]
    assert docs[0]["move_clock"] == 30000 and docs[1]["move_clock"] is None
    assert all(verify_transcript(doc).ok for doc in docs)
    changed = {**docs[0], "move_clock": 1000}  # every seat signed the clock with the header
    assert verify_transcript(changed).failure is not None
    assert verify_transcript(changed).failure.check == "header"
