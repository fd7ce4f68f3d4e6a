"""The people who watch a table: admission, the cap, the public fan-out, liveness. Pure.

Theory of operation. A watcher connects like a joiner but says ``watch`` instead of ``hello``;
it gets the same challenge, signs the same join statement and, at a table with a passphrase,
proves it knows it. Admitted, it has no seat: it is not in the roster, so it never counts for
seats, the majority or an election (election.py reads the roster only), and the host refuses
anything from it but ``ping``, ``resync`` and ``bye``. A player whose seat a rematch keeps says no
this way: admitted as a watcher (even where watching is off or full), it says ``bye`` with the
reason ``DECLINE``, and the host frees the seat.

What a watcher is sent is public, by construction: the host hands this part only bodies built
for ``VIEWER`` (-1), a viewer every seat is "another seat" to: the roster, the match header and
its signatures, each deal's ``HandStarted`` with no tiles (``must_lead`` hidden too), every
update with every drawn tile hidden, the hand logs (the reveal: they are published to the whole
table once a hand is over) and snapshots of the same kind. A watcher checks each hand's log with
the verifier like a player and keeps the transcript.

A table takes at most ``cap`` watchers (0: none). A watcher silent for ``grace_s`` is forgotten
(it may come back: it is admitted again if there is room). ``now`` is always a parameter.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lanomino.net.budget import Deferrals
from lanomino.net.session_base import Outgoing, Timings
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import MAX_WATCHERS, JsonObject
from lanomino.net.wire.schemas import to_body, wrap

__all__ = ["DECLINE", "DEFAULT_CAP", "VIEWER", "Watcher", "Watchers", "FROM_WATCHER"]

DEFAULT_CAP = 8
VIEWER = -1  # the seat a watcher views the table from: every hand is another seat's
FROM_WATCHER = frozenset({"ping", "resync", "bye"})  # all a watcher may send once admitted
DECLINE = "declined the rematch"  # the bye by which a player gives up the seat a rematch keeps


@dataclass(slots=True)
class Watcher:
    """An admitted watcher, as the host tracks it."""

    name: str
    identity: bytes
    curve: str
    route: bytes
    last_heard: float
    in_seq: int
    number: int  # its key in the snapshot budget (``resyncs``)
    out_seq: int = 0
    last_sent: float = 0.0


class Watchers:
    """A table's watchers (see the module docstring)."""

    def __init__(self, cap: int = DEFAULT_CAP) -> None:
        if not 0 <= cap <= MAX_WATCHERS:
            raise ValueError(f"a table takes 0 to {MAX_WATCHERS} watchers, not {cap}")
        self.cap = cap
        self._by_curve: dict[str, Watcher] = {}
        self._made = 0
        self.resyncs = Deferrals()  # a snapshot costs far more than its request (budget.py)

    def __len__(self) -> int:
        return len(self._by_curve)

    def __iter__(self) -> Iterator[Watcher]:
        return iter(list(self._by_curve.values()))

    def get(self, curve: str) -> Watcher | None:
        return self._by_curve.get(curve)

    def refusal(self, identity: bytes) -> tuple[str, str] | None:
        """Why a watcher with ``identity`` may not be let in now (code, reason), or None."""
        if self.cap == 0:
            return "no_watchers", "this table does not take watchers"
        back = any(w.identity == identity for w in self._by_curve.values())
        if not back and len(self._by_curve) >= self.cap:
            return "watchers_full", f"this table already has {self.cap} watching (its limit)"
        return None

    def admit(self, name: str, identity: bytes, curve: str, route: bytes, now: float,
              seq: int) -> Watcher:
        """Let a watcher in (one that was in already, on another connection, is replaced)."""
        for old in [w for w in self._by_curve.values() if w.identity == identity]:
            del self._by_curve[old.curve]
        self._made += 1
        watcher = Watcher(name, identity, curve, route, now, seq, self._made)
        self._by_curve[curve] = watcher
        return watcher

    def drop(self, curve: str) -> bool:
        """Forget a watcher (it said bye, or went silent); True when there was one."""
        gone = self._by_curve.pop(curve, None)
        if gone is not None:
            self.resyncs.forget(gone.number)
        return gone is not None

    def heard(self, watcher: Watcher, seq: int, route: bytes, now: float) -> bool:
        """A message from ``watcher``: False when its seq was used already (a replay)."""
        if seq <= watcher.in_seq:
            return False
        watcher.in_seq, watcher.route, watcher.last_heard = seq, route, now
        return True

    # ----- sending ---------------------------------------------------------------------------

    def send(self, to: Watcher, body: m.Body, term: int, now: float) -> Outgoing:
        """One message to one watcher, on its own seq."""
        return self._send(to, body.TYPE, to_body(body), term, now)

    def publish(self, body: m.Body, term: int, now: float) -> list[Outgoing]:
        """The same public message to every watcher (its body encoded once for all)."""
        wire = to_body(body) if self._by_curve else {}
        return [self._send(w, body.TYPE, wire, term, now) for w in self]

    def _send(self, to: Watcher, type_: str, wire: JsonObject, term: int, now: float) -> Outgoing:
        to.out_seq += 1
        to.last_sent = now
        return Outgoing(to.route, wrap(type_, wire, term, to.out_seq))

    # ----- time ------------------------------------------------------------------------------

    def tick(self, term: int, now: float,
             timings: Timings) -> tuple[list[Outgoing], bool, list[Watcher]]:
        """Ping the watchers nothing was sent to for a heartbeat and forget the silent ones;
        returns the pings, whether anyone was forgotten and whose owed snapshot may go now."""
        owed = set(self.resyncs.due(now))
        due = [w for w in self if w.number in owed]
        out: list[Outgoing] = []
        gone = False
        for w in self:
            if now - w.last_heard >= timings.grace_s:
                gone = self.drop(w.curve) or gone
            elif now - w.last_sent >= timings.heartbeat_s:
                out.append(self.send(w, m.Ping(), term, now))
        return out, gone, due

    def next_deadline(self, now: float, timings: Timings) -> float | None:
        times = [t for w in self for t in (w.last_sent + timings.heartbeat_s,
                                            w.last_heard + timings.grace_s)]
        owed = self.resyncs.next_due(now)
        if owed is not None:
            times.append(owed)
        return min(times) if times else None
