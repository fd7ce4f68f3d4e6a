"""A person who leaves a locked hand at a table WITHOUT escrow (issue 29), in memory through the
real codec: the host resigns the seat that left (``left``), and the survivors re-shuffle blind
the tiles nobody holds (its tiles, the boneyard's undrawn ones, and a draw the loss cut short);
nobody sends its hand to anyone. The new deck is the boneyard, later draws open for their drawer
alone under the survivors' keys, the hand settles at its end, and the match finishes at every
remaining seat with the same transcript, which ``lanomino verify`` accepts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import SHORT, Table, in_play, leave  # noqa: E402
from test_blind_dealleave import MUTED, waiting  # noqa: E402
from test_blind_departure_table import resigns_at  # noqa: E402
from test_blind_escrow_table import last_transcript, leave_mid_hand  # noqa: E402

from lanomino.engine import Draw, Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, ProtocolProblem  # noqa: E402

# Past the first hand's points (10 at the most) at the seeds of the tests that play to it: the
# match goes on after the hand the seats leave, and ends a hand or a few later (to 50: up to 9)
TO_20 = Rules.preset("classic", target=20)


def finished_alike(table: Table, who: int) -> dict[str, Any]:
    """Every remaining seat finished the match verified, with the host's scores, nobody caught,
    and the same transcript, which verifies; that transcript."""
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    stayed = [s for i, s in enumerate(table.slots) if i != who]
    for slot in stayed:
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
        assert not [e for e in slot.events if isinstance(e, HostCaught | ProtocolProblem)]
    docs = [last_transcript(events) for events in (table.host_events,
                                                   *(s.events for s in stayed))]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok, report.failure
    return docs[0]


@pytest.mark.parametrize(("players", "who", "moves", "seed"),
                         [(4, 0, 3, 1), (4, 2, 6, 2), (3, 1, 4, 3), (3, 0, 2, 4)])
def test_a_person_who_quits_a_locked_hand_without_escrow_is_re_shuffled_blind(
        players: int, who: int, moves: int, seed: int) -> None:
    table = leave_mid_hand(players, who, moves, seed, escrow=False)
    doc = finished_alike(table, who)
    blind = table.host.blind
    assert blind is not None
    first = blind.records[0]
    gone = table.slots[who].session.seat
    assert [(r.seat, r.by) for r in first.resignations] == [(gone, "left")]
    u = first.unheld
    assert u is not None and u.lost == (gone,) and u.redrawn is None
    assert gone not in [r.seat for r in first.reveals]  # its key went with it
    assert next(e for e in first.shuffles if e.seat == gone).turn is not None  # (its argument)
    assert all(len(step) == players - 1 for step in u.sent)
    assert "unheld" in doc["hands"][0]["record"] and doc["hands"][0]["unheld_signatures"]
    assert all(gone not in r.holders for r in blind.records[1:])


def test_the_new_deck_is_the_boneyard_and_draws_open_from_it() -> None:
    """A seed where somebody draws after the loss: its position is a slot of the new deck,
    after the ones that stand for the tiles that left."""
    table = leave_mid_hand(3, 0, 2, 4, escrow=False)
    finished_alike(table, 0)
    blind = table.host.blind
    assert blind is not None
    first = blind.records[0]
    u = first.unheld
    assert u is not None
    later = [m for m in first.moves[u.at:] if isinstance(m.action, Draw)]
    assert later and all(m.position is not None and m.position >= first.tiles + u.left
                         for m in later)


@pytest.mark.parametrize(("who", "moves", "seed", "cut"),
                         [(0, 2, 1, True), (1, 3, 2, True), (1, 2, 1, False)])
def test_a_draw_waiting_for_the_share_of_the_seat_that_left_is_given_again_from_the_new_deck(
        who: int, moves: int, seed: int, cut: bool) -> None:
    """The seat quits while a draw waits for its share: the drawer never saw that tile, so it
    joins the re-shuffle and the draw is given the new deck's first boneyard slot, asked again
    under the survivors' keys (``cut``); when the seat that left drew it, its tile left with it
    (the last case)."""
    table = leave_mid_hand(4, who, moves, seed, escrow=False, drawing=True)
    finished_alike(table, who)
    blind = table.host.blind
    assert blind is not None
    first = blind.records[0]
    u = first.unheld
    assert u is not None and (u.redrawn is not None) == cut
    if u.redrawn is not None:
        assert first.moves[u.redrawn].position == first.tiles + u.left


@pytest.mark.parametrize(("who", "moves", "seed", "drawing"),
                         [(0, 2, 1, True), (2, 3, 2, False)])
def test_a_person_who_goes_silent_is_waited_for_then_re_shuffled(
        who: int, moves: int, seed: int, drawing: bool) -> None:
    """The seat goes silent: a draw waiting for its share waits out its grace period; past it
    the seat has left, the survivors re-shuffle, and the match finishes without it."""
    table = leave_mid_hand(4, who, moves, seed, escrow=False, drawing=drawing, drop=True)
    finished_alike(table, who)
    blind = table.host.blind
    assert blind is not None
    assert blind.records[0].unheld is not None


def two_leave(first: int, second: int, seed: int, drawing: bool, target: int = 50) -> Table:
    """A 4-person ``--escrow`` table where peer ``first`` quits once the first hand has 2 moves
    and peer ``second`` once it has 5 (``drawing``: while a draw waits for shares), played to
    the end (``target``: past the first hand's points)."""
    table = Table(Rules.preset("classic", target=target), 4, blind=True, seed=seed)
    table.host.escrow = True
    blind = table.host.blind
    assert blind is not None

    for who, moves, draw in ((first, 2, False), (second, 5, drawing)):
        table.run(in_play(blind, moves, draw))
        assert in_play(blind, moves, draw)(), "the first hand ended before the seat could leave"
        leave(table, table.slots[who], quits=True, drawing=draw)
    table.run(table.over)
    assert blind.number > 1, "the match ended with the hand the seats left"
    return table


@pytest.mark.parametrize(("first", "second", "seed", "drawing", "target"),
                         [(0, 2, 1, False, 20), (2, 1, 2, False, 20), (0, 1, 3, False, 50),
                          (0, 2, 1, True, 20), (2, 1, 3, True, 20)])
def test_a_second_person_who_leaves_an_escrow_hand_is_re_shuffled_blind(
        first: int, second: int, seed: int, drawing: bool, target: int) -> None:
    """At an ``--escrow`` table of 4 the first person who leaves is stood in for; the escrow is
    then spent, so when a second one leaves the same hand the two left re-shuffle blind (each
    also gives its sub-share of the first lost key, which opens the tiles drawn under the keys
    it stood in with at the hand's end; ``drawing``: the second leaves while a draw waits for
    its share). The match finishes at both remaining seats."""
    table = two_leave(first, second, seed, drawing, target)
    blind = table.host.blind
    assert blind is not None
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    stayed = [s for i, s in enumerate(table.slots) if i not in (first, second)]
    for slot in stayed:
        assert not [e for e in slot.events if isinstance(e, HostCaught | ProtocolProblem)]
    docs = [last_transcript(e) for e in (table.host_events, *(s.events for s in stayed))]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok, report.failure
    record = blind.records[0]
    gone = sorted(table.slots[i].session.seat for i in (first, second))
    assert record.unheld is not None and list(record.unheld.lost) == gone
    assert record.unheld.escrow is not None and record.unheld.escrow.owner in gone
    assert not [r for r in record.reveals if r.seat in gone]


@pytest.mark.parametrize("seed", [1, 3])
def test_the_hosts_bots_tiles_are_held_and_a_watcher_checks_the_re_shuffled_hand(
        seed: int) -> None:
    """A host-side bot's tiles are the host's to open, so its hand vector holds them too (they
    are not re-shuffled); a watcher follows the round and checks the hand as a seat does."""
    table = Table(SHORT, 4, blind=True, seed=seed, bots=1)
    table.host.escrow = False
    watcher = table.add_watcher("watcher")
    blind = table.host.blind
    assert blind is not None

    due = in_play(blind, 3)
    table.run(due)
    assert due()
    gone = table.slots[0]
    leave(table, gone, quits=True)
    table.run(table.over)
    doc = finished_alike(table, 0)
    assert blind.records[0].unheld is not None
    over = next(e for e in watcher.events if isinstance(e, MatchOver))
    assert over.verified and not [e for e in watcher.events if isinstance(e, HostCaught)]
    assert last_transcript(watcher.events) == doc


@pytest.mark.parametrize("seed", [1, 2])
def test_a_seat_that_resigned_takes_part_in_the_re_shuffle_of_its_hand(seed: int) -> None:
    """Seat 3 resigns at its first move (its own signed resignation; it stays a holder, its key
    still needed); then seat 2 quits on its turn: the survivors, the seat that resigned among them,
    re-shuffle blind; the record keeps both resignations and the re-shuffle, and every seat
    that stayed finishes with the same verified transcript."""
    table = Table(TO_20, 4, blind=True, seed=seed)
    table.host.escrow = False
    blind = table.host.blind
    assert blind is not None
    table.slots[1].bot = resigns_at(1, 5)
    due = in_play(blind, 3)

    def resigned() -> bool:  # (on the leaver's turn: no other seat's move is on its way)
        hand = blind.hand
        return due() and hand is not None and bool(hand.resignations) \
            and hand.view is not None and hand.view.turn == 1
    table.run(resigned)
    assert resigned(), "the first hand ended before the seats could resign and leave"
    gone = table.slots[0]
    leave(table, gone, quits=True)
    table.run(table.over)
    finished_alike(table, 0)
    assert blind.number > 1  # (the match went on past that hand)
    record = blind.records[0]
    assert [(r.seat, r.by) for r in record.resignations] == [(2, "seat"), (1, "left")]
    assert record.unheld is not None and record.unheld.lost == (1,)
    assert 2 in [r.seat for r in record.reveals]  # (it re-shuffled: its key and seed shown)


def test_a_hand_dealt_again_for_a_departure_is_then_re_shuffled_blind() -> None:
    """Seat 2 leaves the first hand's deal (attempt 1 given up, a departure in the entry); in
    attempt 2, seat 3 quits mid-hand and the two left re-shuffle blind: the entry keeps the
    departure and the record the re-shuffle, and both verify."""
    table = Table(TO_20, 4, blind=True, seed=1)
    table.host.escrow = False
    blind = table.host.blind
    assert blind is not None
    first = table.slots[0]
    first.mute = frozenset(MUTED["keys"])
    due = waiting(table, "keys", 1)
    table.run(lambda: due() or table.over())
    assert due()
    leave(table, first, quits=True)
    mid = in_play(blind, 3)
    table.run(lambda: mid() and blind.attempt == 2)
    assert mid() and blind.attempt == 2
    leave(table, table.slots[1], quits=True)
    table.run(table.over)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    stayed = table.slots[2]
    assert not [e for e in stayed.events if isinstance(e, HostCaught)]
    doc = last_transcript(table.host_events)
    assert last_transcript(stayed.events) == doc
    entry = doc["hands"][0]
    assert len(doc["hands"]) > 1  # (the match went on past that hand)
    assert [(d["attempt"], d["seat"]) for d in entry["departures"]] == [(2, 1)]
    assert entry["record"]["attempt"] == 2 and entry["record"]["unheld"]["lost"] == [2]
    report = verify_transcript(doc)
    assert report.ok, report.failure


def leave_in_turn(escrow: bool, leavers: tuple[tuple[int, int], ...], seed: int) -> Table:
    """A 4-person table where each (peer, moves) of ``leavers`` quits once the first hand has
    that many moves (none while a draw waits for shares), played to the end."""
    table = Table(TO_20, 4, blind=True, seed=seed)
    table.host.escrow = escrow
    blind = table.host.blind
    assert blind is not None
    for who, moves in leavers:
        due = in_play(blind, moves)
        table.run(lambda: due() or blind.number > 1 or table.over())  # noqa: B023 (at once)
        assert due(), "the first hand ended before the seat could leave"
        slot = table.slots[who]
        leave(table, slot, quits=True)
    table.run(table.over)
    return table


@pytest.mark.parametrize("seed", [1, 2])
def test_a_person_who_leaves_a_hand_already_re_shuffled_has_it_dealt_again(seed: int) -> None:
    """Without escrow: seat 2 quits (the hand is re-shuffled blind), then seat 3 quits the same
    hand. A second re-shuffle is not made (its round-1 values could not be made again without
    seat 3's seed), so the hand is given up and dealt again among the two left, as a hand that
    cannot be scored is: both departures are in the entry of the hand dealt again, and the
    match finishes with the same verified transcript at both seats left."""
    table = leave_in_turn(False, ((0, 2), (1, 5)), seed)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    stayed = table.slots[2]
    over = next(e for e in stayed.events if isinstance(e, MatchOver))
    assert over.verified and over.scores == host_over.scores
    assert not [e for e in stayed.events if isinstance(e, HostCaught)]
    doc = last_transcript(table.host_events)
    assert last_transcript(stayed.events) == doc
    entry = doc["hands"][0]
    assert len(doc["hands"]) > 1  # (the match went on past that hand)
    assert [(d["attempt"], d["seat"], d["by"]) for d in entry["departures"]] == \
        [(2, 1, "left"), (2, 2, "left")]
    assert entry["departures"][1]["at"] >= 5 and entry["record"]["attempt"] == 2
    assert entry["record"]["holders"] == [0, 3]
    report = verify_transcript(doc)
    assert report.ok, report.failure


def test_a_third_person_who_leaves_an_escrow_hand_has_it_dealt_again() -> None:
    """With escrow: the first person who leaves is stood in for, the second re-shuffled blind,
    the third (at a table of four: the host is the one person left) gives the hand up; one side
    is left, so the match is over, won by the host, the three departures in the closing
    statement, verified."""
    table = leave_in_turn(True, ((0, 2), (1, 4), (2, 6)), 1)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and host_over.winner == 0, host_over
    doc = last_transcript(table.host_events)
    assert [d["seat"] for d in doc["end"]["departures"]] == [1, 2, 3]
    report = verify_transcript(doc)
    assert report.ok, report.failure
