"""A peer session's part in the fair deal, the hand in play, hand checks and snapshots. Pure."""

from __future__ import annotations

from typing import Any

from lanomino.engine import (
    GameState,
    HandStarted,
    Rules,
)
from lanomino.engine.observe import public_events
from lanomino.fair.commit import (
    DealContext,
    check_own_in_set,
    commit_statement,
    commitment,
    echo_statement,
    set_digest,
    set_statement,
)
from lanomino.fair.replay import state_after
from lanomino.fair.transcript import (
    TranscriptError,
    parse_transcript,
)
from lanomino.net.peer_base import PeerBase, Phase
from lanomino.net.session_base import (
    HandVerified,
    MatchOver,
    ObservationChanged,
    SecretMade,
    TranscriptUpdated,
    YourTurn,
)
from lanomino.net.view import PeerView
from lanomino.net.wire.checks import check_fields
from lanomino.net.wire.schemas import SCHEMAS
from lanomino.net.wire.values import event_from_json, events_from_json, tiles_from_text


class PeerDeal(PeerBase):
    """The fair deal, play, verification, snapshots (see peer_session.py)."""

    # ----- the fair deal -----------------------------------------------------------------------

    def _ctx(self, body: dict[str, Any]) -> DealContext:
        return DealContext(self.table, body["hand"], body["attempt"])

    def _commit_req(self, body: dict[str, Any]) -> None:
        ctx = self._ctx(body)
        key = (self.table.hex(), ctx.hand, ctx.attempt)
        if key not in self.secrets:
            self.secrets[key] = self.secret_source()
            self._events.append(SecretMade(key[0], ctx.hand, ctx.attempt, self.secrets[key]))
        c = commitment(ctx, self.seat, self.secrets[key])
        self.committed[(ctx.hand, ctx.attempt)] = c
        sig = self.identity.sign_statement(commit_statement(self.digest, ctx, self.seat, c))
        self._send("commit", hand=ctx.hand, attempt=ctx.attempt, commitment=c.hex(), signature=sig.hex())

    def _commit_set(self, body: dict[str, Any]) -> None:
        ctx = self._ctx(body)
        mine = self.committed.get((ctx.hand, ctx.attempt))
        if mine is None:
            raise ValueError("a commitment set for a deal this seat did not commit to")
        statement = set_statement(self.digest, ctx, self.host_seat, body["commitments"])
        check_own_in_set(statement, self.seat, mine)
        if not self.ring.verify_statement(self.keys[self.host_seat], body["signature"], statement):
            raise ValueError("the commitment set is not signed by the host")
        digest = set_digest(statement)
        self.echoed[(ctx.hand, ctx.attempt)] = digest
        sig = self.identity.sign_statement(echo_statement(self.digest, ctx, self.seat, digest))
        self._send("echo", hand=ctx.hand, attempt=ctx.attempt, set=digest.hex(), signature=sig.hex())

    def _reveal_req(self, body: dict[str, Any]) -> None:
        ctx = self._ctx(body)
        if (ctx.hand, ctx.attempt) not in self.echoed:
            raise ValueError("asked to reveal before this seat echoed the commitment set")
        secret = self.secrets[(self.table.hex(), ctx.hand, ctx.attempt)]
        self._send("reveal", hand=ctx.hand, attempt=ctx.attempt, secret=secret.hex())

    def _escrow(self, body: dict[str, Any]) -> None:
        self.escrow[(body["hand"], body["attempt"])] = body

    def _deal(self, body: dict[str, Any]) -> None:
        view = self._require_view()
        tiles = tiles_from_text(body["tiles"], "tiles")
        started = event_from_json(body["events"][0] if body["events"] else None, "events[0]")
        if not isinstance(started, HandStarted):
            raise ValueError("a deal starts with the HandStarted event")
        self.hand = body["hand"]
        self.dealt[self.hand] = tiles
        self.moves[self.hand] = []
        self.move_sigs[self.hand] = []
        self.attempts[self.hand] = body["attempts"]
        self.abandoned[self.hand] = body["abandoned"]
        self.pending_move = None
        view.start_hand(tiles, started, body["turn"])
        self._changed()

    # ----- play ----------------------------------------------------------------------------------

    def _update(self, body: dict[str, Any]) -> None:
        view = self._require_view()
        moves = self.moves.setdefault(body["hand"], [])
        if body["index"] != len(moves):
            self._ask_resync()
            return
        events = events_from_json(body["events"])
        moves.append(body["move"])
        self.move_sigs.setdefault(body["hand"], []).append(body["signature"].hex())
        if self.pending_move is not None and body["move"].get("seat") == self.seat:
            self.pending_move = None
        view.apply(events, body["turn"])
        self._changed()
        early = self.early_log
        if early is not None and early["entry"].get("hand") == body["hand"] and early["entry"]["moves"] == moves:
            self.early_log = None
            self._hand_log(early)  # the log came first (see HostPlay._hand_over): now it fits

    def _changed(self) -> None:
        view = self._require_view()
        self._events.append(ObservationChanged(make=view.observation))  # built if someone looks
        if view.phase == "play" and view.turn == self.seat and self.pending_move is None and self.phase is Phase.SEATED:
            self._events.append(YourTurn(view.observation()))

    def _hand_log(self, body: dict[str, Any]) -> None:
        doc = self.doc
        if doc is None:
            raise ValueError("a hand log before the match began")
        entry, end = body["entry"], body["end"]
        number = entry.get("hand")
        seen, logged = self.moves.get(number), entry.get("moves")
        if seen is not None and isinstance(logged, list) and len(logged) > len(seen) and logged[:len(seen)] == seen:
            self.early_log = body  # the move that ended the hand follows it (kept for a new host)
            return
        self.early_log = None
        hands = doc["hands"]
        if hands and hands[-1].get("hand") == number:
            hands[-1] = entry
        else:
            hands.append(entry)
        doc["end"] = end
        ok, detail = self._check_hand(doc, number)
        self.verified[number] = ok
        self._events.append(HandVerified(number, ok, detail))
        self._transcript_updated(doc)

    def _settle_early_log(self) -> None:
        """The host went silent after sending a hand's log but before the update of the move that
        ended the hand: take the hand's last moves from the signed log (the view catches up with
        the next snapshot). When the log says the match is over, it is over for this seat too."""
        early, self.early_log = self.early_log, None
        if early is None:
            return
        number = early["entry"]["hand"]
        self.moves[number] = list(early["entry"]["moves"])
        self.move_sigs[number] = list(early["entry"]["move_signatures"])
        self._hand_log(early)

    def _transcript_updated(self, doc: dict[str, Any]) -> None:
        """Report the transcript as it stands; when its end says the match is over, so is this seat's."""
        end = doc["end"]
        finished = isinstance(end, dict) and end.get("finished") is True
        self._events.append(TranscriptUpdated(self.table.hex(), doc, finished))
        if finished:
            self.phase = Phase.OVER
            self._events.append(MatchOver(end.get("winner"), tuple(end.get("scores", ())), len(doc["hands"]),
                                          self.verified_all))

    def _check_hand(self, doc: dict[str, Any], number: Any) -> tuple[bool, str]:
        """This seat's own checks of a finished hand, then the full verifier."""
        try:
            report = self.verifier.check(doc)  # only the new (or amended) hand is checked
        except TranscriptError as exc:
            return False, f"malformed transcript: {exc}"
        entry = doc["hands"][-1]
        adopted = entry.get("adopted")  # checked first: the most exact reason this seat can give
        if isinstance(adopted, dict) and any(k[0] == self.seat for k in adopted.get("keys", [])):
            return False, "the host adopted this seat's key: it would sign for this player"
        if report.failure is not None:
            return False, report.failure.describe()
        if number in self.moves and entry["moves"] != self.moves[number]:
            return False, "the logged moves are not the moves this seat was sent"
        if number in self.dealt and self.seat >= 0:  # (a watcher was dealt nothing)
            derived = report.deals[-1][-1].hands[self.seat]
            if sorted(derived, key=str) != sorted(self.dealt[number], key=str):
                return False, "the committed shuffle does not give this seat the tiles it was dealt"
        for attempt in entry["deals"]:
            mine = self.secrets.get((self.table.hex(), number, attempt["attempt"]))
            seats = [c["seat"] for c in attempt["commitments"]]
            if (mine is not None and self.seat in seats and attempt["secrets"]  # none: a re-shuffled hand
                    and attempt["secrets"][seats.index(self.seat)] != mine.hex()):
                return False, "the published secret of this seat is not the one it revealed"
        return True, report.hands[-1].describe() if report.hands else "no hands"

    # ----- recovery ----------------------------------------------------------------------------

    def _snapshot(self, body: dict[str, Any]) -> None:
        self.seat, self.players, self.roster = body["seat"], body["seats"], body["roster"]
        self.rules = Rules.from_spec(body["rules"])
        self.resync_asked, self.resync_due = False, None
        self.pending_move = None
        self.election = None  # a snapshot from the host we follow: any election is over
        self.early_log = None  # the snapshot's transcript says it all
        doc = body["transcript"]
        if doc is None:
            return
        transcript = parse_transcript({**doc, "end": doc["end"]})
        self.header = {k: doc[k] for k in ("format", "algorithm", "table", "rules", "players", "keys")}
        self.digest, self.keys = transcript.header_digest, list(transcript.keys)
        self.table = transcript.table
        self.doc = doc
        report = self.verifier.check(doc)
        ok = report.ok
        self.view = view_after(state_after(transcript, self.rules, report), self.rules, self.seat)
        for hand in transcript.hands:
            self.verified.setdefault(hand.hand, ok)
        for entry in doc["hands"]:  # hands that ended while this seat was away (or its host changed)
            seen, logged = self.moves.get(entry["hand"]), entry["moves"]
            if seen is None or seen == logged:
                continue
            if logged[:len(seen)] != seen:  # the log is not what this seat was sent: that stays a failure
                self.verified[entry["hand"]] = False
                self._problem("log_mismatch", f"hand {entry['hand']}: the logged moves are not the ones sent")
                continue
            self.moves[entry["hand"]] = list(logged)  # the moves it missed, from the signed log
            self.move_sigs[entry["hand"]] = list(entry["move_signatures"])
        play = body["play"]
        if play is None:
            self._events.append(ObservationChanged(self.view.observation()))
            end = doc["end"]
            if isinstance(end, dict) and end.get("finished") is True and self.phase is not Phase.OVER:
                self._transcript_updated(doc)  # e.g. a watcher that came back as the match ended
            return
        self.hand = play["hand"]
        self.dealt[self.hand] = tiles_from_text(play["tiles"], "play.tiles")
        events = events_from_json(play["events"], "play.events")
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("a snapshot's hand starts with HandStarted")
        self.view.start_hand(self.dealt[self.hand], events[0], play["turn"])
        self.view.apply(events[1:], play["turn"])
        self.moves[self.hand] = list(play["moves"])
        self.move_sigs[self.hand] = [str(s) for s in play.get("signatures", [])]
        self.attempts[self.hand] = list(play.get("attempts", []))
        self.abandoned[self.hand] = list(play.get("abandoned", []))
        self._changed()

    def _snapshot_part(self, body: dict[str, Any]) -> None:
        """One part of a snapshot too large for a message: the snapshot once all are in."""
        whole = self.parts.add(body["part"], body["parts"], body["data"])
        if whole is not None:
            self._snapshot(check_fields(whole, SCHEMAS["snapshot"], "snapshot"))

    def _ask_resync(self) -> None:
        if not self.resync_asked:
            self.resync_asked = True
            self.resync_due = self.now + self.timings.answer_s
            self._send("resync")



def view_after(state: GameState, rules: Rules, seat: int) -> PeerView:
    """A seat's view after the finished hands whose engine state is ``state`` (all of it public)."""
    view = PeerView(rules, state.players, seat)
    view.scores, view.active = list(state.scores), list(state.active)
    view.phase, view.hand_no, view.dealt_hands = state.phase.value, state.hand_no, state.dealt_hands
    view.results, view.outcome = list(state.results), state.outcome
    view.last_opener, view.last_winner_seat = state.last_opener, state.last_winner_seat
    view.hand_points = list(state.hand_points)
    view.history = public_events(state.history, seat)
    view.turn, view.opener = state.turn, state.opener
    view.changed()
    return view
