"""Whole matches between a HostSession and PeerSessions in memory, through the real codec."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import HandStarted, Rules, observe  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HandVerified,
    LocalSeat,
    MatchOver,
    TranscriptUpdated,
)


def final_transcripts(table: Table) -> list[dict[str, Any]]:
    def last(events: list[Any]) -> dict[str, Any]:
        return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))

    return [last(table.host_events), *(last(slot.events) for slot in table.slots)]


def test_a_whole_four_player_match_runs_in_milliseconds_and_every_peer_verifies_it() -> None:
    started = time.perf_counter()
    table = Table(Rules.preset("classic"), 4)
    table.run(table.over)
    elapsed = time.perf_counter() - started
    assert table.over()
    assert elapsed < 5.0
    for slot in table.slots:
        over = [e for e in slot.events if isinstance(e, MatchOver)]
        assert len(over) == 1 and over[0].verified
        hands = [e for e in slot.events if isinstance(e, HandVerified)]
        assert hands and all(h.ok for h in hands), [h.detail for h in hands if not h.ok]
    docs = final_transcripts(table)
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    report = verify_transcript(docs[0])
    assert report.ok and docs[0]["end"]["finished"]
    assert max(docs[0]["end"]["scores"]) >= 100
    assert sum(table.host.stats.values()) == 0


@pytest.mark.parametrize("preset,players,bots", [
    ("classic", 2, 0), ("block", 3, 1), ("allfives", 3, 0), ("partnership", 4, 1),
    ("classic", 4, 2),
])
def test_every_preset_plays_to_the_end_with_host_side_bots(
    preset: str, players: int, bots: int
) -> None:
    table = Table(Rules.preset(preset), players, bots=bots, seed=players + bots)
    table.run(table.over)
    assert table.over()
    docs = final_transcripts(table)
    assert verify_transcript(docs[0]).ok
    assert all(d == docs[0] for d in docs)
    names = docs[0]["players"]
    assert names[0] == "host" and names[players - bots:] == [f"bot{i}" for i in range(bots)]
    for slot in table.slots:
        assert slot.session.verified_all


def test_each_peer_view_is_the_observation_the_host_engine_gives() -> None:
    table = Table(Rules.preset("allfives", target=100), 3, seed=7)
    compared = 0
    for _ in range(100_000):
        if table.over():
            break
        moved = table.step()
        state = table.host.state
        if state is not None and table.host.phase.value == "play":
            for slot in table.slots:
                mine, real = slot.session.observation(), observe(state, slot.session.seat)
                assert mine is not None
                real_history = [e._replace(must_lead=None)
                                if isinstance(e, HandStarted) and e.opener != mine.seat else e
                                for e in real.history]
                assert list(mine.history) == real_history
                for name in ("hand", "hand_sizes", "active", "turn", "opener", "boneyard",
                             "drawable", "scores", "hand_points", "legal", "results", "hand_no",
                             "dealt_hands", "phase", "must_lead", "ends"):
                    assert getattr(mine, name) == getattr(real, name), name
                assert mine.line.fives_count() == real.line.fives_count()
                compared += 1
        if not moved:  # quiet: each session's timer runs when due (a host-side bot moves on it)
            table.now += 0.01
            for session in (table.host, *(slot.session for slot in table.slots)):
                due = session.next_deadline()
                if due is not None and due <= table.now:
                    session.handle_timer(table.now)
    # The deal comes from fresh secrets, so the match length varies: a short All Fives match
    # can end after a dozen positions.
    assert table.over() and compared >= 10


TILE = re.compile(r"(?<![0-9a-f])([0-9])-([0-9])(?![0-9a-f])")


def test_no_message_to_a_peer_shows_another_seats_tiles_before_the_reveal() -> None:
    table = Table(Rules.preset("classic", target=150), 4, seed=3)
    table.run(table.over)
    assert table.over()
    for slot in table.slots:
        known: set[str] = set()
        checked = 0
        for message in slot.inbox:
            kind, body = message["type"], message["body"]
            if kind in ("hand_log", "snapshot"):  # the reveal: everything of the hand is public now
                known = set()
                continue
            if kind == "deal":
                known |= set(body["tiles"])
            shown = body
            if kind == "update":
                for event in body["events"]:
                    drew_it = event["e"] == "drawn" and event["seat"] == slot.session.seat
                    if event["e"] == "played" or drew_it:
                        known.add(event["tile"])
                shown = {**body, "events": [e for e in body["events"] if e["e"] != "hand_ended"]}
            seen = {f"{a}-{b}" for a, b in TILE.findall(json.dumps(shown))}
            assert seen <= known, (kind, sorted(seen - known))
            checked += 1
        assert checked > 50


def test_host_side_bots_wait_their_delay_on_the_fake_clock() -> None:
    from sessionkit import FAST

    from lanomino.net.session import Timings

    slow = Timings(FAST.heartbeat_s, FAST.liveness_s, FAST.grace_s, bot_delay_s=0.5)
    table = Table(Rules.preset("classic", target=30), 3, bots=1, timings=slow, seed=5)
    table.run(table.over)
    assert table.over() and table.slots[0].session.verified_all
    local_moves = sum(1 for h in table.host.doc["hands"] for m in h["moves"] if m["seat"] in (0, 2))  # type: ignore[index]
    assert table.now >= 0.5 * local_moves


def test_a_hands_check_waits_until_its_last_move_has_gone_out_then_comes_at_once() -> None:
    """The move that ends a hand leaves (its log, then its update) before the host and the peers
    run the verifier on the hand: the check is then due at once (next_deadline is now) and
    reports on the next timer, with the verdict it always had."""
    table = Table(Rules.preset("classic", target=1000), 3)
    host, peers = table.host, [slot.session for slot in table.slots]

    def first_hand_logged() -> bool:
        return host.doc is not None and len(host.doc["hands"]) == 1

    table.run(first_hand_logged)
    logged = host.doc["hands"][0]["moves"] if host.doc is not None else None
    assert all(p.moves[1] == logged for p in peers)  # every peer has the hand's last move
    assert not any(isinstance(e, HandVerified) for e in table.host_events)
    assert host.next_deadline() == table.now
    host.handle_timer(table.now)
    checks = [e for e in host.take_events() if isinstance(e, HandVerified)]
    assert [(c.hand, c.ok) for c in checks] == [(1, True)]
    assert host.shared.owed is None  # (nothing more is owed)
    for peer in peers:
        if not peer.verified:  # not yet checked: due now, done on the timer
            assert peer.next_deadline() == table.now
            peer.handle_timer(table.now)
        assert peer.verified == {1: True}


def test_a_hands_check_takes_the_signatures_it_checked_on_arrival_from_memory() -> None:
    """The host checked each peer's move as it came, each peer every move as it was passed on:
    the check of the hand's log asks those again, and the session's ring answers them from memory
    (fair/identity.py: only the very checks that held); the hand verifies as before."""
    table = Table(Rules.preset("classic", target=1000), 3)
    host, peers = table.host, [slot.session for slot in table.slots]
    rings = [host.shared.ring, *(p.ring for p in peers)]

    def first_hand_logged() -> bool:
        return host.doc is not None and len(host.doc["hands"]) == 1

    table.run(first_hand_logged)
    for session in (host, *peers):
        if session.next_deadline() == table.now:  # (the check, owed, if not done yet)
            session.handle_timer(table.now)
    assert host.doc is not None
    moves = host.doc["hands"][0]["moves"]
    theirs = [m for m in moves if m["seat"] != host.shared.host_seat]
    assert rings[0].recalled >= len(theirs) > 0
    assert all(ring.recalled >= len(moves) for ring in rings[1:])
    assert all(p.verified == {1: True} for p in peers)
    assert [(e.hand, e.ok) for e in host.take_events() if isinstance(e, HandVerified)] == [
        (1, True)]


def test_a_slow_host_side_bot_thinks_only_once_the_move_before_it_reached_the_others() -> None:
    """A host-side bot moves on the host's timer, once the output of the move before its turn has
    gone out: however long it thinks (here each call is where a slow bot would spend its budget),
    the other seats already show that move. Before, it thought inside the receive of that move,
    and the update of a player's move waited for the bot's whole budget."""
    table = Table(Rules.preset("classic", target=100), 4, bots=1, seed=4)
    host = table.host
    seen: list[tuple[int, int, list[int]]] = []  # (seat, host's moves, each peer's) as it thinks

    def slow(seat: int, policy: Any) -> Any:
        def think(obs: Any) -> Any:
            d = host.deal
            assert d is not None
            peers = [len(s.session.moves.get(d.hand, [])) for s in table.slots]
            seen.append((seat, len(d.moves), peers))
            return policy(obs)
        return think

    for seat, local in list(host.local.items()):  # seat 0 (the host's own bot) and seat 3
        assert local.policy is not None
        host.local[seat] = LocalSeat(local.name, local.identity, slow(seat, local.policy),
                                     local.level)
    table.run(table.over)
    assert table.over()
    after = [(seat, moves, peers) for seat, moves, peers in seen if moves > 0]
    assert {seat for seat, _, _ in after} == {0, 3} and len(after) >= 10
    late = [(seat, moves, peers) for seat, moves, peers in after if peers != [moves] * len(peers)]
    assert not late, f"a host-side bot thought before the others had the move before it: {late}"
