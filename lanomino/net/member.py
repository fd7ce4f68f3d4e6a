"""A table member's role switch, sans-I/O: the peer it is and the host it may become.

Theory of operation. A member that joined a table is a peer (``PeerSession``). When its election
picks it (``HostChanged(mine=True)``) it becomes a *candidate*: it hosts the table from its
replicated state (``successor_host``) and waits for a majority; once the table resumed it is the
*host*. A candidate that sees a newer term announced goes back to being the peer it was and
follows that host; a host that sees one steps down (its ``HostSession`` says ``SteppedDown``) and
follows it too. A peer in an election follows an announced newer host.

Roles and their transitions::

    PEER --its election picks it--> CANDIDATE --a majority reported--> HOST
    CANDIDATE --a newer term is announced--> PEER (follows it)
    HOST --a newer term (SteppedDown)--> PEER (follows it, watching if its seat has left)

The member decides; the runtime carries its effects out (``take_effects``): connect to a host,
serve on the standby ROUTER, announce or withdraw the table, watch for newer hosts. The node
(``runtime/peer_node.py``) and the in-memory migration tests (``tests/net/migrationkit.py``)
drive this same object.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lanomino.engine import Action, Observation
from lanomino.net.election import entry_of, host_address, newer_host
from lanomino.net.host.session import HostSession, Policy
from lanomino.net.peer.prevotes import Standing
from lanomino.net.peer.session import PeerSession
from lanomino.net.session import successor_host
from lanomino.net.session_base import HostChanged, SessionEvent, SteppedDown
from lanomino.net.wire.messages import RosterEntry


class Role(enum.Enum):
    PEER = "peer"
    CANDIDATE = "candidate"
    HOST = "host"


@dataclass(frozen=True, slots=True)
class Connect:
    """Follow the host of ``term`` at ``seat``: its standby address and CURVE key (None: it left
    none; wait for the next candidate)."""

    term: int
    seat: int
    where: tuple[str, int, str] | None


@dataclass(frozen=True, slots=True)
class Serve:
    """This member hosts the table from now on: serve on the standby ROUTER."""

    term: int


@dataclass(frozen=True, slots=True)
class Announce:
    """Announce the table as its host (or refresh the announcement)."""


@dataclass(frozen=True, slots=True)
class Withdraw:
    """No longer the host: withdraw the table's announcement."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Browse for a newer host of this table (from the first election on)."""


Effect = Connect | Serve | Announce | Withdraw | Watch


class TableMember:
    """One member of a table (see the module docstring)."""

    def __init__(self, peer: PeerSession, *, policy: Policy | None,
                 bot_policy: Callable[[str], Policy] | None = None) -> None:
        self.peer = peer
        self.host: HostSession | None = None
        self.policy, self.bot_policy = policy, bot_policy
        self.watching = False
        self._effects: list[Effect] = []

    # ----- queries ------------------------------------------------------------------------------

    @property
    def role(self) -> Role:
        if self.host is None:
            return Role.PEER
        return Role.CANDIDATE if self.host.never_resumed() else Role.HOST

    @property
    def active(self) -> HostSession | PeerSession:
        return self.host if self.host is not None else self.peer

    def roster(self) -> list[RosterEntry]:
        return self.host.roster() if self.host is not None else self.peer.roster

    def observation(self) -> Observation | None:
        if self.host is not None:
            return self.host.observation()
        obs: Observation | None = self.peer.observation()
        return obs

    def take_effects(self) -> list[Effect]:
        effects, self._effects = self._effects, []
        return effects

    # ----- input ----------------------------------------------------------------------------------

    def submit(self, action: Action, now: float) -> None:
        """This seat moves, through whichever session plays it. Raises IllegalActionError."""
        self.active.submit(action, now)

    def handle_timer(self, now: float) -> None:
        self.active.handle_timer(now)

    def next_deadline(self) -> float | None:
        return self.active.next_deadline()

    def quit(self, now: float, reason: str = "quit") -> None:
        """Leave: as host, hand a running match over (or close the table); as peer, say bye."""
        if self.host is not None:
            self.host.leave("the host quit")
        else:
            self.peer.quit(now, reason)

    def peer_events(self, now: float) -> list[SessionEvent]:
        """The peer session's events, after acting on the role changes they call for."""
        events = self.peer.take_events()
        for event in events:
            if isinstance(event, HostChanged):
                self._host_changed(event, now)
        return events

    def peer_outgoing(self) -> list[dict[str, object]]:
        """What the peer session sends (nothing once this member hosts: its last words are moot)."""
        out = self.peer.take_outgoing()
        return [] if self.host is not None else out

    def host_events(self, now: float) -> list[SessionEvent]:
        """The host session's events up to a ``SteppedDown``, after which this member is a peer
        following the newer host (the rest is moot)."""
        assert self.host is not None
        events = self.host.take_events()
        for n, event in enumerate(events):
            if isinstance(event, SteppedDown):
                self._back_to_peer(event.term, event.host, now)
                return events[:n + 1]
        return events

    def notice_newer(self, announced: Iterable[tuple[str, int]], me: str, now: float) -> bool:
        """Announcements of this table (host peer id, term) seen on the LAN; True when one in a
        newer term changed what this member does."""
        term = self.host.term if self.host is not None else self.peer.term
        peer = self.peer
        if self.host is None and peer.election is not None and not peer.answered:
            # an election that guessed past the host actually serving (its candidate has not
            # answered): any host newer than the lost one is worth following
            term = peer.election.lost_term
        newer = newer_host(announced, self.roster(), term, me)
        if newer is None or (self.host is None and newer == (peer.term, peer.host_seat)):
            return False
        term, seat = newer
        host = self.host
        if host is not None and host.never_resumed():
            host.take_events()  # (what it queued as a candidate is moot)
            host.take_outgoing()
            self._back_to_peer(term, seat, now)
        elif host is not None:
            return host.notice_term(term, seat)
        elif self.peer.election is not None:
            self.peer.follow(term, seat, now)
        else:
            return False
        return True

    def prevote(self, message: Mapping[str, Any], curve: str, now: float) -> None:
        """A member's status (net/peer/prevotes.py) on this member's standby ROUTER, from CURVE
        key ``curve``: a peer acts on it; a host or candidate only answers where it stands (its
        term, and whether it resumed). Never raises."""
        host, peer = self.host, self.peer
        if host is None:
            peer.prevotes.receive(message, curve, now)
            return
        e = peer.election
        if host.never_resumed() and e is not None:
            mine = Standing(host.term, peer.seat, False, e.lost_term, e.lost_host)
        else:
            mine = Standing.live_at(host.term, peer.seat)
        peer.prevotes.receive(message, curve, now, mine)

    # ----- the switch --------------------------------------------------------------------------

    def _host_changed(self, event: HostChanged, now: float) -> None:
        if not self.watching:
            self.watching = True
            self._effects.append(Watch())
        if event.mine:
            self.host = successor_host(self.peer, now, policy=self.policy,
                                       bot_policy=self.bot_policy)
            self._effects += [Serve(event.term), Announce()]
            return
        where = host_address(entry_of(self.peer.roster, event.seat)) if event.curve else None
        self._effects.append(Connect(event.term, event.seat, where))

    def _back_to_peer(self, term: int, seat: int, now: float) -> None:
        """Stop hosting and follow the host of ``term`` as the peer this member was; a snapshot
        brings it up to date (its seat may have left: then it watches)."""
        self.host = None
        self._effects.append(Withdraw())
        self.peer.rejoin(term, seat, now)
