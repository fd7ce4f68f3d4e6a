"""A person who leaves a locked hand before it can be scored (issue 29), in memory through the
real codec: during the deal round (keys, escrows, shuffles, deal shares), the opening's rounds
(and once they found the leaver to lead, before its lead is played), or the reveals at the
hand's end. Before any tile is played, and at the reveals without escrow,
the attempt is given up and the hand dealt again among the people left (the leaver resigned
``left`` by the host, a departure in the next entry); at the reveals with escrow the others
stand in for its key and the hand settles. Either way the match finishes at every remaining
seat with the same transcript/2, which ``lanomino verify`` accepts; a host that deals again
without a departure, or says a seat left that is here, is caught."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import SHORT, PeerSlot, Table, leave  # noqa: E402

from lanomino.blind.deal_round import Step  # noqa: E402
from lanomino.blind.table_hand import TableHand  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.transcript2 import parse_transcript2  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HostCaught,
    MatchOver,
    ProtocolProblem,
    SeatLeft,
    TranscriptUpdated,
)

# What the leaver never sends, so that the round waits for it at that step
MUTED = {"keys": {"blind_key"}, "escrow": {"blind_escrow"}, "shuffle": {"blind_shuffle"},
         "shares": {"blind_shares"}, "opening": {"blind_not_me", "blind_play"},
         "lead": {"move"}, "reveals": {"blind_reveal"}}


def at_step(step: str, hand: TableHand) -> bool:
    """``hand`` is at ``step`` of the deal round, the opening's rounds or the reveals."""
    if step == "reveals":
        return hand.view is not None and hand.view.outcome is not None
    if hand.view is not None:
        return False
    if step == "opening":
        return hand.deal.step is Step.DONE and hand.lead is not None and not hand.lead.void
    return hand.deal.step.value == ("shuffle" if step == "escrow" else step)


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def quit_to_the_end(table: Table, slot: PeerSlot) -> dict[str, Any]:
    """``slot``'s person quits now; the match runs to its end, which the host verified with no
    reason to stop; every other seat holds the host's transcript, which is returned."""
    leave(table, slot, quits=True)
    table.run(table.over)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason
    doc = last_transcript(table.host_events)
    assert all(last_transcript(s.events) == doc for s in table.slots[1:])
    return doc


def waiting(table: Table, step: str, seat: int) -> Callable[[], bool]:
    """The host's first hand waits for ``seat`` alone at ``step`` ("lead": the rounds found
    that seat to lead, its share is out, its move is not)."""
    def due() -> bool:
        blind, hand = table.host.blind, None if table.host.blind is None else \
            table.host.blind.hand
        if blind is None or blind.number != 1 or hand is None or hand.draw is not None:
            return False
        if step == "lead":
            return hand.view is not None and not hand.moves and hand.view.turn == seat
        return hand.waiting_for() == (seat,) and at_step(step, hand)
    return due


def leave_at(players: int, step: str, escrow: bool, silent: bool,
             seeds: range = range(1, 12), target: int = 50) -> tuple[Table, PeerSlot]:
    """A table whose seat 2 (slot 0) leaves once the round waits for it at ``step`` (it never
    sends that step's message): it quits, or (``silent``) stops answering and is let go past
    its grace period. The first seed whose first hand gets there (a seed is given up once its
    first hand is past that moment: a move in it played, or over)."""
    for seed in seeds:
        table = Table(Rules.preset("classic", target=target), players, blind=True, seed=seed)
        table.host.escrow = escrow
        slot = table.slots[0]
        slot.mute = frozenset(MUTED[step])
        due = waiting(table, step, 1)
        blind = table.host.blind
        assert blind is not None
        table.run(lambda: due() or past(blind, step) or table.over())  # noqa: B023 (run at once)
        if not due():
            continue
        leave(table, slot, quits=not silent)
        table.run(table.over)
        return table, slot
    raise AssertionError(f"no seed gets the first hand to {step}")


def past(blind: Any, step: str) -> bool:
    """The first hand of ``blind`` (a host's locked part) is past ``step``: over, or (before the
    reveals) a move of it played."""
    hand = blind.hand
    if blind.number > 1:
        return True
    return step != "reveals" and hand is not None and hand.view is not None and bool(hand.moves)


# (people, escrow, silent): both table sizes, with and without escrow, a quit and a silence,
# each pair of them met once (3 and 4 people each with and without escrow, each quitting and
# going silent; with escrow and without, each quitting and going silent) at every step
TABLES = [(3, False, False), (3, True, True), (4, True, False), (4, False, True)]
# (3 people without escrow: the first hand scores 13 at its seed, 20 points end the match a hand
# after it, 50 three to seven)
TARGETS = {(3, False, False): 20}
STEPS = ["keys", "escrow", "shuffle", "shares", "opening", "lead", "reveals"]
CASES = [(*t, step) for t in TABLES for step in STEPS if t[1] or step != "escrow"]


@pytest.mark.parametrize(("players", "escrow", "silent", "step"), CASES)
def test_a_person_who_leaves_before_the_hand_can_be_scored_does_not_end_the_match(
        players: int, escrow: bool, silent: bool, step: str) -> None:
    table, slot = leave_at(players, step, escrow, silent,
                           target=TARGETS.get((players, escrow, silent), 50))
    assert table.over()
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    gone = 1
    left = [e for e in table.host_events if isinstance(e, SeatLeft)]
    assert [e.seat for e in left] == [gone]
    assert ("did not" in left[0].reason) == silent
    stayed = [s for s in table.slots if s is not slot]
    for other in stayed:
        over = next(e for e in other.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
        assert not [e for e in other.events if isinstance(e, HostCaught)]
        # (a message of the attempt given up, sent before its seat knew: refused as stale)
        assert all(e.code == "stale" for e in other.events if isinstance(e, ProtocolProblem))
    docs = [last_transcript(events) for events in (table.host_events,
                                                   *(s.events for s in stayed))]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    doc = docs[0]
    report = verify_transcript(doc)
    assert report.ok, report.failure
    departures = [(i, d) for i, h in enumerate(doc["hands"]) for d in h.get("departures", [])]
    assert [(d["seat"], d["by"]) for _, d in departures] == [(gone, "left")]
    index, departure = departures[0]
    first = doc["hands"][0]["record"]
    if step == "reveals" and escrow:  # its key rebuilt from the escrow: the hand settled
        assert (index, departure["attempt"], first["attempt"]) == (1, 1, 1)
        lost = next(e for e in first["shuffles"] if e["seat"] == gone)
        assert "turn" in lost  # (kept with its argument: the rebuilt reveal has no seed)
        assert gone in first["holders"] and first["points"]
    else:  # the first attempt given up, the hand dealt again without it
        assert (index, departure["attempt"], first["attempt"]) == (0, 2, 2)
        assert gone not in first["holders"]
        played = 0 if step != "reveals" else departure["at"]
        assert departure["at"] == played and (step != "reveals" or played > 0)
    assert all(gone not in h["record"]["holders"] for h in doc["hands"][index:])
    line = report.hands[index].describe()
    assert f"could not check that seat {gone + 1} had left" in line, line


@pytest.mark.parametrize(("players", "escrow"), [(3, False), (4, True)])
def test_a_person_who_leaves_once_its_key_is_out_leaves_the_hand_to_settle(
        players: int, escrow: bool) -> None:
    """Seat 2 reveals its key at the hand's end and quits at once (its goodbye comes before
    the others' keys): nothing of it is missing, the hand settles as usual, and it is resigned
    before the next hand's first deal (a departure before attempt 1)."""
    table = Table(SHORT, players, blind=True, seed=1)
    table.host.escrow = escrow
    blind = table.host.blind
    assert blind is not None
    table.run(lambda: blind.hand is not None and blind.hand.view is not None
              and blind.hand.view.outcome is not None)
    slot = table.slots[0]  # (its reveal is on its way: its goodbye goes after it)
    doc = quit_to_the_end(table, slot)
    first, second = doc["hands"][0], doc["hands"][1]
    assert 1 in first["record"]["holders"] and "departures" not in first
    assert [(d["attempt"], d["seat"]) for d in second["departures"]] == [(1, 1)]
    assert second["record"]["attempt"] == 1
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert "before the hand was dealt" in report.hands[1].describe()


def test_a_departure_is_the_hosts_word_under_its_points_signature() -> None:
    """Drop the departure from the file: the host's points signature no longer holds (the file
    was changed); the host signing its points again without it: the attempt dealt again is
    neither void nor given up for a seat that left, and the host is named."""
    table, _ = leave_at(3, "shuffle", False, False, target=20)
    doc = last_transcript(table.host_events)
    dropped = json.loads(json.dumps(doc))
    del dropped["hands"][0]["departures"]
    report = verify_transcript(dropped)
    assert not report.ok and report.failure is not None
    assert report.failure.check == "log" and report.failure.seat is None
    head, hands = parse_transcript2(dropped)
    resigned = replace(hands[0], raw=None)
    signed = replace(resigned, points_signature=table.host.shared.identity.sign_statement(
        resigned.points(head.header_digest)))
    dropped["hands"][0] = signed.to_json()
    report = verify_transcript(dropped)
    assert not report.ok and report.failure is not None
    assert report.failure.check == "record" and report.failure.seat == 0
    assert "keeps no departure" in report.failure.message


def test_a_host_that_deals_again_without_a_departure_is_caught() -> None:
    """The host gives up a deal it does not like (its own tiles are open to it once the shares
    are in) by dealing the hand again: no seat left, so every seat refuses attempt 2."""
    table = Table(Rules.preset("classic"), 3, blind=True, seed=2)
    blind = table.host.blind
    assert blind is not None
    table.run(lambda: blind.hand is not None and blind.hand.deal.step is Step.DONE)
    blind.hand = None
    blind.new_attempt()
    table.run(lambda: all(caught(s, "blind-order") for s in table.slots), max_time=60)
    for slot in table.slots:
        assert "attempt 2" in caught(slot, "blind-order")[0].detail


def test_a_host_that_says_a_seat_left_that_is_here_loses_that_seat_and_is_caught() -> None:
    """The host declares seat 2 gone (it is here, answering) to deal again: it can only do so
    by resigning that person from the match, which the file lists as not checked; the seat
    it left out hears no more of the table and leaves it, and shown the resignation the host
    signed for it, it catches the host ('blind-left')."""
    table = Table(Rules.preset("classic"), 3, blind=True, seed=2)
    blind = table.host.blind
    assert blind is not None
    table.run(lambda: blind.hand is not None and blind.hand.deal.step is Step.DONE)
    table.host.play.seat_left(1, "quit")  # (a lie: seat 2 is connected and answering)
    victim, other = table.slots
    table.step()
    told = next(m for m in other.inbox if m["type"] == "blind_resign")
    victim.session.receive(told, table.now)  # (what the host sent the others, about it)
    table.step()
    assert caught(victim, "blind-left")
    table.run(table.over, max_time=300)
    assert not [e for e in other.events if isinstance(e, HostCaught)]
    doc = last_transcript(other.events)
    assert doc == last_transcript(table.host_events)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert "could not check that seat 2 had left" in report.hands[0].describe()
    over = next(e for e in victim.events if isinstance(e, MatchOver))
    assert not over.verified  # (it left the host that left it out)


def caught(slot: PeerSlot, check: str) -> list[HostCaught]:
    return [e for e in slot.events if isinstance(e, HostCaught) and e.check == check]


def test_a_departure_in_a_game_record_is_a_resignation_after_the_hand_before() -> None:
    """``lanomino replay``'s record form: a seat that left at a hand's end (its key stood in
    for) resigns after that hand's moves, as a seat that leaves between hands does; one that
    left the first hand's deal has no hand before it to resign in (refused in words; the play
    log still keeps the match, verified)."""
    from lanomino.fair.transcript import TranscriptError
    from lanomino.fair.verify import to_record
    from lanomino.store.facts import derive

    table, _ = leave_at(3, "reveals", True, False)
    record = to_record(last_transcript(table.host_events))
    assert record["hands"][0]["moves"][-1] == {"seat": 1, "resign": True}
    table, _ = leave_at(3, "keys", False, False, target=20)
    doc = last_transcript(table.host_events)
    with pytest.raises(TranscriptError, match="before it was dealt"):
        to_record(doc)
    facts = derive(doc)
    assert facts.verified and facts.scores == tuple(doc["end"]["scores"])


def test_a_locked_hand_that_ends_blocked_has_a_record_form_and_a_place_in_the_play_log() -> None:
    """The table learns of a block as every seat passes; the engine, seeing every hand, ends it
    at once. The record form leaves out the passes after that end, so it replays, and the play
    log (History) keeps the match (before: 'the hand is already over', nothing logged)."""
    from lanomino.fair.verify import to_record
    from lanomino.record.format import parse_record
    from lanomino.record.replay import replay
    from lanomino.store.facts import derive

    table = Table(Rules.preset("classic"), 3, blind=True, seed=1)  # (its hand 3 ends blocked)
    table.run(table.over)
    doc = last_transcript(table.host_events)
    record = to_record(doc)
    result = replay(parse_record(record))
    assert list(result.scores) == doc["end"]["scores"]
    cut = [len(h["record"]["moves"]) + len(h["record"].get("resignations", [])) - len(r["moves"])
           for h, r in zip(doc["hands"], record["hands"], strict=True)]
    assert any(cut) and all(n >= 0 for n in cut)
    facts = derive(doc)
    assert facts.verified and len(facts.hands) == len(doc["hands"])


# hands of 2: a deal with no double in it is frequent; every hand asks "who holds 6-6?"
VOIDING = {"preset": "classic", "target": 30, "hand_size": 2, "no_double": "reshuffle",
           "next_opener": "highest-double"}


@pytest.mark.parametrize("escrow", [False, True])
def test_a_person_who_leaves_a_void_deal_before_its_key_is_out_has_it_dealt_again(
        escrow: bool) -> None:
    """Nobody held a double: every holder reveals its key for the void deal, but seat 2 quits
    first. The void deal cannot be kept (its key is missing), so it is given up as any attempt
    a person leaves, and the hand is dealt again without it."""
    table = Table(Rules.from_spec(VOIDING), 3, blind=True, seed=2)  # (its first deal is void)
    table.host.escrow = escrow
    blind = table.host.blind
    assert blind is not None
    slot = table.slots[0]
    slot.mute = frozenset({"blind_reveal"})
    table.run(lambda: blind.hand is not None and blind.hand.void
              and blind.hand.waiting_for() == (1,) or table.over())
    assert blind.hand is not None and blind.hand.void
    void_at = (blind.number, blind.attempt)
    doc = quit_to_the_end(table, slot)
    entry = doc["hands"][void_at[0] - 1]
    assert [(d["attempt"], d["seat"]) for d in entry["departures"]] == [(void_at[1] + 1, 1)]
    assert void_at[1] not in [v["record"]["attempt"] for v in entry.get("voided", [])]
    report = verify_transcript(doc)
    assert report.ok, report.failure
