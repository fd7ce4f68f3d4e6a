"""The host of a locked table (``--deal blind``, issue 29) is lost: the members elect a new host
as at a fair table, which carries the transcript/2 and the match on
(``net/host/locked_takeover.py``). In memory on a fake clock, every message through the real
codec: what can be carried on finishes at every survivor with the same verified transcript; what
cannot yet ends the match in words that say why, and never hangs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402

from lanomino.blind.deal_round import Step  # noqa: E402
from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.peer.proof_passing import ProofPassing  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    Closed,
    HostCaught,
    MatchOver,
    MigrationDone,
    TranscriptUpdated,
)


def locked_table(players: int, seed: int, *, escrow: bool = False, bots: int = 0,
                 target: int = 50) -> MigratingTable:
    """(To 50 points, a match lost its host in the first hand ends a few hands after it; a test
    whose moment must not be in the match's last hand plays to just past the first hand's
    points at its seed (the deals of a seed do not depend on the target): to 150, some twenty
    hands, which the new host plays as any host does, cost seconds each and show nothing more.)"""
    table = MigratingTable(Rules.preset("classic", target=target), players, seed=seed,
                           blind=True, bots=bots)
    host = table.by_seat(0).host
    assert host is not None
    host.escrow = escrow
    return table


def lost_host_blind(table: MigratingTable) -> Any:
    host = table.by_seat(0).host
    assert host is not None and host.blind is not None
    return host.blind


def in_deal_round(table: MigratingTable, hand: int, step: Step) -> Callable[[], bool]:
    """The lost host's deal of ``hand`` waits at ``step`` (no tile has opened yet)."""
    def due() -> bool:
        blind = lost_host_blind(table)
        return (blind.number == hand and blind.hand is not None
                and blind.hand.deal.step is step)
    return due


def last_transcript(events: list[Any]) -> dict[str, Any] | None:
    return next((e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated)),
                None)


def survivors(table: MigratingTable, lost: int = 0) -> list[Any]:
    return [m for m in table.machines if m.seat != lost and m.up]


def check_finished(table: MigratingTable, lost: int = 0) -> dict[str, Any]:
    """Every survivor finished the match, verified, with the same transcript/2; one host per
    term; nobody caught anybody."""
    docs = []
    for m in survivors(table, lost):
        over = [e for e in m.events if isinstance(e, MatchOver)]
        assert over and over[-1].verified and not over[-1].reason, (m.seat, over)
        assert not [e for e in m.events if isinstance(e, HostCaught)], m.seat
        doc = last_transcript(m.events)
        assert doc is not None and doc["end"]["finished"]
        docs.append(doc)
    assert all(d == docs[0] for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok, report.failure
    terms = [t for m in table.machines for t in m.hosted_terms]
    assert len(terms) == len(set(terms)), terms
    return docs[0]


@pytest.mark.parametrize(("players", "seed", "step", "escrow", "target"), [
    (3, 1, Step.KEYS, False, 30), (4, 2, Step.KEYS, False, 30), (3, 3, Step.SHUFFLE, False, 80),
    (4, 4, Step.SHUFFLE, False, 30), (4, 5, Step.SHARES, False, 70),
    (4, 3, Step.SHUFFLE, True, 40), (3, 2, Step.SHARES, True, 20),
    (3, 2, Step.SHARES, False, 20)])  # (target: past the first hand's points at this seed)
def test_a_host_lost_before_a_later_hand_opened_a_tile_is_replaced(
        players: int, seed: int, step: Step, escrow: bool, target: int) -> None:
    """Lost after a hand's points, in the next hand's deal round (no tile open yet): the next
    seat hosts, deals that hand again locked among the people left (the lost host's seat
    resigns as its first move, signed by the new host), and the match finishes verified."""
    table = locked_table(players, seed, escrow=escrow, target=target)
    table.run(in_deal_round(table, 2, step), max_time=120)
    assert in_deal_round(table, 2, step)(), "the match ended before the second hand"
    table.crash(0)
    table.run(table.over, max_time=300)
    assert table.over()
    new = table.by_seat(1)
    assert new.hosted_terms == [1]
    assert [e for e in new.events if isinstance(e, MigrationDone)]
    doc = check_finished(table)
    entry = doc["hands"][1]
    second = entry["record"]
    assert second["host"] == 1 and 0 not in second["holders"]
    # the lost host left the deal it had begun: a departure before the attempt dealt again
    assert [(d["seat"], d["by"], d["attempt"]) for d in entry["departures"]] == [
        (0, "left", second["attempt"])] and second["attempt"] == 2
    assert all(h["record"]["host"] == 0 for h in doc["hands"][:1])


def mid_hand(table: MigratingTable, moves: int, drawing: bool) -> Callable[[], bool]:
    """The lost host's first hand has ``moves`` moves and a draw waits for its shares
    (``drawing``), or none does."""
    def due() -> bool:
        hand = lost_host_blind(table).hand
        return (hand is not None and hand.view is not None and hand.view.outcome is None
                and (hand.draw is not None) == drawing and len(hand.moves) >= moves)
    return due


@pytest.mark.parametrize(("players", "seed", "moves", "drawing"), [
    (3, 1, 2, False), (4, 2, 3, False), (3, 3, 4, False), (4, 4, 6, False),
    (3, 5, 2, True), (4, 6, 2, True), (4, 7, 3, True)])
def test_a_host_lost_in_a_locked_hand_with_escrow_is_stood_in_for(
        players: int, seed: int, moves: int, drawing: bool) -> None:
    """Lost mid-hand at an ``--escrow`` table (a draw waiting for shares, or none): the next
    seat hosts the same hand on, resigns the lost host's seat (``left``, signed by itself),
    every side stands in for its key, a waiting draw is asked again, and at the hand's end the
    lost key is rebuilt from the survivors' sub-shares; the match finishes verified."""
    table = locked_table(players, seed, escrow=True)
    due = mid_hand(table, moves, drawing)
    table.run(due, max_time=120)
    assert due(), "no such moment in the first hand"
    table.crash(0)
    table.run(table.over, max_time=300)
    assert table.over()
    new = table.by_seat(1)
    assert new.hosted_terms == [1]
    assert any(e.rebuilt for e in new.events if isinstance(e, MigrationDone))
    doc = check_finished(table)
    first = doc["hands"][0]["record"]
    assert first["host"] == 1 and 0 in first["holders"]
    assert [(r["seat"], r["by"]) for r in first["resignations"]] == [(0, "left")]
    assert new.host is not None and new.host.blind is not None
    record = new.host.blind.records[0]
    lost = next(r for r in record.reveals if r.seat == 0)
    assert lost.seed is None  # rebuilt from the escrow: its shuffle is kept with its argument
    assert next(e for e in record.shuffles if e.seat == 0).turn is not None


def in_reveals(table: MigratingTable) -> Callable[[], bool]:
    def due() -> bool:
        hand = lost_host_blind(table).hand
        return hand is not None and hand.view is not None and hand.view.outcome is not None
    return due


def in_rounds(table: MigratingTable) -> Callable[[], bool]:
    def due() -> bool:
        hand = lost_host_blind(table).hand
        return hand is not None and hand.view is None and hand.deal.step is Step.DONE
    return due


@pytest.mark.parametrize(("players", "escrow", "moment", "target"), [
    (3, False, "mid", 40), (4, False, "mid", 20), (4, False, "draw", 20), (3, False, "draw", 40),
    (3, True, "reveals", 50), (4, True, "reveals", 50), (3, False, "reveals", 30),
    (4, False, "reveals", 50), (4, False, "rounds", 30),
    (3, True, "rounds", 20)])  # (target: past the first hand's points)
def test_a_host_lost_at_any_moment_of_a_locked_hand_is_replaced(
        players: int, escrow: bool, moment: str, target: int) -> None:
    """The lost host is a holder that leaves, at every side alike (``blind/leave_rule.py``):
    without escrow in play, the survivors re-shuffle blind the tiles nobody holds; at the
    hand's end its key is out already, or stood in for (escrow), or the hand is dealt again;
    in the opening's rounds the hand is dealt again without it. The match finishes verified."""
    table = locked_table(players, 1, escrow=escrow, target=target)
    due = {"mid": mid_hand(table, 3, False), "draw": mid_hand(table, 2, True),
           "reveals": in_reveals(table), "rounds": in_rounds(table)}[moment]
    table.run(due, max_time=120)
    assert due()
    table.crash(0)
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    assert len(check_finished(table)["hands"]) > 1  # (the match went on past the lost hand)


def test_the_lost_hosts_bots_leave_with_it_and_the_people_play_on() -> None:
    """Three people and a host-side bot: the bot's key went with the lost host, so it resigns
    with it (``left``, signed by the new host) and the two people left finish the match."""
    table = locked_table(4, 6, bots=1)
    table.run(in_deal_round(table, 2, Step.KEYS), max_time=120)
    assert in_deal_round(table, 2, Step.KEYS)()
    table.crash(0)
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    entry = doc["hands"][1]
    assert sorted((d["seat"], d["by"]) for d in entry["departures"]) == [(0, "left"), (3, "left")]
    assert entry["record"]["holders"] == [1, 2]


def test_a_second_host_lost_in_the_same_locked_hand_is_replaced_too() -> None:
    """The new host is lost too, in the hand it carried on, after it signed the first lost
    host's resignation (``left``) and every side stood in for that key (the escrow is spent):
    the third host carries the hand on, the survivors re-shuffle blind the tiles nobody holds,
    and the two people left finish the match verified. The record names the third host, and
    the resignation the second signed names it (``host``), so every signature in it holds."""
    table = locked_table(4, 2, escrow=True)
    table.run(mid_hand(table, 3, False), max_time=120)
    table.crash(0)
    second = table.by_seat(1)

    def carried_on() -> bool:
        host = second.host
        hand = None if host is None or host.blind is None else host.blind.hand
        return hand is not None and hand.view is not None and hand.view.outcome is None \
            and len(hand.moves) >= 5 and hand.draw is None
    table.run(carried_on, max_time=120)
    assert carried_on()
    table.crash(1)
    table.run(table.over, max_time=300)
    assert table.by_seat(2).hosted_terms == [2]
    doc = check_finished(table, lost=1)
    first = doc["hands"][0]["record"]
    assert first["host"] == 2
    assert [(r["seat"], r["by"], r.get("host")) for r in first["resignations"]] == [
        (0, "left", 1), (1, "left", None)]
    assert first["unheld"]["lost"] == [0, 1] and first["unheld"]["escrow"]["owner"] == 0


@pytest.mark.parametrize(("escrow", "seed"), [(True, 2), (False, 2), (True, 5), (False, 3)])
def test_a_host_lost_after_it_resigned_a_person_who_left_the_hand_is_replaced(
        escrow: bool, seed: int) -> None:
    """A person leaves the hand in play and the host signs its resignation (``left``); then the
    host is lost in that hand too. The new host carries the hand on (the second key lost: with
    escrow spent, the survivors re-shuffle blind; re-shuffled already, the hand is dealt again
    among the people left, the lost host's resignation kept as a departure), and the two people
    left finish the match verified: the resignation the lost host signed names it (``host``)."""
    table = locked_table(4, seed, escrow=escrow)
    table.run(mid_hand(table, 2, False), max_time=120)
    assert mid_hand(table, 2, False)()
    table.crash(3)

    def resigned() -> bool:
        hand = lost_host_blind(table).hand
        return hand is not None and any(r.seat == 3 for r in hand.resignations) \
            and hand.draw is None and hand.view is not None \
            and hand.view.outcome is None
    table.run(resigned, max_time=120)
    assert resigned(), "the hand ended before seat 4 was resigned"
    table.crash(0)
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    doc = check_finished(table)
    first = doc["hands"][0]
    signed = [(r["seat"], r["by"], r.get("host")) for r in first["record"].get(
        "resignations", [])] + [(d["seat"], d["by"], d.get("host"))
                                for d in first.get("departures", [])]
    assert (3, "left", 0) in signed and (0, "left", None) in signed, signed


def update_to(seat: int, kind: str, first: int = 0) -> Callable[[int, dict[str, Any]], bool]:
    """The host's update, to ``seat``, of the first move of ``kind`` (play, draw, pass, resign)
    at index ``first`` or later of any hand."""
    def when(to: int, message: dict[str, Any]) -> bool:
        body = message.get("body", {})
        return (to == seat and message.get("type") == "update" and body["index"] >= first
                and kind in body["move"])
    return when


@pytest.mark.parametrize(("players", "escrow", "behind", "kind", "seed"), [
    (3, True, 2, "play", 1), (3, True, 1, "play", 2), (3, False, 2, "play", 3),
    (3, False, 1, "play", 4), (4, True, 3, "play", 5), (3, True, 2, "draw", 7),
    (3, True, 1, "draw", 8), (3, False, 1, "draw", 9), (4, True, 1, "draw", 10)])
def test_a_host_lost_between_its_updates_of_one_move_catches_every_member_up(
        players: int, escrow: bool, behind: int, kind: str, seed: int) -> None:
    """The host dies after passing a move (a play, or a draw whose shares it had begun to ask
    for) to some members and before passing it to ``behind`` (seat 1 is the new host): the
    new host takes the longest log the lost host signed, from its own seat or from the report
    of a member ahead of it, and passes a member behind it what it lacks (``catch_up``), each
    entry checked as if the lost host had sent it; the match finishes verified everywhere."""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, update_to(behind, kind, first=2))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "no such move"
    held = {m.seat: len(m.peer.moves.get(m.peer.hand, [])) for m in survivors(table)
            if m.peer is not None}
    assert len(set(held.values())) == 2 and held[behind] == min(held.values()), held
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    check_finished(table)


@pytest.mark.parametrize(("players", "escrow", "seed"), [(3, True, 1), (3, False, 2), (4, True, 3)])
def test_a_hands_points_that_no_member_got_are_signed_by_the_new_host(
        players: int, escrow: bool, seed: int) -> None:
    """The lost host settled the first hand and died before its points (``blind_end``) reached
    any member: the new host signs them over the record naming it (each side built that record
    itself, only its host changes), every member checks them as any points, the lost host
    departs before the next deal, and the match finishes verified everywhere."""
    cut = tuple(range(1, players))
    table = locked_table(players, seed, escrow=escrow)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_end"
                         and msg["body"]["hand"] == 1)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "the first hand did not end"
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    assert doc["hands"][0]["record"]["host"] == 1
    assert [d["seat"] for d in doc["hands"][1]["departures"]] == [0]


def test_points_no_member_got_of_a_hand_whose_lost_host_resigned_a_person_are_signed_anew(
) -> None:
    """A person left the first hand (the lost host signed its ``left``; without escrow the
    survivors re-shuffled blind), and the lost host settled the hand and died before its
    points reached any member: the new host signs them over the record naming it, the
    resignation naming the lost host that signed it, and the match finishes verified."""
    table = locked_table(4, 2)
    table.run(mid_hand(table, 2, False), max_time=120)
    table.crash(3)
    table.dies_unflushed(0, lambda to, msg: to in (1, 2) and msg.get("type") == "blind_end"
                         and msg["body"]["hand"] == 1)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "the first hand did not end"
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    first = doc["hands"][0]["record"]
    assert first["host"] == 1 and "unheld" in first
    assert [(r["seat"], r["by"], r.get("host")) for r in first["resignations"]] == [
        (3, "left", 0)]


@pytest.mark.parametrize(("players", "escrow", "cut", "seed"), [
    (3, False, (1, 2), 1), (4, True, (1, 2, 3), 2), (3, True, (2,), 3), (4, False, (3,), 4),
    (3, False, (1,), 5), (4, True, (1, 3), 6)])  # (the new host missed it, a member did not)
def test_a_host_lost_before_its_first_deal_reached_a_member_is_replaced(
        players: int, escrow: bool, cut: tuple[int, ...], seed: int) -> None:
    """The match began (every header signature in) and the host died sending its first
    ``blind_deal``: to the members in ``cut`` it never went. The next seat hosts and deals the
    first hand among the people left, the lost host departing before it (a member that missed
    the lost host's attempt takes that departure as one before the attempt dealt again), and
    the match finishes verified everywhere."""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_deal")
    table.run(lambda: not table.by_seat(0).up, max_time=60)
    assert not table.by_seat(0).up
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    first = doc["hands"][0]
    assert 0 not in first["record"]["holders"] and first["record"]["host"] == 1
    assert [(d["seat"], d["by"]) for d in first["departures"]] == [(0, "left")]


def test_a_member_that_missed_the_points_and_the_next_deal_is_caught_up() -> None:
    """The lost host sent a hand's points and its next deal to seat 1 (the new host) and died
    before sending them to seat 2: the new host passes seat 2 the points (and the reveals
    before them), then deals the next hand again without the lost host; seat 2 takes the
    departure as one before the attempt dealt again. The match finishes verified."""
    table = locked_table(3, 4, escrow=True, target=60)  # (hand 1, 54 points, does not end it)
    table.dies_unflushed(0, lambda to, msg: to == 2 and msg.get("type") == "blind_end"
                         and msg["body"]["hand"] == 1)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    assert doc["hands"][0]["record"]["host"] == 0  # (the lost host's points, passed on)
    assert [(d["seat"], d["attempt"]) for d in doc["hands"][1]["departures"]] == [(0, 2)]


@pytest.mark.parametrize(("escrow", "seed"), [(False, 1), (True, 2)])
def test_the_last_hands_points_that_no_member_got_end_the_match_everywhere(
        escrow: bool, seed: int) -> None:
    """The match's last hand is settled and the lost host died before its points reached any
    member: the new host signs them, and the match is over everywhere, verified, with no deal
    after it."""
    cut = (1, 2)
    table = locked_table(3, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_end"
                         and max(msg["body"]["scores"]) >= 20)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(table.over, max_time=120)
    doc = check_finished(table)
    assert doc["hands"][-1]["record"]["host"] == 1 and doc["end"]["host"] == 1


def own_play_shown_to(seen: int, first: int) -> Callable[[int, dict[str, Any]], bool]:
    """The lost host's own play at index ``first`` or later: its share (``blind_play``) reaches
    member ``seen`` only, its update nobody (the host dies between the two)."""
    at: list[int] = []

    def when(to: int, message: dict[str, Any]) -> bool:
        kind, body = message.get("type"), message.get("body", {})
        if not at and kind == "blind_play" and body["seat"] == 0 and body["index"] >= first:
            at.append(body["index"])
        return bool(at) and body.get("index") == at[0] and (
            kind == "update" or kind == "blind_play" and to != seen)
    return when


@pytest.mark.parametrize(("players", "seen", "seed"), [
    (3, 1, 1), (3, 2, 2), (3, 1, 3), (4, 1, 4), (4, 2, 5), (4, 3, 6)])
def test_a_lost_hosts_play_shown_to_some_members_only_is_in_no_record(
        players: int, seen: int, seed: int) -> None:
    """Without escrow, the lost host showed its own play's share to one member and died before
    the move entered anyone's log: its seat resigns at that index instead, and no side keeps
    the share among the lost holder's published ones (the blind re-shuffle's record), so every
    side's record of the hand is the same. (Before, the member that had the share put it in its
    record, and the other refused the new host's points signature: one game in 30 of the chaos
    soak.)"""
    table = locked_table(players, seed, target=20)
    table.dies_unflushed(0, own_play_shown_to(seen, 2))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "no such play"
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    doc = check_finished(table)
    assert doc["hands"][0]["record"]["unheld"] is not None


def own_draw_share_shown_to(seen: int, first: int) -> Callable[[int, dict[str, Any]], bool]:
    """The lost host's own share of a draw at index ``first`` or later (``blind_draw``) reaches
    member ``seen`` only (the draw's update reached every member), and the host dies."""
    at: list[int] = []

    def when(to: int, message: dict[str, Any]) -> bool:
        kind, body = message.get("type"), message.get("body", {})
        if not at and kind == "blind_draw" and body["seat"] == 0 and body["index"] >= first:
            at.append(body["index"])
        return bool(at) and (kind == "update" and body["index"] > at[0]
                             or kind == "blind_draw" and body["index"] == at[0] and to != seen)
    return when


@pytest.mark.parametrize(("players", "escrow", "seen", "seed"), [
    (3, False, 1, 1), (3, False, 2, 2), (3, True, 1, 3), (3, True, 2, 4), (4, False, 1, 1),
    (4, False, 3, 2), (4, True, 1, 3), (4, True, 2, 4)])
def test_a_lost_hosts_draw_share_shown_to_some_members_only_reaches_them_all(
        players: int, escrow: bool, seen: int, seed: int) -> None:
    """The lost host's own share of a waiting draw reached one member only: the new host takes
    it from that member's report when it lacks it (a log as long as its own), and passes every
    share of the draw it holds to every member before the lost host's seat resigns, so every
    side agrees whether the draw waited for the lost key (with escrow: drawn again or not;
    without: re-shuffled blind or not) and the drawer has the shares that went to the lost host
    only. Before, the sides disagreed and the match ended ("the re-shuffle found 14 unheld
    tiles, not 15", or a seat waited in vain)."""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, own_draw_share_shown_to(seen, 2))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "no such draw"
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    check_finished(table)


@pytest.mark.parametrize(("players", "escrow", "cut", "seed", "target"), [
    (3, False, (1,), 3, 80), (4, True, (1,), 5, 70), (4, False, (1, 3), 6, 40)])
def test_a_hands_points_that_only_some_members_got_carry_on(
        players: int, escrow: bool, cut: tuple[int, ...], seed: int, target: int) -> None:
    """The lost host's points of a hand (not the match's last) reached some members and not the
    new host (and perhaps others): the new host takes them from a member's report, passes them
    to those that lack them, and deals the next hand without the lost host. The match finishes
    verified, the hand's record the lost host's."""
    table = locked_table(players, seed, escrow=escrow, target=target)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_end"
                         and msg["body"]["hand"] == 1)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(table.over, max_time=300)
    doc = check_finished(table)
    assert doc["hands"][0]["record"]["host"] == 0 and len(doc["hands"]) > 1


@pytest.mark.parametrize(("players", "escrow", "cut", "seed"), [
    (3, False, (1,), 1), (4, True, (1, 2), 2), (4, False, (2,), 3), (3, True, (2,), 4)])
def test_the_last_hands_points_that_only_some_members_got_reach_them_all(
        players: int, escrow: bool, cut: tuple[int, ...], seed: int) -> None:
    """The match's last points reached some members and not the others (those in ``cut``), and
    the host died. Those that got them have finished, and pass the lost host's points (with the
    hand's reveals) to every other member (``blind_close.pass_end``), which takes them as its
    host's: every survivor ends the match decided, with the same transcript/2, which verifies,
    and nobody elects. (Before, the finished members elected nobody, so the others found no
    majority and left the table saying they had lost touch with it.)"""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_end"
                         and max(msg["body"]["scores"]) >= 20)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(lambda: all(isinstance(e, MatchOver | Closed) for m in survivors(table)
                          for e in m.events[-1:]), max_time=300)
    doc = check_finished(table)
    assert doc["end"]["host"] == 0  # (the lost host's closing, passed on)
    assert [t for m in table.machines for t in m.hosted_terms] == [0]  # (nobody elected)


@pytest.mark.parametrize(("players", "escrow", "cut", "seed", "last"), [
    (3, False, (1,), 5, 2), (4, True, (2, 3), 6, 1), (3, True, (2,), 7, 2),
    (4, False, (1,), 8, 1)])
def test_the_last_hands_reveals_and_points_that_only_some_members_got_reach_them_all(
        players: int, escrow: bool, cut: tuple[int, ...], seed: int, last: int) -> None:
    """The host died relaying the last hand's reveals (hand ``last`` ends the match at this
    seed): the members in ``cut`` got its own, none of the others', nor the points. A member
    that finished passes them all on, and they settle the hand and finish as it did."""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_reveal"
                         and msg["body"]["hand"] == last and msg["body"]["seat"] not in (0, to))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(lambda: all(isinstance(e, MatchOver | Closed) for m in survivors(table)
                          for e in m.events[-1:]), max_time=300)
    doc = check_finished(table)
    assert len(doc["hands"]) == last and doc["end"]["host"] == 0
    assert [t for m in table.machines for t in m.hosted_terms] == [0]


@pytest.mark.parametrize(("players", "escrow", "seed", "target"), [
    (3, False, 1, 30), (3, True, 2, 20), (3, False, 3, 80), (4, False, 4, 30),
    (4, True, 5, 70)])  # (target: past the first hand's points at this seed)
def test_a_members_reveal_the_lost_host_did_not_pass_on_reaches_the_new_host(
        players: int, escrow: bool, seed: int, target: int) -> None:
    """The host died relaying a hand's reveals (not the match's last): the last seat had every
    other reveal and settled the hand, and its own had not reached the new host (seat 1). Its
    report carries it (it is kept until the host's points), the new host settles the hand, and
    the match finishes verified everywhere. (Before, a member that had settled reported no
    reveal: the new host waited for it in vain, dropped that member past the grace period and
    won alone; one game in 100 of the chaos soak without escrow.)"""
    last = players - 1
    table = locked_table(players, seed, escrow=escrow, target=target)
    table.dies_unflushed(0, lambda to, msg: msg["body"].get("hand") == 1 and (
        to == 1 and msg["type"] == "blind_reveal" and msg["body"]["seat"] == last
        or msg["type"] == "blind_end"))  # (the points reach nobody)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "the first hand did not end"
    member, new = table.by_seat(last).peer, table.by_seat(1).peer
    assert member is not None and new is not None
    assert member.blind.settled is not None and new.blind.settled is None  # (as in the soak)
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    assert len(check_finished(table)["hands"]) > 1


@pytest.mark.parametrize("forge", ["points", "reveal"])
def test_last_points_a_member_forged_are_dropped_and_nobody_is_blamed(
        forge: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A member passes on the match's last points with a signature changed (of the points, or
    of a reveal): the seat that lacks them drops them as false (``dropped.false_proof``),
    catches nobody (the host did not pass them), and, with no honest copy, leaves the table
    in clear words as before."""
    honest = ProofPassing.take

    def forged(passing: ProofPassing) -> list[tuple[int, dict[str, Any]]]:
        out = honest(passing)
        for _, message in out if passing.p.seat == 2 else ():
            for entry in message["body"]["evidence"].get("entries", []):
                if entry["type"] == {"points": "blind_end", "reveal": "blind_reveal"}[forge]:
                    sig = entry["body"]["signature"]
                    entry["body"]["signature"] = ("0" if sig[0] != "0" else "1") + sig[1:]
        return out
    monkeypatch.setattr(ProofPassing, "take", forged)
    table = locked_table(3, 5, target=20)
    table.dies_unflushed(0, lambda to, msg: to == 1 and msg.get("type") == "blind_reveal"
                         and msg["body"]["hand"] == 2 and msg["body"]["seat"] not in (0, to))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    table.run(lambda: all(isinstance(e, MatchOver | Closed) for m in survivors(table)
                          for e in m.events[-1:]), max_time=300)
    seat1 = table.by_seat(1)
    assert seat1.peer is not None and seat1.peer.stats["dropped.false_proof"] == 1
    assert not [e for e in seat1.events if isinstance(e, HostCaught)]
    assert not [e for e in seat1.events if isinstance(e, MatchOver)]
    assert "lost touch with the table" in (seat1.events[-1].reason or "")


@pytest.mark.parametrize(("players", "escrow", "cut", "seed", "last"), [
    (3, False, (1,), 5, 2), (3, True, (1,), 7, 2), (4, False, (1, 3), 8, 1),
    (4, True, (2,), 6, 1), (3, False, (2,), 5, 2)])
def test_a_lost_hosts_reveal_that_only_some_members_got_reaches_them_all(
        players: int, escrow: bool, cut: tuple[int, ...], seed: int, last: int) -> None:
    """The host revealed its key at the end of hand ``last`` and died with its reveal sent to
    some members only (not to those in ``cut``, the new host perhaps among them). Its key was
    out: a member's report carries it (``host_reveal``), and the new host passes it to every
    member before the lost host's seat leaves, so every side applies the same leave rule (the
    lost host departs; before, a new host that lacked it dealt the hand again, or stood in for
    the key, and a member that held it caught the new host: "the host resigned seat 1 as gone
    from a deal it had revealed its key for"). The match finishes verified everywhere."""
    table = locked_table(players, seed, escrow=escrow, target=20)
    table.dies_unflushed(0, lambda to, msg: to in cut and msg.get("type") == "blind_reveal"
                         and msg["body"]["hand"] == last and msg["body"]["seat"] == 0)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up
    table.run(lambda: all(isinstance(e, MatchOver | Closed) for m in survivors(table)
                          for e in m.events[-1:]), max_time=300)
    doc = check_finished(table)
    record = parse_blind_hand(doc["hands"][last - 1]["record"])
    assert [r.seat for r in record.reveals].count(0) == 1  # (its own reveal, not one rebuilt)
    assert 0 not in [r.seat for r in record.resignations]


@pytest.mark.parametrize(("players", "escrow", "seed", "target"), [
    (3, False, 1, 30), (3, True, 2, 20), (4, False, 4, 30),
    (4, True, 5, 70)])  # (target: past the first hand's points at this seed)
def test_points_only_a_member_got_reach_a_new_host_that_lacked_its_reveal(
        players: int, escrow: bool, seed: int, target: int) -> None:
    """The host relayed the last seat's reveal of hand 1 to every member but the next host
    (seat 1), settled the hand and sent its points, and died: the member took the points and
    moved on to the next deal, and the new host's seat still waits for that reveal. The
    member's report carries its reveal of the hand it finished (from its transcript), the new
    host settles the hand with the lost host in its record and takes the lost host's points
    from the member's report, and the match finishes verified everywhere. (Before, the new
    host waited in vain for the reveal: the member had nothing of the hand left to report.)"""
    last = players - 1
    table = locked_table(players, seed, escrow=escrow, target=target)
    table.dies_unflushed(0, lambda to, msg: to == 1 and msg.get("type") == "blind_reveal"
                         and msg["body"]["hand"] == 1 and msg["body"]["seat"] == last)
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    assert not table.by_seat(0).up, "the first hand did not end"
    member, new = table.by_seat(last).peer, table.by_seat(1).peer
    assert member is not None and new is not None
    assert member.blind.last_end is not None and member.blind.last_end.hand == 1
    assert new.blind.last_end is None and new.blind.settled is None
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    doc = check_finished(table)
    assert len(doc["hands"]) > 1  # (hand 1 was not the match's last)
    assert doc["hands"][0]["record"]["host"] == 0  # (the lost host's points, carried on)
