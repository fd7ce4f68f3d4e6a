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
    MatchOver,
    MigrationDone,
    MigrationPaused,
    ObservationChanged,
    Outgoing,
    ProtocolProblem,
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
    "LocalSeat", "MatchOver", "ObservationChanged", "Outgoing", "PeerPhase", "PeerSession", "Policy",
    "ProtocolProblem", "SeatDisconnected", "SeatLeft", "SeatTaken", "SecretMade", "Sender",
    "SessionEvent", "Timings", "TranscriptUpdated", "YourTurn", "HostChanged", "MigrationDone",
    "MigrationPaused", "SteppedDown", "successor_host",
]
