"""The log of a locked hand in play after a migration: every member caught up to the longest
log the lost host signed (issue 29). Pure. Used by net/host/locked_takeover.py.

The lost host may die between its updates of one move to two members (or with one member's
queue not yet sent), so the members report logs of different lengths. The new host's seat takes
the entries it lacks from the report of a member ahead of it (``take_longest``: each checked as
its seat would check the lost host's update, net/peer/catch_up.py; a member's copy that fails
changes nothing), then passes a member behind it the entries it lacks (``behind``), before it
sends anything of its own. A member ahead of it by more than its report carries (a new host
whose seat resigned, and holds a key, needs the log only for the draws) is asked for the entries
from this seat's place on (``LogWanted``), and the resume waits for them, ``answer_s`` at most
(``Wanting``): they come in ``catch_up``s, taken in order as a report's are. Two different
entries at one place of the log are a fork: when the lost host signed both (``Fork.holds``), it
showed two logs, and the match ends naming it (the new host's transcript keeps the proof, so
``lanomino verify`` names it too). It cannot go on from the common part: a member that took the
other entry has acted on it in its locked hand (released its share of a draw, shown a tile's
proof), which no new host can undo.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lanomino.engine.errors import seat_name
from lanomino.fair.chain import Fork, genesis, link
from lanomino.net.election import log_reported
from lanomino.net.session_base import HostCaught
from lanomino.net.wire import messages as m
from lanomino.net.wire.catch_up_messages import MAX_CATCH_UP
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import parse_message

if TYPE_CHECKING:
    from lanomino.net.peer.session import PeerSession


def _updates(report: m.Report) -> dict[int, m.Update]:
    """The updates among a report's log entries, by their place in the log."""
    out: dict[int, m.Update] = {}
    for raw in log_reported(report.last):
        try:
            body = parse_message(raw).body
        except ValueError:
            continue
        if isinstance(body, m.Update) and body.hand == report.hand:
            out[body.index] = body
    return out


def fork(peer: PeerSession, reports: Mapping[int, m.Report], lost: int
         ) -> tuple[str, dict[str, Any] | None] | None:
    """Why the match cannot go on when a member's log is not a prefix of this seat's nor this
    seat's of it: the lost host signed both (a fork: with the proof, as a transcript's
    ``evidence`` keeps it, fair/evidence.py), or the member's copy is not what it signed (no
    proof). None: no such member."""
    own, hand = peer.moves.get(peer.hand, []), peer.hand
    for n, report in reports.items():
        theirs = list(report.moves) if report.hand == hand else []
        common = min(len(own), len(theirs))
        at = next((i for i in range(common) if own[i] != theirs[i]), None)
        if at is None:
            continue
        chain = peer.arrival.head(hand)
        mine, other = peer.heard.get(hand, []), _updates(report).get(at)
        if other is not None and at < len(mine) and at < len(chain):
            prev = chain[at - 1] if at else genesis(peer.digest, hand)
            proof = Fork(peer.digest, hand, at, (chain[at], mine[at].head),
                         (link(prev, other.move, other.signature), other.head))
            if proof.holds(peer.ring, peer.keys[lost]):
                return (f"the host ({seat_name(lost)}) signed two different moves {at + 1} of "
                        f"locked hand {peer.blind.number}, one for {seat_name(n)} and another "
                        "for this seat: a fork, which ends the match",
                        {"kind": "fork", "host": lost, **proof.to_json()})
        return (f"the host left locked hand {peer.blind.number} while {seat_name(n)} held a "
                f"log of it that differs from this seat's at move {at + 1}", None)
    return None


def take_longest(peer: PeerSession, reports: Mapping[int, m.Report], lost: int,
                 stats: Counter[str]) -> None:
    """This seat takes, from the reports of members ahead of it (the longest first) or as far
    as it, the entries it lacks (of one as far: a share of the last draw, such as the lost
    host's own that it sent to some members only), checked as they would be on arrival from
    the lost host. A copy that does not hold is dropped (``migration.bad_log``), with anything
    it would have said of the host."""
    hand = peer.hand
    for report in sorted(reports.values(), key=lambda r: -len(r.moves)):
        own = len(peer.moves.get(hand, []))
        if report.hand != hand or len(report.moves) < own:
            continue
        _taken(peer, log_reported(report.last), lost, stats)


def _taken(peer: PeerSession, entries: Sequence[JsonObject], lost: int,
           stats: Counter[str]) -> bool:
    """A member's copy of the lost host's entries, taken by this seat as on arrival from that
    host (False: one did not hold, ``migration.bad_log``); what a failed check would have said
    of the host is dropped: it was the member's doing."""
    caught, said = len(peer.caught), len(peer._events)
    ok = peer.catching.take(entries, lost)
    if not ok:
        stats["migration.bad_log"] += 1
    if len(peer.caught) > caught:
        del peer.caught[caught:]
        peer._events[said:] = [e for e in peer._events[said:] if not isinstance(e, HostCaught)]
    return ok


def behind(peer: PeerSession, reports: Mapping[int, m.Report]
           ) -> tuple[dict[int, list[m.CatchUp]], str | None]:
    """The catch-ups for each member whose log is shorter than this seat's (a prefix of it:
    ``fork`` ran first), ``MAX_CATCH_UP`` moves to a message, in order; or why one cannot be
    caught up (its log is longer than this seat's still, by more moves than its report carries,
    or holds what a new host cannot pass on: ``LogCatchUp.entries``)."""
    hand, own = peer.hand, len(peer.moves.get(peer.hand, []))
    out: dict[int, list[m.CatchUp]] = {}
    for n, report in reports.items():
        held = len(report.moves)
        if report.hand != hand or held == own:
            continue
        parts = [peer.catching.entries(at, min(at + MAX_CATCH_UP, own))
                 for at in range(held, own, MAX_CATCH_UP)] if held < own else [None]
        if any(part is None for part in parts):
            return {}, (f"the host left locked hand {peer.blind.number} while its members held "
                        f"logs of it that a new host cannot bring together ({seat_name(n)} "
                        f"held {held} moves, this seat {own})")
        out[n] = [m.CatchUp(hand, tuple(part)) for part in parts if part is not None]
    return out, None


class Wanting:
    """A new host's wait for the log entries of members ahead of it by more than their
    reports carry (the module docstring): one part of ``LockedTakeover``."""

    def __init__(self, peer: PeerSession, stats: Counter[str]) -> None:
        self.peer, self.stats = peer, stats
        self.due: dict[int, float] = {}  # member seat -> when the entries asked of it are due
        self.asked: set[int] = set()  # (each member is asked once)

    def asks(self, reports: Mapping[int, m.Report], now: float, answer_s: float
             ) -> list[tuple[int, m.LogWanted]]:
        """What to ask whom now: each member ahead of this seat by more than its report
        carries, once, for the entries from this seat's place on."""
        peer = self.peer
        own = len(peer.moves.get(peer.hand, []))
        if peer.blind.hand is None or peer.blind.hand.view is None:
            return []
        out: list[tuple[int, m.LogWanted]] = []
        for n, report in reports.items():
            if report.hand == peer.hand and len(report.moves) > own + MAX_CATCH_UP \
                    and n not in self.asked:
                self.asked.add(n)
                self.due[n] = now + answer_s
                out.append((n, m.LogWanted(peer.hand, own)))
        return out

    def waits(self, reports: Mapping[int, m.Report]) -> bool:
        """A member asked is still ahead by more than its report carries, within its time;
        when none is, nothing is due any more."""
        own = len(self.peer.moves.get(self.peer.hand, []))
        if any(n in reports and len(reports[n].moves) > own + MAX_CATCH_UP for n in self.due):
            return True
        self.due.clear()
        return False

    def expired(self, now: float) -> bool:
        """A member's time ran out: the resume goes on without its entries (True: one did)."""
        late = [n for n, due in self.due.items() if due <= now]
        for n in late:
            del self.due[n]
        return bool(late)

    def take(self, seat: int, body: m.CatchUp, lost: int) -> None:
        """Entries member ``seat`` sent as asked, taken as a report's are (``take_longest``):
        one that does not hold ends the wait for that member, and changes nothing."""
        peer = self.peer
        if seat not in self.due or body.hand != peer.hand:
            self.stats["dropped.unasked_log"] += 1
            return
        if not _taken(peer, body.entries, lost, self.stats):
            del self.due[seat]  # (the resume goes on without the rest)
