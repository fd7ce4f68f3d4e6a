"""The host session's play part: moves, the hand's end, host-side bots, leaving, snapshots. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lanomino.engine import (
    RESIGN,
    Action,
    Event,
    HandEnded,
    IllegalActionError,
    MatchEnded,
    TileDrawn,
)
from lanomino.engine import (
    Phase as EnginePhase,
)
from lanomino.engine.errors import seat_name
from lanomino.engine.observe import public_event
from lanomino.fair.commit import (
    new_table_id,
)
from lanomino.fair.commit_reveal import Step
from lanomino.fair.transcript import (
    move_json,
    move_statement,
)
from lanomino.net.budget import Deferrals
from lanomino.net.fair_round import HandDeal, RoundError, closing
from lanomino.net.host.blind_snapshot import Said
from lanomino.net.host.deal import Dealing, reveal_req
from lanomino.net.host.disputes import Disputes
from lanomino.net.host.move_clock import MoveClock
from lanomino.net.host.table import ROUND, Phase, Policy, Seat, Table, seat_view
from lanomino.net.host.transcript_check import TranscriptCheck
from lanomino.net.session_base import (
    MatchOver,
    ProtocolProblem,
    SeatLeft,
    YourTurn,
)
from lanomino.net.watchers import VIEWER
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import snapshot_parts
from lanomino.net.wire.values import event_to_json, parse_move

if TYPE_CHECKING:
    from lanomino.net.host.blind import BlindDealing


class Playing:
    """Moves, the end of a hand, host-side bots, the move clock, leaving, snapshots: one part of a
    HostSession. Its own state: when a host-side bot moves next, the turn the move clock times,
    the snapshot budget. It asks the deal part for the next hand."""

    def __init__(self, table: Table, deal: Dealing, *, away_policy: Policy | None) -> None:
        self.t, self.dealing = table, deal
        self.bot_due: float | None = None
        self.resyncs = Deferrals()  # a snapshot costs far more than its request: a budget per seat
        self.clock = MoveClock(table, self, away_policy)  # the move clock (move_clock.py)
        self.disputes = Disputes(table)  # seats' disputes of moves the host made for them
        self.checking = TranscriptCheck(table)  # the host's own check of each hand
        self.locked: Said | None = None  # a locked table's part of a snapshot (blind_snapshot.py)

    def lock(self, blind: BlindDealing) -> Said:
        """A locked table: its snapshots carry the deal attempt in play (blind_snapshot.py)."""
        self.locked = Said(blind)
        return self.locked

    # ----- play ----------------------------------------------------------------------------------

    def move(self, seat: Seat, body: m.Move, seq: int) -> None:
        state, d = self.t.state, self.t.deal
        if self.t.phase is not Phase.PLAY or state is None or d is None:
            raise RoundError("wrong_phase", "no hand is in play")
        if body.hand != d.hand or body.index != len(d.moves):
            raise RoundError("stale", f"the hand is {d.hand} at move {len(d.moves)}")
        action = parse_move(body.move, seat.seat, away=self.clock.locked)
        away = self.clock.marks_away(body)  # (its client's bot's, signed: a locked table's)
        self.clock.back(seat, body, seq)  # a seat out of time that moves again is back
        if state.turn != seat.seat and action is not RESIGN:
            raise RoundError("out_of_turn", f"it is {seat_name(state.turn)}'s turn")
        # Checked on arrival: a move whose signature is not the seat's never enters the log (the
        # transcript would then not verify, and it would not be the host's fault).
        statement = move_statement(self.t.digest, d.hand, len(d.moves), body.move)
        if not self.t.ring.verify_statement(d.keys[seat.seat], body.signature, statement):
            who = seat_name(seat.seat)
            raise RoundError("bad_signature",
                             f"move {len(d.moves) + 1} is not signed by {who}'s key")
        try:
            events = self.t.apply(state, seat.seat, action, away)
        except IllegalActionError as exc:
            raise RoundError("illegal", str(exc)) from None
        self.record(seat.seat, body.move, body.signature, events, d, away, body)
        self.run_local_seats()

    def play_local(self, seat: int, action: Action) -> None:
        assert self.t.state is not None and self.t.deal is not None
        d = self.t.deal
        move = move_json(seat, action)
        events = self.t.apply(self.t.state, seat, action, False)
        statement = move_statement(self.t.digest, d.hand, len(d.moves), move)
        sig = self.t.local[seat].identity.sign_statement(statement)
        self.record(seat, move, sig, events, d)

    def record(self, seat: int, move: JsonObject, sig: bytes, events: list[Event],
                d: HandDeal, away: bool = False, seen: m.Move | None = None) -> None:
        """A move applied: keep it for the transcript, send each peer its view (with the host's
        signature of the log's new head, fair/chain.py), end the hand."""
        assert self.t.state is not None
        index = len(d.moves)
        d.moves.append(move)
        d.signatures.append(sig)
        head = d.signed_head(self.t.identity)
        # a remote seat's view of the log before its move, passed on as it signed it
        heard = (None, None, None) if seen is None else (seen.seen, seen.seen_host,
                                                          seen.seen_signature)
        public = tuple(event_to_json(e) for e in events)
        turn = self.t.state.turn
        drawn = [(i, e) for i, e in enumerate(events) if isinstance(e, TileDrawn)]
        # one update per view of the move (a drawn tile is hidden from the others): the seats
        # that see it alike share it, and the table encodes it once (Table.send)
        views: dict[tuple[int, ...], m.Update] = {}
        updates: list[tuple[Seat, m.Update]] = []
        for s in self.t.audience():
            hidden = tuple(i for i, e in drawn if e.seat != s.seat)
            body = views.get(hidden)
            if body is None:
                mine = public
                for i, e in drawn:
                    if i in hidden:
                        mine = (*mine[:i], event_to_json(public_event(e, s.seat)), *mine[i + 1:])
                body = views[hidden] = m.Update(d.hand, index, move, sig, mine, turn, head,
                                                                away, *heard)
            updates.append((s, body))
        watched: m.Update | None = None
        if len(self.t.watchers):  # every drawn tile hidden: a watcher views from no seat
            shown = (tuple(event_to_json(public_event(e, VIEWER)) for e in events) if drawn
                     else public)
            watched = m.Update(d.hand, index, move, sig, shown, turn, head, away, *heard)

        def send_updates() -> None:
            for s, body in updates:
                self.t.send(s, body)
            if watched is not None:
                self.t.publish(watched)

        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        finished = any(isinstance(e, MatchEnded) for e in events)
        if ended is not None or finished:
            self.hand_over(d, ended, send_updates)
        else:
            send_updates()
            self.t.host_view()
            self.t.after_move()

    def hand_over(self, d: HandDeal, ended: HandEnded | None,
                  then: Callable[[], None] | None = None) -> None:
        """Publish the hand's transcript entry (or an amended last one) and move on.

        The log goes to every member before the updates of the move that ended the hand (``then``
        sends them): a member that knows the hand is over then holds the log too, with every
        secret in it, so a host lost in between is survived without escrow (the new host takes
        that log). The host's own check of the hand waits until they have left
        (``TranscriptCheck.report_hand``)."""
        self.t.settle()  # the check of the hand before, if it is still owed
        assert self.t.state is not None and self.t.doc is not None
        state = self.t.state
        last = next(e for e in reversed(state.results)) if ended is None else ended
        bad = d.check_signatures()
        if self.t.adoption is not None and d.adopted is None:  # the first hand this host logs
            d.adopted, self.t.adoption = self.t.adoption, None
        entry = d.entry(self.t.identity, last.points, state.scores)
        hands = self.t.doc["hands"]
        if hands and hands[-1]["hand"] == d.hand:
            hands[-1] = entry
        else:
            hands.append(entry)
        over = state.phase is EnginePhase.OVER
        winner = state.outcome.winner if state.outcome is not None else None
        self.t.doc["end"] = closing(self.t.identity, self.t.digest, self.t.host_seat, len(hands),
                                    over, winner, state.scores)
        if over and then is not None:
            then()  # the match is over (no migration follows): its last move first, as before
            then = None  # (a host that closes at once must not lose the move to a log it sent)
        log = m.HandLog(entry, self.t.doc["end"])
        for s in self.t.audience():
            self.t.send(s, log)
        self.t.publish(log)  # the reveal: public now
        if then is not None:
            then()  # the update of the move that ended the hand: after its log
        for index, seat in bad:
            self.t.stats["refused.bad_signature"] += 1
            self.t.events.append(ProtocolProblem(
                "bad_signature", f"move {index + 1} is not signed by {seat_name(seat)}", seat))
        self.checking.report_hand(d.hand, bad, over)
        self.t.host_view()
        if over:
            self.t.go(Phase.OVER)
            self.bot_due = None
            verified = self.t.stats["hand.unverified"] == 0
            self.t.events.append(MatchOver(winner, tuple(state.scores), len(hands), verified))
        elif ended is not None:
            self.t.last_deal = d
            self.dealing.start_hand(later=True)  # (the host's commitments: once this move is out)

    def run_local_seats(self, fire: bool = False) -> None:
        """Let host-side bots move while it is their turn, each on the session's timer (``fire``):
        ``bot_delay_s`` after its turn came, or at once once the output of the move before is out
        (on a LAN the others need not wait for the bot to think and sign)."""
        while self.t.phase is Phase.PLAY and self.t.state is not None:
            turn = self.t.state.turn
            local = self.t.local.get(turn)
            seat = self.t.seats[turn]
            if local is None and seat is not None and seat.away and not seat.left:
                if self.clock.play_away(turn):
                    continue
                return  # (a locked table: the seat's own client plays it)
            if local is None or self.bot_due is not None or not self.t.ready():
                return
            if local.policy is None:
                self.t.events.append(YourTurn(self.t.observe(self.t.state, turn)))
                return
            if not fire:  # bot_delay_s from now (0: on the next timer, due at once)
                self.bot_due = self.t.now + self.t.timings.bot_delay_s
                return
            fire = False
            self.play_local(turn, local.policy(self.t.observe(self.t.state, turn)))

    def after_deal(self) -> None:
        """A hand was just dealt: seats that left during its deal (the first hand: there is no
        hand before to write their resignation into) resign now; then the bots move."""
        assert self.t.state is not None and self.t.deal is not None
        for n, seat in enumerate(self.t.seats):
            if (seat is not None and seat.left and self.t.state.active[n]
                    and self.t.phase is Phase.PLAY):
                self._resign(n, self.t.deal)
        if self.t.phase is Phase.PLAY:
            self.dealing.split_escrow()
        self.run_local_seats()

    # ----- leaving -------------------------------------------------------------------------------

    def bye(self, seat: Seat, body: m.Bye, seq: int) -> None:
        if seat.left:
            seat.watching = False  # a watcher stops following
            return
        self.seat_left(seat.seat, f"quit: {body.reason}" if body.reason else "quit")

    def ping(self, seat: Seat, body: m.Ping, seq: int) -> None:
        pass  # being heard is all a ping is for

    def resync(self, seat: Seat, body: m.Resync, seq: int) -> None:
        if self.resyncs.ask(seat.seat, self.t.now):  # else answered once, later (handle_timer)
            self.send_snapshot(seat)

    def seat_left(self, number: int, reason: str) -> None:
        seat = self.t.seat(number)
        if seat.left or self.t.phase is Phase.OVER:
            return
        self.t.events.append(SeatLeft(number, reason))
        if self.t.phase in (Phase.LOBBY, Phase.HEADER):
            self._back_to_lobby(seat)
            return
        seat.left = True
        seat.connected = False
        self.t.broadcast_roster()
        assert self.t.state is not None
        if self.dealing.locked is not None and self.dealing.locked.seat_left(number):
            return  # (a locked hand that cannot be scored without it: net/host/blind_leave.py)
        if self.t.phase is Phase.DEAL and self.t.last_deal is None:
            # The first hand's deal began: the table goes on. The seat takes no further part in
            # the round (a fresh attempt without it) and is resigned once the hand is dealt.
            if self.t.deal is not None and number in self.t.deal.current.round.seats:
                self.t.deal.current.round.abandon_for([number], self.t.now)
                self.t.deal.abandon()
                self.dealing.new_attempt()
            return
        if not self.t.state.active[number]:
            return  # it resigned before it left: its seat is out of the match already
        if self.t.phase is Phase.PLAY:
            assert self.t.deal is not None
            self._resign(number, self.t.deal)
            if self.t.phase is Phase.PLAY:
                self.dealing.split_escrow()
                self.run_local_seats()
            return
        # Between hands: the resignation closes the last hand; the next deal starts again.
        assert self.t.last_deal is not None
        self._resign(number, self.t.last_deal)
        if not self._over():
            self.dealing.start_hand()

    def _resign(self, number: int, d: HandDeal) -> None:
        assert self.t.state is not None
        move = move_json(number, RESIGN)
        events = self.t.apply(self.t.state, number, RESIGN, False)
        sig = self.t.identity.sign_statement(
            move_statement(self.t.digest, d.hand, len(d.moves), move))
        self.record(number, move, sig, events, d)
        if d is self.t.last_deal and not any(isinstance(e, MatchEnded) for e in events):
            self.hand_over(d, None)  # the amended last hand, re-signed

    def _over(self) -> bool:
        return self.t.phase is Phase.OVER

    def hands_done(self) -> bool:
        return self.t.doc is not None and bool(self.t.doc["hands"])

    def _back_to_lobby(self, seat: Seat) -> None:
        """A seat left before the first hand was dealt: free it; the next match gets a new id."""
        if seat.curve is not None:
            self.t.by_curve.pop(seat.curve, None)
        self.t.seats[seat.seat] = None
        if self.t.phase is not Phase.LOBBY:
            self.t.table = new_table_id()
            self.t.go(Phase.LOBBY)
            self.t.state, self.t.doc, self.t.deal = None, None, None
            self.t.header_sigs = {}
        self.t.broadcast_roster()
        if seat.route is not None:
            self.t.send(seat, m.Bye("you left the table"))

    def snapshot_body(self, viewer: int) -> m.Snapshot | m.Error:
        """Everything ``viewer`` (a seat, or VIEWER: a watcher, who holds no tiles) may know now;
        at a locked table no tiles (the viewer rebuilds its own), or why none can be sent."""
        play: m.SnapshotPlay | None = None
        state, d = self.t.state, self.t.deal
        refusal = None if self.locked is None else self.locked.refusal()
        if refusal is not None:
            return m.Error("not_built", refusal, 0)
        if self.t.phase is Phase.PLAY and state is not None and d is not None:
            history = tuple(event_to_json(seat_view(e, viewer)) for e in state.history)
            tiles = tuple(str(t) for t in self.t.dealt[viewer]) \
                if viewer != VIEWER and self.locked is None else ()
            play = m.SnapshotPlay(d.hand, tiles, history, tuple(d.moves),  # (copies: sent later)
                                  tuple(d.signatures), state.turn,
                                  tuple(x.public() for x in d.attempts), tuple(d.abandoned),
                                  d.host_seat, self.disputes.passed_on(d))
        doc = None if self.t.doc is None else {**self.t.doc, "hands": list(self.t.doc["hands"])}
        return m.Snapshot(viewer, tuple(self.t.roster()), self.t.players, self.t.rules_spec, doc,
                          play, None if self.locked is None else self.locked.part())

    def send_snapshot(self, seat: Seat) -> None:
        """Everything the seat may know now, then whatever it still owes the deal."""
        d = self.t.deal
        snapshot = self.snapshot_body(seat.seat)
        if isinstance(snapshot, m.Error):  # (a locked hand it cannot resend: blind_snapshot.py)
            self.t.send(seat, snapshot)
            return
        parts = snapshot_parts(snapshot)  # a long match's transcript outgrows one message
        for part in parts:
            self.t.send(seat, part)
        if not parts:
            self.t.send(seat, snapshot)
        n = seat.seat
        if self.t.doc is not None:
            self.t.send_bots(seat)
        if (self.t.phase is Phase.HEADER and self.t.header is not None
                and n not in self.t.header_sigs):
            self.t.send(seat, m.Match(self.t.header))
        if self.locked is not None:
            self.locked.after(seat)  # (a draw's share it still owes)
        if d is None or self.t.phase not in ROUND:
            if n in self.dealing.escrow_shares and self.t.phase is Phase.PLAY:
                self.t.send(seat, self.dealing.escrow_shares[n])
            return
        a = d.current
        if n not in a.round.missing():
            return
        if a.round.step is Step.COMMIT:
            self.t.send(seat, m.CommitReq(d.hand, a.ctx.attempt))
        elif a.round.step is Step.ECHO:
            self.dealing.send_set(seat)
        elif a.round.step is Step.REVEAL:
            self.dealing.send_set(seat)  # a restarted peer reveals only for a set it has checked
            self.t.send(seat, reveal_req(a))
