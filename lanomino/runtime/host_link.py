"""A member's connection to the table's host of the moment: a ``PeerNode``'s part
(docs/host-migration.md).

The first host is the one the node joined. After an election the member follows the new host
(``follow``: the roster's address and key of that seat) on a new connection, which the old one
is closed for; until its encrypted handshake has finished, what the member sends waits in a
backlog and goes out in order once it has (``send``). A member that becomes the host itself
closes its connection (``drop``): it talks to the table through its standby ROUTER then. Each
connection made is counted (``generation``), so a handshake that finishes after a newer one
began closes what it made instead of taking over.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from lanomino.engine.errors import seat_name
from lanomino.net.errors import TransportError
from lanomino.net.keys import DirectAddress
from lanomino.net.member import Connect
from lanomino.net.wire.checks import JsonObject
from lanomino.net.zmq_transport import CurveKeypair, PeerTransport
from lanomino.runtime.stopping import cancelling

log = logging.getLogger("lanomino.node")
RECEIVE_S = 0.25  # how long one receive waits for the host before the loop looks again
IDLE_S = 0.01  # how long the loop waits while there is no connection to read


class HostLink:
    """This member's connection to the current host (see the module docstring)."""

    def __init__(self, keys: CurveKeypair, address: DirectAddress, source_ip: str | None) -> None:
        assert address.server_key is not None
        self.keys = keys
        self.source_ip = source_ip
        self.transport = PeerTransport(keys, address.server_key, address.host, address.port,
                                       source_ip=source_ip)
        self.ready = True  # the connection to the current host has finished its handshake
        self.backlog: list[JsonObject] = []  # messages for a host still being connected to
        self.generation = 0  # bumped for each new connection, and when this member hosts

    async def connect(self) -> None:
        """Connect to the host the node joined."""
        await self.transport.connect()

    def follow(self, effect: Connect, timeout_s: float,
               reached: Callable[[], None]) -> Awaitable[None] | None:
        """Follow the host of ``effect.term``: the old connection closes at once; the returned
        connection (to run in the background) calls ``reached`` once its handshake is done.
        None: that seat left no address (the member waits for the next candidate)."""
        self.drop()
        self.ready = False
        self.backlog = []
        if effect.where is None:
            log.warning("term %d: %s left no address: waiting for the next candidate",
                        effect.term, seat_name(effect.seat))
            return None
        host, port, curve = effect.where
        self.transport = PeerTransport(self.keys, curve, host, port, source_ip=self.source_ip)
        log.info("term %d: following %s at %s:%d", effect.term, seat_name(effect.seat), host, port)
        return self._connect(self.transport, self.generation, timeout_s, reached)

    def drop(self) -> None:
        """Close the connection to the host (this member hosts now, or follows another); a
        connection still being made is abandoned."""
        self.generation += 1
        self.transport.close()

    async def _connect(self, transport: PeerTransport, generation: int, timeout_s: float,
                       reached: Callable[[], None]) -> None:
        try:
            await transport.connect(timeout_s=timeout_s)
        except TransportError as exc:
            log.info("cannot reach the candidate: %s", exc)
            return
        if generation != self.generation:
            transport.close()
            return
        reached()
        self.ready = True
        backlog, self.backlog = self.backlog, []
        for message in backlog:
            await self.send(message)

    async def send(self, message: JsonObject) -> None:
        """Send ``message`` to the host, or keep it until the connection is ready."""
        if not self.ready:
            self.backlog.append(message)
            return
        try:
            await self.transport.send(message)
        except (OSError, TransportError) as exc:
            log.info("send failed: %s", exc)  # the host is away: heartbeats and seq gaps see to it

    async def receive(self) -> JsonObject | None:
        """The next message from the host; None when none came in time, or when the connection
        was closed or swapped for a new host's meanwhile."""
        transport = self.transport
        if not self.ready:
            await asyncio.sleep(IDLE_S)
            return None
        try:
            message = await transport.receive(RECEIVE_S)
        except asyncio.CancelledError:
            if cancelling():
                raise  # the node stops
            return None  # the transport was closed under a pending receive (a new host)
        except Exception as exc:  # noqa: BLE001 - the transport was swapped (closed) under us
            log.debug("receive stopped: %r", exc)
            await asyncio.sleep(IDLE_S)
            return None
        return message if transport is self.transport else None

    def close(self) -> None:
        self.transport.close()
