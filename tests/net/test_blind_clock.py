"""Deadlines at a table that deals the locked deck (issue 29), in memory through the real codec:
each seat times the host's next deal, and the move clock's bot for a seat runs in that seat's
own client (net/peer/blind_clock.py)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import FAST, PeerSlot, Table, bot_policy  # noqa: E402

from lanomino.engine import Action, Observation, Rules  # noqa: E402
from lanomino.fair.transcript import move_json, move_statement  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import (  # noqa: E402
    HandVerified,
    HostCaught,
    MatchOver,
    SeatAway,
    TranscriptUpdated,
)


def caught(table: Table, check: str) -> list[list[HostCaught]]:
    return [[e for e in s.events if isinstance(e, HostCaught) and e.check == check]
            for s in table.slots]


def test_a_host_that_never_deals_the_next_locked_hand_is_left_as_silent() -> None:
    table = Table(Rules.preset("classic"), 3, blind=True)
    blind = table.host.blind
    assert blind is not None
    first, calls = blind.start_hand, []

    def holds_back() -> None:  # the first hand is dealt as usual; the host holds back the next
        calls.append(1)
        if len(calls) == 1:
            first()
    blind.start_hand = holds_back  # type: ignore[method-assign]
    table.run(lambda: all(caught(table, "blind-late")), max_time=120)
    for slot, late in zip(table.slots, caught(table, "blind-late"), strict=True):
        assert late, [type(e).__name__ for e in slot.events]
        # it came after the first hand's points, within the deadline on the host's progress
        ended = max(i for i, e in enumerate(slot.events) if isinstance(e, TranscriptUpdated))
        assert slot.events.index(late[0]) > ended
        assert not caught(table, "blind-order")[0]


def clock_table(players: int, move_s: float = 2.0) -> Table:
    """A locked table with a move clock; every seat's client holds the bots (as the runtime's)."""
    table = Table(Rules.preset("classic"), players, blind=True,
                  timings=replace(FAST, move_s=move_s))
    table.host.shared.away_level = "greedy"
    for n, slot in enumerate(table.slots):
        slot.session.table_bot.make = lambda level, n=n: bot_policy(level, 50 + n)
    return table


def away_updates(slot: PeerSlot, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` this slot was passed on as the table's (away) moves."""
    return [msg["body"] for msg in slot.inbox if msg["type"] == "update"
            and msg["body"]["away"] and msg["body"]["move"]["seat"] == seat]


def test_a_seat_that_stops_answering_at_a_locked_clock_table_is_played_by_its_own_client(
        ) -> None:
    table = clock_table(3)
    quiet = table.slots[0]
    quiet.bot = None  # its player stops answering the screen
    table.run(table.over, max_time=3600)
    assert table.over()
    seat = quiet.session.seat
    assert any(isinstance(e, SeatAway) and e.seat == seat and e.away for e in table.host_events)
    host_over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert host_over.verified and not host_over.reason
    others = [s for s in table.slots if s is not quiet]
    for other in others:  # its moves came signed by the seat itself, marked the table's
        moves = away_updates(other, seat)
        assert moves
        digest = quiet.session.digest
        for msg in moves:
            statement = move_statement(digest, msg["hand"], msg["index"], msg["move"])
            assert table.host.shared.ring.verify_statement(
                quiet.session.identity.public_key, bytes.fromhex(msg["signature"]), statement)
    for slot in table.slots:
        assert not [e for e in slot.events if isinstance(e, HostCaught)]
        hands = [e for e in slot.events if isinstance(e, HandVerified)]
        assert hands and all(h.ok for h in hands), [h.detail for h in hands if not h.ok]
        over = next(e for e in slot.events if isinstance(e, MatchOver))
        assert over.verified and over.scores == host_over.scores
    report = verify_transcript(last_transcript(table.host_events))
    assert report.ok, report.failure


def test_the_host_cannot_forge_an_away_move_at_a_locked_clock_table() -> None:
    table = clock_table(3)
    quiet = table.slots[0]
    quiet.bot = None
    host = table.host.shared
    take = table.host.take_outgoing

    def seat() -> int:
        return quiet.session.seat

    def forging() -> list[Any]:  # the host signs the away seat's move itself
        out = take()
        for outgoing in out:
            msg = outgoing.message["body"]
            if (outgoing.message["type"] == "update" and msg["away"]
                    and msg["move"]["seat"] == seat()):
                statement = move_statement(host.digest, msg["hand"], msg["index"], msg["move"])
                msg["signature"] = host.identity.sign_statement(statement).hex()
        return out
    table.host.take_outgoing = forging  # type: ignore[method-assign]
    others = [s for s in table.slots if s is not quiet]
    table.run(lambda: all(caught_on(s) for s in others), max_time=600)
    for other in others:
        found = caught_on(other)
        assert found and "locked table" in found[0].detail, found
        assert away_updates(other, seat())


def caught_on(slot: PeerSlot) -> list[HostCaught]:
    return [e for e in slot.events if isinstance(e, HostCaught) and e.check == "move-signature"]


def last_transcript(events: list[Any]) -> dict[str, Any]:
    return next(e.transcript for e in reversed(events) if isinstance(e, TranscriptUpdated))


def test_a_seat_gone_when_its_clock_runs_out_at_a_locked_table_is_not_played_by_the_host(
        ) -> None:
    """The gone seat is counted away, nobody moves for it, and when the grace period is over it
    leaves: the others re-shuffle blind the tiles nobody holds (no escrow) and finish the match
    (tests/net/test_blind_unheld_table.py)."""
    table = clock_table(3)
    gone = table.slots[1]

    def its_turn() -> bool:
        view = gone.session.view
        return view is not None and view.phase == "play" and view.turn == gone.session.seat \
            and not gone.session.holding
    table.run(its_turn, max_time=60)
    assert its_turn()
    gone.connected = False
    table.run(lambda: table.host.phase.value == "over", max_time=300)
    seat = gone.session.seat
    assert any(isinstance(e, SeatAway) and e.seat == seat and e.away for e in table.host_events)
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert over.verified and not over.reason, over.reason
    assert not away_updates(table.slots[0], seat)  # the host made no move for it
    blind = table.host.blind
    assert blind is not None
    left = next(r for r in blind.records if r.resignations)
    assert [(r.seat, r.by) for r in left.resignations] == [(seat, "left")]
    assert left.unheld is not None and left.unheld.lost == (seat,)


def test_a_locked_deal_before_the_last_hands_points_is_refused_and_the_host_caught() -> None:
    table = Table(Rules.preset("classic"), 3, blind=True)
    take = table.host.take_outgoing

    def dealing_first() -> list[Any]:  # the next hand's deal overtakes the last hand's points
        out = take()
        for route in {o.route for o in out}:
            mine = [i for i, o in enumerate(out) if o.route == route]
            kinds = [out[i].message["type"] for i in mine]
            if "blind_end" in kinds and "blind_deal" in kinds[kinds.index("blind_end"):]:
                end = mine[kinds.index("blind_end")]
                deal = mine[kinds.index("blind_deal", kinds.index("blind_end"))]
                a, b = out[end].message, out[deal].message
                a["seq"], b["seq"] = b["seq"], a["seq"]
                out[end], out[deal] = out[deal], out[end]
        return out
    table.host.take_outgoing = dealing_first  # type: ignore[method-assign]
    table.run(lambda: all(caught(table, "blind-order")), max_time=120)
    for slot, found in zip(table.slots, caught(table, "blind-order"), strict=True):
        assert found and "before it sent the points of hand 1" in found[0].detail, slot.events


def test_a_seat_back_at_a_locked_clock_table_plays_its_next_turn_itself() -> None:
    """The player comes back (``PeerSession.back``) just as the host's move that gives the seat
    its turn is on its way: the two cross on the wire, so the update still comes under a roster
    that counts the seat away. The turn is the player's own all the same: its client's bot, which
    played for it while it was away, makes no move once the player said they are back."""
    table = clock_table(2)
    quiet = table.slots[0]
    player, quiet.bot = quiet.bot, None  # its player stops answering the screen
    assert player is not None
    host, play = table.host.shared, table.host.play
    table.run(lambda: quiet.session.seat >= 0 and bool(away_updates(quiet, quiet.session.seat)),
              max_time=300)
    seat = quiet.session.seat
    assert quiet.session.away
    for _ in range(50):  # until the host's own bot makes a move that hands the turn over
        table.run(lambda: play.bot_due is not None, max_time=60)
        assert play.bot_due is not None
        table.now = max(table.now, play.bot_due)
        table.host.handle_timer(table.now)  # the host's bot moves: the update is on its way
        if host.state is not None and host.state.turn == seat:
            break
        table.step()
    assert host.state is not None and host.state.turn == seat
    moves = len(seat_updates(quiet, seat))
    quiet.session.back(table.now)  # ... and so is the player's back
    chosen: list[Action] = []

    def at_the_screen(obs: Observation) -> Action:  # the player, at the screen again
        chosen.append(player(obs))
        return chosen[-1]
    quiet.bot = at_the_screen
    table.run(lambda: len(seat_updates(quiet, seat)) > moves, max_time=60)
    move = seat_updates(quiet, seat)[moves]
    assert chosen and move["move"] == move_json(seat, chosen[0]), "its client's bot played it"
    assert not move["away"]
    table.run(lambda: not quiet.session.away, max_time=60)
    assert [e.away for e in table.host_events if isinstance(e, SeatAway)][-1] is False


def seat_updates(slot: PeerSlot, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` this slot was passed on (its own, or the table's for it)."""
    return [msg["body"] for msg in slot.inbox
            if msg["type"] == "update" and msg["body"]["move"]["seat"] == seat]
