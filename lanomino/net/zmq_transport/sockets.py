"""What the host's ROUTER and a peer's DEALER share: keypairs, socket options, counters, and the
wake-up that lets asyncio wait on a plain zmq socket (see the package's theory of operation)."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar, overload

import zmq

from lanomino.net.errors import RemoteProtocolError, TransportError
from lanomino.net.keys import z85_to_raw

HIGH_WATER_MARK = 1000
T = TypeVar("T")

MalformedHandler = Callable[[bytes | None, RemoteProtocolError], None]


@dataclass(frozen=True, slots=True)
class CurveKeypair:
    """A CURVE keypair in Z85 text (40 characters each)."""

    public: str
    secret: str = field(repr=False)

    def __post_init__(self) -> None:
        z85_to_raw(self.public)
        z85_to_raw(self.secret)

    @classmethod
    def generate(cls) -> CurveKeypair:
        """A fresh random keypair."""
        public, secret = zmq.curve_keypair()
        return cls(public.decode("ascii"), secret.decode("ascii"))

    @classmethod
    def from_secret(cls, secret: str) -> CurveKeypair:
        """Rebuild a keypair from its stored secret key.

        Raises:
            ValueError: not a Z85 CURVE secret key.
        """
        z85_to_raw(secret)
        return cls(zmq.curve_public(secret.encode("ascii")).decode("ascii"), secret)


@dataclass(slots=True)
class TransportStats:
    """Counters a node can log or show; never reset by the transport."""

    received: int = 0
    sent: int = 0
    malformed: int = 0
    unroutable: int = 0
    over_budget: int = 0


def tcp_endpoint(ip: str, port: int | str) -> str:
    """``tcp://IP:PORT`` (IPv6 in brackets). Raises ValueError: not an IP address."""
    address = ipaddress.ip_address(ip)  # raises ValueError on junk
    host = f"[{address}]" if address.version == 6 else str(address)
    return f"tcp://{host}:{port}"


def common_options(sock: zmq.Socket[bytes], max_message_bytes: int) -> None:
    """The options both ends set: no linger, the frame limit, the queue bounds, IPv6 allowed."""
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, max_message_bytes)
    sock.setsockopt(zmq.SNDHWM, HIGH_WATER_MARK)
    sock.setsockopt(zmq.RCVHWM, HIGH_WATER_MARK)
    sock.setsockopt(zmq.IPV6, 1)


def readable(sock: zmq.Socket[bytes]) -> bool:
    """A message is queued (reading ``EVENTS`` also lowers the descriptor)."""
    return bool(sock.getsockopt(zmq.EVENTS) & zmq.POLLIN)  # type: ignore[operator,arg-type]


# A closing socket's queued messages get this long to leave; a peer gone meanwhile costs at most
# this much at close (a ROUTER drops what it cannot route at once).
CLOSE_LINGER_MS = 500


class Wakeup:
    """Receives on a plain zmq socket from asyncio: NOBLOCK reads, woken by the socket's descriptor.

    The descriptor stays registered with the loop for the socket's life. libzmq raises it when the
    socket has news (a message after the queue ran dry, a connection change) and lowers it when
    the socket's state is read (``EVENTS``, or any send or receive), so the callback always reads
    ``EVENTS`` (else the loop would spin) and wakes the waiting receives when a message is ready.
    """

    def __init__(self, sock: zmq.Socket[bytes]) -> None:
        self.sock = sock
        self.loop = asyncio.get_running_loop()
        self.fd = int(sock.getsockopt(zmq.FD))
        self.waiters: list[asyncio.Future[None]] = []
        self.poke_due = False
        self.loop.add_reader(self.fd, self._ready)

    def _ready(self) -> None:
        if self.waiters and readable(self.sock):
            self._wake()
        elif not self.waiters:
            self.sock.getsockopt(zmq.EVENTS)  # lower the descriptor; the message stays queued

    def _wake(self) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def after_send(self) -> None:
        """A send may have consumed the descriptor's signal: look again for a waiting receive, on
        the loop's next turn (once per burst of sends, and off the sender's path)."""
        if not self.poke_due:
            self.poke_due = True
            self.loop.call_soon(self._poke)

    def _poke(self) -> None:
        self.poke_due = False
        if self.waiters and not self.sock.closed and readable(self.sock):
            self._wake()

    @overload
    async def recv(self, timeout_s: float | None, copy: Literal[True]) -> list[bytes] | None: ...

    @overload
    async def recv(self, timeout_s: float | None,
                   copy: Literal[False]) -> list[zmq.Frame] | None: ...

    async def recv(self, timeout_s: float | None,
                   copy: bool) -> list[bytes] | list[zmq.Frame] | None:
        """The next multipart message, or None after ``timeout_s``. Cancelled by ``close``."""
        deadline = None if timeout_s is None else self.loop.time() + timeout_s
        while True:
            try:
                return self.sock.recv_multipart(zmq.NOBLOCK, copy=copy)  # already queued: no wait
            except zmq.Again:
                pass
            if deadline is None:
                await self._wait()
                continue
            remaining = deadline - self.loop.time()
            if remaining <= 0:
                return None
            try:
                async with asyncio.timeout(remaining):
                    await self._wait()
            except TimeoutError:
                return None

    async def _wait(self) -> None:
        if readable(self.sock):  # arrived since the last try
            return
        waiter: asyncio.Future[None] = self.loop.create_future()
        self.waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter.cancelled() and waiter in self.waiters:  # timed out or the task stopped
                self.waiters.remove(waiter)

    def close(self) -> None:
        """Stop watching the descriptor and cancel waiting receives (before the socket closes)."""
        if not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.cancel()


def require(part: T | None, closed: str) -> T:
    """A part of an open transport (its socket, its wake-up). Raises TransportError(``closed``)
    when the transport is not open yet, or no longer."""
    if part is None:
        raise TransportError(closed)
    return part


class _Stoppable(Protocol):
    def stop(self) -> None: ...


def close_parts(wakeup: Wakeup | None, sock: zmq.Socket[bytes] | None, linger_ms: int,
                auth: _Stoppable | None, ctx: zmq.Context[zmq.Socket[bytes]] | None) -> None:
    """Close what a transport holds, in order: stop watching the descriptor, close the socket
    (queued messages get ``linger_ms``), stop the authenticator, then the context."""
    if wakeup is not None:
        wakeup.close()
    if sock is not None:
        sock.close(linger=linger_ms)
    if auth is not None:
        auth.stop()
    if ctx is not None:
        ctx.destroy(linger=0)  # closes anything left on it, then terminates
