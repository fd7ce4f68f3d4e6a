"""Pre-votes (net/peer/prevotes.py), in memory on a fake clock (migrationkit): a member whose own
link is cut asks the others before it elects, so it never hosts a term nobody joins; it goes back
to its live host within the grace period, or follows the newer term the table moved on to; a host
really lost is still replaced at once; and a pre-vote is checked on arrival like every message
between members."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from migrationkit import Machine, MigratingTable  # noqa: E402
from sessionkit import FAST, curve_key  # noqa: E402
from test_session_migration import _in_play_of_hand, check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.host.seating import LEFT  # noqa: E402
from lanomino.net.peer.prevotes import Standing, prevote_statement  # noqa: E402
from lanomino.net.session import Closed, HostChanged, PeerSession, SeatLeft  # noqa: E402
from lanomino.net.wire import messages as m  # noqa: E402
from lanomino.net.wire.schemas import envelope  # noqa: E402


def _moves(table: MigratingTable) -> list[dict[str, object]]:
    doc = table.by_seat(0).host.doc  # type: ignore[union-attr]
    assert doc is not None
    return [move for hand in doc["hands"] for move in hand["moves"]]


def _cut_mid_hand(seed: int, seconds: float) -> tuple[MigratingTable, Machine, PeerSession]:
    """A 3-seat table in play of hand 2 whose seat 1 has had its link down for ``seconds``."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=seed)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    cut = table.by_seat(1)
    assert cut.peer is not None
    table.cut(1)
    table.run(lambda: False, max_time=seconds)
    return table, cut, cut.peer


def test_a_member_cut_off_for_less_than_its_grace_keeps_its_seat() -> None:
    """Seat 1's link is down for 6 s of a 10 s grace period: it canvasses (nobody answers), hosts
    nothing, and goes back to its host of term 0 on the same connection; nobody resigns, the
    match finishes, one host for the whole match."""
    table, cut, peer = _cut_mid_hand(71, 6)
    assert peer.prevotes.lost == (0, 0) and peer.election is None  # it asks, and waits
    table.mend(1)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    assert [e for m_ in table.machines for e in m_.events if isinstance(e, HostChanged)] == []
    assert not any(move.get("resign") for move in _moves(table))
    assert peer.stats["prevote.canvass"] == 1 and cut.hosted_terms == []


def test_a_member_cut_off_past_its_grace_is_resigned_and_told_so() -> None:
    """The same cut for 14 s of 10: the host resigns the seat and plays on; once its link is
    back, the member hears that its seat has left, and the others finish verified."""
    table, cut, peer = _cut_mid_hand(72, 14)
    assert any(isinstance(e, SeatLeft) and e.seat == 1 for e in table.by_seat(0).events)
    table.mend(1)
    table.run(lambda: peer.phase.value == "closed", max_time=5)
    told = [e for e in cut.events if isinstance(e, Closed)]
    assert told and told[-1].reason == LEFT, told
    table.crash(1)  # (it has gone)
    table.run(table.over)
    check_survivors(table)
    assert {"seat": 1, "resign": True} in _moves(table) and cut.hosted_terms == []


def test_a_lost_host_is_replaced_as_fast_as_before() -> None:
    """Every member lost the host: the pre-votes cross at once and the next in line resumes the
    table within the liveness period and a heartbeat of the crash (each member's silence is timed
    from the last message it heard)."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=73)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    table.crash(0)
    crashed = table.now
    new = table.by_seat(1)
    table.run(lambda: new.host is not None and new.host.phase.value == "play", max_time=30)
    assert new.hosted_terms == [1]
    assert table.now - crashed <= FAST.liveness_s + FAST.heartbeat_s + 0.5
    table.run(table.over)
    check_survivors(table)


def test_a_member_cut_off_during_a_hand_over_joins_the_election_where_it_is() -> None:
    """Seat 2's link is down when the host hands the table over (SIGTERM): seat 1, next in line,
    takes over at once and waits for a majority. Seat 2's link comes back: the candidate answers
    its pre-vote with the election it runs (term 1), and seat 2 follows it there with its seat."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=74)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    table.cut(2)
    host = table.by_seat(0).host
    assert host is not None
    host.hand_over("quit")
    table.run(lambda: False, max_time=1)
    table.crash(0)  # (its process is gone)
    table.run(lambda: False, max_time=5)
    new, cut = table.by_seat(1), table.by_seat(2)
    assert new.host is not None and new.host.phase.value == "migrating"
    assert cut.peer is not None and cut.peer.term == 0 and cut.peer.prevotes.lost == (0, 0)
    table.mend(2)
    table.run(table.over)
    assert cut.hosted_terms == [] and new.hosted_terms == [1]
    check_survivors(table)
    assert {"seat": 2, "resign": True} not in [
        move for hand in new.host.doc["hands"] for move in hand["moves"]]  # type: ignore[union-attr]


def test_a_member_that_hears_of_a_newer_live_host_follows_it() -> None:
    """A canvassing member told by another that it hears the host of a newer term follows that
    host (the table moved on without it)."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=76)
    table.run(lambda: _in_play_of_hand(table, 1, 1))
    target = table.by_seat(2)
    assert target.member is not None and target.peer is not None
    target.peer.prevotes.start(table.now)  # (as its host's silence would)
    target.peer.take_events()
    sender = table.by_seat(1).peer
    assert sender is not None
    live = Standing.live_at(3, 3)
    sig = sender.identity.sign_statement(prevote_statement(sender.table, 1, live, False))
    target.member.prevote(envelope(m.PreVote(1, 3, 3, True, 3, 3, False, sig), 3, 0),
                          table.by_seat(1).sender.curve, table.now)
    assert target.peer.prevotes.lost is None
    assert (target.peer.term, target.peer.host_seat) == (3, 3)
    assert [(e.term, e.seat) for e in target.peer.take_events() if isinstance(e, HostChanged)] \
        == [(3, 3)]


def _status(table: MigratingTable, seat: int, *, forged: bool = False) -> dict[str, object]:
    """A signed pre-vote from ``seat`` (``forged``: signed by another member's key)."""
    peer = table.by_seat(seat).peer
    signer = table.by_seat(3 if forged else seat).peer
    assert peer is not None and signer is not None
    standing = Standing(0, 0, False, 0, 0)
    sig = signer.identity.sign_statement(prevote_statement(peer.table, seat, standing, True))
    return envelope(m.PreVote(seat, 0, 0, False, 0, 0, True, sig), 0, 0)


def test_a_pre_vote_is_checked_on_arrival() -> None:
    """A stranger's, a forged and a malformed pre-vote change nothing and are counted; a member
    that floods is checked a few times a second at most; a good one is answered once."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=75)
    table.run(lambda: _in_play_of_hand(table, 1, 1))
    target = table.by_seat(2)
    assert target.member is not None and target.peer is not None
    member, peer, now = target.member, target.peer, table.now
    curve_of_1 = table.by_seat(1).sender.curve
    member.prevote(_status(table, 1), curve_key(99), now)
    assert peer.stats["dropped.stranger"] == 1
    member.prevote(_status(table, 1, forged=True), curve_of_1, now)
    assert peer.stats["dropped.bad_signature"] == 1
    bad = _status(table, 1)
    bad["body"] = {**bad["body"], "lost": -1}  # type: ignore[dict-item]
    member.prevote(bad, curve_of_1, now)
    assert peer.stats["dropped.malformed"] == 1
    assert 1 not in peer.prevotes.heard and peer.prevotes.take() == []
    member.prevote(_status(table, 1), curve_of_1, now)
    assert peer.prevotes.heard[1][0] == Standing(0, 0, False, 0, 0)
    answers = peer.prevotes.take()
    assert [seat for seat, _ in answers] == [1]
    assert answers[0][1]["body"]["live"] is True  # type: ignore[index]  # it hears the host
    for _ in range(20):
        member.prevote(_status(table, 1), curve_of_1, now)
    assert peer.stats["dropped.over_budget"] > 0 and peer.prevotes.take() == []
    assert peer.election is None and peer.prevotes.lost is None  # nothing changed
