"""A member's pre-vote (Raft's PreVote, Ongaro's thesis section 9.6): before it starts a host
election, a member that lost its host asks the others whether they lost it too. Pure.

Theory of operation. A member whose host has been silent for ``liveness_s`` used to follow the
next candidate at once (election.py). A member cut off from the table alone then started a term
that nobody joined: the others still heard the host, which kept its majority, and a member
follows only a newer term than the one it lost, so it never went back and its seat was resigned.
Now it *canvasses* first: it sends every other member, on its standby ROUTER, a signed
``prevote`` saying which host (term, seat) it lost, and keeps its connection to that host, where
its heartbeats still go (ZeroMQ keeps trying the address it had). Each member answers with where
it stands (``Standing``): it hears the host of a term (``live``), or it lost one, and which term
its election has reached. The canvasser

- elects (election.py, unchanged) once a majority of the members, itself included, say they lost
  that same host, starting at the furthest term any of them reached. A host really lost is
  noticed by every member within a heartbeat or so of the others, and each tells the rest as it
  does, so the last of a majority to notice elects at once and tells the others: the real loss
  costs one message between members more than before;
- follows the host of a newer term that a member hears (the table moved on without it);
- otherwise waits for its host, which takes it back on the same connection within its grace
  period (the seat keeps its key and its hand), or tells it that its seat has left.

A canvass ends when the host is heard again (the members it asked are told), or after
``GIVE_UP_GRACES`` grace periods with neither the host nor a majority (``Closed``); a member
saying the host is live keeps it waiting up to a grace period after that news, never more than
twice as long in all. A member still electing tells the others where its election is every
``resend_s``, so a member that notices later (a frozen one woken) joins that election; a status
counts for ``FRESH`` resends after it came. One term still has one candidate and a candidate
still needs a majority to resume: pre-votes only decide when a member starts to elect.

Checked on arrival: the CURVE key of the channel must be a member's, the body says that member's
seat, and the member's identity key signs it (``prevote_statement``: the table, the seat, what it
says); each member gets ``CHECKS`` checks a second at most, and a live member answers one at most
once per ``resend_s``. The standby ROUTER's budget for connections without a seat drops a flood
before it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lanomino.engine.errors import seat_name
from lanomino.net.budget import Bucket, Limit
from lanomino.net.election import GIVE_UP_GRACES, entry_of, majority, members
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.peer.state import Phase
from lanomino.net.session_base import Closed
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.schemas import envelope, parse_message

if TYPE_CHECKING:
    from lanomino.net.peer.elections import PeerElections
    from lanomino.net.peer.state import PeerState

__all__ = ["CHECKS", "FRESH", "PreVotes", "Standing", "prevote_statement"]

FRESH = 3  # a member's status counts for this many resend intervals after it came
CHECKS = Limit(rate_per_s=4.0, burst=8.0)  # signature checks per member


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a member stands on its host: it follows (or is) the host of ``term`` at ``host``,
    which answers (``live``); or it lost the host of ``lost`` at ``lost_host``, and ``term`` is
    where its election is (``lost`` itself while it canvasses)."""

    term: int
    host: int
    live: bool
    lost: int
    lost_host: int

    @classmethod
    def live_at(cls, term: int, host: int) -> Standing:
        return cls(term, host, True, term, host)

    def __post_init__(self) -> None:
        if self.term < self.lost or (self.live and (self.lost, self.lost_host) != (self.term,
                                                                                   self.host)):
            raise ValueError(f"a member cannot stand there: {self!r}")


def prevote_statement(table: bytes, seat: int, standing: Standing, ask: bool) -> dict[str, object]:
    """What a member signs with its identity key when it says where it stands."""
    return {"type": "lanomino.prevote/1", "table": table.hex(), "seat": seat,
            "term": standing.term, "host": standing.host, "live": standing.live,
            "lost": standing.lost, "lost_host": standing.lost_host, "ask": ask}


class PreVotes:
    """A member's canvass and its answers to the others' (module docstring): a part of a
    ``PeerSession``, reading and writing the peer's state."""

    def __init__(self, peer: PeerState, elections: PeerElections) -> None:
        self.p, self.elections = peer, elections
        self.lost: tuple[int, int] | None = None  # the (term, host) canvassed for
        self.began = 0.0
        self.live_news: float | None = None  # when a member last said that host is live
        self.resend_at: float | None = None
        self.heard: dict[int, tuple[Standing, float]] = {}  # member seat -> its last word, when
        self._answered: dict[int, float] = {}
        self._checks: dict[int, Bucket] = {}
        self._out: list[tuple[int, JsonObject]] = []

    @property
    def resend_s(self) -> float:
        return self.p.timings.liveness_s / 2

    def take(self) -> list[tuple[int, JsonObject]]:
        """The statuses to send, each to a member's standby ROUTER (roster address and key)."""
        out, self._out = self._out, []
        return out

    # ----- this member's canvass ---------------------------------------------------------------

    def lose(self, now: float) -> None:
        """The host (or the candidate followed so far) has been silent for the liveness period.
        A candidate that does not answer is passed over at once, and a watcher, which has no
        vote, follows the election as before; a host is canvassed for first."""
        if self.p.election is not None or self.p.watch:
            self.elections.elect(now)
        else:
            self.start(now)

    def start(self, now: float) -> None:
        """The host has been silent for the liveness period: ask the others before electing."""
        p = self.p
        self.lost, self.began, self.live_news = (p.term, p.host_seat), now, None
        p.stats["prevote.canvass"] += 1
        if not self._tally(now):
            self._tell_all(now, ask=True)

    def heard_host(self, now: float) -> None:
        """The host canvassed for spoke again: the canvass is over (the members asked hear so)."""
        if self.lost is not None:
            self.lost = None
            self._tell_all(now, ask=False)

    def deadline(self) -> float | None:
        """When a canvass that got nowhere gives up (None: none is running)."""
        if self.lost is None:
            return None
        grace = self.p.timings.grace_s
        end = self.began + GIVE_UP_GRACES * grace
        if self.live_news is not None:
            end = min(max(end, self.live_news + grace), self.began + 2 * GIVE_UP_GRACES * grace)
        return end

    def due(self) -> float | None:
        times = [t for t in (self.resend_at, self.deadline()) if t is not None]
        return min(times) if times else None

    def check(self, now: float) -> bool:
        """Resend this member's status while it has lost its host; a canvass past its deadline
        gives up and closes the session (True)."""
        p, end = self.p, self.deadline()
        if end is not None and now >= end:
            self.lost, self.resend_at = None, None
            if p.phase is Phase.SEATED:
                p.go(Phase.CLOSED)
                p._events.append(Closed("lost touch with the table: neither the host nor most "
                                        f"of the members answered for {now - self.began:.0f} s"))
                return True
        if self.resend_at is not None and now >= self.resend_at:
            if self.lost is None and p.election is None:
                self.resend_at = None  # (live again: nothing to repeat)
            else:
                self._tell_all(now, ask=self.lost is not None)
        return False

    def standing(self) -> Standing:
        """Where this member stands while it is a peer."""
        p = self.p
        e = p.election
        if e is not None:
            return Standing(p.term, p.host_seat, False, e.lost_term, e.lost_host)
        if self.lost is not None or p.silent:
            return Standing(p.term, p.host_seat, False, p.term, p.host_seat)
        return Standing.live_at(p.term, p.host_seat)

    def _tell_all(self, now: float, ask: bool) -> None:
        p, standing = self.p, self.standing()
        message = self._message(standing, ask)
        for seat in members(p.roster):
            if seat not in (p.seat, standing.lost_host):
                self._out.append((seat, message))
        self.resend_at = now + self.resend_s

    def _message(self, standing: Standing, ask: bool) -> JsonObject:
        p = self.p
        sig = p.identity.sign_statement(prevote_statement(p.table, p.seat, standing, ask))
        return envelope(m.PreVote(p.seat, standing.term, standing.host, standing.live,
                                  standing.lost, standing.lost_host, ask, sig), p.term, 0)

    def _tally(self, now: float) -> bool:
        """Elect when a majority of the members (this one included) lost the host canvassed for
        (True: it elected)."""
        p, lost = self.p, self.lost
        if lost is None:
            return False
        fresh = [s for s, at in self.heard.values() if now - at <= FRESH * self.resend_s
                 and not s.live and (s.lost, s.lost_host) == lost]
        if 1 + len(fresh) < majority(len(members(p.roster))):
            return False
        self.lost = None
        self.elections.elect(now, at=max([lost[0] + 1, *(s.term for s in fresh)]))
        self._tell_all(now, ask=False)  # (each of them elects too, if it has not)
        return True

    # ----- the others' statuses ----------------------------------------------------------------

    def receive(self, message: Mapping[str, Any], curve: str, now: float,
                mine: Standing | None = None) -> None:
        """A member's status on this member's standby ROUTER, from CURVE key ``curve``; ``mine``:
        where this member stands if it hosts (None: it is a peer, and acts on the news). Never
        raises."""
        p = self.p
        p.now = now
        drop = self._drop if mine is None else self._count
        sender = next((e.seat for e in p.roster if e.curve == curve and not e.left
                       and e.kind in ("host", "human")), None)
        if sender is None or sender == p.seat:
            drop("stranger", "a pre-vote from a key that is not a member's")
            return
        bucket = self._checks.setdefault(sender, Bucket.full(CHECKS, now))
        if not bucket.take(now):
            p.stats["dropped.over_budget"] += 1
            return
        news = self._checked(message, sender, drop)
        if news is None:
            return
        self.heard[sender], ask = news
        if ask and now - self._answered.get(sender, -1e9) >= self.resend_s and (
                mine is not None or self.lost is None):  # (a canvasser tells everyone anyway)
            self._answered[sender] = now
            self._out.append((sender, self._message(mine or self.standing(), False)))
        if mine is None:
            self._act(news[0][0], now)

    def _checked(self, message: Mapping[str, Any], sender: int,
                 drop: Callable[[str, str], None]) -> tuple[tuple[Standing, float], bool] | None:
        p = self.p
        try:
            body = parse_message(message).body
            if not isinstance(body, m.PreVote):
                raise RemoteProtocolError(f"a {type(body).__name__} is not a pre-vote")
            standing = Standing(body.term, body.host, body.live, body.lost, body.lost_host)
        except (RemoteProtocolError, ValueError) as exc:
            drop("malformed", f"{seat_name(sender)}'s pre-vote: {exc}")
            return None
        entry = entry_of(p.roster, sender)
        seats = {e.seat for e in p.roster}
        statement = prevote_statement(p.table, body.seat, standing, body.ask)
        if (entry is None or body.seat != sender or not {body.host, body.lost_host} <= seats
                or not p.ring.verify_statement(entry.identity, body.signature, statement)):
            drop("bad_signature", f"a pre-vote that {seat_name(sender)} did not sign")
            return None
        return (standing, p.now), body.ask

    def _drop(self, code: str, detail: str) -> None:
        self.p._problem(code, detail)

    def _count(self, code: str, detail: str) -> None:
        self.p.stats[f"dropped.{code}"] += 1  # (this member hosts: its peer's events wait unread)

    def _act(self, news: Standing, now: float) -> None:
        """What a peer does with a member's status: follow a newer live host, note that its own
        is live, or count the member's loss."""
        p = self.p
        e = p.election
        if self.lost is not None:
            lost = self.lost[0]
        elif e is not None and not p.answered:  # (its candidate has not answered: as
            lost = e.lost_term  # TableMember.notice_newer does for an announced host)
        else:
            return
        if news.live and news.term > lost and news.host != p.seat:
            if (news.term, news.host) != (p.term, p.host_seat):
                self.lost = None
                self.elections.follow(news.term, news.host, now)  # the table moved on without it
            return
        if self.lost is None:
            return
        if news.live and (news.term, news.host) == self.lost:
            self.live_news = now  # its host is alive: it waits for it (module docstring)
            return
        self._tally(now)
