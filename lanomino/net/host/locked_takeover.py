"""A new host at a locked table (issue 29): it carries the locked match on after its host was
lost. Pure. One part of a HostSession at a table that deals the locked deck, held by its
``Takeover`` (takeover.py runs the election's side: the majority, the reports, the resume).

Theory of operation. The new host was a seat: its ``PeerBlind`` (net/peer/blind.py) holds the
match's transcript/2 so far, the match between hands and the hand in play as that seat followed
it. No finished hand needs rebuilding: each is in every seat's transcript/2, signed by the host
that ran it, and the match state between hands is public. The hand in play needs no escrowed
secret: the seat's ``TableHand`` (its holder, the deck, every share, the public view, the
escrow book) becomes the host's (``_carry_hand``). The lost host is then a holder who leaves:
takeover.py resigns its seat (``left``, signed by this host) and the hand does what it does at
every side for any person who leaves it (``blind/leave_rule.py``, net/host/blind_leave.py,
``blind/table_leave.py``): a departure before the next deal attempt, the attempt dealt again,
its key stood in for (escrow) or the tiles nobody holds re-shuffled blind. Its host-side bots
leave with it: their tiles were opened by the lost host alone and their keys went with it;
transcript/2 has no record of an adoption (transcript/1's ``adopted``), so no move a new host
signed for them would verify.

What went to the lost host only is sent again: this host's own share of the last draw
(``_draw_again``, which also asks again the holders whose share it has not seen) and its own
reveal; each member's report carries its own reveal and the last ``blind_end`` it took
(``election.locked_report``). Members whose logs of the hand in play differ (the lost host died
between its updates of one move to two of them) are first brought to the longest log it signed
(net/host/locked_log.py); the last hand's points, when no member got them, are signed by this
host over the record every side built, and passed on to the members that lack them
(net/host/locked_points.py); lost before its first deal, the first hand is dealt here, the lost
host departing before it. What cannot be carried on ends the match in words that say why
(``_cannot_go_on``, ``locked_log``); a fork the lost host signed leaves its proof in the
transcript (``_convicted``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from lanomino.engine import Draw, new_game
from lanomino.fair.commit_reveal import RoundError
from lanomino.fair.statements import end_statement
from lanomino.fair.transcript_model import MatchEnd
from lanomino.net.blind_transcript import LockedTranscript
from lanomino.net.election import HOST_REVEAL, end_reported, reveal_reported
from lanomino.net.fair_round import HandDeal
from lanomino.net.host import locked_points as points
from lanomino.net.host.blind import NO_SIGNATURE, BlindDealing
from lanomino.net.host.deal import Dealing
from lanomino.net.host.locked_log import Wanting, behind, fork, take_longest
from lanomino.net.host.table import Phase, Table
from lanomino.net.session_base import MatchOver, TranscriptUpdated
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession

class LockedTakeover:
    """Carrying a locked match on (see the module docstring): one part of a HostSession."""

    def __init__(self, table: Table, dealing: BlindDealing, peer: PeerSession) -> None:
        self.t, self.d = table, dealing
        self.carried = peer  # this host's seat, which followed the match
        self.wanting = Wanting(peer, table.stats)  # the log a member ahead owes (locked_log.py)

    def wants_log(self, reports: Mapping[int, m.Report]) -> bool:
        """Ask each member ahead of this host's seat by more than its report carries for the
        entries from its place on; True while one of them is waited for (``answer_s`` at most)."""
        t = self.t
        for n, ask in self.wanting.asks(reports, t.now, t.timings.answer_s):
            t.send(t.seat(n), ask)
        return self.wanting.waits(reports)

    @classmethod
    def of(cls, table: Table, dealing: Dealing, peer: PeerSession) -> LockedTakeover | None:
        """The part for a new host that grew from ``peer`` at a table that deals the locked
        deck (None: a fair table's takeover is takeover.py's alone)."""
        blind = dealing.locked
        return cls(table, blind, peer) if isinstance(blind, BlindDealing) else None

    def rebuild(self, reports: Mapping[int, m.Report], lost_host: int) -> bool:
        """The locked match as this host's seat followed it, carried on: the hand in play, or
        between hands (the next deal follows: ``start_hand``); True when a hand was in play. Or
        the match ends saying why (phase OVER)."""
        pb, t = self.carried.blind, self.t
        others = {n: r for n, r in reports.items() if n not in (t.host_seat, lost_host)}
        if pb.match is None:  # lost before its first deal: this host deals it, without it
            pb.match = new_game(t.rules, t.players)
        points.ended_elsewhere(self.carried, reports, lost_host)  # (a member got its points)
        if pb.settled is not None:  # the last hand's points: a member's, else this host's
            self._catch_up(reports)  # (locked_points.py)
            if pb.settled is not None:
                points.sign(self.carried, t)
        if pb.settled is None and pb.hand is None and pb.match is not None \
                and pb.match.outcome is not None:
            self._over()  # (the points ended the match: the members that lack them get them)
        in_play = pb.hand is not None and pb.hand.view is not None
        if in_play:  # the longest log the lost host signed, and every member caught up to it
            take_longest(self.carried, others, lost_host, t.stats)  # (locked_log.py)
        catch_ups, why = behind(self.carried, others) if in_play else ({}, None)
        forked = fork(self.carried, others, lost_host) if in_play else None
        why = self._cannot_go_on() or (None if forked is None else forked[0]) or why
        if why is not None:
            if forked is not None and forked[1] is not None:
                self._convicted(forked[1])
            self.d.closing.give_up(why)
            return False
        for n, bodies in catch_ups.items():  # (before anything this host sends of its own)
            for body in bodies:
                t.send(t.seat(n), body)
        points.pass_on(self.carried, t, others)  # (to the members that lack the last points)
        self.d.closing.book = None if pb.book is None else pb.book.copy()
        self.d.closing.records = [h.record for h in pb.book.hands] if pb.book else []
        if t.phase is Phase.OVER:
            return False
        hand = pb.hand
        if hand is None:
            assert pb.match is not None
            self.d.number, t.state, t.deal = pb.number, pb.match.copy(), None
            t.go(Phase.DEAL)
        else:
            self._carry_hand(lost_host, reports)
        bots = [n for n, seat in enumerate(t.seats)
                if seat is not None and seat.kind == "bot" and n not in t.local]
        # each departs before the next deal attempt (net/host/blind_leave.py), unless it
        # resigns first as a move of the hand in play; its bots leave with it (the docstring)
        self.d.leavers.gone.update([*bots, *([lost_host] if hand is None else [])])
        for n in bots:
            self.d.playing.seat_left(n, "its host left")
        return hand is not None and hand.view is not None

    def _over(self) -> None:
        """The last hand's points, which this seat took (from the lost host, a member or this
        host), ended the match: so it is at this host too."""
        pb, t = self.carried.blind, self.t
        assert pb.match is not None and pb.match.outcome is not None
        t.state, winner = pb.match.copy(), pb.match.outcome.winner
        book, end = pb.book, pb.last_end
        if book is not None and end is not None and book.hands:
            doc = book.document(MatchEnd(book.hands[-1].record.host, len(book.hands), True,
                                         winner, end.scores, end.closing))
            t.events.append(TranscriptUpdated(t.table.hex(), doc, True))
        t.go(Phase.OVER)
        t.events.append(MatchOver(winner, tuple(t.state.scores), pb.number, True))

    def _convicted(self, proof: JsonObject) -> None:
        """The lost host signed two logs of the hand in play (a fork): the match ends, and the
        transcript so far keeps the proof (``evidence``), under this host's closing statement
        (the match unfinished, as the hands before say), so ``lanomino verify`` names it."""
        pb, t = self.carried.blind, self.t
        assert t.header is not None and pb.match is not None
        book = pb.book if pb.book is not None else LockedTranscript(
            t.header, tuple(t.header_sigs[n] for n in range(t.players)))
        scores, hands = tuple(pb.match.scores), len(book.hands)
        closing = t.identity.sign_statement(end_statement(t.header.digest(), t.host_seat, hands,
                                                          False, None, scores))
        doc = book.document(MatchEnd(t.host_seat, hands, False, None, scores, closing), [proof])
        t.events.append(TranscriptUpdated(t.table.hex(), doc, True))

    def start_hand(self) -> None:
        """The next hand's deal, unless the hand carried on deals again already (a departure
        from its deal round: net/host/blind_leave.py)."""
        if self.d.hand is None and self.t.phase is Phase.DEAL:
            self.d.start_hand()

    def _cannot_go_on(self) -> str | None:
        """Why the match cannot go on under this new host yet (None: it can)."""
        pb = self.carried.blind
        if pb.settled is not None:
            return ("the host left a locked match before any seat had its points of hand "
                    f"{pb.number}, in which it had rebuilt a lost key: a new host cannot sign "
                    "those points (only the record's host signs a rebuilt key)")
        if pb.book is not None and (pb.book.voided or pb.book.departures):
            return (f"the host left locked hand {pb.number + (pb.hand is None)} after it had "
                    "signed a void deal or a departure of it, which a new host cannot carry on")
        return None

    def _carry_hand(self, lost_host: int, reports: Mapping[int, m.Report]) -> None:
        """The hand in play goes on under this host: its seat's ``TableHand`` (its holder, the
        deck, every share, the public view, the escrow) becomes the host's, timed as a host
        times a hand. takeover.py then resigns the lost host's seat, and the hand does what it
        does for any holder who leaves (``blind/leave_rule.py``: dealt again before its first
        move, stood in for with escrow, ...). The last draw is asked again where it waits
        (``_draw_again``); the members' reveals at the hand's end come with their reports."""
        peer, pb, t, d = self.carried, self.carried.blind, self.t, self.d
        hand = pb.hand
        assert hand is not None and t.header is not None
        hand.host, hand.answer_s = t.host_seat, t.timings.answer_s
        d.hand, d.number, d.attempt = hand, pb.number, pb.attempt
        d.revealed = hand.holder is not None and hand.holder.seat in hand.reveals
        d.draws.asked = {i for i, mv in enumerate(hand.moves) if isinstance(mv.action, Draw)}
        if hand.view is None:  # the deal round or the opening's: the match before the hand
            t.state, t.deal = hand.before.copy(), None
            hand.due = None if hand.due is None else t.now + t.timings.answer_s
            t.go(Phase.DEAL)
            return
        deal = HandDeal(t.digest, pb.number, t.host_seat, list(t.header.keys), t.ring)
        deal.moves = list(peer.moves.get(peer.hand, []))
        deal.signatures = list(peer.move_sigs.get(peer.hand, []))
        t.state, t.deal = hand.view.core, deal
        t.go(Phase.PLAY)
        if hand.view.outcome is not None:  # the reveals: the lost host leaves first (its key
            hand.due = t.now + t.timings.answer_s  # is out, or stood in for, or the hand is
            self._lost_reveal(reports, lost_host)  # dealt again: every side alike)
            self.d.playing.seat_left(lost_host, "the host left")
            if d.hand is hand:
                self._reveals(reports)
        elif hand.moves and isinstance(hand.moves[-1].action, Draw):
            self._draw_again(len(hand.moves) - 1, lost_host)

    def _reveals(self, reports: Mapping[int, m.Report]) -> None:
        """At the hand's end, this host's own reveal again and each member's from its report
        (they went to the lost host): checked as on arrival, kept and passed on (a side that has
        one drops it)."""
        d, hand, me = self.d, self.d.hand, self.t.host_seat
        assert hand is not None
        if me in hand.reveals and ("reveal", me) in hand.signatures:  # (this host's own too)
            d._relay(b.BlindReveal(d.number, d.attempt, me, hand.reveals[me],
                                   hand.signatures[("reveal", me)]), me)
        for n, report in reports.items():
            body = reveal_reported(report.last)
            if body is None or body.seat != n or body.reveal.seat != n or n in hand.reveals:
                continue
            try:
                d.reveal(self.t.seat(n), body, 0)
            except RoundError:
                self.t.stats["migration.bad_reveal"] += 1

    def _lost_reveal(self, reports: Mapping[int, m.Report], lost_host: int) -> None:
        """The lost host revealed its key and may have died with its reveal sent to some
        members only: when this host lacks it, it takes it from a member's report (checked as
        on arrival from that seat), and passes it to every member, before the lost host's seat
        leaves, so every side judges that leave with its key out (``blind/leave_rule.py``);
        a side that has it drops it."""
        d, hand = self.d, self.d.hand
        assert hand is not None
        if lost_host not in hand.reveals:
            for report in reports.values():
                body = reveal_reported(report.last, HOST_REVEAL)
                if body is None or body.seat != lost_host or body.reveal.seat != lost_host:
                    continue
                try:
                    d.reveal(self.t.seat(lost_host), body, 0)
                except RoundError:
                    self.t.stats["migration.bad_reveal"] += 1
                    continue
                return  # (relayed to every member by the host's own handler)
        said = hand.signatures.get(("reveal", lost_host))
        if lost_host in hand.reveals and said is not None:  # (this host's seat got it: some
            d._relay(b.BlindReveal(d.number, d.attempt, lost_host, hand.reveals[lost_host],
                                   said), lost_host)  # members may not have)

    def _draw_again(self, index: int, lost_host: int) -> None:
        """The last move is a draw: this host's own share of it goes out again (it went to the
        lost host, which may not have passed it on; a side that has it drops it), and so does
        every other share of it this host holds (the lost host's own, or one this host took from
        a member's report, may have reached some members only); while the round still waits
        here, the holders whose share this host has not seen are asked again."""
        t, d, hand = self.t, self.d, self.d.hand
        assert hand is not None
        position, drawer = hand.moves[index].position, hand.moves[index].seat
        draw = hand.draw
        shares = draw.shares.values() if draw is not None else hand.drawn.get(position or 0, ())
        mine = next((s for s in shares if s.seat == t.host_seat), None)
        if draw is not None:
            draw.deadline = t.now + t.timings.answer_s
            ask = d.draws.request(index, draw.position, drawer)
            for s in t.humans():
                if s.seat in draw.missing() and s.seat != lost_host:
                    t.send(s, ask)
        if mine is not None:
            d._relay(d._signed(b.BlindDraw(d.number, d.attempt, t.host_seat, index, mine,
                                           NO_SIGNATURE)), t.host_seat)
        for share in shares:  # the others' as their holders signed them: the lost host may
            said = hand.signatures.get(("draw", (index, share.seat)))  # have passed them (its
            if share.seat != t.host_seat and said is not None:  # own too) to some members
                d._relay(b.BlindDraw(d.number, d.attempt, share.seat, index, share, said),
                         t.host_seat)  # only: every side has them before its seat resigns

    def _catch_up(self, reports: Mapping[int, m.Report]) -> None:
        """The lost host's ``blind_end`` of the hand this seat settled, from a member that got
        it: taken once its checks hold (``net/peer/blind_close.end``)."""
        pb = self.carried.blind
        for report in reports.values():
            if pb.settled is None:
                return
            body = end_reported(report.last)
            if body is None or body.hand != pb.settled[1].hand:
                continue
            caught, settled = len(pb.p.caught), pb.settled
            pb.end(body)
            if len(pb.p.caught) > caught:  # (a member's false copy changes nothing: the next)
                del pb.p.caught[caught:]
                pb.settled = settled
                self.t.stats["migration.bad_blind_end"] += 1

