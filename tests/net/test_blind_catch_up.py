"""A locked hand's log caught up after its host died between two sends (net/peer/catch_up.py,
net/host/locked_log.py): an entry is taken only as the lost host signed it, each one checked
as if that host had sent it; two entries the lost host signed for one place are a fork that
names it. In memory, on the real sessions of a table whose host died unflushed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import resigns_at  # noqa: E402
from test_blind_migration import last_transcript, locked_table, update_to  # noqa: E402

from lanomino.fair.chain import genesis, head_statement, link  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.host.locked_log import behind, fork  # noqa: E402
from lanomino.net.peer.catch_up import LogCatchUp  # noqa: E402
from lanomino.net.peer.session import PeerSession  # noqa: E402
from lanomino.net.session import Closed, MatchOver, TranscriptUpdated  # noqa: E402
from lanomino.net.wire import messages as m  # noqa: E402
from lanomino.net.wire.catch_up_messages import MAX_CATCH_UP, MAX_ENTRIES  # noqa: E402
from lanomino.net.wire.schemas import envelope  # noqa: E402


def share_to(seat: int) -> Callable[[int, dict[str, Any]], bool]:
    """A play's share (``blind_play``) passed on to ``seat``, after the hand's first moves."""
    return lambda to, msg: (to == seat and msg.get("type") == "blind_play"
                            and msg["body"]["index"] >= 2)


def died_unflushed(escrow: bool = True, when: Callable[[int, dict[str, Any]], bool] | None = None
                   ) -> tuple[Any, PeerSession, PeerSession]:
    """A 3-person table whose host died after passing a play to seat 1 (0-based) and not to
    seat 2; both still peers (no election yet): (table, the member ahead, the one behind)."""
    table = locked_table(3, 1, escrow=escrow, target=20)
    table.dies_unflushed(0, when or update_to(2, "play", first=2))
    table.run(lambda: not table.by_seat(0).up, max_time=200)
    ahead, behind = table.by_seat(1).peer, table.by_seat(2).peer
    assert ahead is not None and behind is not None
    assert len(ahead.moves[ahead.hand]) == len(behind.moves[behind.hand]) + 1
    return table, ahead, behind


def entries_for(ahead: PeerSession, behind: PeerSession) -> list[dict[str, Any]]:
    got = ahead.catching.entries(len(behind.moves[behind.hand]))
    assert got is not None and [e["type"] for e in got][-1] == "update"
    return got


def test_a_member_behind_takes_the_lost_hosts_entries_and_names_a_forged_one() -> None:
    """The entries the member ahead holds bring the member behind level; an update whose head
    the lost host did not sign, or a play share its seat did not sign, is caught (its check
    names whose signature fails) and nothing of it is taken."""
    table, ahead, behind = died_unflushed(when=share_to(2))  # (it lacks the play's share too)
    held = len(behind.moves[behind.hand])
    good = entries_for(ahead, behind)
    shown = [dict(e, body=dict(e["body"], end="right" if e["body"]["end"] == "left" else "left"))
             if e["type"] == "blind_play" else e for e in good]
    assert shown != good
    behind.catching.catch_up(m.CatchUp(behind.hand, tuple(shown)))
    assert len(behind.moves[behind.hand]) == held
    assert behind.caught[-1].check == "blind-signature", behind.caught[-1]
    forged = [dict(e, body=dict(e["body"], head=table.by_seat(1).peer.identity.sign_statement(
        head_statement(behind.digest, behind.hand, held, bytes(32))).hex()))
        if e["type"] == "update" else e for e in good]
    behind.catching.catch_up(m.CatchUp(behind.hand, tuple(forged)))
    assert len(behind.moves[behind.hand]) == held
    assert behind.caught[-1].check == "head" and "the lost host's (seat 1)" in \
        behind.caught[-1].detail, behind.caught[-1]
    behind.catching.catch_up(m.CatchUp(behind.hand, tuple(good)))
    assert behind.moves[behind.hand] == ahead.moves[ahead.hand]
    assert behind.move_sigs[behind.hand] == ahead.move_sigs[ahead.hand]


def test_two_entries_the_lost_host_signed_for_one_place_are_a_fork_that_names_it() -> None:
    """A member reports another move at a place of the log: when the lost host signed that
    entry's head too, the new host names it (a fork, checked with ``Fork.holds``); when it did
    not, the member's log differs and nobody is named."""
    table, ahead, behind = died_unflushed()
    hand, index = ahead.hand, len(ahead.moves[ahead.hand]) - 2
    report = ahead.report()
    was = ahead.moves[hand][index]
    other = {"seat": was["seat"], "pass" if "draw" in was else "draw": True}
    chain = ahead.arrival.head(hand)
    prev = chain[index - 1] if index else genesis(ahead.digest, hand)
    lost = table.by_seat(0).host.identity
    head = lost.sign_statement(head_statement(ahead.digest, hand, index,
                                              link(prev, other, ahead.move_sigs[hand][index])))
    update = m.Update(hand, index, other, ahead.move_sigs[hand][index], (), 0, head)
    log = [envelope(update, 0, 1)]
    moves = list(report.moves)
    moves[index] = other
    signed = replace(report, moves=tuple(moves), last={"log": log})
    found = fork(behind, {1: signed}, 0)
    assert found is not None and "a fork" in found[0] and "(seat 1)" in found[0], found
    assert found[1] is not None and found[1]["kind"] == "fork" and found[1]["host"] == 0
    unsigned = replace(signed, last={"log": [dict(log[0], body=dict(
        log[0]["body"], head=ahead.identity.sign_statement(head_statement(
            ahead.digest, hand, index, bytes(32))).hex()))]})
    found = fork(behind, {1: unsigned}, 0)
    assert found is not None and "fork" not in found[0] and f"move {index + 1}" in found[0]
    assert found[1] is None  # (no proof: the lost host did not sign the member's copy)
    assert fork(behind, {1: ahead.report()}, 0) is None  # (a longer log is no fork)


def forked_report(table: Any, member: PeerSession) -> m.Report:
    """``member``'s report with its log's last move replaced by another one whose head the lost
    host (seat 0) signed too: the lost host showed two logs."""
    report, hand = member.report(), member.hand
    index = len(member.moves[hand]) - 1
    was = member.moves[hand][index]
    other = {"seat": was["seat"], "pass" if "draw" in was else "draw": True}
    chain = member.arrival.head(hand)
    prev = chain[index - 1] if index else genesis(member.digest, hand)
    head = table.by_seat(0).host.identity.sign_statement(head_statement(
        member.digest, hand, index, link(prev, other, member.move_sigs[hand][index])))
    update = m.Update(hand, index, other, member.move_sigs[hand][index], (), 0, head)
    moves = list(report.moves)
    moves[index] = other
    return replace(report, moves=tuple(moves), last={"log": [envelope(update, 0, 1)]})


def test_a_fork_found_at_the_takeover_is_proof_in_the_new_hosts_transcript() -> None:
    """The member behind reports a log whose last move the lost host signed otherwise than the
    one the new host holds: the match ends naming the lost host, and the new host's transcript
    keeps the proof (``evidence``), so ``lanomino verify`` names it offline."""
    table, ahead, behind = died_unflushed()
    forged = forked_report(table, behind)
    behind.report = lambda: forged  # type: ignore[method-assign]
    table.run(lambda: table.by_seat(1).host is not None
              and table.by_seat(1).host.phase.value == "over", max_time=120)
    new = table.by_seat(1)
    over = [e for e in new.events if isinstance(e, MatchOver)]
    assert over and "a fork" in (over[-1].reason or ""), over
    doc = next(e.transcript for e in reversed(new.events) if isinstance(e, TranscriptUpdated))
    assert [p["kind"] for p in doc["evidence"]] == ["fork"] and doc["evidence"][0]["host"] == 0
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert report.caught and "the host (seat 1) signed two different logs" in report.caught[0]


def test_a_member_further_behind_than_a_catch_up_carries_is_caught_up_in_parts() -> None:
    """A member whose log is more than ``MAX_CATCH_UP`` moves shorter than the new host's (a
    seat that resigned and holds a key may be, between two draws) gets the entries it lacks in
    several catch-ups, in order, each within a message's bound, instead of the match ending
    with "logs that a new host cannot bring together"."""
    table, ahead, behind_ = died_unflushed(when=update_to(2, "play", first=14))
    own = ahead.moves[ahead.hand]
    assert len(own) >= 13, "no long enough log"
    short = replace(behind_.report(), moves=tuple(own[:len(own) - 12]))
    parts, why = behind(ahead, {2: short})
    assert why is None and [len(p.entries) > 0 for p in parts[2]] == [True, True], (why, parts)
    start = len(own) - 12
    assert [e for p in parts[2] for e in p.entries] == [
        *(ahead.catching.entries(start, start + MAX_CATCH_UP) or []),
        *(ahead.catching.entries(start + MAX_CATCH_UP) or [])]
    assert all(len(p.entries) <= MAX_ENTRIES for p in parts[2])
    assert ahead.catching.entries(start) is None  # (one message carries MAX_CATCH_UP moves)


@pytest.mark.parametrize("answers", [True, False])
def test_a_new_host_further_behind_than_a_report_carries_is_caught_up_in_parts(
        answers: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new host whose seat resigned (it holds a key, so it needs the log only for the draws)
    lost the host's updates once the boneyard was empty, and the host died more than
    ``MAX_CATCH_UP`` moves later: the members' reports carry too little to bring it level. It
    asks the members ahead for the entries from its own place on (``log_wanted``), takes the
    ``catch_up``s they send, each entry checked as if the lost host had sent it, and resumes;
    the match finishes verified everywhere. (Before, the new host's session raised on a play's
    share two moves past its log, and the match could not go on.) Members that do not answer
    (``answers`` False) cost the wait ``answer_s``, and the match then ends at every survivor
    saying why."""
    if not answers:
        monkeypatch.setattr(LogCatchUp, "wanted", lambda self, body: None)
    table = locked_table(4, 3, target=20)  # (its first hand has the moment, and 4 points)
    seat = table.machines[1]  # (seat 1, 0-based: the next host)
    seat.policy = resigns_at(1, 3)
    assert seat.member is not None
    seat.member.policy = seat.policy
    host = table.by_seat(0).host
    assert host is not None and host.blind is not None
    blind = host.blind

    def ready() -> bool:  # seat 1 resigned, and no draw can come (the boneyard is empty)
        hand = blind.hand
        return hand is not None and hand.view is not None and hand.view.outcome is None \
            and any(r.seat == 1 for r in hand.resignations) and hand.draws >= len(hand.order)
    table.run(lambda: ready() or table.over(), max_time=200)
    assert ready()
    hand, at = blind.hand, len(blind.hand.moves)
    table.stalls(0, lambda to, msg: to == 1 and msg.get("type") == "update")
    table.run(lambda: hand.view.outcome is not None or len(hand.moves) >= at + MAX_CATCH_UP + 2,
              max_time=60)
    assert hand.view.outcome is None and len(hand.moves) >= at + MAX_CATCH_UP + 2
    peer = seat.member.peer
    assert len(hand.moves) - len(peer.moves[peer.hand]) > MAX_CATCH_UP
    table.crash(0)
    if not answers:
        table.run(lambda: all(isinstance(e, MatchOver | Closed) for machine in
                              table.machines[1:] for e in machine.events[-1:]), max_time=300)
        for machine in table.machines[1:]:
            ends = [e for e in machine.events if isinstance(e, MatchOver | Closed)]
            assert "cannot bring together" in (ends[-1].reason or ""), (machine.seat, ends)
        return
    table.run(table.over, max_time=300)
    assert table.by_seat(1).hosted_terms == [1]
    over = table.by_seat(1).host
    assert over is not None and over.stats["migration.bad_log"] == 0
    doc = last_transcript(table.by_seat(2).events)
    assert doc is not None and verify_transcript(doc).ok
    for machine in table.machines[1:]:
        ends = [e for e in machine.events if isinstance(e, MatchOver)]
        assert ends and ends[-1].verified and not ends[-1].reason, (machine.seat, ends)
