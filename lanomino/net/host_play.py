"""The host session's play: moves, the hand's end, host-side bots, leaving, snapshots. Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lanomino.engine import (
    RESIGN,
    Action,
    Event,
    HandEnded,
    IllegalActionError,
    MatchEnded,
    TileDrawn,
    apply,
    observe,
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
    TranscriptError,
    move_json,
    move_statement,
)
from lanomino.net.chunks import split_body
from lanomino.net.fair_round import HandDeal, RoundError, closing
from lanomino.net.host_base import ROUND, Phase, Seat, seat_view
from lanomino.net.host_deal import HostDeal
from lanomino.net.session_base import (
    HandVerified,
    MatchOver,
    ObservationChanged,
    ProtocolProblem,
    SeatAway,
    SeatLeft,
    TranscriptUpdated,
    YourTurn,
)
from lanomino.net.watchers import VIEWER
from lanomino.net.wire.values import event_to_json, parse_move


class HostPlay(HostDeal):
    """Moves, the end of a hand, bots, leaving, snapshots (see host_session.py)."""

    # ----- play ----------------------------------------------------------------------------------

    def _move(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        state, d = self.state, self.deal
        if self.phase is not Phase.PLAY or state is None or d is None:
            raise RoundError("wrong_phase", "no hand is in play")
        if body["hand"] != d.hand or body["index"] != len(d.moves):
            raise RoundError("stale", f"the hand is {d.hand} at move {len(d.moves)}")
        action = parse_move(body["move"], seat.seat)
        self._back(seat, body, seq)  # a seat out of time that moves again is back
        if state.turn != seat.seat and action is not RESIGN:
            raise RoundError("out_of_turn", f"it is seat {state.turn}'s turn")
        # Checked on arrival: a move whose signature is not the seat's never enters the log (the
        # transcript would then not verify, and it would not be the host's fault).
        statement = move_statement(self.digest, d.hand, len(d.moves), body["move"])
        if not self.ring.verify_statement(d.keys[seat.seat], body["signature"], statement):
            raise RoundError("bad_signature",
                             f"move {len(d.moves) + 1} is not signed by {seat_name(seat.seat)}'s key")
        try:
            events = apply(state, seat.seat, action)
        except IllegalActionError as exc:
            raise RoundError("illegal", str(exc)) from None
        self._record(seat.seat, body["move"], body["signature"], events, d)
        self._run_local_seats()

    def _play_local(self, seat: int, action: Action) -> None:
        assert self.state is not None and self.deal is not None
        d = self.deal
        move = move_json(seat, action)
        events = apply(self.state, seat, action)
        sig = self.local[seat].identity.sign_statement(move_statement(self.digest, d.hand, len(d.moves), move))
        self._record(seat, move, sig, events, d)

    def _record(self, seat: int, move: dict[str, Any], sig: bytes, events: list[Event], d: HandDeal) -> None:
        """A move applied: keep it for the transcript, send each peer its view, end the hand."""
        assert self.state is not None
        index = len(d.moves)
        d.moves.append(move)
        d.signatures.append(sig)
        public = [event_to_json(e) for e in events]
        turn = self.state.turn
        signature = sig.hex()
        drawn = [i for i, e in enumerate(events) if type(e) is TileDrawn]  # hidden from the others
        updates: list[tuple[Seat, dict[str, Any]]] = []
        for s in self._audience():
            mine = public
            for i in drawn:
                e = events[i]
                assert isinstance(e, TileDrawn)
                if e.seat != s.seat:
                    mine = [*mine[:i], event_to_json(public_event(e, s.seat)), *mine[i + 1:]]
            updates.append((s, {"hand": d.hand, "index": index, "move": move, "signature": signature,
                                "events": mine, "turn": turn}))
        watched: dict[str, Any] | None = None
        if len(self.watchers):  # every drawn tile hidden: a watcher views from no seat
            seen = [event_to_json(public_event(e, VIEWER)) for e in events] if drawn else public
            watched = {"hand": d.hand, "index": index, "move": move, "signature": signature,
                       "events": seen, "turn": turn}

        def send_updates() -> None:
            for s, body in updates:
                self._send(s, "update", **body)
            if watched is not None:
                self._publish("update", **watched)

        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        finished = any(isinstance(e, MatchEnded) for e in events)
        if ended is not None or finished:
            self._hand_over(d, ended, send_updates)
        else:
            send_updates()
            self._host_view()

    def _hand_over(self, d: HandDeal, ended: HandEnded | None,
                   then: Callable[[], None] | None = None) -> None:
        """Publish the hand's transcript entry (or an amended last one) and move on.

        The log goes to every member before the updates of the move that ended the hand (``then``
        sends them): a
        member that knows the hand is over then holds the log too, with every secret in it, so
        a host lost in between is survived without escrow (the new host takes that log)."""
        assert self.state is not None and self.doc is not None
        state = self.state
        last = next(e for e in reversed(state.results)) if ended is None else ended
        bad = d.check_signatures()
        if self.adoption is not None and d.adopted is None:  # the first hand this host logs
            d.adopted, self.adoption = self.adoption, None
        entry = d.entry(self.identity, last.points, state.scores)
        hands = self.doc["hands"]
        if hands and hands[-1]["hand"] == d.hand:
            hands[-1] = entry
        else:
            hands.append(entry)
        over = state.phase is EnginePhase.OVER
        winner = state.outcome.winner if state.outcome is not None else None
        self.doc["end"] = closing(self.identity, self.digest, self.host_seat, len(hands), over, winner, state.scores)
        for s in self._audience():
            self._send(s, "hand_log", entry=entry, end=self.doc["end"])
        self._publish("hand_log", entry=entry, end=self.doc["end"])  # the reveal: public now
        if then is not None:
            then()  # the update of the move that ended the hand: after its log
        for index, seat in bad:
            self.stats["refused.bad_signature"] += 1
            self._events.append(ProtocolProblem("bad_signature", f"move {index + 1} is not signed by {seat_name(seat)}",
                                                seat))
        ok, detail = self._own_check(bad)
        if not ok:
            self.stats["hand.unverified"] += 1  # the match's result says so (MatchOver.verified)
        self._events.append(HandVerified(d.hand, ok, detail))
        self._events.append(TranscriptUpdated(self.table.hex(), self.doc, over))
        self._host_view()
        if over:
            self.phase = Phase.OVER
            self.bot_due = None
            verified = self.stats["hand.unverified"] == 0
            self._events.append(MatchOver(winner, tuple(state.scores), len(hands), verified))
        elif ended is not None:
            self.last_deal = d
            self._start_hand()

    def _own_check(self, bad: Sequence[tuple[int, int]]) -> tuple[bool, str]:
        """The host runs the verifier on its own transcript after each hand (as every peer does):
        the result it reports counts every problem that check finds, not only bad signatures."""
        if bad:
            return False, f"{len(bad)} moves carry a bad signature"
        try:
            report = self.verifier.check(self.doc)
        except TranscriptError as exc:
            return False, f"malformed transcript: {exc}"
        if report.failure is not None:
            return False, report.failure.describe()
        return True, report.hands[-1].describe() if report.hands else "no hands"

    def _run_local_seats(self, fire: bool = False) -> None:
        """Let host-side bots move while it is their turn: at once, or each after ``bot_delay_s``
        (``fire``: that delay is over for the bot to move now)."""
        while self.phase is Phase.PLAY and self.state is not None:
            turn = self.state.turn
            local = self.local.get(turn)
            seat = self.seats[turn]
            if local is None and seat is not None and seat.away and not seat.left:
                self._play_away(turn)
                continue
            if local is None or self.bot_due is not None:
                return
            if local.policy is None:
                self._events.append(YourTurn(observe(self.state, turn)))
                return
            if self.timings.bot_delay_s > 0 and not fire:
                self.bot_due = self.now + self.timings.bot_delay_s
                return
            fire = False
            self._play_local(turn, local.policy(observe(self.state, turn)))

    def _play_away(self, seat: int) -> None:
        """The table's bot moves for a seat out of time (signed by the host; the hand's log lists
        the move under ``away``)."""
        assert self.state is not None and self.deal is not None
        d, obs = self.deal, observe(self.state, seat)
        action = self.away_policy(obs) if self.away_policy is not None else obs.legal[0]
        move = move_json(seat, action)
        events = apply(self.state, seat, action)
        sig = self.identity.sign_statement(move_statement(self.digest, d.hand, len(d.moves), move))
        d.away.append(len(d.moves))
        self._record(seat, move, sig, events, d)

    def move_clock(self) -> float | None:
        """When the seat to move runs out of time (None: no move clock, or no remote seat to time).
        The clock starts when the turn is first seen here (after the move before it)."""
        state, d, limit = self.state, self.deal, self.timings.move_s
        if limit is None or self.phase is not Phase.PLAY or state is None or d is None:
            return None
        seat = self.seats[state.turn]
        if state.turn in self.local or seat is None or seat.left or seat.away:
            return None
        key = (d.hand, len(d.moves))
        if key != self.turn_key:
            self.turn_key, self.turn_since = key, self.now
        return self.turn_since + limit

    def _out_of_time(self, now: float) -> None:
        due = self.move_clock()
        if due is None or now < due:
            return
        assert self.state is not None
        seat = self._seat(self.state.turn)
        seat.away = True
        self.stats["move_clock.away"] += 1
        self._events.append(SeatAway(seat.seat, True))
        self._broadcast_roster()
        self._run_local_seats()

    def _back(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if seat.away:
            seat.away = False
            self._events.append(SeatAway(seat.seat, False))
            self._broadcast_roster()

    def _after_deal(self) -> None:
        """A hand was just dealt: seats that left during its deal (the first hand: there is no
        hand before to write their resignation into) resign now; then the bots move."""
        assert self.state is not None and self.deal is not None
        for n, seat in enumerate(self.seats):
            if seat is not None and seat.left and self.state.active[n] and self.phase is Phase.PLAY:
                self._resign(n, self.deal)
        if self.phase is Phase.PLAY:
            self._split_escrow()
        self._run_local_seats()

    def _host_view(self) -> None:
        if self.state is not None and self.local[self.host_seat].policy is None:
            self._events.append(ObservationChanged(observe(self.state, self.host_seat)))

    # ----- leaving -------------------------------------------------------------------------------

    def _bye(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if seat.left:
            seat.watching = False  # a watcher stops following
            return
        self._seat_left(seat.seat, f"quit: {body['reason']}" if body["reason"] else "quit")

    def _ping(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        pass  # being heard is all a ping is for

    def _resync(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if self.resyncs.ask(seat.seat, self.now):  # else answered once, later (handle_timer)
            self._send_snapshot(seat)

    def _seat_left(self, number: int, reason: str) -> None:
        seat = self._seat(number)
        if seat.left or self.phase is Phase.OVER:
            return
        self._events.append(SeatLeft(number, reason))
        if self.phase in (Phase.LOBBY, Phase.HEADER):
            self._back_to_lobby(seat)
            return
        seat.left = True
        seat.connected = False
        self._broadcast_roster()
        assert self.state is not None
        if self.phase is Phase.DEAL and self.last_deal is None:
            # The first hand's deal began: the table goes on. The seat takes no further part in
            # the round (a fresh attempt without it) and is resigned once the hand is dealt.
            if self.deal is not None and number in self.deal.current.round.seats:
                self.deal.current.round.abandon_for([number], self.now)
                self.deal.abandon()
                self._new_attempt()
            return
        if self.phase is Phase.PLAY:
            assert self.deal is not None
            self._resign(number, self.deal)
            if self.phase is Phase.PLAY:
                self._split_escrow()
                self._run_local_seats()
            return
        # Between hands: the resignation closes the last hand; the next deal starts again.
        assert self.last_deal is not None
        self._resign(number, self.last_deal)
        if not self._is_over():
            self._start_hand()

    def _resign(self, number: int, d: HandDeal) -> None:
        assert self.state is not None
        move = move_json(number, RESIGN)
        events = apply(self.state, number, RESIGN)
        sig = self.identity.sign_statement(move_statement(self.digest, d.hand, len(d.moves), move))
        self._record(number, move, sig, events, d)
        if d is self.last_deal and not any(isinstance(e, MatchEnded) for e in events):
            self._hand_over(d, None)  # the amended last hand, re-signed

    def _is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _hands_done(self) -> bool:
        return self.doc is not None and bool(self.doc["hands"])

    def _back_to_lobby(self, seat: Seat) -> None:
        """A seat left before the first hand was dealt: free it; the next match gets a new id."""
        if seat.curve is not None:
            self.by_curve.pop(seat.curve, None)
        self.seats[seat.seat] = None
        if self.phase is not Phase.LOBBY:
            self.table = new_table_id()
            self.phase, self.state, self.doc, self.deal = Phase.LOBBY, None, None, None
            self.header_sigs = {}
        self._broadcast_roster()
        if seat.route is not None:
            self._send(seat, "bye", reason="you left the table")

    def snapshot_body(self, viewer: int) -> dict[str, Any]:
        """Everything ``viewer`` (a seat, or VIEWER: a watcher, who holds no tiles) may know now."""
        play: dict[str, Any] | None = None
        state, d = self.state, self.deal
        if self.phase is Phase.PLAY and state is not None and d is not None:
            history = [event_to_json(seat_view(e, viewer)) for e in state.history]
            tiles = [str(t) for t in self.dealt[viewer]] if viewer != VIEWER else []
            play = {"hand": d.hand, "tiles": tiles, "events": history,  # (copies: it is sent later)
                    "moves": list(d.moves), "signatures": [s.hex() for s in d.signatures], "turn": state.turn,
                    "attempts": [x.public_json() for x in d.attempts],
                    "abandoned": list(d.abandoned)}
        doc = None if self.doc is None else {**self.doc, "hands": list(self.doc["hands"])}
        return {"seat": viewer, "roster": self.roster(), "seats": self.players,
                "rules": self.rules_spec, "transcript": doc, "play": play}

    def _send_snapshot(self, seat: Seat) -> None:
        """Everything the seat may know now, then whatever it still owes the deal."""
        d = self.deal
        snapshot = self.snapshot_body(seat.seat)
        parts = split_body(snapshot)  # a long match's transcript outgrows one message
        for part in parts:
            self._send(seat, "snapshot_part", **part)
        if not parts:
            self._send(seat, "snapshot", **snapshot)
        n = seat.seat
        if self.doc is not None:
            self._send_bots(seat)
        if self.phase is Phase.HEADER and n not in self.header_sigs:
            self._send(seat, "match", header=self.header)
        if d is None or self.phase not in ROUND:
            if n in self.escrow_shares and self.phase is Phase.PLAY:
                self._send(seat, "escrow", **self.escrow_shares[n])
            return
        a = d.current
        if n not in a.round.missing():
            return
        if a.round.step is Step.COMMIT:
            self._send(seat, "commit_req", hand=d.hand, attempt=a.ctx.attempt)
        elif a.round.step is Step.ECHO:
            self._send_set(seat)
        elif a.round.step is Step.REVEAL:
            self._send_set(seat)  # a restarted peer reveals only for a set it has checked
            self._send(seat, "reveal_req", hand=d.hand, attempt=a.ctx.attempt)
