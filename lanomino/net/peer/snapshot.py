"""A snapshot at a seat or a watcher: the host's word on everything this seat may know now (the
roster, the header, the match so far, the hand in play), which replaces its own. Pure.

A fair table's match so far is its transcript/1, checked by the seat's verifier, and its hand in
play comes with this seat's tiles; a locked table's goes on in ``blind_snapshot.py`` (its
transcript/2 and the deal attempt in play, from which the seat rebuilds its own tiles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.engine import HandStarted, Rules
from lanomino.fair.header import MatchHeader
from lanomino.fair.replay import state_after
from lanomino.fair.transcript import parse_transcript
from lanomino.fair.transcript2 import parse_transcript2
from lanomino.fair.transcript_model import Transcript
from lanomino.net.peer import blind_snapshot
from lanomino.net.peer.state import PeerState, Phase
from lanomino.net.session_base import ObservationChanged
from lanomino.net.view import view_after
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import events_from_json, tiles_from_text

if TYPE_CHECKING:
    from lanomino.net.peer.deal import PeerDealing


def take(deal: PeerDealing, body: m.Snapshot) -> None:
    """A snapshot: this seat's table, header, match so far and hand in play replaced by the
    host's (a locked table's: ``blind_snapshot.py``)."""
    p = deal.p
    p.seat, p.players, p.roster = body.seat, body.seats, list(body.roster)
    p.rules = Rules.from_spec(body.rules)
    p.resync_asked, p.resync_due = False, None
    p.pending_move = None
    p.election = None  # a snapshot from the host we follow: any election is over
    p.early_log = None  # the snapshot's transcript says it all
    p.progress.restart()
    doc = body.transcript
    if doc is None:
        return
    if body.locked is not None:  # a locked table's (net/peer/blind_snapshot.py)
        take_header(p, parse_transcript2(doc)[0])
        p.doc = doc
        match = blind_snapshot.match_so_far(p.blind, body.locked)
        if match is not None:
            p.view = view_after(match, p.rules, p.seat)
            if body.play is not None:
                onto_view(p, body.play)
            blind_snapshot.hand_in_play(deal, body)
        return
    transcript = parse_transcript({**doc, "end": doc["end"]})
    take_header(p, transcript)
    doc = p.proofs.merged(p.disputes.entries(doc))  # with what it holds too
    p.doc = doc
    report = p.verifier.check(doc)
    ok = report.ok
    p.view = view_after(state_after(transcript, p.rules, report), p.rules,
                             p.seat)
    for hand in transcript.hands:
        p.verified.setdefault(hand.hand, ok)
    # hands that ended while this seat was away (or its host changed)
    for log in transcript.hands:
        seen, logged = p.moves.get(log.hand), [move.raw for move in log.moves]
        if seen is None or seen == logged:
            continue
        # the log is not what this seat was sent: that stays a failure
        if logged[:len(seen)] != seen:
            p.verified[log.hand] = False
            p._problem("log_mismatch",
                            f"hand {log.hand}: the logged moves are not the ones sent")
            continue
        p.moves[log.hand] = logged  # the moves it missed, from the signed log
        p.move_sigs[log.hand] = list(log.move_signatures)
    play = body.play
    if play is None:
        p._events.append(ObservationChanged(p.view.observation()))
        end = doc["end"]
        finished = isinstance(end, dict) and end.get("finished") is True
        if finished and p.phase is not Phase.OVER:
            deal._transcript_updated(doc)  # e.g. a watcher that came back as the match ended
        return
    onto_view(p, play)
    deal.changed()

def take_header(p: PeerState, transcript: Transcript) -> None:
    """The match header of a snapshot's transcript: this seat's from now on."""
    p.header = MatchHeader(transcript.table, transcript.algorithm, transcript.rules_spec,
                                transcript.players, transcript.keys,
                                transcript.move_clock)
    p.digest, p.keys = transcript.header_digest, list(transcript.keys)
    p.table = transcript.table

def onto_view(p: PeerState, play: m.SnapshotPlay) -> None:
    """A snapshot's hand in play onto this seat's view (its tiles, a fair table's)."""
    assert p.view is not None
    p.hand = play.hand
    p.dealt[p.hand] = tiles_from_text(play.tiles, "play.tiles")
    events = events_from_json(play.events, "play.events")
    if not events or not isinstance(events[0], HandStarted):
        raise ValueError("a snapshot's hand starts with HandStarted")
    p.view.start_hand(p.dealt[p.hand], events[0], play.turn)
    p.view.apply(events[1:], play.turn)
    p.moves[p.hand] = list(play.moves)
    p.move_sigs[p.hand] = list(play.signatures)
    p.arrival.forget(p.hand)
    p.disputes.snapshot(play)  # (after forget: they count toward the heads)
    p.attempts[p.hand] = list(play.attempts)
    p.abandoned[p.hand] = list(play.abandoned)
    p.dealers[p.hand] = play.dealer

