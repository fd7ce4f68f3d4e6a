"""A seat's end of each locked hand (issue 29): one part of ``PeerBlind`` (net/peer/blind.py).
Pure.

Once every holder has revealed its key, the seat opens every tile and scores the hand itself
(``settle``); the host's signed points and closing statement (``blind_end``) are checked against
the hand this seat settled (``end``), and the transcript/2 grows by the hand. The match's last
points also travel from member to member (``pass_end``, ``take_end``): the host may die sending
them to some members only. A void deal (every
seat said "not me" to every question) is kept once its keys are revealed, for the entry of the
hand dealt again; so is a hand re-shuffled blind that turns out to have been blocked before the
holder left it (``unheld_check.Unscorable``): it cannot be counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lanomino.engine import Event
from lanomino.engine.errors import seat_name
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.session_base import HandVerified, MatchOver, ObservationChanged, TranscriptUpdated
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m

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
    if settled.given_up is not None:  # blocked before a holder left, unseen: dealt again, as
        from lanomino.net.peer.blind_leave import deal_again  # the host decides too (this part
        deal_again(blind, hand, None, b"")  # is imported there: net/host/blind_leave.py)
        return
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


def end(blind: PeerBlind, body: b.BlindEnd, passed: int | None = None) -> None:
    """The host's points and closing, checked against the hand this seat settled; then the
    transcript (and, at the match's end, its result). ``passed``: the member that passed the
    lost host's last points on (``take_end``), whose doing a failed check is, not the host's."""
    p, settled, match = blind.p, blind.settled, blind.match
    if body == blind.last_end:
        return  # (the host's own, after a member passed them: take_end)
    blind.last = p.now
    if settled is None or match is None or settled[1].hand != body.hand:
        if passed is None:
            blind._caught("blind-points", f"the host sent the points of hand {body.hand}, "
                          "which this seat has not settled")
        return
    over = match.outcome is not None
    winner = None if match.outcome is None else match.outcome.winner
    # (signed by the host that ran the hand: a new host passes on the lost one's, if it has it)
    doc = book(blind).check_hand(p.ring, p.keys[settled[1].host], settled[1], settled[0],
                                 settled[2], over, winner, body)
    hand = settled[0]
    if isinstance(doc, str) and passed is None and settled[1].host != p.host_seat:
        was, hand.host = hand.host, p.host_seat  # points nobody got from the lost host, signed
        again = hand.record(p.table, settled[1].points)  # by the new one over the record
        retry = book(blind).check_hand(p.ring, p.keys[p.host_seat], again, hand, settled[2],
                                       over, winner, body)  # naming it (locked_points.py)
        doc, hand.host = (doc, was) if isinstance(retry, str) else (retry, hand.host)
    if isinstance(doc, str):
        if passed is None:
            blind.settled = None
            blind._caught("blind-points", f"hand {body.hand}: {doc}")
        else:
            p._problem("false_proof", f"{seat_name(passed)} passed on points of hand "
                                      f"{body.hand} that do not hold: {doc}")
        return
    blind.settled = None
    blind.last_end = body
    p._events.append(TranscriptUpdated(p.table.hex(), doc, over))
    blind.next_deal = not over  # (timed from now: progress.py)
    if over:
        from lanomino.net.peer.state import Phase  # (the state holds this part)
        p.go(Phase.OVER)
        p._events.append(MatchOver(winner, settled[2], body.hand, p.verified_all))
        pass_end(blind, body)


def pass_end(blind: PeerBlind, body: b.BlindEnd) -> None:
    """The match's last points are in: every other member gets them, with the hand's reveals,
    from this seat too (``ProofPassing.pass_end``, the rule for either table: the host may have
    died sending them to some members only)."""
    blind.p.passing.pass_end(body.hand, book(blind).ended(body))


def take_end(blind: PeerBlind, sender: int, bodies: Sequence[m.Body]) -> None:
    """Member ``sender`` passed on the match's last points (``pass_end``; taken up once by
    net/peer/proof_passing.py): a seat that has not finished takes the hand's reveals it lacks
    and the points as if its host had sent them, each checked against its signer's key; what
    does not hold is the member's doing (dropped), never the host's."""
    p, hand = blind.p, blind.hand
    for body in bodies:
        if isinstance(body, b.BlindReveal) and hand is not None and blind.hand is hand \
                and body.seat not in hand.reveals:
            if not b.names_its_sender(body) or not 0 <= body.seat < len(p.keys) or \
                    not p.ring.verify_statement(p.keys[body.seat], body.signature,
                                                b.signed_statement(p.digest, body)):
                p._problem("false_proof", f"{seat_name(sender)} passed on a reveal that seat "
                                          f"{body.seat + 1} did not sign")
                return
            blind.reveal(body)
        elif isinstance(body, b.BlindEnd):
            end(blind, body, passed=sender)
        elif not isinstance(body, b.BlindReveal):
            p._problem("malformed", f"{seat_name(sender)} passed on a {body.TYPE} as points")
            return


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
