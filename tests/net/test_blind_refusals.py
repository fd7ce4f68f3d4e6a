"""At a locked table every message is checked on arrival and a bad one names its signer: a
tampered shuffle, deal share or play share from a seat (the host refuses it), a message the host
altered on its way (every seat refuses it: it is not its sender's), and a host that asks a holder
for a share the signed log does not give (the holder's rule on the wire: no share, the host
caught)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import SHORT, PeerSlot, Table  # noqa: E402

from lanomino.blind.rounds import Share  # noqa: E402
from lanomino.engine import Draw, Rules  # noqa: E402
from lanomino.net.session import HostCaught, MatchOver, ProtocolProblem, SeatLeft  # noqa: E402
from lanomino.net.wire import blind_messages as b  # noqa: E402
from lanomino.net.wire.schemas import envelope, parse_message  # noqa: E402

Tamper = Any


class Tampering(Table):
    """A table where one seat's messages of one kind are changed (and signed again by that
    seat: a cheating seat signs what it sends)."""

    def __init__(self, players: int, kind: str, change: Tamper, slot: int = 0) -> None:
        super().__init__(Rules.preset("classic"), players, blind=True)
        self.kind, self.change, self.cheat = kind, change, slot
        self.sent: list[str] = []

    def to_host(self, slot: PeerSlot, message: dict[str, Any]) -> None:
        if slot is self.slots[self.cheat]:
            self.sent.append(message["type"])
            if message["type"] == self.kind and self.change is not None:
                body = self.change(parse_message(message).body)
                if body is not None:
                    session = slot.session
                    body = replace(body, signature=session.identity.sign_statement(
                        b.signed_statement(session.digest, body)))
                    message = envelope(body, message["term"], message["seq"])
                    self.change = None  # once
        super().to_host(slot, message)


def _blamed(table: Table, seat: int) -> list[ProtocolProblem]:
    return [e for e in table.host_events
            if isinstance(e, ProtocolProblem) and e.code == "blind_fault" and e.seat == seat]


def _swap_two(body: b.BlindShuffle) -> b.BlindShuffle:
    deck = body.turn.deck
    return replace(body, turn=replace(body.turn, deck=(deck[1], deck[0], *deck[2:])))


def test_a_shuffler_that_swaps_two_tiles_fails_its_argument_and_is_named() -> None:
    table = Tampering(3, "blind_shuffle", _swap_two)
    table.run(lambda: bool(_blamed(table, 1)) and table.over(), max_time=30)
    (fault,) = _blamed(table, 1)
    assert "seat 2: its shuffle argument does not hold" in fault.detail
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert not over.verified and "seat 2" in over.reason
    assert table.host.blind is not None and not table.host.blind.records  # no tile opened


def _bad_share(body: b.BlindShares) -> b.BlindShares:
    first, second = body.shares[0], body.shares[1]
    forged = Share(first.seat, first.position, second.point, first.proof)
    return replace(body, shares=(forged, *body.shares[1:]))


def test_a_deal_share_whose_proof_fails_names_its_holder() -> None:
    table = Tampering(3, "blind_shares", _bad_share, slot=1)
    table.run(lambda: bool(_blamed(table, 2)), max_time=30)
    (fault,) = _blamed(table, 2)
    assert "seat 3: its share of position" in fault.detail and "does not hold" in fault.detail
    assert [s.session.hand for s in table.slots] == [0, 0]  # no hand was dealt


def _moved(body: b.BlindPlay) -> b.BlindPlay:
    return replace(body, share=replace(body.share, position=(body.share.position + 1) % 28))


def test_a_play_whose_share_is_not_of_its_position_is_refused_and_names_the_seat() -> None:
    table = Tampering(2, "blind_play", _moved)
    table.run(lambda: bool(_blamed(table, 1)), max_time=60)
    fault = _blamed(table, 1)[0]
    assert fault.detail.startswith("seat 2:")
    assert table.host.phase.value in ("play", "deal")  # refused, not applied: the table stands


def test_a_message_the_host_alters_on_its_way_is_refused_by_every_seat() -> None:
    table = Table(Rules.preset("classic"), 3, blind=True)
    victim = table.slots[1].session
    receive = victim.receive

    def altered(message: dict[str, Any], now: float) -> None:
        if message["type"] == "blind_key" and message["body"]["seat"] == 1:
            body = parse_message(message).body
            assert isinstance(body, b.BlindKey) and table.host.blind is not None
            hand = table.host.blind.hand
            assert hand is not None and hand.holder is not None
            # seat 2's signed message, its key swapped for one whose secret the host knows
            message = envelope(replace(body, key=hand.holder.announce()), message["term"],
                               message["seq"])
        receive(message, now)

    victim.receive = altered  # type: ignore[method-assign]
    table.run(lambda: any(isinstance(e, HostCaught) for e in table.slots[1].events), max_time=10)
    caught = next(e for e in table.slots[1].events if isinstance(e, HostCaught))
    assert caught.check in ("blind-signature",), caught


def _first_draw(table: Table, by_not: int) -> tuple[int, int]:
    """Run until a seat other than ``by_not`` has drawn and opened its tile: (move, seat)."""
    blind = table.host.blind
    assert blind is not None

    def drawn() -> bool:
        hand = blind.hand
        return hand is not None and hand.draw is None and any(
            isinstance(mv.action, Draw) and mv.seat != by_not for mv in hand.moves)

    table.run(drawn, max_time=120)
    hand = blind.hand
    assert hand is not None
    index = next(i for i, mv in enumerate(hand.moves)
                 if isinstance(mv.action, Draw) and mv.seat != by_not)
    return index, hand.moves[index].seat


def test_a_host_that_asks_for_a_share_the_log_does_not_give_gets_none_and_is_named() -> None:
    table = Tampering(3, "", None, slot=0)  # (records what seat 2 sends)
    index, drawer = _first_draw(table, by_not=1)
    blind = table.host.blind
    assert blind is not None and blind.hand is not None
    hand, host = blind.hand, table.host.shared
    position = hand.moves[index].position
    assert position is not None
    dealt_to_3 = hand.layout.dealt[2][0]
    next_in_boneyard = hand.layout.boneyard[hand.draws]
    asks = [
        (index, dealt_to_3, drawer, "it was dealt to seat 3"),
        (index, position, drawer, "already released"),
        (len(hand.moves), next_in_boneyard, 2, f"move {len(hand.moves) + 1} is no draw by seat 3"),
    ]
    seat = host.seat(1)
    for move, where, who, why in asks:
        before = list(table.sent)
        ask = blind._signed(b.BlindAsk(blind.number, blind.attempt, 0, move, where, who,
                                       bytes(64)))
        host.send(seat, ask)
        table.step()
        assert "blind_draw" not in table.sent[len(before):]  # no share went out
        caught = [e for e in table.slots[0].events if isinstance(e, HostCaught)][-1]
        assert caught.check == "share-request"
        assert caught.detail.startswith(f"refused the host: a share of position {where} for "
                                        f"seat {who + 1}: ")
        assert caught.detail.endswith(why)


def test_a_host_that_signs_other_points_than_the_hand_gives_is_caught() -> None:
    table = Table(Rules.preset("classic"), 2, blind=True)
    victim = table.slots[0].session
    receive = victim.receive
    host = table.host.identity

    def inflated(message: dict[str, Any], now: float) -> None:
        if message["type"] == "blind_end":
            body = parse_message(message).body
            assert isinstance(body, b.BlindEnd)
            points = (body.points[0] + 10, *body.points[1:])  # the host's side gets 10 more
            message = envelope(replace(body, points=points, signature=host.sign_statement(
                {"forged": list(points)})), message["term"], message["seq"])
        receive(message, now)

    victim.receive = inflated  # type: ignore[method-assign]
    table.run(lambda: any(isinstance(e, HostCaught) for e in table.slots[0].events), max_time=60)
    caught = next(e for e in table.slots[0].events if isinstance(e, HostCaught))
    assert caught.check == "blind-points" and "the hand gives" in caught.detail


@pytest.mark.parametrize("kind", ["blind_shuffle", "blind_shares", "blind_not_me",
                                  "blind_reveal"])
def test_a_seat_silent_in_a_locked_round_is_named_at_its_deadline(kind: str) -> None:
    """The deal's steps, a question of the opening's rounds, the reveals at the hand's end: each
    waits ``answer_s`` at most, then names the silent seat (here seat 3); the others wait out
    its grace period, then it has left and the hand is dealt again without it
    (net/host/blind_leave.py): the match goes on and finishes."""
    table = Table(SHORT, 3, blind=True)
    table.slots[1].mute = frozenset({kind})
    table.run(lambda: table.host.phase.value == "over", max_time=240)
    late = [e for e in table.host_events if isinstance(e, ProtocolProblem)
            and e.code == "no_answer"]
    assert [e.seat for e in late] == [2]
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    left = [e for e in table.host_events if isinstance(e, SeatLeft)]
    assert [(e.seat, e.reason) for e in left] == [(2, "did not answer within the grace period")]
    assert over.verified and not over.reason


def test_a_seat_silent_in_a_draw_is_named_waited_out_and_left_behind() -> None:
    """A draw's shares: the silent seat is named at the deadline, then waited out for its grace
    period; past it, it has left the hand, the others re-shuffle blind (no escrow) and the match
    goes on and finishes without it."""
    table = Table(SHORT, 3, blind=True)
    table.slots[1].mute = frozenset({"blind_draw"})
    table.run(lambda: table.host.phase.value == "over", max_time=300)
    late = [e for e in table.host_events if isinstance(e, ProtocolProblem)
            and e.code == "no_answer"]
    assert [e.seat for e in late] == [2]
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert over.verified and not over.reason
    blind = table.host.blind
    assert blind is not None
    left = next(r for r in blind.records if r.resignations)
    assert [(r.seat, r.by) for r in left.resignations] == [(2, "left")] and left.unheld


def test_a_seat_that_asks_for_a_snapshot_at_a_locked_table_gets_one_and_plays_on() -> None:
    """A locked table sends a snapshot (net/host/blind_snapshot.py): the seat rebuilds the hand
    in play from it and its own key, and the table plays on (tests/net/test_blind_snapshot.py)."""
    table = Table(Rules.preset("classic"), 3, blind=True)
    table.run(lambda: table.host.phase.value == "play", max_time=30)
    peer = table.slots[0].session
    peer.dealing.ask_resync()  # (as after a gap in the host's seq)
    table.step()
    snapshot = [m for m in table.slots[0].inbox if m["type"] == "snapshot"][-1]
    assert snapshot["body"]["locked"]["said"] and snapshot["body"]["play"]["tiles"] == []
    table.run(table.over, max_time=300)  # the table plays on
    assert table.over()
    assert not [e for e in table.slots[0].events if isinstance(e, HostCaught)]


def test_a_lost_host_ends_a_locked_match_without_an_election_or_a_winner() -> None:
    """Seats that do not elect (``migration`` off: ``--no-migration``, or two people): once the
    host has been silent past the grace period the match ends for each; with three sides left
    standing, won by nobody (tests/net/test_blind_migration.py: the seats that elect; at two
    people the one left wins: test_the_person_left_wins_when_the_host_of_a_locked_table_of_two_
    is_lost)."""
    table = Table(Rules.preset("classic"), 4, blind=True)
    table.run(lambda: table.host.phase.value == "play", max_time=30)
    host = table.host
    host.take_outgoing = lambda: []  # type: ignore[method-assign]  # (the host is gone)
    host.handle_timer = lambda now: None  # type: ignore[method-assign]
    host.next_deadline = lambda: None  # type: ignore[method-assign]
    table.run(lambda: all(s.session.phase.value == "over" for s in table.slots), max_time=120)
    for slot in table.slots:
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.winner is None and not over.verified, over
        assert "no new host was elected to carry the match on" in over.reason, over.reason
        assert slot.session.election is None


def test_the_person_left_wins_when_the_host_of_a_locked_table_of_two_is_lost() -> None:
    """Two people at a locked table, the host silent past the grace period in the second hand:
    no election (two people), and the person left wins, as at a fair table: the hand in play is
    void (only the host could open its tiles), the hand before it stays checked."""
    table = Table(Rules.preset("classic", target=500), 2, blind=True)
    slot = table.slots[0]
    table.run(lambda: len(slot.session.verified) == 1 and table.host.phase.value == "play",
              max_time=120)
    host = table.host
    host.take_outgoing = lambda: []  # type: ignore[method-assign]  # (the host is gone)
    host.handle_timer = lambda now: None  # type: ignore[method-assign]
    host.next_deadline = lambda: None  # type: ignore[method-assign]
    table.run(lambda: slot.session.phase.value == "over", max_time=120)
    over = next(e for e in slot.events if isinstance(e, MatchOver))
    assert over.winner == slot.session.seat == 1 and over.hands == 1 and over.verified, over
    assert over.reason.startswith("the host left the table (silent for "), over.reason


def test_a_host_that_stays_alive_but_stops_a_locked_round_is_left() -> None:
    """The host keeps its heartbeats going but passes no shuffle on (nor a snapshot, which
    would hold it), and names nobody: past ``answer_s`` and ``relay_s``, and the grace period a
    silent person would have (the host may be waiting it out: net/host/blind_leave.py), every
    seat catches it ('blind-late') and, as these seats elect no new host (migration off), the
    match ends for each, won by nobody."""
    table = Table(Rules.preset("classic"), 3, blind=True)
    host = table.host
    take = host.take_outgoing
    host.take_outgoing = lambda: [o for o in take()  # type: ignore[method-assign]
                                  if o.message["type"] not in ("blind_shuffle", "blind_shares",
                                                               "snapshot", "snapshot_part")]
    assert host.blind is not None
    host.blind.timer = lambda now: None  # type: ignore[method-assign]  # (it names nobody)
    table.run(lambda: all(s.session.phase.value == "over" for s in table.slots), max_time=60)
    timings = table.timings
    for slot in table.slots:
        caught = next(e for e in slot.events if isinstance(e, HostCaught))
        assert caught.check == "blind-late"
        waited = 2 * timings.answer_s + timings.relay_s + timings.grace_s
        assert waited - 1.0 <= caught.at <= waited + 1.0  # (at its deadline)
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.winner is None and not over.verified


@pytest.mark.parametrize("escrow", [False, True])
def test_a_seat_that_quits_a_locked_hand_does_not_end_the_match(escrow: bool) -> None:
    """The seat is resigned in the log; with escrow the others stand in for its key
    (tests/net/test_blind_escrow_table.py), without it they re-shuffle blind the tiles nobody
    holds (tests/net/test_blind_unheld_table.py); either way the match finishes."""
    table = Table(SHORT, 3, blind=True)
    table.host.escrow = escrow
    table.run(lambda: table.host.phase.value == "play", max_time=30)
    table.slots[1].session.quit(table.now)
    table.run(lambda: table.host.phase.value == "over", max_time=120)
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert over.verified and not over.reason
    blind = table.host.blind
    assert blind is not None and (blind.records[0].unheld is None) == escrow
