"""Host migration in memory on a fake clock: the host crashes (or leaves) and the table goes on."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import Machine, MigratingTable  # noqa: E402
from sessionkit import bot_policy, curve_key, phase_of  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    Closed,
    LostTouch,
    MatchOver,
    MigrationDone,
    MigrationPaused,
    PeerSession,
    ProtocolProblem,
    SeatLeft,
    Sender,
    Timings,
    YourTurn,
    rejoin_as_peer,
)
from lanomino.net.wire.messages import Body, HandLog, Update  # noqa: E402


def _hosts_in(table: MigratingTable, seat: int, phase: str) -> bool:
    """Seat ``seat`` hosts the table now, in ``phase``."""
    host = table.by_seat(seat).host
    return host is not None and host.phase.value == phase


def _in_play_of_hand(table: MigratingTable, hand: int, moves: int) -> bool:
    h = table.by_seat(0).host
    assert h is not None
    return (h.deal is not None and h.deal.hand == hand and h.phase.value == "play"
            and len(h.deal.moves) >= moves)


def check_survivors(table: MigratingTable, but: int | None = None) -> list[Any]:
    """Every live machine (``but`` that seat's: a host voted out) finished with the same verified
    transcript, returned once per machine; one host per term."""
    docs = []
    for m in table.machines:
        if not m.up or m.seat == but:
            continue
        doc = m.host.doc if m.host is not None else m.peer.doc  # type: ignore[union-attr]
        assert doc is not None and doc["end"]["finished"], m.seat
        report = verify_transcript(doc)
        assert report.ok, report.failure
        docs.append(doc)
    assert all(d == docs[0] for d in docs)
    terms = [t for m in table.machines for t in m.hosted_terms]
    assert len(terms) == len(set(terms)), terms
    return docs


def test_the_host_crashes_mid_hand_and_the_next_seat_rebuilds_the_hand_from_escrow() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    host = table.by_seat(0).host
    assert host is not None
    host.escrow = True  # (a table option: the default deals without escrow)
    table.run(lambda: _in_play_of_hand(table, 2, 3))
    assert host.deal is not None
    before = list(host.deal.moves)
    table.crash(0)
    table.run(table.over)
    assert table.over()
    new = table.by_seat(1)
    assert new.host is not None and new.hosted_terms == [1]
    done = [e for e in new.events if isinstance(e, MigrationDone)]
    assert done and done[0].rebuilt
    doc = new.host.doc
    assert doc is not None
    hand2 = doc["hands"][1]
    assert hand2["moves"][:len(before)] == before  # no move lost, none applied twice
    assert hand2["migrated"]["host"] == 1 and hand2["migrated"]["term"] == 1
    assert {"seat": 0, "resign": True} in hand2["moves"]
    check_survivors(table)


def test_a_table_without_escrow_re_shuffles_the_unknown_tiles_when_its_host_crashes() -> None:
    """No escrow: no peer holds a share of any secret, so after a crash mid-hand the survivors
    re-shuffle the tiles nobody holds (the fallback) and the match still verifies."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    host = table.by_seat(0).host
    assert host is not None
    assert not host.escrow  # the default
    table.run(lambda: _in_play_of_hand(table, 2, 3))
    assert all(not m.peer.escrow for m in table.machines if m.peer is not None)
    table.crash(0)
    table.run(table.over)
    assert table.over()
    new = table.by_seat(1)
    assert new.host is not None and not new.host.escrow  # the new host deals as the table did
    doc = new.host.doc
    assert doc is not None and "reshuffled" in doc["hands"][1]
    check_survivors(table)


def _at(table: MigratingTable, point: str, hand: int = 2) -> Callable[[], bool]:
    host = table.by_seat(0).host
    assert host is not None

    def reached() -> bool:
        if host.doc is None or host.deal is None or host.deal.hand != hand:
            return False
        return point == "between" or phase_of(host) == point

    return reached


@pytest.mark.parametrize(("players", "point", "seed"), [
    (3, "commit", 1), (4, "echo", 2), (3, "reveal", 3), (4, "reveal", 4), (3, "between", 5),
    (4, "play", 6),
])
def test_a_host_crash_at_any_point_of_the_deal_is_survived(
    players: int, point: str, seed: int
) -> None:
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=seed)
    table.run(_at(table, point))
    assert _at(table, point)(), "the match never reached that point: pick another seed"
    table.crash(0)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    doc = table.by_seat(1).host.doc  # type: ignore[union-attr]
    assert doc is not None
    assert {"seat": 0, "resign": True} in [m for h in doc["hands"] for m in h["moves"]]


def test_a_graceful_leave_hands_over_at_once() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=8)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    host = table.by_seat(0).host
    assert host is not None
    host.hand_over("quit")
    left_at = table.now
    table.run(lambda: bool(table.by_seat(1).host) and table.by_seat(1).host.phase.value == "play")  # type: ignore[union-attr]
    assert table.now - left_at < 0.5  # no liveness timeout was waited for
    table.crash(0)  # the old host's process is gone
    table.run(table.over)
    check_survivors(table)


def test_two_hosts_lost_at_once_pause_the_table_until_a_member_returns() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=9)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    table.crash(0)
    table.crash(1)
    table.run(lambda: False, max_time=20)
    # 2 of 4 lost the host: no majority, so neither elects (net/peer/prevotes.py); both wait
    for seat in (2, 3):
        waiting = table.by_seat(seat)
        assert waiting.host is None and waiting.peer is not None
        assert waiting.peer.prevotes.lost == (0, 0) and waiting.peer.term == 0
    table.revive(1)  # seat 1 comes back (a frozen process, its state intact)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    assert table.by_seat(1).hosted_terms == [1]  # 3 of 4 lost seat 0: seat 1 is next in line
    doc = table.by_seat(1).host.doc  # type: ignore[union-attr]
    assert doc is not None
    moves = [m for h in doc["hands"] for m in h["moves"]]
    assert {"seat": 0, "resign": True} in moves and {"seat": 1, "resign": True} not in moves


def test_an_old_host_that_comes_back_steps_down_and_may_not_play_on() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=10)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    old = table.by_seat(0)
    assert old.host is not None
    moves_then = len(old.host.deal.moves)  # type: ignore[union-attr]
    table.crash(0, frozen=True)  # SIGSTOP: frozen, state intact
    table.run(lambda: _hosts_in(table, 1, "play"), max_time=30)
    table.revive(0)
    table.run(lambda: bool(old.stepped_down))
    assert old.host.phase.value == "stepped_down" and old.stepped_down == [0]
    assert len(old.host.deal.moves) == moves_then  # type: ignore[union-attr]  # it applied nothing after
    # it rejoins the new host as a peer: its seat has left, so it watches the match to its end
    new = table.by_seat(1)
    assert new.host is not None
    old.peer = rejoin_as_peer(old.host, table.now, new.host.term, 1)
    old.host, old.follows = None, 1
    old.peer.connect(table.now)
    seen = len(old.events)
    table.run(table.over)
    assert old.peer.phase.value == "over" and old.peer.seat == 0
    assert not [e for e in old.events[seen:] if isinstance(e, YourTurn)]  # it never plays again
    assert old.peer.stats["dropped.refused"] == 0
    check_survivors(table)  # the watcher's transcript is the survivors' too, and it verifies


def _old_host_back_while_seat_1_waits() -> tuple[MigratingTable, Machine, Machine]:
    """Host (seat 0) frozen mid-hand, then seat 2 as soon as it has agreed to elect (before it
    reports); seat 1 takes over and waits for a majority; then the old host wakes and steps down
    (seat 2 stays frozen)."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=10)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    old, new = table.by_seat(0), table.by_seat(1)
    table.crash(0, frozen=True)
    third = table.by_seat(2)
    table.run(lambda: third.peer is not None and third.peer.election is not None, max_time=30)
    table.crash(2, frozen=True)  # the new host alone is no majority of three: it waits
    table.run(lambda: new.host is not None and new.host.phase.value == "migrating", max_time=30)
    table.run(lambda: False, max_time=1)
    assert new.host is not None and new.host.phase.value == "migrating"
    table.revive(0)
    table.run(lambda: bool(old.stepped_down))
    assert old.host is not None
    return table, old, new


def test_an_old_host_back_while_the_new_host_waits_for_a_majority_still_may_not_play_on() -> None:
    """Its seat leaves all the same (what follows the new host is a peer that holds no tiles and
    plays nothing: keeping the seat stalled the LAN table for ever, the turn coming round to a seat
    nobody plays), so its report is no part of the majority. Counting it resumed the table before
    the frozen seat 2 came back, and the re-shuffle, missing seat 2's hand, put seat 2 out of a
    match it had only paused in."""
    table, old, new = _old_host_back_while_seat_1_waits()
    assert old.host is not None and new.host is not None
    old.peer = rejoin_as_peer(old.host, table.now, new.host.term, 1)
    old.host, old.follows = None, 1
    old.peer.connect(table.now)
    seen = len(old.events)
    table.run(lambda: False, max_time=2)
    assert 0 in new.host.takeover.reports  # it reported ...
    assert new.host.phase.value == "migrating"  # ... and the new host still waits for seat 2
    table.revive(2)
    table.run(table.over)
    assert table.over()
    assert not [e for e in old.events[seen:] if isinstance(e, YourTurn)]  # it never plays again
    left = {e.seat for e in new.events if isinstance(e, SeatLeft)}
    assert left == {0}, left  # seat 2 played the match out
    doc = new.host.doc
    assert doc is not None
    assert {"seat": 0, "resign": True} in [m for h in doc["hands"] for m in h["moves"]]
    check_survivors(table)


def test_an_old_host_that_follows_afresh_while_the_new_host_waits_sees_the_match_end() -> None:
    """What ``lanomino host`` does once it stepped down: it follows the new host as a fresh peer
    (same identity, a new CURVE key). Arriving while the new host still gathers the members, it is
    a member whose seat leaves at the resume; it must still be told the table (a snapshot) and
    kept posted to the end, as a watcher. It was left out: no snapshot, no updates, its messages
    refused, and its process never learnt how the match ended."""
    table, old, new = _old_host_back_while_seat_1_waits()
    assert old.host is not None and new.host is not None
    roster = {e.seat: e for e in new.host.roster()}
    curve = curve_key(99)
    old.peer = PeerSession(old.host.identity, curve, roster[1].curve or "", name="old host",
                           timings=old.host.timings, migration=False)
    old.host, old.follows, old.sender = None, 1, Sender(b"route-old-host-again", curve)
    old.peer.connect(table.now)
    table.run(lambda: False, max_time=1)  # it is in: a member, not yet resumed
    assert new.host.phase.value == "migrating"
    table.revive(2)  # its report makes the majority
    table.run(table.over)
    assert table.over()
    assert old.peer.phase.value == "over"
    assert not [e for e in old.events if isinstance(e, YourTurn) and e.observation.seat == 0]
    check_survivors(table)  # its transcript is everyone's, finished and verified


def test_a_member_whose_majority_never_comes_back_stops_instead_of_waiting_for_ever() -> None:
    """The lost host died sending the match's last hand log: the seat that got it is done, and
    killed before the log it passes on leaves (net/peer/proof_passing.py: otherwise the other
    takes it and finishes, test_session_migration_end.py); the other, left with a hand it thinks
    is still in play, asks the members whether they lost the host too (net/peer/prevotes.py) and
    never hears a majority. Two grace periods on, it stops, saying why, without having hosted a
    term of its own."""
    table = MigratingTable(Rules.preset("classic", target=10), 3, seed=61)
    lost = table.by_seat(0).host
    assert lost is not None
    first = table.machines[1].peer  # (seat 1: checked below)
    assert first is not None
    first.passing.take = list  # type: ignore[method-assign]  # (killed before they go)
    send, dead = lost.shared.send, []

    def dies_at_the_last_hand_log(to: Any, body: Body) -> None:
        if isinstance(body, HandLog) and body.end["finished"]:
            dead.append(to.seat)
            if to.seat == 1:
                send(to, body)
        elif not dead:
            send(to, body)

    lost.shared.send = dies_at_the_last_hand_log  # type: ignore[method-assign]
    table.run(lambda: bool(dead))
    table.step()
    table.crash(0)
    done = table.by_seat(1)
    assert done.peer is first
    table.run(lambda: done.peer is not None and done.peer.phase.value == "over", max_time=10)
    table.crash(1)  # its match is over: it goes
    waiting = table.by_seat(2)
    peer = waiting.peer
    assert peer is not None
    table.run(lambda: peer.prevotes.lost is not None, max_time=30)
    began = table.now
    table.run(lambda: peer.phase.value == "closed", max_time=3 * table.timings.grace_s)
    assert peer.phase.value == "closed" and waiting.host is None and not waiting.hosted_terms
    table.step()  # (collects the events)
    closed = [e for e in waiting.events if isinstance(e, Closed)]
    assert len(closed) == 1 and "lost touch with the table" in closed[0].reason, closed
    assert 2 * table.timings.grace_s - 1 <= table.now - began <= 2 * table.timings.grace_s + 1
    assert peer.next_deadline() is None


def test_a_new_host_whose_majority_never_comes_back_stops_instead_of_waiting_for_ever() -> None:
    """The host is lost; seat 2 agrees to elect and dies before it reports to seat 1, which
    took over: seat 1 waits for a majority that cannot come, and two grace periods on, it stops,
    saying why."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=62)
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    table.crash(0)
    third, waiting = table.by_seat(2), table.by_seat(1)
    table.run(lambda: third.peer is not None and third.peer.election is not None, max_time=30)
    table.crash(2)
    table.run(lambda: waiting.host is not None, max_time=30)
    assert waiting.host is not None and waiting.host.phase.value == "migrating"
    table.step()  # (collects the events)
    assert any(isinstance(e, MigrationPaused) for e in waiting.events)
    began = table.now
    table.run(lambda: waiting.host.phase.value != "migrating",  # type: ignore[union-attr]
              max_time=3 * table.timings.grace_s)
    assert waiting.host.phase.value == "stepped_down"
    table.step()  # (collects the events)
    lost_touch = [e for e in waiting.events if isinstance(e, LostTouch)]
    assert len(lost_touch) == 1
    assert 2 * table.timings.grace_s - 1 <= table.now - began <= 2 * table.timings.grace_s + 1
    assert waiting.host.next_deadline() is None or waiting.host.next_deadline() >= table.now


@pytest.mark.parametrize("escrow", [False, True])
def test_a_hands_second_migration_deals_it_again_and_the_transcript_verifies(escrow: bool) -> None:
    """The host crashes mid-hand, and the seat that took over crashes in the same hand; the next
    in line takes over (the lost host's seat has left: two of the three members left are a
    majority). A hand's log records one migration (who dealt it, who took over at which move and
    signed what after), so the third host deals the hand again, with or without escrow, as a
    hand re-shuffled once is. Every survivor ends with the same transcript, it verifies, and the
    hands finished before are kept. (Rebuilding it twice left a log whose commitment set and
    resignation were signed by a host the log did not name: NOT FAIR.)"""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=91)
    first = table.by_seat(0).host
    assert first is not None
    first.escrow = escrow
    table.run(lambda: _in_play_of_hand(table, 2, 2))
    finished = [dict(h) for h in first.doc["hands"]]  # type: ignore[index]
    table.crash(0)
    second = table.by_seat(1)
    table.run(lambda: second.host is not None and second.host.phase.value == "play", max_time=30)
    assert second.host is not None and second.host.deal is not None
    assert second.host.deal.hand == 2 and (second.host.deal.reshuffled is None) == escrow
    moves = len(second.host.deal.moves)
    table.run(lambda: len(second.host.deal.moves) > moves, max_time=30)  # type: ignore[union-attr]
    assert second.host.deal.hand == 2  # (still the same hand)
    table.crash(1)
    third = table.by_seat(2)
    table.run(lambda: third.host is not None and third.host.phase.value == "play", max_time=30)
    assert third.host is not None and third.host.deal is not None
    assert third.host.deal.hand == 2 and third.host.deal.migrated is None  # dealt again
    assert third.host.deal.host_seat == 2
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    doc = third.host.doc
    assert doc is not None
    for before, after in zip(finished, doc["hands"], strict=False):
        # (a seat that leaves between hands may add its resignation to the last finished hand)
        assert after["moves"][:len(before["moves"])] == before["moves"]
        assert after["deals"] == before["deals"]
    resigned = {m["seat"] for h in doc["hands"] for m in h["moves"] if m.get("resign")}
    assert resigned == {0, 1}


def test_without_migration_a_silent_host_is_waited_for_not_replaced() -> None:
    """Until the node acts on elections, a peer keeps its host through a long silence."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=12)
    for m in table.machines[1:]:
        assert m.peer is not None
        m.peer.migration = False
    table.run(lambda: _in_play_of_hand(table, 2, 1))
    table.crash(0, frozen=True)
    table.run(lambda: False, max_time=8)
    assert all(m.peer is not None and m.follows == 0 and m.peer.term == 0
               for m in table.machines[1:])
    table.revive(0)
    table.run(table.over)
    check_survivors(table)


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_crash_in_the_first_hand_is_survived(players: int) -> None:
    """Before a hand has ended, the replicated transcript has no end: the hand is still rebuilt."""
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=20 + players)
    table.run(lambda: _in_play_of_hand(table, 1, 2))
    assert _in_play_of_hand(table, 1, 2)
    table.crash(0)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    done = [e for m in table.machines for e in m.events if isinstance(e, MigrationDone)]
    assert done and done[0].rebuilt


def test_a_host_that_loses_touch_with_the_majority_resigns_nobody() -> None:
    """Cut off from both its peers, the host is the minority: it waits past the grace period."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=13)
    table.run(lambda: _in_play_of_hand(table, 2, 1))
    host = table.by_seat(0).host
    assert host is not None
    table.crash(1, frozen=True)
    table.crash(2, frozen=True)
    table.run(lambda: False, max_time=1.5 * table.timings.grace_s)
    assert not [e for e in table.by_seat(0).events if isinstance(e, SeatLeft)]
    assert host.phase.value != "over" and host.state is not None
    table.revive(1)
    table.revive(2)
    table.run(table.over)
    check_survivors(table)


def test_a_seat_silent_while_its_host_was_cut_off_has_a_grace_period_once_the_host_is_back(
) -> None:
    """Both peers freeze past the grace period: the host, cut off, resigns nobody. The first to
    come back ends the cut-off; the other one is not let go at the host's next timer for a silence
    the host could not judge, but has a whole grace period from then to come back."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=13)
    for m in table.machines[1:]:
        assert m.peer is not None
        m.peer.migration = False  # (this test is about the host's judgement, not an election)
    table.run(lambda: _in_play_of_hand(table, 2, 1))
    table.crash(1, frozen=True)
    table.crash(2, frozen=True)
    table.run(lambda: False, max_time=1.5 * table.timings.grace_s)
    table.revive(1)
    table.run(lambda: False, max_time=0.5 * table.timings.grace_s)
    left = [e for e in table.by_seat(0).events if isinstance(e, SeatLeft)]
    assert left == [], left
    table.revive(2)
    table.run(table.over)
    assert not [e for e in table.by_seat(0).events if isinstance(e, SeatLeft)]
    check_survivors(table)


def test_a_host_cut_off_for_two_grace_periods_gives_up() -> None:
    """Nobody came back to it: it stops (the others went on under a new host, or left) instead of
    waiting for ever."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=14)
    for m in table.machines[1:]:
        assert m.peer is not None
        m.peer.migration = False  # (so that the two do not elect a new host meanwhile)
    table.run(lambda: _in_play_of_hand(table, 2, 1))
    host = table.by_seat(0).host
    assert host is not None
    table.crash(1, frozen=True)
    table.crash(2, frozen=True)
    table.run(lambda: host.phase.value == "stepped_down", max_time=3 * table.timings.grace_s)
    table.step()  # (collects the events)
    lost = [e for e in table.by_seat(0).events if isinstance(e, LostTouch)]
    assert len(lost) == 1 and lost[0].seconds >= 2 * table.timings.grace_s
    assert 2 * table.timings.grace_s <= table.now <= 2 * table.timings.grace_s + 10
    assert not [e for e in table.by_seat(0).events if isinstance(e, SeatLeft)]  # it resigned nobody
    assert host.next_deadline() is None or host.next_deadline() >= table.now  # and it does not spin


@pytest.mark.parametrize(("point", "seed"), [("play", 31), ("commit", 32), ("between", 33)])
def test_host_side_bots_move_with_the_table_under_keys_the_new_host_adopts(
    point: str, seed: int
) -> None:
    """The bot's private key never left the lost host: the new host adopts the bot's seat under
    a key it makes, logs the adoption in the next hand it signs, and plays the bot on; the
    transcript verifies with the bot's moves signed by the adopted key."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=seed, bots=1)
    table.run(_at(table, point))
    assert _at(table, point)(), "the match never reached that point: pick another seed"
    old_key = table.by_seat(0).host.shared.seat(3).identity  # type: ignore[union-attr]
    table.crash(0)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    new = table.by_seat(1)
    assert new.host is not None and set(new.host.local) == {1, 3}
    new_key = new.host.local[3].identity.public_key
    assert new_key != old_key
    doc = new.host.doc
    assert doc is not None
    records = [(i, h["adopted"]) for i, h in enumerate(doc["hands"]) if "adopted" in h]
    assert len(records) == 1
    first, record = records[0]
    assert record == {"host": 1, "term": 1, "keys": [[3, new_key.hex()]]}
    moves = [m for h in doc["hands"] for m in h["moves"]]
    assert {"seat": 0, "resign": True} in moves
    assert not [m for m in moves if m["seat"] == 3 and m.get("resign")]
    start = doc["hands"][first].get("migrated", {"at": 0})["at"]
    after = doc["hands"][first]["moves"][start:]
    after += [m for h in doc["hands"][first + 1:] for m in h["moves"]]
    assert [m for m in after if m["seat"] == 3], "the bot made no move under the new host"


def test_the_bots_keys_never_leave_the_host() -> None:
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=34, bots=1)
    table.run(lambda: _in_play_of_hand(table, 1, 1))
    host = table.by_seat(0).host
    assert host is not None
    seed = host.local[3].identity.seed().hex()
    for m in table.machines[1:]:
        assert m.peer is not None and m.peer.bot_levels == {3: "greedy"}
    peer = table.by_seat(1).peer
    assert peer is not None
    seq = host.shared.seat(1).out_seq + 1
    not_a_bot = {"bots": [{"seat": 2, "level": "greedy"}]}  # not a bot's seat
    peer.receive({"v": 1, "type": "bots", "term": 0, "seq": seq, "body": not_a_bot}, table.now)
    assert peer.bot_levels == {3: "greedy"} and peer.stats["dropped.refused"] == 1
    old = {"seat": 3, "seed": seed, "level": "greedy"}  # the old form, with a key: refused
    peer.receive({"v": 1, "type": "bots", "term": 0, "seq": seq + 1, "body": {"bots": [old]}},
                 table.now)
    assert peer.stats["dropped.malformed"] == 1


@pytest.mark.parametrize(("point", "seed"), [("commit", 42), ("echo", 43), ("reveal", 44)])
def test_a_host_lost_during_the_first_deal_does_not_send_the_table_back_to_the_lobby(
        point: str, seed: int) -> None:
    """The match had begun (every header signature in): the new host deals the first hand again
    among the survivors, the lost host resigns as the hand's first move, and the match goes on."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=seed)
    lost = table.by_seat(0).host
    assert lost is not None
    table.run(lambda: phase_of(lost) == point)
    assert phase_of(lost) == point and not lost.play.hands_done()
    for m in table.machines:  # (the kit learns seats as it steps; it may not have stepped since)
        if m.peer is not None and m.peer.seat >= 0:
            m.seat = m.peer.seat
    table.crash(0)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    new = table.by_seat(1).host
    assert new is not None and new.table == lost.table and new.doc is not None
    first = new.doc["hands"][0]
    assert first["moves"][0] == {"seat": 0, "resign": True}
    assert [c["seat"] for c in first["deals"][0]["commitments"]] == [1, 2]
    assert not [e for e in table.by_seat(1).events if getattr(e, "code", "") == "lobby"]


@pytest.mark.parametrize(("point", "seed"), [("header", 41)])
def test_a_host_lost_before_the_first_deal_reopens_the_table_and_a_newcomer_fills_it(
    point: str, seed: int
) -> None:
    """No hand was dealt and the match had not begun (the header was being signed): the new host
    goes back to the lobby under a new table id, the lost host's seat is free, and the match
    starts when someone takes it."""
    table = MigratingTable(Rules.preset("classic", target=100), 3, seed=seed)
    lost = table.by_seat(0).host
    assert lost is not None
    table.run(lambda: phase_of(lost) == point)
    assert phase_of(lost) == point and not lost.play.hands_done()
    for m in table.machines:  # (the kit learns seats as it steps; it may not have stepped since)
        if m.peer is not None and m.peer.seat >= 0:
            m.seat = m.peer.seat
    table.crash(0)
    table.run(lambda: _hosts_in(table, 1, "lobby"), max_time=30)
    new = table.by_seat(1).host
    assert new is not None and new.phase.value == "lobby"
    assert new.table != lost.table and new.doc is None
    assert new.seats[0] is None and new.seats_taken == 2
    slot = table.base.add_peer("newcomer", seed=seed)  # queues its hello
    assert slot.session.seat < 0
    slot.session.host_curve = new.curve
    slot.session.migration = True
    table.machines.append(Machine(-1, slot.sender, bot_policy("greedy", seed), peer=slot.session,
                                  follows=1))
    table.run(table.over)
    assert table.over() and slot.session.seat == 0
    check_survivors(table)
    doc = new.doc
    assert doc is not None and doc["table"] == new.table.hex()
    assert doc["keys"][0] == slot.session.identity.public_key.hex()


@pytest.mark.parametrize("players", [2, 3])
def test_a_host_lost_for_good_with_no_one_to_elect_leaves_and_the_peer_wins(players: int) -> None:
    """Two people (here with a host-side bot at three seats): no majority is possible without the
    host, so its peer waits the grace period, then the host has left under the rules: its seat and
    its bots go with it and the peer's side, the last one standing, wins."""
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=50 + players,
                           bots=players - 2)
    peer = table.machines[1].peer
    assert peer is not None
    peer.migration = False  # (the node turns elections off below three people)
    table.run(lambda: _in_play_of_hand(table, 1, 2))
    table.crash(0)
    lost_at = table.now
    table.run(lambda: peer.phase.value == "over", max_time=3 * table.timings.grace_s)
    table.step()
    over = [e for e in table.machines[1].events if isinstance(e, MatchOver)]
    assert peer.phase.value == "over" and len(over) == 1
    assert over[0].winner == peer.seat and "host left" in over[0].reason
    t = table.timings
    assert t.grace_s <= table.now - lost_at <= t.grace_s + t.liveness_s + 1
    # nobody was elected
    assert table.machines[1].follows == 0 and not table.machines[1].hosted_terms


@pytest.mark.parametrize("escrow", [False, True])
@pytest.mark.parametrize(("players", "hand", "seed", "reached", "last_update"), [
    (3, 1, 61, (), ()), (4, 1, 62, (2,), ()), (3, 2, 63, (1,), ()), (4, 2, 64, (1, 2, 3), (1,)),
    (3, 1, 65, (2,), (2,)), (4, 2, 66, (2, 3), (2, 3)), (4, 1, 67, (3,), ()),
    (3, 2, 68, (1, 2), (1, 2)), (4, 1, 69, (1, 3), (3,)),
])
def test_a_host_killed_between_a_hands_last_move_and_its_hand_log_is_survived(
        players: int, hand: int, seed: int, reached: tuple[int, ...], last_update: tuple[int, ...],
        escrow: bool) -> None:
    """The host sends a hand's log to every member before the update of the move that ended it.
    Here it dies on the way: the log reached the seats in ``reached``, the last update only those
    in ``last_update`` (a subset: one connection keeps its order). A member that knows the hand
    ended therefore holds the lost host's signed log, with every secret in it: the new host takes
    it from whoever has it, with or without escrow, and deals the next hand. When no member got
    the log, nobody knows the hand ended: it goes on from before its last move (rebuilt from the
    escrow, or its unknown tiles re-shuffled)."""
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=seed)
    lost = table.by_seat(0).host
    assert lost is not None
    lost.escrow = escrow
    send = lost.shared.send
    dead = []

    def dies_at_the_hand_log(to: Any, body: Body) -> None:
        if isinstance(body, HandLog) and body.entry["hand"] == hand:
            dead.append(body.TYPE)
            if to.seat in reached:
                send(to, body)
        elif (dead and isinstance(body, Update) and body.hand == hand and to.seat in last_update
                and any(e.get("e") == "hand_ended" for e in body.events)):
            send(to, body)
        elif not dead:
            send(to, body)

    lost.shared.send = dies_at_the_hand_log  # type: ignore[method-assign]
    table.run(lambda: bool(dead))
    table.step()  # (what did go out is delivered)
    assert dead and lost.doc is not None and len(lost.doc["hands"]) == hand
    table.crash(0)
    kept = lost.doc["hands"][hand - 1]
    if kept is lost.doc["hands"][-1] and lost.doc["end"]["finished"]:
        # that hand ended the match (a deal can score the target early): its last update went
        # out before its log, and every member that has the log is done
        table.run(lambda: all(m.peer is not None and m.peer.phase.value == "over"
                              for m in table.machines[1:] if m.peer and m.peer.seat in reached))
        for m in table.machines[1:]:
            if m.peer is not None and m.peer.seat in reached:
                assert m.peer.doc == lost.doc and m.peer.verified_all
        return
    for m in table.machines[1:]:
        peer = m.peer
        assert peer is not None and peer.doc is not None
        assert len(peer.doc["hands"]) == hand - (peer.seat not in last_update)
        assert len(peer.moves[hand]) == len(kept["moves"]) - (peer.seat not in last_update)
        early = peer.seat in reached and peer.seat not in last_update
        assert (peer.early_log is not None) == early
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    new = table.by_seat(1).host
    assert new is not None and new.doc is not None
    same = len(kept["moves"]) - (not reached)  # nobody knew the last move: it is played again
    assert new.doc["hands"][hand - 1]["moves"][:same] == kept["moves"][:same]  # the same hand
    if reached:  # the very deal the lost host logged (a resignation may have been added)
        assert new.doc["hands"][hand - 1]["deals"] == kept["deals"]
    for m in table.machines[1:]:
        session = m.host or m.peer
        assert session is not None and session.stats["migration.bad_hand_log"] == 0


def test_an_old_host_that_comes_back_after_the_end_learns_the_result_from_the_snapshot() -> None:
    table = MigratingTable(Rules.preset("classic", target=60), 3, seed=71)
    table.run(lambda: _in_play_of_hand(table, 1, 2))
    old = table.by_seat(0)
    assert old.host is not None
    table.crash(0, frozen=True)
    table.run(lambda: _hosts_in(table, 1, "over"), max_time=300)
    new = table.by_seat(1).host
    assert new is not None and new.phase.value == "over"
    table.revive(0)
    table.run(lambda: bool(old.stepped_down))
    old.peer = rejoin_as_peer(old.host, table.now, new.term, 1)
    old.host, old.follows = None, 1
    old.peer.connect(table.now)
    seen = len(old.events)
    table.run(lambda: old.peer is not None and old.peer.phase.value == "over", max_time=30)
    over = [e for e in old.events[seen:] if isinstance(e, MatchOver)]
    assert old.peer.phase.value == "over" and len(over) == 1 and old.peer.doc == new.doc
    assert over[0].scores == tuple(new.doc["end"]["scores"])  # type: ignore[index]


def test_a_joiner_whose_host_vanishes_mid_handshake_gives_up_after_the_grace_period() -> None:
    table = MigratingTable(Rules.preset("classic", target=60), 3, seed=72)
    slot = table.base.add_peer("late", seed=72)  # the table is full: its hello is answered...
    table.crash(0)  # ...by nobody
    table.machines.append(Machine(-1, slot.sender, bot_policy("greedy", 72), peer=slot.session))
    table.run(lambda: slot.session.phase.value == "closed", max_time=3 * table.timings.grace_s)
    assert slot.session.phase.value == "closed"
    assert table.now >= table.timings.grace_s


@pytest.mark.parametrize(("players", "seed"), [(3, 81), (4, 82)])
def test_the_new_host_replays_a_longer_log_than_its_own(players: int, seed: int) -> None:
    """The next host missed the last update before the host died; another member has it: the new
    host rebuilds the hand from that member's log (its signatures arrive as validated bytes).
    With escrow, so that the hand comes back as dealt. Without it the unknown tiles are
    re-shuffled with fresh random secrets, and in about one run in four (on ddd292b too) the new
    host then dealt the hand again: that is the re-shuffle's behaviour, not this test's point,
    and it is open (see the closing note)."""
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=seed)
    lost = table.by_seat(0).host
    assert lost is not None
    lost.escrow = True
    send = lost.shared.send
    dead: list[int] = []

    def loses_one_update(to: Any, body: Body) -> None:
        if dead:
            return
        if isinstance(body, Update) and body.hand == 2 and body.index == 4:
            if to.seat == 1:
                return  # lost on the way to the next host
            if to.seat == players - 1:
                dead.append(body.index)  # the last one it sent
        send(to, body)

    lost.shared.send = loses_one_update  # type: ignore[method-assign]
    table.run(lambda: bool(dead))
    table.step()
    table.crash(0)
    seen = {m.peer.seat: len(m.peer.moves[2]) for m in table.machines[1:] if m.peer is not None}
    assert seen[1] == 4 and all(n == 5 for s, n in seen.items() if s != 1)
    table.run(table.over)
    assert table.over()
    check_survivors(table)
    new = table.by_seat(1).host
    assert new is not None and new.doc is not None
    assert new.doc["hands"][1]["moves"][:5] == lost.deal.moves[:5]  # type: ignore[union-attr]  # none lost


def test_a_candidate_late_by_a_liveness_period_lets_every_survivor_in() -> None:
    """The LAN kill test's failure, one run in six (tests/lan/test_lan_kills.py, mid-hand, 4
    players): seat 1 noticed the lost host a second after seats 2 and 3 (a candidate may, so
    they wait twice the liveness period for it). They said hello at once, and it read what had
    waited for it only once it served, through its transport's budget for a connection without a
    seat (4 messages, then 2 a second, net/budget.py). Each survivor also sent it a ping every
    heartbeat meanwhile: the hello and 3 pings spent that budget, so its auth was dropped, and the
    ``not_seated`` errors the pings got back, at seq 1 as every reply outside a seat's stream,
    came after the challenge's seq 1 and were dropped as replays ('host seq 1 again'): the
    survivor never said hello again and the election moved on. A peer now sends nothing but its
    hello and auth to a host that has not welcomed it."""
    lan = Timings(grace_s=8.0)  # the product's heartbeat and liveness, the LAN test's grace
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, timings=lan)
    table.run(lambda: _in_play_of_hand(table, 2, 3))
    table.crash(0)
    table.crash(1, frozen=True)  # (SIGSTOP, as the LAN test's observer is around the kill)
    table.run(lambda: False, max_time=1.0)
    table.revive(1)  # it hears the silence a second after the others
    table.run(table.over)
    assert table.over()
    replays = [(m.seat, e.detail) for m in table.machines for e in m.events
               if isinstance(e, ProtocolProblem) and e.code == "replayed"]
    assert replays == []
    assert [m.hosted_terms for m in table.machines] == [[0], [1], [], []]  # one host change
    assert table.by_seat(1).over_budget == []
    check_survivors(table)


def test_a_live_candidate_slower_than_twice_the_liveness_period_is_waited_for() -> None:
    """The LAN kill test's failure on a loaded CI machine (4 players): the first candidate set
    itself up later than the two liveness periods its followers gave it, so one of them moved on
    to the next term and the table took two more terms (and 5 s) to settle. A candidate whose
    encrypted handshake succeeded is alive (a crashed or frozen process cannot answer one), so a
    follower now gives it ``answer_s`` to start answering."""
    lan = Timings(grace_s=8.0)  # the product's heartbeat, liveness and answer periods
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, timings=lan)
    table.run(lambda: _in_play_of_hand(table, 2, 3))
    table.crash(0)
    candidate = table.by_seat(1).peer
    assert candidate is not None  # it notices the silence 3 s after the others (a busy machine)
    candidate.last_heard += 3.0
    table.run(table.over)
    assert table.over()
    assert [m.hosted_terms for m in table.machines] == [[0], [1], [], []]  # one host change
    check_survivors(table)


@pytest.mark.parametrize("victim", [1, 2, 3])
def test_a_host_lost_while_its_deal_was_going_out_deals_again_and_puts_nobody_out(
        victim: int) -> None:
    """The LAN kill test's failure at the reveal (4 players, CI): the host died after sending the
    hand's deal to some seats and before the others got theirs. The member without tiles reported
    no hand, the new host re-shuffled among the seats that claimed one, and put that member out of
    the match ('its hand was not in the re-shuffle') though it had done nothing wrong. With no move
    made yet, the hand is now dealt afresh among everyone left."""
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3)
    h = table.by_seat(0).host
    assert h is not None
    table.run(lambda: _in_play_of_hand(table, 1, 1))
    machines = [m for m in table.machines if m.peer is not None and not m.peer.watch]
    for m in machines:
        assert m.peer is not None
        receive = m.peer.receive

        def dealt(msg: dict[str, Any], now: float, m: Machine = m,
                  receive: Callable[[dict[str, Any], float], None] = receive) -> None:
            if msg["type"] == "deal" and msg["body"]["hand"] == 2:
                if m.seat == victim:
                    return  # the host dies before this seat's deal leaves it
                table.crash(0)  # ... and just after another's did
            receive(msg, now)

        m.peer.receive = dealt  # type: ignore[method-assign]
    table.run(lambda: not table.by_seat(0).up)
    table.run(table.over)
    assert table.over()
    left = [(m.seat, e.reason) for m in table.machines for e in m.events
            if isinstance(e, SeatLeft) and e.seat != 0]
    assert left == []
    check_survivors(table)
