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

from collections.abc import Callable, Mapping
from typing import Any

from lanomino.engine import (
    Action,
    IllegalActionError,
    Resign,
    Rules,
)
from lanomino.engine.errors import EngineError, seat_name
from lanomino.fair.commit import (
    CommitmentError,
    new_secret,
)
from lanomino.fair.identity import Identity
from lanomino.fair.transcript import (
    TranscriptError,
    header_statement,
    move_json,
    move_statement,
)
from lanomino.net.election import host_in
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.arrival import Seen
from lanomino.net.peer.deal import PeerDealing
from lanomino.net.peer.elections import PeerElections
from lanomino.net.peer.prevotes import PreVotes
from lanomino.net.peer.state import BASELINE, Handler, PeerState, Phase, on
from lanomino.net.session_base import (
    Closed,
    HostSilent,
    Joined,
    JoinRefused,
    SessionEvent,
    Timings,
    join_statement,
    passphrase_key,
    passphrase_proof,
)
from lanomino.net.view import PeerView, view_after
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import parse_message


class PeerSession(PeerState):
    """One peer's end of a table (see the module docstring): the peer's state (``PeerState``)
    and its parts, ``dealing`` and ``elections`` (and ``reshuffle``, the state's)."""

    def __init__(self, identity: Identity, curve: str, host_curve: str, *, name: str,
                 passphrase: str | None = None, timings: Timings | None = None,
                 secrets: Mapping[tuple[str, int, int], bytes] | None = None,
                 secret_source: Callable[[], bytes] = new_secret, term: int = 0,
                 migration: bool = False, watch: bool = False) -> None:
        super().__init__(identity, curve, host_curve, name=name, passphrase=passphrase,
                         timings=timings, secrets=secrets, secret_source=secret_source, term=term,
                         migration=migration, watch=watch)
        # (digest, hand, index, move JSON, signature, seen): a move signed ahead by ``presign``
        self._presigned: tuple[str, int, int, JsonObject, bytes, Seen] | None = None
        self.dealing = d = PeerDealing(self)
        self.catching.update = d.update  # (a locked hand's log caught up: catch_up.py)
        self.passing.fair_end = d.take_end  # (a fair match's last log passed on: deal.py)
        self.elections = PeerElections(self)
        self.prevotes = PreVotes(self, self.elections)
        r = self.reshuffle
        self._handlers: dict[str, Handler] = dict([
            on(m.Challenge, self._challenge), on(m.Refused, self._refused_msg),
            on(m.Welcome, self._welcome), on(m.Roster, self._roster), on(m.Match, self._match),
            on(m.Begin, self._begin), on(m.CommitReq, d.commit_req),
            on(m.CommitSet, d.commit_set), on(m.RevealReq, d.reveal_req), on(m.Escrow, d.escrow),
            on(m.Deal, d.deal), on(m.Update, d.update), on(m.HandLog, d.hand_log),
            on(m.Blame, d.blame),
            on(m.Snapshot, d.snapshot), on(m.SnapshotPart, d.snapshot_part),
            on(m.Error, self._error), on(m.Bye, self._bye_or_handover), on(m.Ping, self._ping),
            on(m.Bots, self.elections.bots), on(m.ReshuffleCommitReq, r.commit_req),
            on(m.ReshuffleSet, r.set), on(m.ReshuffleRevealReq, r.reveal_req),
            on(m.Disputed, self.disputes.disputed), on(m.CatchUp, self.catching.catch_up),
            on(m.LogWanted, self.catching.wanted),
        ])
        self._handlers.update(self.blind.handlers())  # the locked deck (net/peer/blind.py)

    # ----- elections (elections.py) ------------------------------------------------------------

    def can_elect(self) -> bool:
        """This seat is at the table: losing the host starts an election."""
        return self.elections.can_elect()

    def elect(self, now: float) -> None:
        """The host (or the candidate followed so far) is gone: follow the next candidate."""
        self.elections.elect(now)

    def rejoin(self, term: int, seat: int, now: float) -> None:
        """Follow the host of ``term`` at ``seat`` after this node hosted."""
        self.elections.rejoin(term, seat, now)

    def follow(self, term: int, seat: int, now: float) -> None:
        """Join the host of ``term`` at ``seat``."""
        self.elections.follow(term, seat, now)

    def report(self) -> m.Report:
        """What this peer holds of the hand in play, for a new host (the ``report`` body)."""
        return self.elections.report()

    # ----- the sans-I/O interface ------------------------------------------------------------

    def connect(self, now: float) -> None:
        """Start (or restart, on a new connection) the join handshake."""
        self.now = self.last_heard = now
        if self.seat < 0 and not self.joined:
            self.go(Phase.CONNECTING)
        self._hello()

    def take_outgoing(self) -> list[JsonObject]:
        out, self._out = self._out, []
        return out

    def take_events(self) -> list[SessionEvent]:
        events, self._events = self._events, []
        return events

    def next_deadline(self) -> float | None:
        if self.owed is not None:
            return self.now  # (settle)
        if self.phase in (Phase.CLOSED, Phase.OVER):
            return None
        times = [self.last_sent + self.timings.heartbeat_s]
        if self.resync_due is not None:
            times.append(self.resync_due)
        if not self.silent:
            times.append(self.last_heard + self.timings.liveness_s)
        times += [due for due in (self.progress.due(), self.prevotes.due()) if due is not None]
        return min(times)

    def handle_timer(self, now: float) -> None:
        self.settle(now)
        if self.phase in (Phase.CLOSED, Phase.OVER):
            return
        if len(self.caught) > self.voted_out and self.phase is Phase.SEATED:
            self.elections.vote_out(now)  # a hand's log checked late (settle) caught the host
            return
        if not self.silent and now - self.last_heard >= self.timings.liveness_s:
            self.silent = True
            self._events.append(HostSilent(self.last_heard))
            self.dealing.settle_early_log()  # the update it waited for will not come now
            if self.can_elect():
                self.prevotes.lose(now)  # (a lost host: the members are asked first)
                return
        if self.prevotes.check(now):
            return
        if self.phase is Phase.SEATED and self.progress.check(now):
            self.elections.vote_out(now)  # a host past a deadline is lost, as if it had crashed
            return
        if self.resync_due is not None and now >= self.resync_due:
            self._resync_unanswered(now)
            return
        if (self.silent and self.election is None and not self.can_elect()
                and self.phase is Phase.SEATED and now - self.last_heard >= self.timings.grace_s):
            self.elections.host_left()
            return
        if self.phase in (Phase.CONNECTING,
                          Phase.CHALLENGED) and now - self.last_heard >= self.timings.grace_s:
            self.go(Phase.CLOSED)  # the host went away in the middle of letting this peer in
            self._events.append(Closed("no answer from the host"))
            return
        if now - self.last_sent >= self.timings.heartbeat_s:
            if self.welcomed:
                self._send(m.Ping())
            else:
                self.last_sent = now  # (no ping before the welcome, _hello: the next beat then)

    def _resync_unanswered(self, now: float) -> None:
        """The host let the snapshot this peer asked for go past its deadline: ask again (the
        host answers a seat that asks too often once, later; a host that stops talking
        altogether is judged by the liveness and grace rules)."""
        self.resync_due, self.resync_asked = None, False
        self._problem("no_answer", "the host did not answer a resync in time")
        self.dealing.ask_resync()

    def submit(self, action: Action, now: float, away: bool = False) -> None:
        """Send this seat's move. Raises IllegalActionError when it may not be made now."""
        self.settle(now)
        view = self.view
        if self.watch:
            raise IllegalActionError("a watcher cannot move: it has no seat at this table")
        if view is None or self.phase is not Phase.SEATED or view.phase != "play":
            raise IllegalActionError("no hand is in play")
        if self.pending_move is not None or self.holding:  # (holding: a locked draw's tile)
            raise IllegalActionError("the last move has not been confirmed yet")
        if not isinstance(action, Resign):
            if view.turn != self.seat:
                raise IllegalActionError(f"it is {seat_name(view.turn)}'s turn")
            if action not in view.observation().legal:
                raise IllegalActionError(f"{action} is not a legal move now")
        move = move_json(self.seat, action)
        if away:  # (a locked table's: its own bot moves for it, and the seat signs that)
            move["away"] = True
        index = len(self.moves.setdefault(self.hand, []))
        pre, self._presigned = self._presigned, None
        if pre is not None and pre[:4] == (self.digest, self.hand, index, move):
            sig, seen = pre[4], pre[5]
        else:
            sig = self.identity.sign_statement(move_statement(self.digest, self.hand, index, move))
            seen = self.arrival.seen(self.hand, index)
        self.blind.before_play(index, action, away)  # a locked deck's share goes first
        self.pending_move = index
        self.progress.move_sent = now
        self.disputes.moved()
        self.held.mine = m.Move(self.hand, index, move, sig, *seen, away)
        self._send(self.held.mine)
        self.move_seq = self.my_seq

    def back(self, now: float) -> None:
        """The player is back at a seat the table's bot took over (the move clock ran out): the
        host stops playing it, and at a locked table so does this seat's own client, at once (a
        turn that comes before the host has heard it is the player's: table_bot.py). A move sent
        by ``submit`` says the same."""
        self.now = now
        if self.phase is Phase.SEATED:
            self.disputes.moved()
            self.table_bot.said_back = True
            self._send(m.Back())

    def presign(self, action: Action) -> None:
        """Sign ``action`` as this seat's next move ahead of ``submit`` (an interactive client can
        call this while the player's selection rests on a move; the Ed25519 signature then costs
        nothing when the player confirms). Sends nothing and changes nothing else; a ``submit`` of
        another move, or at another point of the hand, signs afresh."""
        if self.view is None or self.phase is not Phase.SEATED or self.view.phase != "play":
            return
        move = move_json(self.seat, action)
        index = len(self.moves.get(self.hand, []))
        sig = self.identity.sign_statement(move_statement(self.digest, self.hand, index, move))
        self._presigned = (self.digest, self.hand, index, move, sig,
                           self.arrival.seen(self.hand, index))

    def quit(self, now: float, reason: str = "quit") -> None:
        """Leave the table: the host resigns this seat at once."""
        self.now = now
        if self.phase not in (Phase.CLOSED,):
            self._send(m.Bye(reason[:300]))
        self.go(Phase.CLOSED)

    def receive(self, message: Mapping[str, Any], now: float) -> None:
        """One decoded message from the host. Never raises for anything the host sends."""
        self.settle(now)
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
            if (msg.seq > self.host_seq + 1 and self.phase is Phase.SEATED
                    and not msg.type.startswith("snapshot")):
                self.dealing.ask_resync()
            self.host_seq = msg.seq
        self.term = msg.term
        self.last_heard = now
        self.silent, self.answered = False, True
        self.prevotes.heard_host(now)
        handler = self._handlers.get(msg.type)
        if handler is None:
            self._problem("wrong_direction", f"{msg.type} is not for a peer")
            return
        try:
            handler(msg.body)
        except (RemoteProtocolError, CommitmentError, EngineError, TranscriptError,
                ValueError) as exc:
            self._problem("refused", f"{msg.type}: {exc}")
        self.table_bot.after(msg.body, self.submit)  # (a locked table's seat out of time)
        if len(self.caught) > self.voted_out:
            self.elections.vote_out(now)

    # ----- joining -----------------------------------------------------------------------------

    def _challenge(self, body: m.Challenge) -> None:
        if self.phase is Phase.CLOSED:
            return
        self.table = body.table
        nonce = body.nonce
        statement = join_statement(nonce, self.table, self.host_curve, self.curve)
        proof = None
        if body.passphrase:
            if self.passphrase is None:
                self._refused("passphrase", "this table needs a passphrase (use --passphrase)")
                return
            key = passphrase_key(self.passphrase, body.host)
            proof = passphrase_proof(key, nonce, self.host_curve, self.curve,
                                     self.identity.public_key)
        if self.seat < 0 and not self.joined:
            self.go(Phase.CHALLENGED)
        self._send(m.Auth(self.identity.sign_statement(statement), proof))

    def _refused_msg(self, body: m.Refused) -> None:
        self._refused(body.code, body.reason)

    def _refused(self, code: str, reason: str) -> None:
        self.go(Phase.CLOSED)
        self._events.append(JoinRefused(code, reason))
        self._events.append(Closed(reason))

    @property
    def joined(self) -> bool:
        """A watcher that was let in (its seat stays -1: it has none)."""
        return self.watch and self.phase in (Phase.SEATED, Phase.OVER)

    def _welcome(self, body: m.Welcome) -> None:
        if (body.seat < 0) != self.watch:
            raise ValueError("a watcher's welcome has no seat, a player's has one")
        self.seat, self.players, self.roster = body.seat, body.seats, list(body.roster)
        self.welcomed = True
        self.host_seat = host_in(self.roster, self.host_seat)
        self.rules = Rules.from_spec(body.rules)
        if self.phase is not Phase.OVER:
            self.go(Phase.SEATED)
        self.resync_asked, self.resync_due = False, None
        self._events.append(Joined(self.seat, self.players))
        # a new host (or, for a restarted peer, a host of a later term): say what this seat holds
        if not self.watch and (self.election is not None or self.term > 0):
            self._send(self.report())

    def _bye_or_handover(self, body: m.Bye) -> None:
        if body.handover and self.can_elect():
            self.elect(self.now)  # the host leaves on purpose: the next in line takes over at once
            return
        self._bye(body)

    def _roster(self, body: m.Roster) -> None:
        self.roster = list(body.roster)
        self.watching, self.watch_cap = body.watching, body.watch_cap
        clock = body.move_clock_ms
        self.move_clock_s = None if clock is None else clock / 1000
        self.host_seat = host_in(self.roster, self.host_seat)
        self.disputes.roster_seen()

    def _match(self, body: m.Match) -> None:
        header = body.header
        if not self.watch:  # (a watcher signs nothing: it only keeps the header to check hands)
            if (len(header.keys) != self.players
                    or header.keys[self.seat] != self.identity.public_key):
                raise ValueError("the match header does not list this seat's key")
            if Rules.from_spec(header.rules) != self.rules:
                raise ValueError("the match header's rules are not the table's")
        self.header, self.keys, self.digest = header, list(header.keys), header.digest()
        self.table = header.table
        self.doc, self.view = None, None
        if self.watch:
            return
        self.committed, self.echoed = {}, {}
        sig = self.identity.sign_statement(header_statement(self.digest, self.seat))
        self._send(m.Agree(sig))

    def _begin(self, body: m.Begin) -> None:
        sigs = body.signatures
        if self.header is None or len(sigs) != self.players:
            raise ValueError("begin before the header, or with the wrong number of signatures")
        for seat, sig in enumerate(sigs):
            statement = header_statement(self.digest, seat)
            if not self.ring.verify_statement(self.keys[seat], sig, statement):
                raise ValueError(f"{seat_name(seat)}'s header signature does not verify")
        assert self.rules is not None
        self.doc = {**self.header.to_json(), "header_signatures": [s.hex() for s in sigs],
                    "hands": [], "end": None}
        self.view = PeerView(self.rules, self.players, self.seat)


__all__ = ["PeerSession", "Phase", "view_after"]
