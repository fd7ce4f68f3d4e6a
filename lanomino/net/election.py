"""Host election: who succeeds a lost host, in which term, and what counts as a majority. Pure.

Theory of operation. The roster (replicated to every peer) lists the members: the seats played by
people (the host's and the humans'), not bots, not seats that have left. Succession order is seat
order starting after the lost host, wrapping round. When a peer hears nothing from its host for
``liveness_s``, it follows the first member in that order, in term ``lost term + 1``; if that
candidate does not answer for ``liveness_s`` either, the next one, in ``lost term + 2``, and so on.
Each term thus has exactly one possible candidate, and each peer follows one candidate at a time,
so no term ever has two hosts. A candidate becomes host only once a majority of the members
(itself included) have joined it; a minority waits and never applies a move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from lanomino.fair.identity import peer_id
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire.blind_messages import BlindEnd, BlindReveal
from lanomino.net.wire.catch_up_messages import MAX_ENTRIES
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.messages import RosterEntry
from lanomino.net.wire.schemas import envelope, parse_message

# Elections need three members: with two, the one left can never make a majority (it waits for
# its host, then the host has left under the rules).
MIN_ELECTORATE = 3

# A host cut off from a majority of the members waits this many grace periods for them (they may be
# suspended too, and come back to it), then stops: by then they have gone on without it or left.
# A watcher whose election finds no host that long after the lost one went stops watching.
GIVE_UP_GRACES = 2


def entry_of(roster: Sequence[RosterEntry], seat: int) -> RosterEntry | None:
    """The roster entry of ``seat`` (None: no such seat)."""
    return next((e for e in roster if e.seat == seat), None)


def host_in(roster: Sequence[RosterEntry], known: int) -> int:
    """The seat the roster names as the host (a table that migrated is hosted from another seat;
    ``known``: none is named)."""
    return next((e.seat for e in roster if e.kind == "host"), known)


def host_address(entry: RosterEntry | None) -> tuple[str, int, str] | None:
    """Where a member would host (its standby ROUTER): (IP, port, CURVE key), or None."""
    if entry is None or not entry.addr or not entry.curve:
        return None
    host, port = entry.addr.rsplit(":", 1)
    return host.strip("[]"), int(port), entry.curve


def standby_of(roster: Sequence[RosterEntry], seat: int) -> tuple[str, str, bytes] | None:
    """Where the member at ``seat`` would host the table: ("HOST:PORT", its CURVE key, its
    identity key), from ``roster`` (None: not known)."""
    entry = entry_of(roster, seat)
    where = host_address(entry)
    if entry is None or where is None:
        return None
    return f"{where[0]}:{where[1]}", where[2], entry.identity


class Voter(Protocol):
    """What says whether a seat votes: a roster entry, or the host's own record of the seat."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def left(self) -> bool: ...


def members(roster: Sequence[Voter]) -> list[int]:
    """The seats that vote: people's seats that have not left the table."""
    return [e.seat for e in roster if e.kind in ("host", "human") and not e.left]


def can_migrate(roster: Sequence[Voter]) -> bool:
    """The table has enough members for an election when its host is lost."""
    return len(members(roster)) >= MIN_ELECTORATE


def newer_host(announced: Iterable[tuple[str, int]], roster: Sequence[RosterEntry], term: int,
               me: str) -> tuple[int, int] | None:
    """The newest host of this table that another member announces (``announced``: its peer id
    and term, for announcements under this table's name), as (term, seat), when its term is
    higher than ``term``; None otherwise. ``me`` is this node's own peer id."""
    ids = {peer_id(e.identity): e.seat for e in roster}
    newer = [(t, ids[p]) for p, t in announced if p in ids and p != me and t > term]
    return max(newer) if newer else None


def majority(count: int) -> int:
    """How many of ``count`` members make a majority."""
    return count // 2 + 1


def succession(roster: Sequence[RosterEntry], lost: int) -> list[int]:
    """The members in the order they take over from ``lost`` (which is not among them)."""
    seats = members(roster)
    after = [s for s in seats if s > lost] + [s for s in seats if s < lost]
    return after


# At a locked table a member's report carries, in its ``last`` field, the last hand's points it
# took (``blind_end``), its own reveal at a hand's end (``blind_reveal``), the lost host's reveal
# if it got it (``host_reveal``: the host may die sending it to some members only) and the last
# entries of the hand's log (``log``, net/peer/catch_up.py): all went from or to the lost host,
# and a new host may lack them (net/host/locked_takeover.py).
LAST_END, OWN_REVEAL, HOST_REVEAL, LOG = "blind_end", "blind_reveal", "host_reveal", "log"


def locked_report(end: BlindEnd | None, reveal: BlindReveal | None,
                  log: list[JsonObject] | None = None,
                  host_reveal: BlindReveal | None = None) -> JsonObject | None:
    """A report's ``last`` at a locked table (None: nothing to carry)."""
    last: JsonObject = {key: envelope(body, 0, 1) for key, body in (
        (LAST_END, end), (OWN_REVEAL, reveal), (HOST_REVEAL, host_reveal)) if body is not None}
    if log:
        last[LOG] = log
    return last or None


def log_reported(last: JsonObject | None) -> list[JsonObject]:
    """The log entries in a report's ``last`` (each checked as it is taken: catch_up.py)."""
    raw = last.get(LOG) if last is not None else None
    if not isinstance(raw, list) or len(raw) > MAX_ENTRIES:
        return []
    return [e for e in raw if isinstance(e, dict)]


def _reported(last: JsonObject | None, key: str) -> object:
    raw = last.get(key) if last is not None else None
    if not isinstance(raw, dict):
        return None
    try:
        return parse_message(raw).body
    except RemoteProtocolError:
        return None


def end_reported(last: JsonObject | None) -> BlindEnd | None:
    """The ``blind_end`` in a report's ``last``, parsed and checked as on the wire (None: none,
    or not one)."""
    body = _reported(last, LAST_END)
    return body if isinstance(body, BlindEnd) else None


def reveal_reported(last: JsonObject | None, key: str = OWN_REVEAL) -> BlindReveal | None:
    """The member's own ``blind_reveal`` in a report's ``last`` (``key`` HOST_REVEAL: the lost
    host's), parsed as on the wire."""
    body = _reported(last, key)
    return body if isinstance(body, BlindReveal) else None


@dataclass(frozen=True, slots=True)
class Election:
    """A peer's running election: the lost host and term, and which candidate it follows now."""

    lost_host: int
    lost_term: int
    order: tuple[int, ...]
    tries: int = 0  # candidates given up on so far
    began: float = 0.0  # when the lost host was noticed (a watcher's wait has a deadline)

    @property
    def candidate(self) -> int:
        return self.order[self.tries % len(self.order)]

    @property
    def term(self) -> int:
        return self.lost_term + 1 + self.tries

    def next(self) -> Election:
        """The candidate after this one (this one did not answer)."""
        return Election(self.lost_host, self.lost_term, self.order, self.tries + 1, self.began)
