"""The table's sans-I/O sessions: ``HostSession`` and ``PeerSession`` (h11 style).

No sockets, no clock: input through ``receive(...)``, ``submit(action, now)``,
``handle_timer(now)``; output through ``take_outgoing()`` and ``take_events()``; the next time
``handle_timer`` has work from ``next_deadline()``. The node (``lanomino/node.py``) moves bytes
between these and the ZeroMQ transport; tests move them in memory on a fake clock.
"""

from __future__ import annotations

from collections.abc import Callable

from lanomino.blind.hashing import ALGORITHM
from lanomino.net.host.session import HostSession, LocalSeat, Policy
from lanomino.net.host.session import Phase as HostPhase
from lanomino.net.peer.session import PeerSession
from lanomino.net.peer.session import Phase as PeerPhase
from lanomino.net.session_base import (
    Closed,
    HandVerified,
    HostCaught,
    HostChanged,
    HostSilent,
    Joined,
    JoinRefused,
    LostTouch,
    MatchOver,
    MigrationDone,
    MigrationPaused,
    MoveDisputed,
    ObservationChanged,
    Outgoing,
    ProtocolProblem,
    SeatAway,
    SeatDeclined,
    SeatDisconnected,
    SeatLeft,
    SeatTaken,
    SecretMade,
    Sender,
    SessionEvent,
    SteppedDown,
    Timings,
    TranscriptUpdated,
    YourTurn,
)

__all__ = [
    "Closed", "HandVerified", "HostCaught", "HostPhase", "HostSession", "HostSilent", "Joined",
    "JoinRefused",
    "LocalSeat", "LostTouch", "MatchOver", "ObservationChanged", "Outgoing", "PeerPhase",
    "PeerSession", "Policy", "ProtocolProblem", "SeatAway", "SeatDeclined", "SeatDisconnected",
    "SeatLeft", "SeatTaken", "SecretMade", "Sender",
    "SessionEvent", "Timings", "TranscriptUpdated", "YourTurn", "HostChanged", "MigrationDone",
    "MigrationPaused", "MoveDisputed", "SteppedDown", "deals_locked", "rejoin_as_peer",
    "successor_host",
]


def rejoin_as_peer(host: HostSession, now: float, term: int, seat: int) -> PeerSession:
    """What a host that stepped down becomes: a peer of the host of ``term`` at ``seat`` (found in
    its roster), same identity and CURVE key. Its own seat has usually left by then (it was the
    lost host): the new host lets it watch the match to its end. The caller connects it (the
    roster's ``addr`` and ``curve`` say where) and calls ``connect(now)``."""
    entry = next(e for e in host.roster() if e.seat == seat)
    name = host.shared.seat(host.host_seat).name
    peer = PeerSession(host.identity, host.curve, entry.curve or "", name=name,
                       timings=host.timings, secret_source=host.secret_source, term=term)
    peer.now = now
    return peer


def deals_locked(peer: PeerSession) -> bool:
    """The match ``peer`` sits at deals the locked deck (issue 29; False before its header)."""
    return peer.header is not None and peer.header.algorithm == ALGORITHM


def successor_host(peer: PeerSession, now: float, *, policy: Policy | None,
                   timings: Timings | None = None,
                   secret_source: Callable[[], bytes] | None = None,
                   bot_policy: Callable[[str], Policy] | None = None) -> HostSession:
    """The host a peer becomes when an election picks it (its ``HostChanged.mine``): built from the
    peer's replicated state; it waits for a majority of the members, then resumes the table."""
    election = peer.election
    assert election is not None and election.candidate == peer.seat and peer.rules is not None
    host = HostSession(peer.identity, peer.curve, peer.rules, peer.players, name=peer.name,
                       host_policy=policy,
                       # (a lobby reopened after a migration asks newcomers for it)
                       passphrase=peer.passphrase,
                       timings=timings or peer.timings,
                       secret_source=secret_source or peer.secret_source,
                       table_id=peer.table, term=election.term,
                       escrow=bool(peer.escrow) or not peer.dealt,  # (as the table dealt so far)
                       away_policy=bot_policy("normal") if bot_policy is not None else None,
                       watchers=peer.watch_cap,  # (the lost host's limit on watchers)
                       blind=deals_locked(peer))
    host.now = now
    host.adopt(peer, election.term, election.lost_host, bot_policy)
    return host
