"""Watchers in memory: admission, the cap, the passphrase, refused moves, public-only messages."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import PeerSlot, Table  # noqa: E402

from lanomino.engine import Draw, IllegalActionError, Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.election import members  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    Closed,
    HandVerified,
    JoinRefused,
    MatchOver,
    ProtocolProblem,
    TranscriptUpdated,
)
from lanomino.net.wire.messages import Move  # noqa: E402

TILE = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def tiles_in(value: Any) -> list[str]:
    """Every tile named anywhere in a JSON value."""
    if isinstance(value, str):
        return [value] if TILE.fullmatch(value) else []
    if isinstance(value, dict):
        return [t for v in value.values() for t in tiles_in(v)]
    if isinstance(value, list):
        return [t for v in value for t in tiles_in(v)]
    return []


def played_in(events: list[dict[str, Any]]) -> set[str]:
    """The tiles these events make public: those played, and at the hand's end every hand (the
    reveal: the end of a hand shows what everyone held)."""
    shown = {e["tile"] for e in events if e.get("e") == "played"}
    return shown | {t for e in events if e.get("e") == "hand_ended" for t in tiles_in(e["hands"])}


def private_tiles_seen(inbox: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(message type, tile) for every tile a watcher was shown before it was public: a tile is
    public once played in the hand, and every tile of a hand once it is over (its last update
    shows the hands; its log, with every secret, follows)."""
    leaks: list[tuple[str, str]] = []
    played: set[str] = set()
    for message in inbox:
        kind, body = message["type"], message["body"]
        if kind == "hand_log":
            continue  # the reveal: published to the whole table once the hand is over
        if kind == "deal":
            played = set()
        shown = body
        if kind == "snapshot":
            shown = {**body, "transcript": None}  # (finished hands only: public)
            if body["play"] is not None:
                played = played_in(body["play"]["events"])
        if kind == "update":
            played |= played_in(body["events"])
        leaks += [(kind, t) for t in tiles_in(shown) if t not in played]
    return leaks


def watched_match(players: int = 4, **table: Any) -> tuple[Table, list[PeerSlot]]:
    t = Table(Rules.preset("classic"), players, **table)
    watchers = [t.add_watcher("ada"), t.add_watcher("bo")]
    t.run(t.over)
    assert t.over()
    return t, watchers


def test_two_watchers_follow_a_match_check_every_hand_and_keep_the_players_transcript() -> None:
    t, watchers = watched_match()
    players_doc = last_transcript(t.host_events)
    assert verify_transcript(players_doc).ok
    for w in watchers:
        hands = [e for e in w.events if isinstance(e, HandVerified)]
        assert hands and all(h.ok for h in hands), [h.detail for h in hands if not h.ok]
        assert len(hands) == len(players_doc["hands"])
        over = [e for e in w.events if isinstance(e, MatchOver)]
        assert len(over) == 1 and over[0].verified
        doc = last_transcript(w.events)
        assert json.dumps(doc, sort_keys=True) == json.dumps(players_doc, sort_keys=True)
        assert w.session.seat == -1 and w.session.watching == 2


def test_every_message_a_watcher_receives_is_public() -> None:
    t, watchers = watched_match(bots=1)
    for w in watchers:
        kinds = {m["type"] for m in w.inbox}
        assert {"deal", "update", "hand_log", "roster", "match", "begin"} <= kinds
        assert not kinds & {"commit_req", "commit_set", "reveal_req", "escrow", "bots"}
        assert private_tiles_seen(w.inbox) == []
        drawn = [e for m in w.inbox if m["type"] == "update" for e in m["body"]["events"]
                 if e["e"] == "drawn"]
        assert drawn and all(e["tile"] is None for e in drawn)  # draws happened, none shown
    # the check itself finds a player's own tiles: it would catch a leak
    player = t.slots[0]
    assert private_tiles_seen(player.inbox)


def test_watchers_take_no_seat_and_do_not_count_for_the_majority() -> None:
    t = Table(Rules.preset("classic"), 3)
    w = t.add_watcher("ada")
    t.run(lambda: t.host.phase.value not in ("lobby", "header"), max_time=30)
    roster = t.host.roster()
    assert len(roster) == 3 and len(members(roster)) == 3
    assert len(t.host.watchers) == 1
    assert all(s.session.watching == 1 for s in t.slots)  # every player sees "1 watching"
    assert w.session.seat == -1
    assert w.session.identity.public_key not in {e.identity for e in roster}


def test_a_watcher_cannot_move() -> None:
    t = Table(Rules.preset("classic"), 2)
    w = t.add_watcher("ada")
    t.run(lambda: t.host.phase.value == "play" and t.host.state is not None, max_time=30)
    with pytest.raises(IllegalActionError, match="watcher cannot move"):
        w.session.submit(Draw(), t.now)
    # a hand-made move reaches the host: refused with a clear error, nothing changes
    state = t.host.state
    assert state is not None
    moves = len(t.host.deal.moves) if t.host.deal else 0
    w.session._send(Move(t.host.deal.hand if t.host.deal else 1, moves,
                         {"seat": state.turn, "action": "draw"}, bytes(64), bytes(32), None,
                         bytes(64)))
    t.step()
    problems = [e for e in w.events if isinstance(e, ProtocolProblem)]
    assert any(p.code == "watcher" and "cannot move" in p.detail for p in problems)
    assert t.host.stats["refused.watcher"] == 1
    assert (len(t.host.deal.moves) if t.host.deal else 0) >= moves  # the table went on
    t.run(t.over)
    assert t.over()


@pytest.mark.parametrize("cap,admitted,code", [(1, 1, "watchers_full"), (0, 0, "no_watchers")])
def test_the_table_caps_its_watchers(cap: int, admitted: int, code: str) -> None:
    t = Table(Rules.preset("classic"), 2, watchers=cap)
    first, second = t.add_watcher("ada"), t.add_watcher("bo")
    t.run(lambda: t.host.phase.value == "play", max_time=30)
    assert len(t.host.watchers) == admitted
    refused = [e for s in (first, second) for e in s.events if isinstance(e, JoinRefused)]
    assert [r.code for r in refused] == [code] * (2 - admitted)
    assert t.slots[0].session.watch_cap == cap  # (the player: it is told the limit)


@pytest.mark.parametrize("given,ok", [(None, False), ("wrong", False), ("sesame", True)])
def test_the_passphrase_applies_to_watchers(given: str | None, ok: bool) -> None:
    t = Table(Rules.preset("classic"), 2, passphrase="sesame")
    w = t.add_watcher("ada", passphrase=given)
    t.run(lambda: t.host.phase.value == "play", max_time=30)
    assert (len(t.host.watchers) == 1) is ok
    assert any(isinstance(e, JoinRefused) and e.code == "passphrase" for e in w.events) is not ok


def test_a_watcher_arriving_mid_hand_gets_a_public_snapshot_and_ends_with_the_transcript() -> None:
    t = Table(Rules.preset("classic"), 3, seed=5)
    t.run(lambda: t.host.deal is not None and len(t.host.deal.moves) >= 3, max_time=60)
    assert t.host.phase.value == "play"
    w = t.add_watcher("late")
    t.run(t.over)
    assert t.over()
    snap = next(m for m in w.inbox if m["type"] in ("snapshot", "snapshot_part"))
    assert snap["type"] == "snapshot" and snap["body"]["seat"] == -1
    assert snap["body"]["play"]["tiles"] == [] and len(snap["body"]["play"]["moves"]) >= 3
    assert private_tiles_seen(w.inbox) == []
    assert last_transcript(w.events) == last_transcript(t.host_events)
    assert all(e.ok for e in w.events if isinstance(e, HandVerified))


def test_a_silent_watcher_is_forgotten_and_the_count_goes_down() -> None:
    t = Table(Rules.preset("classic"), 2)
    w = t.add_watcher("ada")
    t.run(lambda: len(t.host.watchers) == 1, max_time=10)
    w.connected = False
    t.run(lambda: len(t.host.watchers) == 0, max_time=3 * t.timings.grace_s)
    assert len(t.host.watchers) == 0
    t.run(lambda: all(s.session.watching == 0 for s in t.slots if s.connected), max_time=5)
    assert all(s.session.watching == 0 for s in t.slots if s.connected)


def test_a_host_crash_carries_the_watchers_over_to_the_new_host() -> None:
    from migrationkit import MigratingTable
    from test_session_migration import check_survivors

    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, watchers=2)
    watchers = [m for m in table.machines if m.peer is not None and m.peer.watch]
    seen: list[list[dict[str, Any]]] = []
    for m in watchers:  # every message a watcher is given, under either host
        assert m.peer is not None
        inbox: list[dict[str, Any]] = []
        seen.append(inbox)
        receive = m.peer.receive
        m.peer.receive = (lambda r, box: lambda msg, now: (box.append(msg), r(msg, now))[1])(  # type: ignore[method-assign]
            receive, inbox)
    h = table.by_seat(0).host
    assert h is not None
    table.run(lambda: h.deal is not None and h.deal.hand == 2 and h.phase.value == "play"
              and len(h.deal.moves) >= 3)
    assert len(h.watchers) == 2
    table.crash(0)
    table.run(table.over)
    assert table.over()
    new = table.by_seat(1).host
    assert new is not None and new.term == 1
    assert len(new.watchers) == 2 and len(members(new.roster())) == 3  # they follow, never vote
    check_survivors(table)  # the watchers' transcripts are the players', and they verify
    for m, inbox in zip(watchers, seen, strict=True):
        assert m.peer is not None and m.peer.term == 1 and m.peer.seat == -1
        assert all(e.ok for e in m.events if isinstance(e, HandVerified))
        assert private_tiles_seen(inbox) == []


def test_a_watcher_is_told_the_move_clock_and_who_is_out_of_time() -> None:
    from sessionkit import FAST

    from lanomino.net.session import Timings

    clocked = Timings(heartbeat_s=FAST.heartbeat_s, liveness_s=FAST.liveness_s,
                      grace_s=FAST.grace_s, move_s=2.0)
    t = Table(Rules.preset("classic"), 2, timings=clocked)
    t.slots[0].mute = frozenset({"move"})  # the player never moves: it runs out of time
    w = t.add_watcher("ada")
    t.run(lambda: any(e.away for e in w.session.roster), max_time=60)
    assert w.session.move_clock_s == 2.0
    away = [e.seat for e in w.session.roster if e.away]
    assert away == [1] and t.host.stats["move_clock.away"] >= 1


def test_a_snapshot_is_a_copy_of_the_table_as_it_stood() -> None:
    """A snapshot leaves later than it is made (the runtime sends asynchronously): moves made
    meanwhile must not appear in it without their events (a watcher would see a tile early)."""
    from lanomino.net.watchers import VIEWER

    t = Table(Rules.preset("classic"), 2, seed=4)
    t.run(lambda: t.host.deal is not None and len(t.host.deal.moves) >= 2, max_time=60)
    snapshot = t.host.play.snapshot_body(VIEWER)
    play, doc = snapshot.play, snapshot.transcript
    assert play is not None and doc is not None
    moves, events = len(play.moves), len(play.events)
    hands = len(doc["hands"])
    t.run(lambda: t.host.deal is not None and t.host.deal.hand >= 2, max_time=120)
    assert (len(play.moves), len(play.events)) == (moves, events)
    assert len(doc["hands"]) == hands


@pytest.mark.parametrize("seed,hand,moves", [(1, 1, 2), (1, 1, 9), (2, 2, 5), (5, 1, 0)])
def test_no_host_crash_point_shows_a_watcher_a_tile_early(seed: int, hand: int, moves: int) -> None:
    from migrationkit import MigratingTable

    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=seed, watchers=1)
    w = next(m for m in table.machines if m.peer is not None and m.peer.watch)
    assert w.peer is not None
    inbox: list[dict[str, Any]] = []
    receive = w.peer.receive
    w.peer.receive = lambda msg, now: (inbox.append(msg), receive(msg, now))[1]  # type: ignore[method-assign]
    h = table.by_seat(0).host
    assert h is not None
    table.run(lambda: h.deal is not None and h.deal.hand == hand and h.phase.value == "play"
              and len(h.deal.moves) >= moves)
    table.crash(0)
    table.run(table.over)
    assert table.over() and any(m["type"] == "snapshot" for m in inbox)
    assert private_tiles_seen(inbox) == []


def test_a_watcher_that_guessed_past_the_new_host_follows_its_announcement_back() -> None:
    """A watcher that missed the new host (its candidate answered too late for it) and went on to
    guess later terms, whose candidates are peers and never answer, follows the host it sees
    announced in term 1 instead of going round the members for ever."""
    from migrationkit import MigratingTable
    from test_session_migration import check_survivors

    from lanomino.net.election import Election, succession

    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, watchers=1)
    w = next(m for m in table.machines if m.peer is not None and m.peer.watch)
    assert w.peer is not None and w.member is not None
    h = table.by_seat(0).host
    assert h is not None
    table.run(lambda: h.deal is not None and h.deal.hand == 2 and len(h.deal.moves) >= 3)
    w.up = False  # the watcher misses the election: the new host resumes without it
    table.crash(0)
    new = table.by_seat(1)
    table.run(lambda: new.host is not None and new.host.phase.value == "play", max_time=60)
    w.up = True
    peer = w.member.peer
    order = tuple(succession(peer.roster, 0))
    peer.election = Election(0, 0, order, tries=2, began=table.now)
    peer.follow(3, order[2], table.now)  # its guess: seat 3 in term 3, a peer that never hosts
    w.member.peer_events(table.now)  # (the HostChanged the kit would route by)
    w.follows = order[2]
    table.run(table.over)
    assert table.over()
    assert peer.term == 1 and peer.host_seat == 1 and peer.phase.value == "over"
    check_survivors(table)  # its transcript is the players', and it verifies


def test_a_watcher_whose_election_finds_no_host_stops_with_a_reason() -> None:
    """Everyone at the table is gone (the match ended, or the machines did): a watcher's election
    goes round the members until a new host would have given up waiting for a majority, then it
    says the table has gone, instead of trying candidates for ever."""
    from migrationkit import MigratingTable

    from lanomino.net.election import GIVE_UP_GRACES

    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=3, watchers=1)
    w = next(m for m in table.machines if m.peer is not None and m.peer.watch)
    h = table.by_seat(0).host
    assert h is not None and w.peer is not None
    table.run(lambda: h.deal is not None and h.deal.hand == 1 and len(h.deal.moves) >= 2)
    for seat in range(4):
        table.crash(seat)
    gone = table.now
    table.run(lambda: w.peer is not None and w.peer.phase.value == "closed", max_time=300)
    closed = [e for e in w.events if isinstance(e, Closed)]
    assert closed and "the table has gone" in closed[-1].reason
    assert table.now - gone >= GIVE_UP_GRACES * table.timings.grace_s
    assert w.peer.election is None
