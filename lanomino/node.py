"""The runtime's public face: the nodes (``lanomino/runtime/``) a command or a client starts.

No game rules live here. A node moves messages between the ZeroMQ transport and a sans-I/O
session, fires the session's timers, plays a bot when the session says it is the seat's turn,
keeps the table's announcement up to date and writes transcripts and commit secrets to the data
directory. ``HostNode`` and ``PeerNode`` are also the API a user interface attaches to:
``subscribe(callback)`` to see every session event (observations included), ``submit(action)``
to move, ``quit()`` to leave.

Host migration (see docs/host-migration.md): every peer binds a standby ROUTER with its own CURVE
keypair at start and tells the host where (``hello.addr``; the roster carries it to every peer).
When its session elects a new host (``HostChanged``), a peer connects to the candidate's roster
address with the candidate's roster CURVE key; the candidate turns its peer session into a host
session (``successor_host``), serves on its standby ROUTER and announces the table with the new
term. A host leaving on purpose (quit, Ctrl-C, SIGTERM, SIGHUP) hands over at once; a host that
sees its table announced with a higher term steps down. Elections run only at tables of three or
more people (with two, the one left cannot make a majority: it waits for its host as before).

Direct joins (``HOST:PORT/KEY``): the host prints its address with its CURVE public key, and a peer
that joins by address must be given that key; CURVE then proves it is talking to that host (the key
is the fingerprint; nothing is trusted on first use).
"""

from lanomino.runtime.base import (
    Hosting,
    NodeBase,
    Outcome,
    SeatRow,
    Serving,
    bot_policy,
    lan_addresses,
    local_ip_toward,
    seat_rows,
)
from lanomino.runtime.host_node import HostNode, install_quit_handlers
from lanomino.runtime.peer_node import PeerNode
from lanomino.runtime.watch import follow_to_end

__all__ = [
    "HostNode",
    "Hosting",
    "NodeBase",
    "Outcome",
    "PeerNode",
    "SeatRow",
    "Serving",
    "bot_policy",
    "follow_to_end",
    "install_quit_handlers",
    "lan_addresses",
    "local_ip_toward",
    "seat_rows",
]
