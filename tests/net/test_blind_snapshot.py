"""A locked table sends a snapshot (issue 29), in memory through the real codec: a holder whose
program restarted comes back on a new connection within its grace period, rebuilds its hand from
the public statements and its own key, and plays on (also when it was away during its own draw);
a watcher who arrives mid-match follows it; a snapshot carries nothing a watcher was not sent;
and one that does not hold names the host."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402
from sessionkit import PeerSlot, Table, in_play, leave  # noqa: E402

from lanomino.engine import Rules, TileDrawn  # noqa: E402
from lanomino.fair.verify2 import verify_transcript2  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HandVerified,
    HostCaught,
    MatchOver,
    ProtocolProblem,
    SecretMade,
    TranscriptUpdated,
)
from lanomino.net.wire import blind_messages as b  # noqa: E402
from lanomino.net.wire.checks import check_fields  # noqa: E402
from lanomino.net.wire.schemas import SCHEMAS, from_fields  # noqa: E402

Message = dict[str, Any]


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def restart(table: Table, old: PeerSlot, curve_n: int,
            tamper: Callable[[Message], None] | None = None, lost: bool = False) -> PeerSlot:
    """``old``'s program dies; a new one with the same identity and the secrets it kept on disk
    (``lost``: none) joins (``tamper``: changes the snapshot on its way, as a hostile host
    would send it)."""
    old.connected = False
    saved = {} if lost else {(e.table, e.hand, e.attempt): e.secret
                             for e in old.events if isinstance(e, SecretMade)}
    table.slots.remove(old)
    new = table.add_peer(old.session.name, identity=old.session.identity, curve_n=curve_n,
                         secrets=saved, seed=curve_n)
    if tamper is not None:
        receive = new.session.receive

        def hostile(message: Message, now: float) -> None:
            if message["type"] == "snapshot":
                message = copy.deepcopy(message)
                tamper(message)
            receive(message, now)
        new.session.receive = hostile  # type: ignore[method-assign]
    return new


def finished_alike(table: Table) -> dict[str, Any]:
    """Every seat finished with the same verified transcript/2, nobody caught; that transcript."""
    table.run(table.over)
    assert table.over()
    docs = [last_transcript(table.host_events), *(last_transcript(s.events) for s in table.slots)]
    assert all(json.dumps(d, sort_keys=True) == json.dumps(docs[0], sort_keys=True) for d in docs)
    assert verify_transcript2(docs[0]).ok and docs[0]["end"]["finished"]
    for slot in table.slots:
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
        assert next(e for e in slot.events if isinstance(e, MatchOver)).verified
    return docs[0]


@pytest.mark.parametrize(("players", "seed", "moves", "escrow"),
                         [(3, 1, 3, False), (4, 2, 6, False), (4, 2, 4, True)])
def test_a_restarted_holder_rebuilds_its_hand_and_the_match_finishes_verified(
        players: int, seed: int, moves: int, escrow: bool) -> None:
    table = Table(Rules.preset("classic", target=40), players, blind=True, seed=seed)
    table.host.escrow = escrow
    blind = table.host.blind
    table.run(lambda: len(blind.records) >= 1)  # (a transcript/2 so far to hand over)
    table.run(in_play(blind, moves))
    assert in_play(blind, moves)() and blind.records, "no hand in play after the first"
    old = table.slots[0]
    assert old.session.view is not None
    seat, held = old.session.seat, set(old.session.view.hand)
    new = restart(table, old, 42)
    table.run(lambda: new.session.blind.hand is not None)
    assert new.session.seat == seat and new.session.view is not None
    assert set(new.session.view.hand) == held  # exactly its tiles: dealt, drawn, less played
    assert any(m["type"] == "snapshot" for m in new.inbox)
    finished_alike(table)


def test_a_holder_away_during_its_own_draw_opens_the_drawn_tile_from_the_shares() -> None:
    table = Table(Rules.preset("classic", target=70), 3, blind=True, seed=4)
    blind = table.host.blind
    old = table.slots[0]
    table.run(lambda: blind.hand is not None)
    seat = old.session.seat

    def drawing() -> bool:  # its draw went out; the others' shares not yet at it
        hand = blind.hand
        return hand is not None and hand.draw is not None and hand.draw.drawer == seat

    table.run(drawing)
    assert drawing(), "seat 1 never drew"
    assert old.session.view is not None
    held = set(old.session.view.hand)
    new = restart(table, old, 43)
    table.run(lambda: new.session.blind.hand is not None and not drawing())
    assert new.session.view is not None
    rebuilt = set(new.session.view.hand)
    assert held < rebuilt and len(rebuilt) == len(held) + 1  # the drawn tile, opened for it
    shown = [e.tile for e in new.session.view.history if isinstance(e, TileDrawn)
             and e.seat == seat]
    assert shown and None not in shown and shown[-1] in rebuilt  # its draws show their tiles
    seen = new.session.view.observation()
    assert seen.turn != seat or seen.phase != "play" or seen.legal  # (it can move on)
    finished_alike(table)


def test_a_holder_that_lost_its_key_says_so_and_leaves_and_the_others_finish() -> None:
    """Its secrets gone with its program, its seeds give another key: it cannot play the hand,
    says so plainly and leaves the table; the others re-shuffle blind what it held and finish."""
    table = Table(Rules.preset("classic", target=40), 3, blind=True, seed=1)
    blind = table.host.blind
    table.run(in_play(blind, 3))
    assert in_play(blind, 3)()
    new = restart(table, table.slots[0], 46, lost=True)
    table.run(lambda: new.session.phase.value == "closed", max_time=5)
    said = [e for e in new.events if isinstance(e, ProtocolProblem) and e.code == "blind_key_lost"]
    assert said and "no longer has the key it locked this hand's tiles with" in said[0].detail
    assert not [e for e in new.events if isinstance(e, HostCaught)]  # (not the host's doing)
    table.slots.remove(new)
    doc = finished_alike(table)
    first = doc["hands"][0]["record"]
    assert [(r["seat"], r["by"]) for r in first["resignations"]] == [(new.session.seat, "left")]


def test_a_watcher_who_arrives_mid_match_follows_it_to_its_end() -> None:
    table = Table(Rules.preset("classic", target=70), 3, blind=True, seed=6)
    blind = table.host.blind
    table.run(lambda: len(blind.records) >= 1)
    table.run(in_play(blind, 4))
    assert in_play(blind, 4)() and blind.records, "no hand in play after the first"
    late = table.add_watcher("late")
    doc = finished_alike(table)
    assert last_transcript(late.events) == doc
    over = next(e for e in late.events if isinstance(e, MatchOver))
    assert over.verified
    checked = [e for e in late.events if isinstance(e, HandVerified)]
    assert checked and all(h.ok for h in checked)  # each hand from the one it arrived in
    assert not any(isinstance(e, HostCaught) for e in late.events)
    snapshot = next(m for m in late.inbox if m["type"] == "snapshot")["body"]
    assert snapshot["play"]["tiles"] == [] and snapshot["locked"]["said"]


def test_a_snapshot_carries_only_what_the_table_was_sent_in_public() -> None:
    """The host builds it from the statements it relayed: every one was sent to a watcher as it
    came, and no tile of anyone is in it; nothing is asked of any holder for it."""
    table = Table(Rules.preset("classic", target=30), 3, blind=True, seed=3)
    watcher = table.add_watcher("watcher")
    blind = table.host.blind
    table.run(in_play(blind, 5))
    assert in_play(blind, 5)()
    new = restart(table, table.slots[1], 44)
    table.run(lambda: any(m["type"] == "snapshot" for m in new.inbox), max_time=2)
    public = [json.dumps(m["body"], sort_keys=True) for m in watcher.inbox
              if m["type"].startswith("blind_")]
    asked = sum(m["type"] == "blind_ask" for s in table.slots for m in s.inbox)
    snapshot = next(m for m in new.inbox if m["type"] == "snapshot")["body"]
    said = snapshot["locked"]["said"]
    assert said and all(json.dumps(s["body"], sort_keys=True) in public for s in said)
    assert snapshot["play"]["tiles"] == []
    table.step()  # (what the rebuilt seat says next: no share for anyone's tile)
    assert sum(m["type"] == "blind_ask" for s in table.slots for m in s.inbox) == asked
    finished_alike(table)


def _said(message: Message, kind: str) -> Message:
    return next(s["body"] for s in message["body"]["locked"]["said"] if s["type"] == kind)


def _flip(hex_text: str, at: int) -> str:
    return hex_text[:at] + ("0" if hex_text[at] != "0" else "1") + hex_text[at + 1:]


def _another_share(message: Message) -> None:  # a holder's deal share, one byte changed
    body = next(s["body"] for s in message["body"]["locked"]["said"]
                if s["type"] == "blind_shares" and s["body"]["seat"] != 0)
    body["shares"] = _flip(body["shares"], 100)


def _a_tile(message: Message) -> None:  # a play's tile said to be another
    body = _said(message, "blind_play")
    body["tile"] = "0-0" if body["tile"] != "0-0" else "1-0"


def _a_move_left_out(message: Message) -> None:  # the log without its first move
    play = message["body"]["play"]
    play["moves"], play["signatures"] = play["moves"][1:], play["signatures"][1:]


def _host_key_reshuffled(message: Message) -> None:  # the host's own key, not the one it dealt
    body = _said(message, "blind_key")
    body["key"] = _flip(body["key"], 4)


@pytest.mark.parametrize("tamper", [_another_share, _a_tile, _a_move_left_out,
                                    _host_key_reshuffled])
def test_a_snapshot_that_does_not_hold_names_the_host(tamper: Callable[[Message], None]) -> None:
    table = Table(Rules.preset("classic", target=60), 3, blind=True, seed=3)
    blind = table.host.blind
    table.run(in_play(blind, 4))
    assert in_play(blind, 4)()
    new = restart(table, table.slots[0], 45, tamper)
    table.run(lambda: any(isinstance(e, HostCaught) for e in new.events), max_time=2)
    caught = [e for e in new.events if isinstance(e, HostCaught)]
    assert caught and caught[0].evidence["host"] == table.host.host_seat
    assert new.session.blind.hand is None  # nothing of it kept


def test_a_share_the_host_signed_whose_proof_fails_names_the_host() -> None:
    """The host's own deal shares, one proof changed and signed again by the host: the
    signature holds, the proof does not, and the host that signed it is named."""
    table = Table(Rules.preset("classic", target=60), 3, blind=True, seed=3)
    blind, host = table.host.blind, table.host.shared
    table.run(in_play(blind, 4))
    assert in_play(blind, 4)()

    def tamper(message: Message) -> None:
        body = next(s["body"] for s in message["body"]["locked"]["said"]
                    if s["type"] == "blind_shares" and s["body"]["seat"] == host.host_seat)
        body["shares"] = _flip(body["shares"], 196)  # (the first share's response scalar)
        typed = from_fields("blind_shares", check_fields(body, SCHEMAS["blind_shares"]))
        assert isinstance(typed, b.BlindShares)
        statement = b.signed_statement(host.digest, typed)
        body["signature"] = host.identity.sign_statement(statement).hex()

    new = restart(table, table.slots[0], 47, tamper)
    table.run(lambda: any(isinstance(e, HostCaught) for e in new.events), max_time=2)
    caught = [e for e in new.events if isinstance(e, HostCaught)]
    assert caught and caught[0].check == "blind-snapshot", caught
    assert caught[0].evidence["host"] == host.host_seat and "does not hold" in caught[0].detail


def test_a_holder_restarted_in_a_hand_re_shuffled_blind_is_told_and_the_others_finish(
) -> None:
    """A hand re-shuffled blind (a person left it, without escrow) cannot be rebuilt from a
    snapshot (the host sends none of it): a holder whose program restarts in it is told so
    plainly and leaves the match, and the others finish it verified (before, the hand waited
    for ever on the returning seat's turn)."""
    table = Table(Rules.preset("classic", target=40), 4, blind=True, seed=3)
    blind = table.host.blind
    table.run(in_play(blind, 3))
    assert in_play(blind, 3)()
    gone = table.slots[2]
    leave(table, gone, quits=True)
    table.slots.remove(gone)
    table.run(lambda: blind.hand is not None and blind.hand.unheld is not None
              and blind.hand.unheld.deck is not None)
    assert blind.hand is not None and blind.hand.unheld is not None, "no re-shuffle"
    new = restart(table, table.slots[0], 47)
    table.run(lambda: any(isinstance(e, ProtocolProblem) and e.code == "not_built"
                          for e in new.events), max_time=10)
    said = [e for e in new.events if isinstance(e, ProtocolProblem) and e.code == "not_built"]
    assert said and "re-shuffled blind" in said[0].detail, new.events
    told = [e for e in new.events
            if isinstance(e, ProtocolProblem) and e.code == "blind_not_rebuilt"]
    assert told and "it leaves the match, and the others go on without it" in told[0].detail
    assert new.session.phase.value == "closed"
    assert not [e for e in new.events if isinstance(e, HostCaught)]  # (not the host's doing)
    table.slots.remove(new)
    table.run(table.over)
    assert table.over()
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason, host_over
    doc = last_transcript(table.host_events)
    assert verify_transcript2(doc).ok
