"""A peer session's part in the fair deal, the hand in play, hand checks and snapshots. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.engine import (
    Draw,
    HandStarted,
    TileDrawn,
)
from lanomino.engine.errors import seat_name
from lanomino.fair.attempt import Echo
from lanomino.fair.commit import (
    DealContext,
    check_own_in_set,
    commit_statement,
    commitment,
    echo_statement,
    set_digest,
    set_statement,
)
from lanomino.fair.own_checks import own_checks
from lanomino.fair.transcript import (
    TranscriptError,
)
from lanomino.net.peer import snapshot
from lanomino.net.peer.state import PeerState, Phase
from lanomino.net.session_base import (
    HandVerified,
    HostCaught,
    MatchOver,
    ObservationChanged,
    SecretMade,
    TranscriptUpdated,
)
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject, check_fields
from lanomino.net.wire.schemas import SCHEMAS, from_fields
from lanomino.net.wire.values import (
    event_from_json,
    events_from_json,
    signatures,
    tiles_from_text,
)


class PeerDealing:
    """The fair deal, the hand in play, the checks of each hand, snapshots: one part of a
    PeerSession, reading and writing the peer's state (``PeerState``)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer

    # ----- the fair deal -----------------------------------------------------------------------

    def _ctx(self, body: m.CommitReq | m.CommitSet | m.RevealReq) -> DealContext:
        return DealContext(self.p.table, body.hand, body.attempt)

    def _logs_before(self, hand: int, asked: str) -> bool:
        """The host may not deal hand ``hand`` before it has sent the log of every hand before it
        (a host that withholds one is lost, as if it had crashed). True when it has."""
        doc = self.p.doc
        if (doc is None or self.p.resync_asked or len(doc["hands"]) >= hand - 1
                or self.p.blind.hand is not None):  # (a locked hand's log: net/peer/blind.py)
            return True
        self.p.caught.append(HostCaught(
            "log-withheld", f"the host dealt hand {hand} without the log of hand {hand - 1}",
            {"check": "log-withheld", "host": self.p.host_seat, "hand": hand, "asked": asked,
             "logs": len(doc["hands"])}, self.p.now))
        self.p._events.append(self.p.caught[-1])
        return False

    def commit_req(self, body: m.CommitReq) -> None:
        if not self._logs_before(body.hand, "commit_req"):
            return
        ctx = self._ctx(body)
        key = (self.p.table.hex(), ctx.hand, ctx.attempt)
        if key not in self.p.secrets:
            self.p.secrets[key] = self.p.secret_source()
            self.p._events.append(SecretMade(key[0], ctx.hand, ctx.attempt, self.p.secrets[key]))
        c = commitment(ctx, self.p.seat, self.p.secrets[key])
        self.p.committed[(ctx.hand, ctx.attempt)] = c
        sig = self.p.identity.sign_statement(commit_statement(self.p.digest, ctx, self.p.seat, c))
        self.p._send(m.Commit(ctx.hand, ctx.attempt, c, sig))

    def commit_set(self, body: m.CommitSet) -> None:
        ctx = self._ctx(body)
        mine = self.p.committed.get((ctx.hand, ctx.attempt))
        if mine is None:
            raise ValueError("a commitment set for a deal this seat did not commit to")
        statement = set_statement(self.p.digest, ctx, self.p.host_seat, list(body.commitments))
        check_own_in_set(statement, self.p.seat, mine)
        if not self.p.ring.verify_statement(self.p.keys[self.p.host_seat], body.signature,
                                            statement):
            raise ValueError("the commitment set is not signed by the host")
        digest = set_digest(statement)
        self.p.echoed[(ctx.hand, ctx.attempt)] = digest
        self.p.set_seats[(ctx.hand, ctx.attempt)] = tuple(s for s, _ in body.commitments)
        sig = self.p.identity.sign_statement(echo_statement(self.p.digest, ctx, self.p.seat,
                                                            digest))
        self.p._send(m.Echo(ctx.hand, ctx.attempt, digest, sig))

    def reveal_req(self, body: m.RevealReq) -> None:
        ctx = self._ctx(body)
        if (ctx.hand, ctx.attempt) not in self.p.echoed:
            raise ValueError("asked to reveal before this seat echoed the commitment set")
        if not self._echoes_agree(ctx, body.echoes):
            return  # no secret goes out: the host showed the seats different sets (or hid that)
        secret = self.p.secrets[(self.p.table.hex(), ctx.hand, ctx.attempt)]
        self.p._send(m.Reveal(ctx.hand, ctx.attempt, secret))

    def _echoes_agree(self, ctx: DealContext, echoes: tuple[Echo, ...]) -> bool:
        """Every seat of the set echoed the very set this seat echoed, each signed by its seat.
        Else the host is caught (``HostCaught``: it may not ask for a secret then)."""
        p, key = self.p, (ctx.hand, ctx.attempt)
        mine, seats = p.echoed[key], p.set_seats.get(key, ())
        problem = None
        if tuple(e.seat for e in echoes) != seats:
            came = ", ".join(str(e.seat + 1) for e in echoes) or "no seat"
            problem = f"the echoes come from seats {came}, not from the seats of the set"
        for e in echoes:
            if problem is not None:
                break
            statement = echo_statement(p.digest, ctx, e.seat, e.set_digest)
            if not 0 <= e.seat < len(p.keys) or not any(
                    p.ring.verify_statement(k, e.signature, statement)
                    for k in p.arrival.keys_of(e.seat)):
                problem = f"{seat_name(e.seat)}'s echo is not signed by it"
            elif e.set_digest != mine:
                problem = f"{seat_name(e.seat)} echoed another commitment set than this seat's"
        if problem is None:
            return True
        p.caught.append(HostCaught("echo", f"hand {ctx.hand}: {problem}", {
            "check": "echo", "host": p.host_seat, "hand": ctx.hand, "attempt": ctx.attempt,
            "set": mine.hex(), "echoes": [e.to_json() for e in echoes]}, p.now))
        p._events.append(p.caught[-1])
        return False

    def escrow(self, body: m.Escrow) -> None:
        self.p.escrow[(body.hand, body.attempt)] = body

    def blame(self, body: m.Blame) -> None:
        """The host refused a seat's badly signed message: kept for the report to a new host."""
        if body.hand not in self.p.blames:
            self.p.blames.clear()  # (only the hand in play's are ever reported)
        kept = self.p.blames.setdefault(body.hand, [])
        if len(kept) < m.MAX_BLAMES:
            kept.append(body)

    def deal(self, body: m.Deal) -> None:
        view = self.p._require_view()
        if not self._logs_before(body.hand, "deal"):
            return
        started = event_from_json(body.events[0] if body.events else None, "events[0]")
        if not isinstance(started, HandStarted):
            raise ValueError("a deal starts with the HandStarted event")
        tiles = self.p.blind.begin(started) or tiles_from_text(body.tiles, "tiles")
        self.p.hand = body.hand
        self.p.dealt[self.p.hand] = tiles
        self.p.moves[self.p.hand] = []
        self.p.move_sigs[self.p.hand] = []
        self.p.heard = {self.p.hand: []}
        self.p.arrival.forget(self.p.hand)
        self.p.attempts[self.p.hand] = list(body.attempts)
        self.p.abandoned[self.p.hand] = list(body.abandoned)
        self.p.dealers[self.p.hand] = self.p.host_seat
        self.p.pending_move = None
        view.start_hand(tiles, started, body.turn)
        self.changed()

    # ----- play ----------------------------------------------------------------------------------

    def update(self, body: m.Update, signer: int | None = None) -> None:
        """A move the host passed on (``signer``: one the lost host signed, which a new host
        passes on to catch this seat up, catch_up.py)."""
        view = self.p._require_view()
        moves = self.p.moves.setdefault(body.hand, [])
        if body.index != len(moves):
            self.ask_resync()
            return
        if not self.p.arrival.check_update(body, signer):
            return  # the host passed on what it may not: the proof is kept (arrival.py)
        self.p.election = None  # (the host we follow moves the hand on: it has resumed)
        self.p.disputes.after_update(body)  # a move the host made for this seat (disputes.py)
        events = events_from_json(body.events)
        if not self.p.blind.update(body.move, body.signature, events):
            return  # a play whose share does not hold (net/peer/blind.py)
        moves.append(body.move)
        self.p.move_sigs.setdefault(body.hand, []).append(body.signature)
        self.p.heard.setdefault(body.hand, []).append(body)
        if self.p.pending_move is not None and body.move.get("seat") == self.p.seat:
            self.p.pending_move = None
        view.apply(events, body.turn)
        self.changed()
        early = self.p.early_log
        if (early is not None and early.entry.get("hand") == body.hand
                and early.entry["moves"] == moves):
            self.p.early_log = None
            self.hand_log(early, later=True)  # the log came first (net/host/play.py): it fits

    def changed(self) -> None:
        view = self.p._require_view()
        if not (self.p.holding and view.phase == "play"):  # (a locked draw shows once it opens)
            self.p._events.append(ObservationChanged(make=view.observation))  # built if looked at
        self.p.progress.seen()
        self.p.disputes.turn_seen()
        self.p.prompt_turn()

    def hand_log(self, body: m.HandLog, later: bool = False) -> None:
        """A hand's log: kept, then checked (``later``: once this input's output has gone, unless
        the match is over; on a LAN the check would otherwise hold up that last move's effects)."""
        doc = self.p.doc
        if doc is None:
            raise ValueError("a hand log before the match began")
        entry, end = self.p.disputes.entry(body.entry), body.end
        number = entry.get("hand")
        if type(number) is not int:
            raise ValueError("a hand log without its hand's number")
        seen, logged = self.p.moves.get(number), entry.get("moves")
        if (seen is not None and isinstance(logged, list) and len(logged) > len(seen)
                and logged[:len(seen)] == seen):
            signatures(entry)  # checked now: a new host may take them from this peer
            self.p.early_log = body  # the move that ended the hand follows it (kept for a new host)
            return
        self.p.early_log = None
        hands = doc["hands"]
        if hands and hands[-1].get("hand") == number:
            hands[-1] = entry
        else:
            hands.append(entry)
        doc["end"] = end

        def check() -> None:
            ok, detail, blamed = self._check_hand(doc, number)
            self.p.verified[number] = ok
            self.p._events.append(HandVerified(number, ok, detail))
            if not ok and blamed in (None, self.p.host_seat):
                self._refuted(number, detail)
            self._transcript_updated(doc)
            if ok and self.p.phase is Phase.OVER and self.p.seat >= 0:  # the match's last log:
                self.p.passing.pass_end(number, [m.HandLog(entry, end)])  # to every member too

        if later and not (isinstance(end, dict) and end.get("finished") is True):
            self.p.owed = check
        else:
            check()

    def settle_early_log(self) -> None:
        """The host went silent after sending a hand's log but before the update of the move that
        ended the hand: take the hand's last moves from the signed log (the view catches up with
        the next snapshot). When the log says the match is over, it is over for this seat too."""
        early, self.p.early_log = self.p.early_log, None
        if early is None:
            return
        number = early.entry["hand"]
        self.p.moves[number] = list(early.entry["moves"])
        self.p.move_sigs[number] = list(signatures(early.entry))
        self.hand_log(early)

    def take_end(self, sender: int, bodies: Sequence[m.Body]) -> None:
        """Member ``sender`` passed on the match's last hand log (net/peer/proof_passing.py): a
        seat still waiting for it takes it as if its host had sent it, with the moves it lacks
        (as ``settle_early_log`` does), once this seat's checks of the hand hold over it; what
        does not hold is the member's doing (dropped), never the host's."""
        p, log = self.p, bodies[0] if len(bodies) == 1 else None
        if not isinstance(log, m.HandLog) or p.doc is None:
            p._problem("malformed", f"{seat_name(sender)} passed on a match's end that is not "
                                    "a hand log")
            return
        entry, hands = p.disputes.entry(log.entry), p.doc["hands"]
        number, logged = entry.get("hand"), entry.get("moves")
        seen = p.moves.get(number) if type(number) is int else None
        if type(number) is not int or seen is None or not isinstance(logged, list) \
                or logged[:len(seen)] != seen or not isinstance(log.end, dict) \
                or log.end.get("finished") is not True:
            p._problem("false_proof", f"{seat_name(sender)} passed on a hand log that does not "
                                      "end this seat's match")
            return
        kept = hands[:-1] if hands and hands[-1].get("hand") == number else hands
        try:
            sigs = list(signatures(entry))
            p.moves[number] = list(logged)  # (its own checks read the moves there)
            ok, detail, _ = self._check_hand({**p.doc, "hands": [*kept, entry], "end": log.end},
                                             number)
        except ValueError as exc:
            ok, detail = False, str(exc)
        if not ok:
            p.moves[number] = seen
            p._problem("false_proof", f"{seat_name(sender)} passed on a last hand log that "
                                      f"does not hold: {detail}")
            return
        p.move_sigs[number], p.early_log = sigs, None
        self.hand_log(log)

    def _transcript_updated(self, doc: JsonObject) -> None:
        """Report the transcript as it stands; when its end says the match is over, so is this
        seat's."""
        end = doc["end"]
        finished = isinstance(end, dict) and end.get("finished") is True
        self.p._events.append(TranscriptUpdated(self.p.table.hex(), doc, finished))
        if finished:
            self.p.go(Phase.OVER)
            self.p._events.append(MatchOver(end.get("winner"), tuple(end.get("scores", ())),
                                            len(doc["hands"]),
                                          self.p.verified_all))

    def _refuted(self, number: int, detail: str) -> None:
        """The host's signed log of hand ``number`` fails this seat's checks, and no other seat
        is to blame: the host is caught (``HostCaught``; the proof is the log it signed, kept in
        the transcript) and left as if it had crashed."""
        p = self.p
        p.stats["caught.hand-check"] += 1
        # a new host deals the hand again: with fresh secrets (these were published), from
        # nothing of this deal (not a hand in play to rebuild)
        for key in [k for k in p.secrets if k[:2] == (p.table.hex(), number)]:
            del p.secrets[key]
        p.attempts.pop(number, None)
        p.caught.append(HostCaught("hand-check", f"hand {number}: {detail}", {
            "check": "hand-check", "host": p.host_seat, "hand": number}, p.now))
        p._events.append(p.caught[-1])

    def _check_hand(self, doc: JsonObject, number: int) -> tuple[bool, str, int | None]:
        """This seat's own checks of a finished hand, then the full verifier: whether it holds,
        in words, and the seat the verifier blames (None: the host, or nobody's seat)."""
        try:
            report = self.p.verifier.check(doc)  # only the new (or amended) hand is checked
            log = self.p.verifier.parsed[-1]  # (the hand as that check parsed it)
        except TranscriptError as exc:
            return False, f"malformed transcript: {exc}", None
        if log.adopted is not None and log.adopted.adopts(self.p.seat):  # the most exact reason
            return False, "the host adopted this seat's key: it would sign for this player", None
        if self.p.seat >= 0:  # this seat's own checks first (a watcher has none)
            table, history = self.p.table.hex(), self.p.view.history if self.p.view else []
            drawn = [e.tile for e in history if isinstance(e, TileDrawn)
                     and e.seat == self.p.seat and e.tile is not None]
            draws = sum(mv.seat == self.p.seat and isinstance(mv.action, Draw) for mv in log.moves)
            own = own_checks(report, log, self.p.seat, dealt=self.p.dealt.get(number),
                             drawn=drawn if len(drawn) == draws else None,  # (this hand's only)
                             moves=self.p.moves.get(number),
                             secrets={a: s for (t, h, a), s in self.p.secrets.items()
                                      if (t, h) == (table, number)})
            if own is not None:
                return False, own, None
        if report.failure is not None:
            return False, report.failure.describe(), report.failure.seat
        if number in self.p.moves and [move.raw for move in log.moves] != self.p.moves[number]:
            return False, "the logged moves are not the moves this seat was sent", None
        return True, report.hands[-1].describe() if report.hands else "no hands", None

    # ----- recovery ----------------------------------------------------------------------------

    def snapshot(self, body: m.Snapshot) -> None:
        """Everything this seat may know now, from the host (``snapshot.py``)."""
        snapshot.take(self, body)

    def snapshot_part(self, body: m.SnapshotPart) -> None:
        """One part of a snapshot too large for a message: the snapshot once all are in."""
        whole = self.p.parts.add(body.part, body.parts, body.data)
        if whole is not None:
            snapshot = from_fields("snapshot", check_fields(whole, SCHEMAS["snapshot"], "snapshot"))
            assert isinstance(snapshot, m.Snapshot)
            self.snapshot(snapshot)

    def ask_resync(self) -> None:
        if not self.p.resync_asked:
            self.p.resync_asked = True
            self.p.resync_due = self.p.now + self.p.timings.answer_s
            self.p._send(m.Resync())
