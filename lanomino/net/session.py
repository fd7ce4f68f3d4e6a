"""The table's sans-I/O sessions: ``HostSession`` and ``PeerSession`` (h11 style).

No sockets, no clock: input through ``receive(...)``, ``submit(action, now)``,
``handle_timer(now)``; output through ``take_outgoing()`` and ``take_events()``; the next time
``handle_timer`` has work from ``next_deadline()``. The node (``lanomino/node.py``) moves bytes
between these and the ZeroMQ transport; tests move them in memory on a fake clock.
"""

from __future__ import annotations

from lanomino.net.host_session import HostSession, LocalSeat, Policy, successor_host
from lanomino.net.host_session import Phase as HostPhase
from lanomino.net.peer_session import PeerSession
from lanomino.net.peer_session import Phase as PeerPhase
from lanomino.net.session_base import (
    Closed,
    HandVerified,
    HostChanged,
    HostSilent,
    Joined,
    JoinRefused,
    LostTouch,
    MatchOver,
    MigrationDone,
    MigrationPaused,
    ObservationChanged,
    Outgoing,
    ProtocolProblem,
    SeatAway,
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
    "Closed", "HandVerified", "HostPhase", "HostSession", "HostSilent", "Joined", "JoinRefused",
    "LocalSeat", "LostTouch", "MatchOver", "ObservationChanged", "Outgoing", "PeerPhase", "PeerSession", "Policy",
    "ProtocolProblem", "SeatAway", "SeatDisconnected", "SeatLeft", "SeatTaken", "SecretMade", "Sender",
    "SessionEvent", "Timings", "TranscriptUpdated", "YourTurn", "HostChanged", "MigrationDone",
    "MigrationPaused", "SteppedDown", "rejoin_as_peer", "successor_host",
]


def rejoin_as_peer(host: HostSession, now: float, term: int, seat: int) -> PeerSession:
    """What a host that stepped down becomes: a peer of the host of ``term`` at ``seat`` (found in
    its roster), same identity and CURVE key. Its own seat has usually left by then (it was the
    lost host): the new host lets it watch the match to its end. The caller connects it (the
    roster's ``addr`` and ``curve`` say where) and calls ``connect(now)``."""
    entry = next(e for e in host.roster() if e["seat"] == seat)
    peer = PeerSession(host.identity, host.curve, entry["curve"] or "", name=host._seat(host.host_seat).name,
                       timings=host.timings, secret_source=host.secret_source, term=term)
    peer.now = now
    return peer

