"""A host that stepped down watches the rest of the match as a peer of the table's new host."""

from __future__ import annotations

import logging
from collections.abc import Callable

from lanomino.net.errors import TransportError
from lanomino.runtime.base import Outcome
from lanomino.runtime.host_node import HostNode
from lanomino.runtime.peer_node import PeerNode

log = logging.getLogger("lanomino.node")


async def follow_to_end(host: HostNode, stepped: Outcome,
                        on_start: Callable[[PeerNode], None] | None = None) -> Outcome:
    """A host that stepped down rejoins the table's new host as a peer and follows the match to its
    end (its own seat has left: it watches, it cannot play). Returns the match's outcome as this
    peer saw it, or ``stepped`` when the new host cannot be reached."""
    if stepped.rejoin is None:
        return stepped
    name = host.session.local[host.session.host_seat].name
    peer = PeerNode(data_dir=host.data_dir, address=stepped.rejoin, player=name,
                    passphrase=host.passphrase, timings=host.session.timings, level=None,
                    migration=False, announce=False)
    host.follower = peer  # (a stop signal for the host now stops it)
    if on_start is not None:
        on_start(peer)  # e.g. a client subscribes to it
    try:
        await peer.start()
        outcome = await peer.run()
    except (OSError, TransportError) as exc:
        log.warning("cannot rejoin the new host at %s: %s", stepped.rejoin, exc)
        return stepped
    finally:
        await peer.close()
    outcome.hosts = {**outcome.hosts, **stepped.hosts}
    outcome.stepped_down, outcome.rejoin = True, stepped.rejoin
    return outcome


