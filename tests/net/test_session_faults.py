"""Bad input, passphrases, leaving and coming back: the sessions in memory on a fake clock."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import FAST, PeerSlot, Table, seen_fields  # noqa: E402

from lanomino.engine import IllegalActionError, Play, Rules, Tile  # noqa: E402
from lanomino.fair.commit import DealContext  # noqa: E402
from lanomino.fair.escrow import Escrow, Share, rebuild  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.transcript import move_json, move_statement  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    Closed,
    HandVerified,
    HostChanged,
    HostSilent,
    JoinRefused,
    MatchOver,
    ProtocolProblem,
    SeatLeft,
    SecretMade,
    TranscriptUpdated,
    YourTurn,
)


def until_turn(table: Table, slot: PeerSlot) -> None:
    """Run until it is ``slot``'s move (its bot is off, so it waits there)."""
    slot.bot = None
    table.run(lambda: any(isinstance(e, YourTurn) for e in slot.events))
    slot.events.clear()


def errors(slot: PeerSlot) -> list[str]:
    return [e.code for e in slot.events if isinstance(e, ProtocolProblem)]


def signed_move(slot: PeerSlot, move: dict[str, Any], index: int | None = None,
                key: Identity | None = None) -> dict[str, Any]:
    s = slot.session
    index = len(s.moves[s.hand]) if index is None else index
    sig = (key or s.identity).sign_statement(move_statement(s.digest, s.hand, index, move))
    s.my_seq += 1
    return {"v": 1, "type": "move", "term": 0, "seq": s.my_seq,
            "body": {"hand": s.hand, "index": index, "move": move, "signature": sig.hex(),
                     **seen_fields(s, index)}}


def finish(table: Table, bot: str = "greedy") -> None:
    import random

    from lanomino.bots import get_bot

    for slot in table.slots:
        if slot.bot is None:
            policy, rng = get_bot(bot), random.Random(5)
            slot.bot = lambda obs, p=policy, r=rng: p(obs, r)
            obs = slot.session.observation()
            if obs is not None and obs.is_my_turn and slot.session.pending_move is None:
                slot.session.submit(slot.bot(obs), table.now)
    table.run(table.over)
    assert table.over()


def test_bad_messages_are_refused_counted_and_the_match_goes_on() -> None:
    table = Table(Rules.preset("classic", target=60), 3, seed=11)
    a, b = table.slots
    until_turn(table, a)
    b.bot = None
    state = table.host.state
    assert state is not None
    before = (state.turn, list(state.hands), table.host.deal and len(table.host.deal.moves))
    s = a.session
    obs = s.observation()
    foreign = next(t for t in state.hand_of((s.seat + 1) % 3))
    sent = []
    # malformed body, unknown type, oversize name, not JSON-shaped
    sent.append({"v": 1, "type": "move", "term": 0, "seq": 500, "body": {"nope": 1}})
    sent.append({"v": 1, "type": "teleport", "term": 0, "seq": 501, "body": {}})
    sent.append({"v": 2, "type": "ping", "term": 0, "seq": 502, "body": {}})
    # illegal: a tile this seat does not hold, properly signed
    sent.append(signed_move(a, move_json(s.seat, Play(foreign, None))))
    # a move in another seat's name
    sent.append(signed_move(a, move_json(b.session.seat, obs.legal[0])))
    # stale: a move index that is not the next one
    sent.append(signed_move(a, move_json(s.seat, obs.legal[0]), index=40))
    # a future term
    future = signed_move(a, move_json(s.seat, obs.legal[0]))
    future["term"] = 9
    sent.append(future)
    # out of turn: seat b moves while it is a's turn
    sent.append(signed_move(b, move_json(b.session.seat, Play(Tile(6, 6), None))))
    for message in sent[:-1]:
        table.to_host(a, message)
    table.to_host(b, sent[-1])
    # replayed: the same seq again
    table.to_host(a, copy.deepcopy(sent[3]))
    table.step()
    stats = table.host.stats
    assert stats["refused.malformed"] == 4  # bad body, unknown type, bad version, other seat's name
    assert stats["refused.illegal"] == 1
    assert stats["refused.stale"] == 1
    assert stats["refused.future_term"] == 1
    assert stats["refused.out_of_turn"] == 1
    assert stats["refused.replayed"] == 1
    assert (state.turn, list(state.hands), table.host.deal and len(table.host.deal.moves)) == before
    assert {"illegal", "stale", "malformed", "replayed"} <= set(errors(a))
    assert "out_of_turn" in errors(b)
    [told] = [e for e in b.events if isinstance(e, ProtocolProblem) and e.code == "out_of_turn"]
    assert told.detail == f"it is seat {a.session.seat + 1}'s turn"  # in words: from 1
    finish(table)
    for slot in table.slots:
        assert slot.session.verified_all


def test_a_badly_signed_move_is_refused_on_arrival_and_never_logged() -> None:
    """A move whose signature is not the seat's is refused (bad_signature) before it is applied;
    the seat moves again, properly signed, and every hand, the host's result included, verifies."""
    table = Table(Rules.preset("classic", target=60), 3, seed=11)
    a, _ = table.slots
    until_turn(table, a)
    s = a.session
    obs = s.observation()
    moves_before = len(table.host.deal.moves)  # type: ignore[union-attr]
    forged = signed_move(a, move_json(s.seat, obs.legal[0]), key=Identity.generate())
    s.pending_move = forged["body"]["index"]
    table.to_host(a, forged)
    assert table.host.stats["refused.bad_signature"] == 1
    assert len(table.host.deal.moves) == moves_before  # type: ignore[union-attr]
    table.step()
    assert "bad_signature" in errors(a) and s.pending_move is None
    s.submit(obs.legal[0], table.now)  # the seat moves again, signed by its own key
    finish(table)
    assert table.host.stats["refused.bad_signature"] == 1
    assert all(e.ok for e in table.host_events if isinstance(e, HandVerified))
    over = [e for e in table.host_events if isinstance(e, MatchOver)]
    assert over and over[0].verified
    assert all(slot.session.verified_all for slot in table.slots)
    # the refusal is in the hand's signed log: the verifier names the seat, never the host
    doc = table.host.doc
    assert doc is not None
    why = f"move {moves_before + 1} is not signed by seat {s.seat + 1}'s key"
    assert doc["hands"][0]["refused"] == [{"seat": s.seat, "what": "move", "why": why}]
    report = verify_transcript(doc)
    assert report.ok
    assert [(hand, r.seat, r.what) for hand, r in report.faults] == [(1, s.seat, "move")]
    assert report.to_json()["faults"][0]["blame"] == f"seat {s.seat + 1}"  # (words count from 1)
    fault = f"at fault: seat {s.seat + 1} sent a move not signed by their key"
    assert fault in report.hands[0].describe()
    tampered = copy.deepcopy(doc)
    tampered["hands"][0]["refused"][0]["seat"] = 3 - s.seat  # the host may not blame another seat
    failure = verify_transcript(tampered).failure
    assert failure is not None and failure.check == "log"  # (the file was changed after signing)


def test_the_host_reports_every_problem_its_own_check_of_the_transcript_finds() -> None:
    """The host checks its own transcript after each hand, as the peers do: a problem its move
    signature check cannot see (here a secret that does not open its commitment) is in its own
    report; and since the host signed that log, every seat catches it (HostCaught) and leaves it."""
    table = Table(Rules.preset("classic", target=30), 3, seed=12)
    table.run(lambda: table.host.phase.value == "play")
    a = table.host.deal.current  # type: ignore[union-attr]
    seat = next(n for n in a.round.secrets if n != 0)
    a.round.secrets[seat] = bytes(32)  # as if it had revealed another secret than it committed to
    _play_until_caught(table)
    checks = [e for e in table.host_events if isinstance(e, HandVerified)]
    assert checks and not checks[0].ok and "does not open seat" in checks[0].detail
    assert table.host.stats["hand.unverified"] == sum(not e.ok for e in checks) == len(checks)


def test_the_hosts_result_is_not_verified_when_its_own_check_found_a_problem() -> None:
    """A move taken unchecked (a migrated host rebuilds moves from reports) whose signature turns
    out bad makes that hand fail the host's own check; the seats, reading the same signed log,
    catch the host that signed it."""
    table = Table(Rules.preset("classic", target=30), 3, seed=5)
    table.run(lambda: table.host.deal is not None and len(table.host.deal.moves) >= 1)
    deal = table.host.deal
    assert deal is not None and deal.moves
    deal.signatures[0] = bytes(64)
    deal.unchecked.append(0)
    _play_until_caught(table)
    assert any(not e.ok for e in table.host_events if isinstance(e, HandVerified))


def _play_until_caught(table: Table) -> None:
    """Bots play every seat until each connected seat has caught the host and the host has made
    its own check of the hand (it runs once the hand's messages have left)."""
    import random

    from lanomino.bots import get_bot
    from lanomino.net.session import HostCaught

    def all_caught() -> bool:
        return all(any(isinstance(e, HostCaught) for e in s.events)
                   for s in table.slots if s.connected)

    for slot in table.slots:
        if slot.bot is None:
            policy, rng = get_bot("greedy"), random.Random(5)
            slot.bot = lambda obs, p=policy, r=rng: p(obs, r)
            obs = slot.session.observation()
            if obs is not None and obs.is_my_turn and slot.session.pending_move is None:
                slot.session.submit(slot.bot(obs), table.now)
    def done() -> bool:
        return all_caught() and any(isinstance(e, HandVerified) for e in table.host_events)

    table.run(done)
    assert done()


def test_a_wrong_or_missing_passphrase_is_refused_and_the_right_one_admitted() -> None:
    table = Table(Rules.preset("classic", target=30), 2, peers=0, passphrase="kitchen")
    wrong = table.add_peer("mallory", passphrase="garden")
    missing = table.add_peer("eve", passphrase=None)
    table.run(lambda: False, max_time=0.5)
    assert [e.code for e in wrong.events if isinstance(e, JoinRefused)] == ["passphrase"]
    assert [e.code for e in missing.events if isinstance(e, JoinRefused)] == ["passphrase"]
    assert table.host.seats_taken == 1 and table.host.stats["refused.passphrase"] == 1
    right = table.add_peer("alice", passphrase="kitchen")
    table.run(table.over)
    assert right.session.verified_all
    for slot in (wrong, missing):  # the refused never saw a tile
        assert all(m["type"] in ("challenge", "refused") for m in slot.inbox)


def test_the_passphrase_never_travels() -> None:
    table = Table(Rules.preset("classic", target=30), 2, passphrase="correct horse")
    table.run(table.over)
    assert table.slots[0].session.verified_all
    assert "correct horse" not in str(table.slots[0].inbox)


def test_a_full_table_refuses_a_late_joiner() -> None:
    table = Table(Rules.preset("classic", target=30), 2)
    table.run(lambda: table.host.phase.value != "lobby")
    late = table.add_peer("late")
    table.run(table.over)
    assert [e.code for e in late.events if isinstance(e, JoinRefused)] == ["full"]


def test_a_peer_that_drops_and_returns_within_grace_resyncs_and_finishes() -> None:
    table = Table(Rules.preset("classic", target=80), 3, seed=4)
    a = table.slots[0]
    table.run(lambda: table.host.deal is not None and len(table.host.deal.moves) >= 3)
    a.connected = False
    # disconnected, but inside the grace period
    table.run(lambda: False, max_time=FAST.liveness_s + 2)
    assert not table.host.seats[a.session.seat].connected  # type: ignore[union-attr]
    a.connected = True
    table.run(table.over)
    assert not table.host.seats[a.session.seat].left  # type: ignore[union-attr]
    assert a.session.verified_all
    assert table.host.state is not None and table.host.state.active == [True, True, True]


def test_a_restarted_peer_reclaims_its_seat_by_identity_and_gets_a_snapshot() -> None:
    table = Table(Rules.preset("classic", target=100), 3, seed=8)
    old = table.slots[0]
    table.run(lambda: len(table.host.doc["hands"]) >= 1 if table.host.doc else False)
    table.run(lambda: table.host.deal is not None and len(table.host.deal.moves) >= 2)
    old.connected = False
    saved = {(e.table, e.hand, e.attempt): e.secret
             for e in old.events if isinstance(e, SecretMade)}
    table.run(lambda: False, max_time=4)
    new = table.add_peer("peer1", identity=old.session.identity, curve_n=42, secrets=saved)
    table.run(table.over)
    seat = table.host.seats[new.session.seat]
    assert seat is not None and not seat.left and seat.curve == new.sender.curve
    assert new.session.seat == old.session.seat
    assert any(m["type"] == "snapshot" for m in new.inbox)
    assert new.session.verified_all
    final = [e for e in new.events if isinstance(e, MatchOver)]
    assert final and final[0].verified
    doc = next(e.transcript for e in reversed(new.events) if isinstance(e, TranscriptUpdated))
    assert verify_transcript(doc).ok and doc["end"]["finished"]


def test_past_the_grace_period_a_peer_has_left_and_with_two_players_the_other_wins() -> None:
    table = Table(Rules.preset("classic", target=100), 2, seed=2)
    a = table.slots[0]
    table.run(lambda: table.host.deal is not None and len(table.host.deal.moves) >= 2)
    a.connected = False
    table.run(table.over, max_time=60)
    assert table.over()
    doc = table.host.doc
    assert doc is not None and doc["end"]["winner"] == 0 and doc["end"]["finished"]
    assert verify_transcript(doc).ok
    assert doc["hands"][-1]["moves"][-1] == {"seat": 1, "resign": True}


def test_a_seat_leaving_a_three_player_match_between_hands_is_resigned_and_play_goes_on() -> None:
    table = Table(Rules.preset("classic", target=100), 3, seed=6)
    a, b = table.slots
    table.run(lambda: table.host.phase.value == "deal" and bool(table.host.doc["hands"]))
    a.session.quit(table.now)
    table.run(table.over)
    doc = table.host.doc
    assert doc is not None and verify_transcript(doc).ok
    resigned = {"seat": a.session.seat, "resign": True}
    assert (resigned in doc["hands"][0]["moves"] + doc["hands"][-1]["moves"]
            or any(resigned in h["moves"] for h in doc["hands"]))
    assert b.session.verified_all


def test_escrow_shares_go_to_the_human_peers_and_together_rebuild_the_deal() -> None:
    table = Table(Rules.preset("classic", target=30), 4, seed=9)
    table.host.escrow = True  # the table option (lanomino host --escrow)
    table.run(lambda: table.host.phase.value == "play")
    shares = [s.session.escrow[(1, table.host.deal.current.ctx.attempt)] for s in table.slots]  # type: ignore[union-attr]
    a = table.host.deal.current  # type: ignore[union-attr]
    escrow = Escrow(a.ctx, shares[0].seats, shares[0].holders, shares[0].digests)
    held = [Share(s.session.seat, bytes.fromhex(x.share))
            for s, x in zip(table.slots, shares, strict=True)]
    got = rebuild(escrow, held, {n: c for n, (c, _) in a.commits.items()})
    assert got == a.opened()
    assert isinstance(a.ctx, DealContext)


def test_no_escrow_with_a_single_human_peer() -> None:
    table = Table(Rules.preset("classic", target=30), 4, bots=2, seed=9)
    table.host.escrow = True
    table.run(lambda: table.host.phase.value == "play")
    assert table.slots[0].session.escrow == {}


def test_a_move_out_of_turn_is_refused_in_words_that_count_seats_from_one() -> None:
    table = Table(Rules.preset("classic", target=60), 3, seed=11)
    a, b = table.slots
    until_turn(table, a)
    obs = a.session.view.observation() if a.session.view is not None else None
    assert obs is not None and obs.turn == a.session.seat
    with pytest.raises(IllegalActionError) as refused:
        b.session.submit(obs.legal[0], table.now)
    assert str(refused.value) == f"it is seat {a.session.seat + 1}'s turn"


def test_a_rematch_keeps_each_players_seat_and_a_stranger_takes_only_a_free_one() -> None:
    bea, cy = Identity.generate(), Identity.generate()
    table = Table(Rules.preset("classic", target=60), 4, peers=0, seed=3)
    table.host.reserve({bea.public_key: 2, cy.public_key: 1}, until=100.0)
    sam = table.add_peer("Sam", seed=1)  # a stranger first: seats 1 and 2 are kept
    table.run(lambda: sam.session.seat >= 0)
    late = [table.add_peer("Cy", seed=2, identity=cy), table.add_peer("Bea", seed=3, identity=bea)]
    table.run(lambda: all(s.session.seat >= 0 for s in late))
    assert [s.session.seat for s in (sam, *late)] == [3, 1, 2]

    lapsed = Table(Rules.preset("classic", target=60), 3, peers=0, seed=4)
    lapsed.host.reserve({bea.public_key: 1}, until=5.0)
    lapsed.now = 6.0  # Bea did not come back within the hold: her seat is anyone's
    first = lapsed.add_peer("Sam", seed=1)
    lapsed.run(lambda: first.session.seat >= 0)
    assert first.session.seat == 1


def test_a_kept_seat_is_freed_when_its_player_declines_and_only_then() -> None:
    """Declining is a watcher's goodbye with the DECLINE reason (net/watchers.py), let in even
    where watching is off; another goodbye, or another player's no, frees nothing."""
    from lanomino.net.session import SeatDeclined
    from lanomino.net.watchers import DECLINE

    bea, cy = Identity.generate(), Identity.generate()
    table = Table(Rules.preset("classic", target=60), 3, peers=0, seed=5, watchers=0)
    table.host.reserve({bea.public_key: 1, cy.public_key: 2}, until=100.0)
    cy_looks = table.add_watcher("Cy", identity=cy)
    table.run(lambda: cy_looks.session.joined)
    cy_looks.session.quit(table.now, "quit")  # a plain goodbye is no answer
    bea_says_no = table.add_watcher("Bea", identity=bea)
    table.run(lambda: bea_says_no.session.joined)
    bea_says_no.session.quit(table.now, DECLINE)
    table.run(lambda: any(isinstance(e, SeatDeclined) for e in table.host_events))
    assert [e for e in table.host_events if isinstance(e, SeatDeclined)] == [SeatDeclined(1, "Bea")]
    stranger = table.add_peer("Sam", seed=1)
    table.run(lambda: stranger.session.seat >= 0)
    assert stranger.session.seat == 1  # Bea's seat is anyone's now; Cy's is still kept
    nosy = table.add_watcher("Nosy")  # a stranger may not watch where watching is off
    table.run(lambda: any(isinstance(e, JoinRefused) for e in nosy.events))


def test_a_table_deals_without_escrow_by_default() -> None:
    """Three human peers, yet none holds a share: no coalition of players can rebuild a secret."""
    table = Table(Rules.preset("classic", target=30), 4, seed=9)
    assert not table.host.escrow
    table.run(lambda: table.host.phase.value == "play")
    assert all(s.session.escrow == {} for s in table.slots)
    assert table.host.dealing.escrow_shares == {}
    table.run(table.over)
    assert all(s.session.verified_all for s in table.slots)


def test_a_move_refused_as_stale_while_still_this_seats_turn_asks_for_a_move_again() -> None:
    """The table can move on under a seat's move (a new host first resigns the lost host's
    seat): the host refuses that move as stale, and the seat, still to move, is asked again.
    Without that a bot never moves again and, with no move clock, the table waits for ever. A
    stale refusal of some other message of the seat's asks nothing."""
    from lanomino.net.wire import messages as m
    from lanomino.net.wire.schemas import envelope

    table = Table(Rules.preset("classic", target=60), 3, seed=11)
    a, _ = table.slots
    until_turn(table, a)
    s = a.session
    obs = s.observation()
    assert obs is not None

    def refused_as_stale(ref: int) -> list[YourTurn]:
        a.events.clear()
        # sent as the host's own next message to this seat (its counter moves on), so that no
        # real message of the host's arrives with a seq already used and is dropped as replayed
        seat = table.host.shared.seats[s.seat]
        assert seat is not None
        seat.out_seq += 1
        s.receive(envelope(m.Error("stale", "the hand moved on", ref), s.term, seat.out_seq),
                  table.now)
        a.events.extend(s.take_events())
        return [e for e in a.events if isinstance(e, YourTurn)]

    assert refused_as_stale(ref=s.my_seq) == []  # no move of its was pending: nothing to redo
    s.submit(obs.legal[0], table.now)
    s.take_outgoing()  # (the move is lost on its way: the host never sees it)
    asked = refused_as_stale(ref=s.my_seq)
    assert len(asked) == 1 and asked[0].observation.legal == obs.legal  # to move again
    finish(table)


@pytest.mark.parametrize("when", ["play", "between hands"])
def test_a_player_who_resigned_and_then_quits_leaves_without_a_second_resignation(
        when: str) -> None:
    """Found at a locked table, true of every table: a player resigns (and watches on), then
    quits. The host resigned the seat a second time as it left and its engine refused ('may not
    resign: that seat is not in the match'), an error out of the host's session."""
    from lanomino.engine import Resign

    table = Table(Rules.preset("classic", target=100), 3, seed=6)
    a, b = table.slots
    table.run(lambda: table.host.phase.value == "play" and a.session.view is not None
              and a.session.pending_move is None and a.session.view.turn != a.session.seat)
    a.session.submit(Resign(), table.now)
    table.run(lambda: not table.host.state.active[a.session.seat])  # type: ignore[union-attr]
    if when == "between hands":
        table.run(lambda: table.host.phase.value == "deal")
    a.session.quit(table.now)
    table.run(table.over)
    doc = table.host.doc
    assert doc is not None and doc["end"]["finished"] and verify_transcript(doc).ok
    resignations = [m for h in doc["hands"] for m in h["moves"]
                    if m == {"seat": a.session.seat, "resign": True}]
    assert len(resignations) == 1
    assert b.session.verified_all


class Everything(frozenset[str]):
    """Every message type (a muted slot that sends nothing at all)."""

    def __contains__(self, kind: object) -> bool:
        return True


def test_a_seat_that_wakes_after_the_table_let_it_go_is_told_it_left_and_ends() -> None:
    """A seat's program frozen past its grace period (SIGSTOP, a laptop's lid) wakes up and
    writes to the host: the host says goodbye on that seat's own sequence (an error outside it
    was dropped as a replay, and the seat took the host for silent and started an election
    nobody joined), the seat ends in words that say it left, and the others play on."""
    table = Table(Rules.preset("classic", target=60), 3, seed=6)
    a, b = table.slots
    table.run(lambda: table.host.deal is not None and len(table.host.deal.moves) >= 2
              and a.session.pending_move is None)  # (no move of its on its way)
    a.mute, a.bot = Everything(), None  # frozen: it sends nothing (and does not move)
    table.run(lambda: any(isinstance(e, SeatLeft) for e in table.host_events))
    a.mute = frozenset()  # it wakes (having heard what the host sent): it writes to the host
    table.run(lambda: a.session.phase.value == "closed", max_time=5)
    [closed] = [e for e in a.events if isinstance(e, Closed)]
    assert closed.reason.startswith("this seat has left the match (it was gone past its grace")
    assert not [e for e in a.events if isinstance(e, HostSilent | HostChanged)]
    assert not [e for e in a.events if isinstance(e, ProtocolProblem) and e.code == "replayed"]
    assert table.host.stats["refused.left"] >= 1
    table.run(table.over)
    assert b.session.verified_all and table.host.doc is not None
    assert verify_transcript(table.host.doc).ok
