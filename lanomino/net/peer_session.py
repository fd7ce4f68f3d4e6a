"""A peer's session: join, take part in the fair deal, follow the hand, verify it. Sans-I/O.

Theory of operation. ``connect(now)`` queues the hello; every message from the host goes into
``receive(message, now)``; the seat's moves go into ``submit(action, now)``; ``handle_timer(now)``
sends heartbeats and notices a silent host. Output: ``take_outgoing()`` (wire objects for the
host) and ``take_events()``. The peer never sees another seat's tiles before the hand ends: it
gets its own tiles and the public events, and keeps a ``PeerView`` that gives the same
``Observation`` the host's engine would.

Phases::

    CONNECTING --challenge--> CHALLENGED --welcome--> SEATED --hand_log(finished)--> OVER
    any --refused / bye--> CLOSED

The fair deal from this side: to ``commit_req`` it answers with a signed commitment to a fresh
secret (one per deal, reported as ``SecretMade`` so a restarted peer can reveal it); to the
host's signed ``commit_set`` it checks its own commitment is in it and the host's signature, then
echoes the set's digest; it reveals only for a set it echoed. When a hand ends the host sends the
hand's transcript entry; the peer checks its own secret, its own dealt tiles and the moves it saw,
then runs the full verifier on the transcript so far, and reports ``HandVerified``.

Host messages carry a per-peer ``seq``: an old one is dropped, a gap asks for a snapshot.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from lanomino.engine import (
    Action,
    GameState,
    HandStarted,
    IllegalActionError,
    Resign,
    Rules,
    apply,
    new_game,
    start_hand,
)
from lanomino.engine.errors import EngineError
from lanomino.engine.observe import public_events
from lanomino.fair.commit import (
    CommitmentError,
    DealContext,
    check_own_in_set,
    commit_statement,
    commitment,
    echo_statement,
    new_secret,
    set_digest,
    set_statement,
)
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.shuffle import derive_deal
from lanomino.fair.transcript import (
    TranscriptError,
    header_digest,
    header_statement,
    move_json,
    move_statement,
    parse_transcript,
)
from lanomino.fair.verify import verify_transcript
from lanomino.net.codec import PROTOCOL_VERSION
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.messages import event_from_json, events_from_json, parse_message, tiles_from_text
from lanomino.net.session_base import (
    Closed,
    HandVerified,
    HostSilent,
    Joined,
    JoinRefused,
    MatchOver,
    ObservationChanged,
    ProtocolProblem,
    SecretMade,
    SessionEvent,
    Stats,
    Timings,
    TranscriptUpdated,
    YourTurn,
    join_statement,
    passphrase_key,
    passphrase_proof,
)
from lanomino.net.view import PeerView

BASELINE = frozenset({"challenge", "refused", "welcome"})  # these restart the host's seq


class Phase(enum.Enum):
    CONNECTING = "connecting"
    CHALLENGED = "challenged"
    SEATED = "seated"
    OVER = "over"
    CLOSED = "closed"


class PeerSession:
    """One peer's end of a table (see the module docstring)."""

    def __init__(self, identity: Identity, curve: str, host_curve: str, *, name: str,
                 passphrase: str | None = None, timings: Timings | None = None,
                 secrets: Mapping[tuple[str, int, int], bytes] | None = None,
                 secret_source: Any = new_secret) -> None:
        self.identity, self.curve, self.host_curve, self.name = identity, curve, host_curve, name
        self.passphrase = passphrase
        self.timings = timings or Timings()
        self.secrets: dict[tuple[str, int, int], bytes] = dict(secrets or {})
        self.secret_source = secret_source
        self.stats = Stats()
        self.ring = KeyRing()
        self.phase = Phase.CONNECTING
        self.term = 0
        self.host_seq = 0
        self.my_seq = 0
        self.seat = -1
        self.players = 0
        self.roster: list[dict[str, Any]] = []
        self.rules: Rules | None = None
        self.table = b""
        self.header: dict[str, Any] = {}
        self.digest = ""
        self.keys: list[bytes] = []
        self.doc: dict[str, Any] | None = None
        self.view: PeerView | None = None
        self.hand = 0  # the transcript hand in play (or last played)
        self.dealt: dict[int, tuple[Any, ...]] = {}
        self.moves: dict[int, list[dict[str, Any]]] = {}
        self.committed: dict[tuple[int, int], bytes] = {}
        self.echoed: dict[tuple[int, int], bytes] = {}
        self.escrow: dict[tuple[int, int], dict[str, Any]] = {}
        self.verified: dict[int, bool] = {}
        self.pending_move: int | None = None
        self.resync_asked = False
        self.last_heard = 0.0
        self.last_sent = 0.0
        self.silent = False
        self.now = 0.0
        self._out: list[dict[str, Any]] = []
        self._events: list[SessionEvent] = []

    # ----- the sans-I/O interface ------------------------------------------------------------

    def connect(self, now: float) -> None:
        """Start (or restart, on a new connection) the join handshake."""
        self.now = self.last_heard = now
        self.phase = Phase.CONNECTING if self.seat < 0 else self.phase
        self._send("hello", name=self.name, identity=self.identity.public_key.hex(), curve=self.curve)

    def take_outgoing(self) -> list[dict[str, Any]]:
        out, self._out = self._out, []
        return out

    def take_events(self) -> list[SessionEvent]:
        events, self._events = self._events, []
        return events

    def next_deadline(self) -> float | None:
        if self.phase in (Phase.CLOSED, Phase.OVER):
            return None
        times = [self.last_sent + self.timings.heartbeat_s]
        if not self.silent:
            times.append(self.last_heard + self.timings.liveness_s)
        return min(times)

    def handle_timer(self, now: float) -> None:
        self.now = now
        if self.phase in (Phase.CLOSED, Phase.OVER):
            return
        if not self.silent and now - self.last_heard >= self.timings.liveness_s:
            self.silent = True
            self._events.append(HostSilent(self.last_heard))
        if now - self.last_sent >= self.timings.heartbeat_s and self.phase is not Phase.CONNECTING:
            self._send("ping")

    @property
    def verified_all(self) -> bool:
        """Every hand so far checked out (False before the first hand)."""
        return bool(self.verified) and all(self.verified.values())

    def observation(self) -> Any:
        return None if self.view is None else self.view.observation()

    def submit(self, action: Action, now: float) -> None:
        """Send this seat's move. Raises IllegalActionError when it may not be made now."""
        self.now = now
        view = self.view
        if view is None or self.phase is not Phase.SEATED or view.phase != "play":
            raise IllegalActionError("no hand is in play")
        if self.pending_move is not None:
            raise IllegalActionError("the last move has not been confirmed yet")
        if not isinstance(action, Resign):
            if view.turn != self.seat:
                raise IllegalActionError(f"it is seat {view.turn}'s turn")
            if action not in view.observation().legal:
                raise IllegalActionError(f"{action} is not a legal move now")
        move = move_json(self.seat, action)
        index = len(self.moves.setdefault(self.hand, []))
        sig = self.identity.sign_statement(move_statement(self.digest, self.hand, index, move))
        self.pending_move = index
        self._send("move", hand=self.hand, index=index, move=move, signature=sig.hex())

    def quit(self, now: float, reason: str = "quit") -> None:
        """Leave the table: the host resigns this seat at once."""
        self.now = now
        if self.phase not in (Phase.CLOSED,):
            self._send("bye", reason=reason[:300])
        self.phase = Phase.CLOSED

    def receive(self, message: Mapping[str, Any], now: float) -> None:
        """One decoded message from the host. Never raises for anything the host sends."""
        self.now = now
        try:
            msg = parse_message(message)
        except RemoteProtocolError as exc:
            self._problem("malformed", str(exc))
            return
        if msg.term < self.term:
            self._problem("stale_term", f"a message from term {msg.term}")
            return
        if msg.type in BASELINE:
            self.host_seq = msg.seq
        elif msg.seq <= self.host_seq:
            self._problem("replayed", f"host seq {msg.seq} again")
            return
        else:
            if msg.seq > self.host_seq + 1 and self.phase is Phase.SEATED and msg.type != "snapshot":
                self._ask_resync()
            self.host_seq = msg.seq
        self.term = msg.term
        self.last_heard = now
        self.silent = False
        handler = self._handlers.get(msg.type)
        if handler is None:
            self._problem("wrong_direction", f"{msg.type} is not for a peer")
            return
        try:
            handler(self, msg.body)
        except (RemoteProtocolError, CommitmentError, EngineError, TranscriptError, ValueError) as exc:
            self._problem("refused", f"{msg.type}: {exc}")

    # ----- joining -----------------------------------------------------------------------------

    def _challenge(self, body: dict[str, Any]) -> None:
        if self.phase is Phase.CLOSED:
            return
        self.table = body["table"]
        nonce = body["nonce"]
        statement = join_statement(nonce, self.table, self.host_curve, self.curve)
        proof = None
        if body["passphrase"]:
            if self.passphrase is None:
                self._refused("passphrase", "this table needs a passphrase (use --passphrase)")
                return
            key = passphrase_key(self.passphrase, body["host"])
            proof = passphrase_proof(key, nonce, self.host_curve, self.curve, self.identity.public_key).hex()
        self.phase = Phase.CHALLENGED if self.seat < 0 else self.phase
        self._send("auth", signature=self.identity.sign_statement(statement).hex(), proof=proof)

    def _refused_msg(self, body: dict[str, Any]) -> None:
        self._refused(body["code"], body["reason"])

    def _refused(self, code: str, reason: str) -> None:
        self.phase = Phase.CLOSED
        self._events.append(JoinRefused(code, reason))
        self._events.append(Closed(reason))

    def _welcome(self, body: dict[str, Any]) -> None:
        self.seat, self.players, self.roster = body["seat"], body["seats"], body["roster"]
        self.rules = Rules.from_spec(body["rules"])
        if self.phase is not Phase.OVER:
            self.phase = Phase.SEATED
        self.resync_asked = False
        self._events.append(Joined(self.seat, self.players))

    def _roster(self, body: dict[str, Any]) -> None:
        self.roster = body["roster"]

    def _match(self, body: dict[str, Any]) -> None:
        header = body["header"]
        keys = [bytes.fromhex(k) for k in header.get("keys", []) if isinstance(k, str)]
        if len(keys) != self.players or keys[self.seat] != self.identity.public_key:
            raise ValueError("the match header does not list this seat's key")
        if Rules.from_spec(header.get("rules", {})) != self.rules:
            raise ValueError("the match header's rules are not the table's")
        self.header, self.keys, self.digest = header, keys, header_digest(header)
        self.table = bytes.fromhex(header["table"])
        self.doc, self.view = None, None
        self.committed, self.echoed = {}, {}
        sig = self.identity.sign_statement(header_statement(self.digest, self.seat))
        self._send("agree", signature=sig.hex())

    def _begin(self, body: dict[str, Any]) -> None:
        sigs = body["signatures"]
        if not self.header or len(sigs) != self.players:
            raise ValueError("begin before the header, or with the wrong number of signatures")
        for seat, sig in enumerate(sigs):
            if not self.ring.verify_statement(self.keys[seat], sig, header_statement(self.digest, seat)):
                raise ValueError(f"seat {seat}'s header signature does not verify")
        assert self.rules is not None
        self.doc = {**self.header, "header_signatures": [s.hex() for s in sigs], "hands": [], "end": None}
        self.view = PeerView(self.rules, self.players, self.seat)

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
        statement = set_statement(self.digest, ctx, 0, body["commitments"])
        check_own_in_set(statement, self.seat, mine)
        if not self.ring.verify_statement(self.keys[0], body["signature"], statement):
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
        if self.pending_move is not None and body["move"].get("seat") == self.seat:
            self.pending_move = None
        view.apply(events, body["turn"])
        self._changed()

    def _changed(self) -> None:
        view = self._require_view()
        obs = view.observation()
        self._events.append(ObservationChanged(obs))
        if obs.is_my_turn and self.pending_move is None and self.phase is Phase.SEATED:
            self._events.append(YourTurn(obs))

    def _hand_log(self, body: dict[str, Any]) -> None:
        doc = self.doc
        if doc is None:
            raise ValueError("a hand log before the match began")
        entry, end = body["entry"], body["end"]
        number = entry.get("hand")
        hands = doc["hands"]
        if hands and hands[-1].get("hand") == number:
            hands[-1] = entry
        else:
            hands.append(entry)
        doc["end"] = end
        ok, detail = self._check_hand(doc, number)
        self.verified[number] = ok
        self._events.append(HandVerified(number, ok, detail))
        finished = end.get("finished") is True
        self._events.append(TranscriptUpdated(self.table.hex(), doc, finished))
        if finished:
            self.phase = Phase.OVER
            scores = tuple(end.get("scores", ()))
            self._events.append(MatchOver(end.get("winner"), scores, len(hands), self.verified_all))

    def _check_hand(self, doc: dict[str, Any], number: Any) -> tuple[bool, str]:
        """This seat's own checks of a finished hand, then the full verifier."""
        try:
            report = verify_transcript(doc)
        except TranscriptError as exc:
            return False, f"malformed transcript: {exc}"
        if report.failure is not None:
            return False, report.failure.describe()
        entry = doc["hands"][-1]
        if number in self.moves and entry["moves"] != self.moves[number]:
            return False, "the logged moves are not the moves this seat was sent"
        if number in self.dealt:
            derived = report.deals[-1][-1].hands[self.seat]
            if sorted(derived, key=str) != sorted(self.dealt[number], key=str):
                return False, "the committed shuffle does not give this seat the tiles it was dealt"
        for attempt in entry["deals"]:
            mine = self.secrets.get((self.table.hex(), number, attempt["attempt"]))
            seats = [c["seat"] for c in attempt["commitments"]]
            if mine is not None and self.seat in seats and attempt["secrets"][seats.index(self.seat)] != mine.hex():
                return False, "the published secret of this seat is not the one it revealed"
        return True, report.hands[-1].describe() if report.hands else "no hands"

    # ----- recovery ----------------------------------------------------------------------------

    def _snapshot(self, body: dict[str, Any]) -> None:
        self.seat, self.players, self.roster = body["seat"], body["seats"], body["roster"]
        self.rules = Rules.from_spec(body["rules"])
        self.resync_asked = False
        self.pending_move = None
        doc = body["transcript"]
        if doc is None:
            return
        transcript = parse_transcript({**doc, "end": doc["end"]})
        self.header = {k: doc[k] for k in ("format", "algorithm", "table", "rules", "players", "keys")}
        self.digest, self.keys = transcript.header_digest, list(transcript.keys)
        self.table = transcript.table
        self.doc = doc
        self.view = view_after(transcript, self.rules, self.seat)
        ok = verify_transcript(doc).ok
        for hand in transcript.hands:
            self.verified.setdefault(hand.hand, ok)
        play = body["play"]
        if play is None:
            self._events.append(ObservationChanged(self.view.observation()))
            return
        self.hand = play["hand"]
        self.dealt[self.hand] = tiles_from_text(play["tiles"], "play.tiles")
        events = events_from_json(play["events"], "play.events")
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("a snapshot's hand starts with HandStarted")
        self.view.start_hand(self.dealt[self.hand], events[0], play["turn"])
        self.view.apply(events[1:], play["turn"])
        self.moves[self.hand] = list(play["moves"])
        self._changed()

    def _ask_resync(self) -> None:
        if not self.resync_asked:
            self.resync_asked = True
            self._send("resync")

    # ----- small things --------------------------------------------------------------------------

    def _error(self, body: dict[str, Any]) -> None:
        if body["code"] in ("illegal", "out_of_turn", "stale", "bad_signature"):
            self.pending_move = None
        self._events.append(ProtocolProblem(body["code"], body["message"], self.seat))

    def _bye(self, body: dict[str, Any]) -> None:
        if self.phase is not Phase.OVER:
            self.phase = Phase.CLOSED
        self._events.append(Closed(body["reason"]))

    def _ping(self, body: dict[str, Any]) -> None:
        pass

    def _require_view(self) -> PeerView:
        if self.view is None:
            raise ValueError("no match has begun")
        return self.view

    def _problem(self, code: str, detail: str) -> None:
        self.stats[f"dropped.{code}"] += 1
        self._events.append(ProtocolProblem(code, detail, self.seat if self.seat >= 0 else None))

    def _send(self, type_: str, **body: Any) -> None:
        self.my_seq += 1
        self.last_sent = self.now
        self._out.append({"v": PROTOCOL_VERSION, "type": type_, "term": self.term, "seq": self.my_seq,
                          "body": body})

    _handlers = {
        "challenge": _challenge, "refused": _refused_msg, "welcome": _welcome, "roster": _roster,
        "match": _match, "begin": _begin, "commit_req": _commit_req, "commit_set": _commit_set,
        "reveal_req": _reveal_req, "escrow": _escrow, "deal": _deal, "update": _update,
        "hand_log": _hand_log, "snapshot": _snapshot, "error": _error, "bye": _bye, "ping": _ping,
    }


def view_after(transcript: Any, rules: Rules, seat: int) -> PeerView:
    """A seat's view after the finished hands of a transcript (everything in it is public)."""
    state: GameState = new_game(rules, len(transcript.players))
    view = PeerView(rules, state.players, seat)
    for hand in transcript.hands:
        for attempt in hand.deals:
            ctx = DealContext(transcript.table, hand.hand, attempt.attempt)
            opened = list(zip([c.seat for c in attempt.commitments], attempt.secrets, strict=True))
            _, hands, boneyard = derive_deal(ctx, opened, rules, state.active)
            events = start_hand(state, hands, boneyard)
            view.history = list(events)
        for move in hand.moves:
            apply(state, move.seat, move.action)
    view.scores, view.active = list(state.scores), list(state.active)
    view.phase, view.hand_no, view.dealt_hands = state.phase.value, state.hand_no, state.dealt_hands
    view.results, view.outcome = list(state.results), state.outcome
    view.last_opener, view.last_winner_seat = state.last_opener, state.last_winner_seat
    view.hand_points = list(state.hand_points)
    view.history = public_events(state.history, seat)
    view.turn, view.opener = state.turn, state.opener
    return view
