"""The points of the last locked hand after a migration (issue 29). Pure. Used by
net/host/locked_takeover.py.

The lost host may die once a hand is over: every key revealed, the hand settled, and its points
(``blind_end``, its signatures over the hand's record and the match's closing statement) sent to
some members, or to none. A member that got them reports them (``election.locked_report``), and
the new host's seat takes them if they hold (``LockedTakeover._catch_up``).

- When no member got them (``sign``), the new host signs them itself: every side built the
  hand's record itself, so only its ``host`` changes, to the new host, which signs the points over
  it and the closing after it; each side checks them as any points (``net/peer/blind_close.end``
  takes a record that names the host it follows when the one naming the lost host fails); a
  resignation the lost host signed in the hand names it in that record (``Resignation.host``).
  Not when the lost host had rebuilt a key in the hand (a reveal only the record's host signs):
  the match then ends, saying so.
- When a member got them and this host's seat still waits at the hand's end for a reveal the
  lost host did not pass on (``ended_elsewhere``: that member moved on, and reports its reveals
  of the hand from its transcript), the seat takes the reported reveals, settles the hand with
  the lost host in its record, and then takes the lost host's points as above.
- Either way, each member whose report lacks them gets the hand's reveals again (a member that
  missed the last one has not settled the hand yet; a side that has settled drops them as stale)
  and then the points (``pass_on``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.election import HOST_REVEAL, OWN_REVEAL, end_reported, reveal_reported
from lanomino.net.host.table import Table
from lanomino.net.session_base import TranscriptUpdated
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession


def ended_elsewhere(peer: PeerSession, reports: Mapping[int, m.Report], lost_host: int) -> None:
    """This host's seat waits at the end of a hand whose points a member took from the lost
    host: the seat settles it with the reveals the members report (each checked against its
    signer's key as on arrival, ``PeerBlind.reveal``; one that does not hold is dropped), its
    record naming the lost host, whose points ``LockedTakeover._catch_up`` then takes."""
    pb = peer.blind
    hand = pb.hand
    if hand is None or hand.view is None or hand.view.outcome is None or not any(
            (end := end_reported(r.last)) is not None and end.hand == pb.number
            for r in reports.values()):
        return
    p, was, hand.host = peer, hand.host, lost_host  # (follow() named this host: the points
    for report in reports.values():  # are the lost one's)
        for key in (OWN_REVEAL, HOST_REVEAL):
            body = reveal_reported(report.last, key)
            if pb.hand is not hand or body is None or body.seat in hand.reveals:
                continue
            if not b.names_its_sender(body) or not 0 <= body.seat < len(p.keys) or \
                    not p.ring.verify_statement(p.keys[body.seat], body.signature,
                                                b.signed_statement(p.digest, body)):
                p.stats["migration.bad_reveal"] += 1  # (a member's false copy: not the host's)
                continue
            pb.reveal(body)
    if pb.hand is hand:  # (a reveal is still missing: the hand goes on under this host)
        hand.host = was


def sign(peer: PeerSession, t: Table) -> JsonObject | None:
    """No member got the points of the hand this seat settled: this host signs them over the
    record naming it, and its seat takes them as any side does. The transcript with the hand
    (None: the lost host rebuilt a key in the hand, so they stay unsigned)."""
    pb = peer.blind
    assert pb.settled is not None and pb.match is not None and t.header is not None
    hand, record, scores = pb.settled
    if any(r.seed is None for r in record.reveals):
        return None
    book = pb.book.copy() if pb.book is not None else LockedTranscript(
        t.header, tuple(t.header_sigs[n] for n in range(t.players)))
    was, hand.host = hand.host, t.host_seat
    outcome = pb.match.outcome
    doc, end = book.close_hand(t.identity, t.host_seat, record.attempt,
                               hand.record(t.table, record.points), hand, scores,
                               outcome is not None, None if outcome is None else outcome.winner)
    hand.host = was  # (its seat's own check moves it: net/peer/blind_close.end)
    pb.end(end)
    if pb.settled is not None:
        return None  # (cannot happen: the same record, signed by this host)
    if outcome is None:  # (else the match's end says it: LockedTakeover._over)
        t.events.append(TranscriptUpdated(t.table.hex(), doc, False))
    return doc


def pass_on(peer: PeerSession, t: Table, reports: Mapping[int, m.Report]) -> None:
    """Each member whose report lacks the points of the last hand (which this seat took, from
    the lost host, a member or this host) gets its reveals again, then the points."""
    end, book = peer.blind.last_end, peer.blind.book
    bodies = [] if end is None or book is None else book.ended(end)
    if end is None or not bodies:
        return
    for n, report in reports.items():
        got = end_reported(report.last)
        if got is not None and got.hand >= end.hand:
            continue
        for body in bodies:
            t.send(t.seat(n), body)
