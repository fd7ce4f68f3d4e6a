"""The host session's watchers part: a watcher's hello, its admission, what it may send, its
snapshot, its heartbeats.

The watchers themselves (admission rules, the cap, the fan-out, liveness) are
``net/watchers.py``'s; this part is where the host session meets them: it reads the shared table
and queues output through the table's outbox only (theory of operation in watchers.py). Pure.
"""

from __future__ import annotations

from lanomino.net.host.play import Playing
from lanomino.net.host.seating import Pending, Seating
from lanomino.net.host.table import Phase, Table
from lanomino.net.session_base import ProtocolProblem, Sender
from lanomino.net.watchers import DECLINE, FROM_WATCHER, VIEWER, Watcher
from lanomino.net.wire import messages as m
from lanomino.net.wire.schemas import Message, snapshot_parts


class Watching:
    """People following the table without a seat: one part of a HostSession (its state, the
    ``Watchers``, lives on the table: every public message goes to them)."""

    def __init__(self, table: Table, seating: Seating, play: Playing) -> None:
        self.t, self.seating, self.play = table, seating, play

    def hello(self, sender: Sender, body: m.Watch) -> None:
        """A ``watch``: challenge it like a joiner unless the table cannot take it."""
        refuse = self.seating.refuse_join
        if body.curve != sender.curve:
            refuse(sender.route, "bad_key", "the CURVE key in watch is not the connection's key")
            return
        seated = self.seating.seat_of_identity(body.identity)
        if seated is not None and not seated.left:
            refuse(sender.route, "seated", "this key has a seat at this table: join it instead")
            return
        refusal = self.t.watchers.refusal(body.identity)
        if refusal is not None and not self.seating.holds(body.identity):  # (may decline)
            refuse(sender.route, *refusal)
            return
        self.seating.challenge(sender, body.name, body.identity, None, watch=True)

    def admit(self, sender: Sender, pending: Pending, seq: int) -> None:
        """A watcher proved its key (and the passphrase): welcome it, and bring it up to date."""
        t = self.t
        refusal = t.watchers.refusal(pending.identity)  # (the table may have filled meanwhile)
        if refusal is not None and not self.seating.holds(pending.identity):
            self.seating.refuse_join(sender.route, *refusal)
            return
        w = t.watchers.admit(pending.name, pending.identity, sender.curve, sender.route, t.now, seq)
        welcome = m.Welcome(VIEWER, t.players, tuple(t.roster()), t.rules_spec)
        t.out.append(t.watchers.send(w, welcome, t.term, t.now))
        t.broadcast_roster()  # everyone sees one more watching (the watcher its roster)
        if t.phase is not Phase.LOBBY and t.phase is not Phase.MIGRATING:
            self.send_snapshot(w)

    def receive(self, w: Watcher, route: bytes, msg: Message) -> None:
        """A message from an admitted watcher: a ping, a resync or a bye; anything else is
        refused."""
        t = self.t
        if not t.watchers.heard(w, msg.seq, route, t.now):
            self._refuse(w, "replayed", f"seq {msg.seq} was already used", msg.seq)
            return
        if msg.type not in FROM_WATCHER:
            what = "move" if msg.type == "move" else f"send {msg.type}"
            self._refuse(w, "watcher", f"a watcher cannot {what}: it has no seat at this table",
                         msg.seq)
            return
        if isinstance(msg.body, m.Bye):
            if msg.body.reason == DECLINE:
                self.seating.decline(w.identity, w.name)
            t.watchers.drop(w.curve)
            t.broadcast_roster()
        elif msg.type == "resync" and t.watchers.resyncs.ask(w.number, t.now):
            self.send_snapshot(w)  # (else answered once, later: tick)

    def send_snapshot(self, w: Watcher) -> None:
        """The public table as it stands (the match so far, the hand in play without any tile)."""
        t = self.t
        snapshot = self.play.snapshot_body(VIEWER)
        if isinstance(snapshot, m.Error):  # (a locked hand it cannot resend: blind_snapshot.py)
            t.out.append(t.watchers.send(w, snapshot, t.term, t.now))
            return
        parts = snapshot_parts(snapshot)
        for part in parts:
            t.out.append(t.watchers.send(w, part, t.term, t.now))
        if not parts:
            t.out.append(t.watchers.send(w, snapshot, t.term, t.now))
        if t.phase is Phase.HEADER and t.header is not None:  # the header the match begins with
            t.out.append(t.watchers.send(w, m.Match(t.header), t.term, t.now))

    def send_snapshots(self) -> None:
        """Every watcher's snapshot (the watchers that followed a new host, once it resumed)."""
        for w in self.t.watchers:
            self.send_snapshot(w)

    def tick(self, now: float) -> None:
        """Heartbeats to the watchers; a silent one is forgotten (the others see one fewer)."""
        t = self.t
        pings, gone, owed = t.watchers.tick(t.term, now, t.timings)
        t.out += pings
        for w in owed:
            self.send_snapshot(w)
        if gone:
            t.broadcast_roster()

    def _refuse(self, w: Watcher, code: str, detail: str, ref: int) -> None:
        t = self.t
        t.stats[f"refused.{code}"] += 1
        t.events.append(ProtocolProblem(code, detail))
        ref = ref if 0 <= ref < 2**53 else 0
        t.out.append(t.watchers.send(w, m.Error(code, detail[:300], ref), t.term, t.now))
