"""A seat's end of each locked hand (issue 29): one part of ``PeerBlind`` (net/peer/blind.py).
Pure.

Once every holder has revealed its key, the seat opens every tile and scores the hand itself
(``settle``); the host's signed points and closing statement (``blind_end``) are checked against
the hand this seat settled (``end``), and the transcript/2 grows by the hand. A void deal (every
seat said "not me" to every question) is kept once its keys are revealed, for the entry of the
hand dealt again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.engine import Event
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.session_base import HandVerified, MatchOver, ObservationChanged, TranscriptUpdated
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:
    from lanomino.net.peer.blind import PeerBlind


def settle(blind: PeerBlind) -> None:
    """Every tile open: this seat scores the hand itself; the host's signed points and the
    transcript follow with ``blind_end``."""
    p, hand = blind.p, blind.hand
    assert hand is not None
    if hand.void:  # kept for the entry of the hand dealt again; its next deal is due
        book(blind).void(hand.record(p.table, ()), hand)
        blind.hand, blind.next_deal = None, True
        return
    assert p.view is not None
    hand.clock = p.header is not None and p.header.move_clock is not None
    settled = hand.settle()
    blind.hand = None
    p.holding = False
    ok = settled.verdict.ok
    p.verified[blind.number] = ok
    p._events.append(HandVerified(blind.number, ok, settled.verdict.describe()))
    if not ok or settled.ended is None:
        return
    blind.match = state = settled.state
    blind.settled = (hand, hand.record(p.table, settled.points), tuple(state.scores))
    events: list[Event] = [settled.ended]
    if state.outcome is not None:
        events.append(state.outcome)
    p.view.apply(events, state.turn)
    p._events.append(ObservationChanged(make=p.view.observation))


def book(blind: PeerBlind) -> LockedTranscript:
    """The match's transcript/2 so far (made with the first hand that needs it)."""
    p = blind.p
    if blind.book is None:
        assert p.header is not None and p.doc is not None
        blind.book = LockedTranscript(p.header, tuple(
            bytes.fromhex(s) for s in p.doc["header_signatures"]))
    return blind.book


def end(blind: PeerBlind, body: b.BlindEnd) -> None:
    """The host's points and closing, checked against the hand this seat settled; then the
    transcript (and, at the match's end, its result)."""
    p, settled, match = blind.p, blind.settled, blind.match
    blind.last = p.now
    if settled is None or match is None or settled[1].hand != body.hand:
        blind._caught("blind-points", f"the host sent the points of hand {body.hand}, which "
                      "this seat has not settled")
        return
    blind.settled = None
    over = match.outcome is not None
    winner = None if match.outcome is None else match.outcome.winner
    # (signed by the host that ran the hand: a new host passes on the lost one's, if it has it)
    doc = book(blind).check_hand(p.ring, p.keys[settled[1].host], settled[1], settled[0],
                                 settled[2], over, winner, body)
    hand = settled[0]
    if isinstance(doc, str) and settled[1].host != p.host_seat:  # points nobody got from the
        was, hand.host = hand.host, p.host_seat  # lost host, signed by the new one over the
        again = hand.record(p.table, settled[1].points)  # record naming it (locked_points.py)
        retry = book(blind).check_hand(p.ring, p.keys[p.host_seat], again, hand, settled[2],
                                       over, winner, body)
        doc, hand.host = (doc, was) if isinstance(retry, str) else (retry, hand.host)
    if isinstance(doc, str):
        blind._caught("blind-points", f"hand {body.hand}: {doc}")
        return
    blind.last_end = body
    p._events.append(TranscriptUpdated(p.table.hex(), doc, over))
    blind.next_deal = not over  # (timed from now: progress.py)
    if over:
        from lanomino.net.peer.state import Phase  # (the state holds this part)
        p.go(Phase.OVER)
        p._events.append(MatchOver(winner, settled[2], body.hand, p.verified_all))


def over(blind: PeerBlind, body: b.BlindOver) -> None:
    """People left before the next hand was dealt and one side is left (the departures this
    seat applied to its match state, ``blind_leave``): the host's closing statement over them,
    checked; the transcript and the match's result (the engine's: the side left wins)."""
    p, match = blind.p, blind.match
    blind.last = p.now
    kept = book(blind)
    if match is None or match.outcome is None or body.seat != p.host_seat \
            or body.scores != tuple(match.scores):
        blind._caught("blind-points", f"the host ended the match before hand {body.hand} with "
                      f"the score {list(body.scores)}, which the departures this seat holds do "
                      "not give")
        return
    winner = match.outcome.winner
    doc = kept.check_departed(p.ring, p.host_seat, p.keys[p.host_seat], body.scores, winner,
                              body.signature)
    if doc is None:
        blind._caught("blind-points", "the host's closing statement is not over the departures "
                      "this seat holds")
        return
    blind.next_deal = False
    p._events.append(TranscriptUpdated(p.table.hex(), doc, True))
    from lanomino.net.peer.state import Phase  # (the state holds this part)
    p.go(Phase.OVER)
    p._events.append(MatchOver(winner, body.scores, len(kept.hands), p.verified_all))
