"""Every wait has a deadline: a seat that stays connected but never answers cannot stall a table.

In memory on a fake clock: a peer that keeps its heartbeats going but never sends its commitment,
its echo, its secret or its move; the optional move clock; a host that never answers a resync.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402
from sessionkit import FAST, PeerSlot, Table, phase_of  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.transcript import Abandoned, TranscriptError  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    ProtocolProblem,
    SeatAway,
    SeatLeft,
    Timings,
    YourTurn,
)

RULES = Rules.preset("classic", target=100)


def problems(events: list[object], code: str) -> list[ProtocolProblem]:
    return [e for e in events if isinstance(e, ProtocolProblem) and e.code == code]


def refused(doc: dict[str, Any]) -> bool:
    """``lanomino verify`` does not accept the transcript (malformed, or a check fails)."""
    try:
        return not verify_transcript(doc).ok
    except TranscriptError:
        return True


def dealt(table: Table, hand: int) -> bool:
    d = table.host.deal
    return d is not None and d.hand == hand and table.host.phase.value == "play"


@pytest.mark.parametrize("step", ["commit", "echo", "reveal"])
def test_a_peer_silent_at_a_step_of_the_deal_is_left_out_and_the_match_goes_on(step: str) -> None:
    table = Table(RULES, 3, seed=3)
    silent = table.slots[0]
    silent.mute = frozenset({step})
    table.run(lambda: phase_of(table.host) == step and table.host.deal is not None)
    asked_at = table.now
    table.run(lambda: dealt(table, 1))
    # the round went on after the step's deadline, not later (and not before)
    waited = table.now - asked_at
    assert FAST.answer_s - 0.01 <= waited <= FAST.answer_s + FAST.heartbeat_s + 0.01
    d = table.host.deal
    assert d is not None and silent.session.seat not in d.current.round.seats
    assert d.abandoned == [Abandoned(1, step, (silent.session.seat,))]
    assert problems(table.host_events, "no_answer")
    table.run(table.over)
    assert table.over()
    doc = table.host.doc
    assert doc is not None and verify_transcript(doc).ok
    for hand in doc["hands"]:  # the transcript says who did not answer, hand by hand
        assert any(silent.session.seat in a["unanswered"] for a in hand["abandoned"])
    # every peer, the silent one included, checked every hand and found it fair
    assert all(slot.session.verified_all for slot in table.slots)
    # the record of who did not answer is signed: dropping it breaks the transcript
    forged = copy.deepcopy(doc)
    del forged["hands"][0]["abandoned"]
    assert refused(forged)


def test_a_peer_that_never_answers_runs_out_of_grace_and_leaves_under_the_rules() -> None:
    """Silent at its commitment and at its move (no move clock): left out of the deal, then
    waited for at its turn until its grace period from the missed deadline is over; then it has
    left the table (resigned) and play goes on."""
    table = Table(RULES, 3, seed=4)
    silent = table.slots[0]
    silent.mute = frozenset({"commit", "move"})
    table.run(lambda: any(isinstance(e, SeatLeft) for e in table.host_events), max_time=120)
    left = [e for e in table.host_events if isinstance(e, SeatLeft)]
    assert left and left[0].seat == silent.session.seat and "did not answer" in left[0].reason
    table.run(table.over)
    doc = table.host.doc
    assert table.over() and doc is not None and verify_transcript(doc).ok
    moves = [m for h in doc["hands"] for m in h["moves"]]
    assert {"seat": silent.session.seat, "resign": True} in moves


def until_turn(table: Table, slot: PeerSlot) -> None:
    table.run(lambda: any(isinstance(e, YourTurn) for e in slot.events))


def test_without_a_move_clock_the_table_waits_for_a_connected_player_to_move() -> None:
    table = Table(RULES, 3, seed=5)
    thinker = table.slots[0]
    thinker.bot = None  # a player who thinks (no move goes out: a move sent is timed, relay_s)
    until_turn(table, thinker)
    d = table.host.deal
    assert d is not None
    moves = len(d.moves)
    table.run(max_time=3 * FAST.grace_s)
    assert len(d.moves) == moves and table.host.phase.value == "play"  # still its turn
    assert not [e for e in table.host_events if isinstance(e, (SeatLeft, SeatAway))]


def test_with_a_move_clock_the_tables_bot_takes_the_seat_until_the_player_is_back() -> None:
    timings = Timings(heartbeat_s=1.0, liveness_s=3.0, grace_s=10.0, move_s=2.0)
    table = Table(RULES, 3, seed=6, timings=timings)
    away = table.slots[0]
    away.mute = frozenset({"move"})
    until_turn(table, away)
    turn_at = table.now
    table.run(lambda: any(isinstance(e, SeatAway) for e in table.host_events))
    assert timings.move_s is not None
    assert table.now - turn_at == pytest.approx(timings.move_s, abs=0.3)
    table.run(lambda: bool(table.host.deal and table.host.deal.away))
    assert away.session.away  # the roster tells the peer its seat is played for it
    table.run(lambda: table.host.doc is not None and bool(table.host.doc["hands"]))
    # the player comes back: it plays its own moves again
    away.mute = frozenset()
    away.session.back(table.now)
    table.run(table.over)
    doc = table.host.doc
    assert table.over() and doc is not None and verify_transcript(doc).ok
    seat = away.session.seat
    by_bot = [(h["hand"], i) for h in doc["hands"] for i in h.get("away", [])]
    assert by_bot and all(doc["hands"][n - 1]["moves"][i]["seat"] == seat for n, i in by_bot)
    own = [i for h in doc["hands"][1:] for i, m in enumerate(h["moves"])
           if m["seat"] == seat and i not in h.get("away", [])]
    assert own, "after coming back the player moved for itself"
    assert [e.away for e in table.host_events if isinstance(e, SeatAway)][:2] == [True, False]
    # a host-signed move for a seat is accepted only where the signed log lists it as the bot's
    hand = next(h for h in doc["hands"] if h.get("away"))
    forged = copy.deepcopy(doc)
    forged["hands"][hand["hand"] - 1]["away"] = []
    assert refused(forged)


def test_a_seat_quitting_during_the_first_deal_does_not_send_the_table_back_to_the_lobby() -> None:
    table = Table(RULES, 3, seed=7)
    leaver = table.slots[0]
    leaver.mute = frozenset({"reveal"})
    table.run(lambda: phase_of(table.host) == "reveal")
    leaver.session.quit(table.now)
    table.run(lambda: table.host.phase.value != "deal")
    assert table.host.phase.value == "play" and table.host.doc is not None
    table.run(table.over)
    doc = table.host.doc
    assert table.over() and doc is not None and verify_transcript(doc).ok
    assert doc["hands"][0]["moves"][0] == {"seat": leaver.session.seat, "resign": True}
    assert doc["hands"][0]["abandoned"][0]["unanswered"] == [leaver.session.seat]


def test_a_peer_whose_resync_the_host_never_answers_asks_again_after_the_deadline() -> None:
    table = Table(RULES, 3, seed=8)
    peer = table.slots[0]
    peer.bot = None  # the table waits for its move meanwhile
    until_turn(table, peer)
    host_receive = table.host.receive
    table.host.receive = lambda sender, message, now: (  # type: ignore[method-assign]
        None if message.get("type") == "resync" else host_receive(sender, message, now))
    sent: list[str] = []
    peer.session.now = table.now
    peer.session.dealing.ask_resync()
    sent += [m["type"] for m in peer.session._out]
    asked = table.now
    table.run(lambda: bool(problems(peer.events, "no_answer")), max_time=30)
    assert FAST.answer_s <= table.now - asked <= FAST.answer_s + FAST.heartbeat_s
    assert sent == ["resync"] and peer.session.resync_asked  # asked once more
    table.host.receive = host_receive  # type: ignore[method-assign]
    table.run(lambda: not peer.session.resync_asked, max_time=30)
    assert peer.session.resync_due is None
