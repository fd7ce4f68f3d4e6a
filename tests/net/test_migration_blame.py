"""A refusal outlives its host: a seat's badly signed move is refused and written into the hand's
log by the host; when that host is lost in the same hand, the new host's log of the hand still
names the seat (the players were told of it, signed by the host), and nobody can add one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import Machine, MigratingTable  # noqa: E402
from sessionkit import seen_fields  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.transcript import move_json, move_statement  # noqa: E402
from lanomino.fair.transcript_model import MAX_REFUSED  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.codec import decode_json, encode_json  # noqa: E402
from lanomino.net.wire import messages as m  # noqa: E402


def _forge_a_move_in_hand_2(table: MigratingTable) -> tuple[Machine, str]:
    """The seat to move in hand 2 (a peer) sends its move signed by a key not its own."""
    host = table.by_seat(0).host
    assert host is not None

    def a_peer_to_move() -> bool:
        state = host.shared.state
        if not (host.deal is not None and host.deal.hand == 2 and host.phase.value == "play"
                and len(host.deal.moves) >= 2 and state is not None and state.turn != 0):
            return False
        mover = table.by_seat(state.turn).peer  # and that peer knows (its update is in)
        return mover is not None and mover.view is not None and mover.view.turn == state.turn

    table.run(a_peer_to_move)
    seat = host.shared.state.turn  # type: ignore[union-attr]
    peer = table.by_seat(seat)
    s = peer.peer
    assert s is not None and s.view is not None
    move = move_json(seat, s.view.observation().legal[0])
    index = len(host.deal.moves)  # type: ignore[union-attr]
    forged = Identity.generate().sign_statement(move_statement(s.digest, 2, index, move))
    s.my_seq += 1
    message = {"v": 1, "type": "move", "term": 0, "seq": s.my_seq,
               "body": {"hand": 2, "index": index, "move": move, "signature": forged.hex(),
                        **seen_fields(s, index)}}
    host.receive(peer.sender, decode_json(encode_json(message)), table.now)
    assert host.stats["refused.bad_signature"] == 1
    return peer, f"move {index + 1} is not signed by seat {seat + 1}'s key"


@pytest.mark.parametrize("escrow", [True, False])
def test_a_refusal_is_still_in_the_hands_log_after_its_host_is_lost(escrow: bool) -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=5)
    first = table.by_seat(0).host
    assert first is not None
    first.escrow = escrow  # with escrow the hand is rebuilt; without, it is re-shuffled
    culprit, why = _forge_a_move_in_hand_2(table)
    table.run(lambda: False, max_time=0.5)  # the players hear of the refusal
    table.crash(0)
    new = table.by_seat(1)
    table.run(lambda: new.host is not None and new.host.phase.value == "play", max_time=30)
    assert new.host is not None and new.host.deal is not None and new.host.deal.hand == 2
    assert (new.host.deal.reshuffled is None) == escrow  # (each of the two ways a hand resumes)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    doc = new.host.doc
    assert doc is not None
    hand = next(h for h in doc["hands"] if h["hand"] == 2)
    assert hand["refused"] == [{"seat": culprit.seat, "what": "move", "why": why}]
    report = verify_transcript(doc)
    assert report.ok and [(n, f.seat) for n, f in report.faults] == [(2, culprit.seat)]


def test_a_blame_the_lost_host_did_not_sign_is_not_kept() -> None:
    """A member's report can carry refusals; only those the lost host signed reach the new
    host's log, so no member can make a new host blame another seat."""
    from lanomino.fair.identity import KeyRing
    from lanomino.fair.statements import blame_statement
    from lanomino.fair.transcript import Refusal
    from lanomino.net.host.reports import kept_blames

    host, member = Identity.generate(), Identity.generate()
    header = "ab" * 32

    def blame(by: Identity, seat: int) -> m.Blame:
        sig = by.sign_statement(blame_statement(header, 2, seat, "move", "bad"))
        return m.Blame(2, seat, "move", "bad", sig)

    def report(*blames: m.Blame) -> m.Report:
        return m.Report(2, (), (), None, None, None, blames)

    reports = [report(blame(host, 1), blame(member, 2)), report(blame(host, 1), blame(host, 3))]
    kept = kept_blames(reports, 2, header, host.public_key, KeyRing())
    assert kept == [Refusal(1, "move", "bad"), Refusal(3, "move", "bad")]  # once each; 2's forged
    assert kept_blames(reports, 3, header, host.public_key, KeyRing()) == []  # another hand's


def test_the_wire_and_the_transcript_allow_as_many_refusals_a_hand() -> None:
    assert m.MAX_BLAMES == MAX_REFUSED
