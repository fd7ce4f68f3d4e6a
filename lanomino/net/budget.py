"""What a connection may make the host do: token buckets per connection and per seat. Pure.

A host reads every frame that arrives (a ZeroMQ ROUTER cannot refuse one connection), so the
cheapest answer to a flood is to drop what is over budget before any work is done on it: before
the JSON is parsed, a signature checked or an answer built. ``Budgets`` keeps one token bucket
per connection; a connection without a seat gets a small one (joining takes two messages), a
seated peer a larger one (pings, moves and the deal's round are a few messages a second).
Buckets are kept for at most ``max_connections`` connections (the least recently heard ones are
forgotten first), so an attacker opening connections cannot grow the host's memory.

Some answers cost far more than their request: a ``resync`` is a few dozen bytes and its
snapshot can be hundreds of kilobytes. ``Deferrals`` gives each seat a budget for those; a request
over it is not dropped (the peer waits for its answer and does not ask twice) but answered once,
when the budget allows again (``due``), however many requests came in meanwhile.

``now`` is always a parameter (monotonic seconds): nothing here reads a clock.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

__all__ = ["Bucket", "Budgets", "Deferrals", "Limit", "SEATED", "UNSEATED", "RESYNC", "WATCHING",
           "Standing"]


@dataclass(frozen=True, slots=True)
class Limit:
    """A sustained ``rate_per_s`` with bursts of up to ``burst`` (both in units of work)."""

    rate_per_s: float
    burst: float

    def __post_init__(self) -> None:
        if not self.rate_per_s > 0 or not self.burst >= 1:
            raise ValueError(f"a limit needs a rate > 0 and a burst >= 1, not {self}")

    @property
    def refill_s(self) -> float:
        """How long one unit takes to come back."""
        return 1.0 / self.rate_per_s


# Joining is hello then auth: a burst of 4 lets a joiner retry once; 2 a second after that.
UNSEATED = Limit(rate_per_s=2.0, burst=4.0)
# A seated person sends a few messages a second (pings, a move, the deal's round), but a
# computer player with no delay (`lanomino bot` by default) plays hands back to back: a 2-seat
# table of two such bots sent over 40 a second and stalled once its moves were dropped (nothing
# resends a dropped move). 400 a second is far above any honest peer, and a flood over it is
# still dropped before parsing.
SEATED = Limit(rate_per_s=400.0, burst=800.0)
# A watcher sends pings (4 a second at the default heartbeat), now and then a resync, one bye:
# a little more than joining, far less than a seat.
WATCHING = Limit(rate_per_s=8.0, burst=16.0)
# A snapshot can be hundreds of kilobytes: two at once, then one every 5 s.
RESYNC = Limit(rate_per_s=0.2, burst=2.0)
MAX_CONNECTIONS = 1024
# What the host knows of a connection's key: True (it has a seat), False (none yet), or
# "watching" (an admitted watcher, net/watchers.py).
Standing = bool | str


@dataclass(slots=True)
class Bucket:
    """One token bucket, full when made."""

    limit: Limit
    tokens: float
    stamp: float

    @classmethod
    def full(cls, limit: Limit, now: float) -> Bucket:
        return cls(limit, limit.burst, now)

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            gained = (now - self.stamp) * self.limit.rate_per_s
            self.tokens = min(self.limit.burst, self.tokens + gained)
            self.stamp = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` if the bucket holds it; False (nothing spent) otherwise."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def ready_at(self, now: float, cost: float = 1.0) -> float:
        """When ``take(cost)`` would first succeed (``now`` if it would now)."""
        self._refill(now)
        missing = cost - self.tokens
        if missing <= 0:
            return now
        # (later than ``now`` even when what is missing is a rounding error: then ``take`` fails)
        return max(now + missing / self.limit.rate_per_s, math.nextafter(now, math.inf))


class Budgets:
    """Per-connection message budgets for a host (see the module docstring)."""

    def __init__(self, unseated: Limit = UNSEATED, seated: Limit = SEATED,
                 max_connections: int = MAX_CONNECTIONS, watching: Limit = WATCHING) -> None:
        if max_connections < 1:
            raise ValueError("max_connections must be at least 1")
        self.unseated, self.seated, self.max_connections = unseated, seated, max_connections
        self.watching = watching
        self._buckets: OrderedDict[Hashable, Bucket] = OrderedDict()
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._buckets)

    def admit(self, connection: Hashable, seated: Standing, now: float) -> bool:
        """Whether one more message from ``connection`` is within its budget (spending it)."""
        if seated == "watching":
            limit = self.watching
        else:
            limit = self.seated if seated is True else self.unseated
        bucket = self._buckets.get(connection)
        if bucket is None or bucket.limit is not limit:  # new, or it took a seat (or left one)
            bucket = Bucket.full(limit, now)
            self._buckets[connection] = bucket
            if len(self._buckets) > self.max_connections:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(connection)
        if bucket.take(now):
            return True
        self.dropped += 1
        return False


class Deferrals:
    """Per-seat budgets for requests with an expensive answer: the excess is answered once, late."""

    def __init__(self, limit: Limit = RESYNC) -> None:
        self.limit = limit
        self._buckets: dict[int, Bucket] = {}
        self._owed: set[int] = set()
        self.deferred = 0

    def ask(self, seat: int, now: float) -> bool:
        """A request from ``seat``: True to answer it now; False when it is owed for later."""
        if seat in self._owed:
            self.deferred += 1
            return False  # one answer is already owed: it will hold everything new by then
        bucket = self._buckets.setdefault(seat, Bucket.full(self.limit, now))
        if bucket.take(now):
            return True
        self._owed.add(seat)
        self.deferred += 1
        return False

    def next_due(self, now: float) -> float | None:
        """When the earliest owed answer may go out."""
        times = [self._buckets[s].ready_at(now) for s in self._owed]
        return min(times) if times else None

    def due(self, now: float) -> list[int]:
        """The seats whose owed answer may go out now (each is spent and no longer owed)."""
        ready = sorted(s for s in self._owed if self._buckets[s].take(now))
        self._owed.difference_update(ready)
        return ready

    def forget(self, seat: int) -> None:
        """The seat left: nothing is owed to it any more."""
        self._owed.discard(seat)
