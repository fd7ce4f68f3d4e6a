"""The host's end: a CURVE-server ROUTER bound on one address, with the ZAP handler that accepts
any client key and stamps it on every message (``Incoming.peer_key``), per-connection budgets
and bounded work per turn of the loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import zmq
import zmq.asyncio
import zmq.auth
from zmq.auth.asyncio import AsyncioAuthenticator

from lanomino.net.budget import Budgets, Standing
from lanomino.net.codec import MAX_MESSAGE_BYTES, decode_json, encode_around, encode_json
from lanomino.net.errors import RemoteProtocolError, TransportError
from lanomino.net.zmq_transport.sockets import (
    CLOSE_LINGER_MS,
    CurveKeypair,
    MalformedHandler,
    TransportStats,
    Wakeup,
    close_parts,
    common_options,
    require,
    tcp_endpoint,
)

MAX_BATCH = 32  # frames read back to back before the receive yields to the event loop
_CLOSED = "the host transport is not started (or was closed)"


@dataclass(frozen=True, slots=True)
class Incoming:
    """One message the host received: from which connection, which key, and what it said."""

    identity: bytes  # the ROUTER routing id of the connection; send replies here
    peer_key: str  # the sender's CURVE public key (Z85), proven by the handshake
    message: dict[str, Any]
    peer_ip: str | None = None  # the connection's source address (TCP's), None if unknown


class HostTransport:
    """The host's end: bind, receive ``Incoming`` from any peer, send to one identity."""

    def __init__(
        self,
        keypair: CurveKeypair,
        *,
        bind_ip: str = "127.0.0.1",
        port: int = 0,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        on_malformed: MalformedHandler | None = None,
        budgets: Budgets | None = None,
        is_seated: Callable[[str], Standing] | None = None,
    ) -> None:
        self.keypair = keypair
        self.stats = TransportStats()
        self.budgets = budgets
        self._is_seated = is_seated or (lambda _key: True)
        self._streak = 0
        self._bind_ip, self._port = bind_ip, port
        self._max = max_message_bytes
        self._on_malformed = on_malformed
        self._ctx: zmq.Context[zmq.Socket[bytes]] | None = None
        self._auth: AsyncioAuthenticator | None = None
        self._sock: zmq.Socket[bytes] | None = None
        self._wakeup: Wakeup | None = None
        self._bodies: dict[int, tuple[object, bytes]] | None = None  # in a batch(): encoded once
        self.endpoint = ""

    async def __aenter__(self) -> HostTransport:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        """The TCP port bound (useful with ``port=0``)."""
        return int(self.endpoint.rsplit(":", 1)[1]) if self.endpoint else 0

    async def start(self) -> None:
        """Start the ZAP handler and bind the ROUTER.

        Raises:
            TransportError: the address cannot be bound (in use, not ours, ...).
        """
        endpoint = tcp_endpoint(self._bind_ip, self._port or "*")
        self._ctx = zmq.Context()
        self._auth = AsyncioAuthenticator(zmq.asyncio.Context.shadow(self._ctx.underlying))
        self._auth.start()
        self._auth.configure_curve(domain="*", location=zmq.auth.CURVE_ALLOW_ANY)
        sock = self._ctx.socket(zmq.ROUTER)
        self._sock = sock
        common_options(sock, self._max)
        sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
        sock.curve_server = True
        sock.curve_secretkey = self.keypair.secret.encode("ascii")
        sock.curve_publickey = self.keypair.public.encode("ascii")
        try:
            sock.bind(endpoint)
        except zmq.ZMQError as exc:
            self.close()
            raise TransportError(f"cannot listen on {endpoint}: {exc}") from None
        self.endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        self._wakeup = Wakeup(sock)

    async def receive(self, timeout_s: float | None = None) -> Incoming | None:
        """The next well-formed message from any peer, or None after ``timeout_s``."""
        wakeup = require(self._wakeup, _CLOSED)
        loop = wakeup.loop
        deadline = None if timeout_s is None else loop.time() + timeout_s
        while True:
            self._streak += 1
            if self._streak >= MAX_BATCH:  # bounded work per turn of the loop
                self._streak = 0
                await asyncio.sleep(0)
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            frames = await wakeup.recv(remaining, copy=False)
            if frames is None:
                return None
            identity = frames[0].bytes
            try:
                if len(frames) != 2:
                    raise RemoteProtocolError(f"expected one frame, got {len(frames) - 1}")
                payload = frames[1]
                peer_key = payload.get("User-Id")  # set by the ZAP handler: the client key
                if not isinstance(peer_key, str) or not peer_key:
                    raise RemoteProtocolError("message without an authenticated key")
                if self.budgets is not None and not self.budgets.admit(
                        identity, self._is_seated(peer_key), loop.time()):
                    self.stats.over_budget += 1
                    continue  # over budget: dropped before any work is done on it
                message = decode_json(payload.bytes, max_bytes=self._max)
            except RemoteProtocolError as exc:
                self._malformed(identity, exc)
                continue
            self.stats.received += 1
            return Incoming(identity, peer_key, message, _peer_ip(payload))

    async def send(self, identity: bytes, message: Mapping[str, object]) -> bool:
        """Queue one message for one peer; False when that peer is gone or not keeping up.

        Raises:
            LocalProtocolError: the message is not JSON or is too long.
        """
        return self.send_now(identity, message)

    def send_now(self, identity: bytes, message: Mapping[str, object]) -> bool:
        """``send`` without a coroutine: the send never blocks, so it is over when this returns
        (no task per message on the hot path). Same result and errors as ``send``."""
        data = self._encode(message)
        sock = require(self._sock, _CLOSED)
        try:
            sock.send_multipart([identity, data], zmq.NOBLOCK)
        except zmq.ZMQError as exc:  # EHOSTUNREACH (unknown peer) or EAGAIN (peer's queue full)
            if exc.errno not in (zmq.EHOSTUNREACH, zmq.EAGAIN):
                raise TransportError(f"send failed: {exc}") from None
            self.stats.unroutable += 1
            return False
        finally:
            wakeup = self._wakeup
            if wakeup is not None and wakeup.waiters:
                wakeup.after_send()
        self.stats.sent += 1
        return True

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within it, a body sent to several peers (the same object: an update they see alike, a
        hand's log) is encoded once and each envelope put around it; the bytes are the same. Only
        for a burst of sends with nothing changed in between (one flush of a session's output)."""
        self._bodies = {}
        try:
            yield
        finally:
            self._bodies = None

    def _encode(self, message: Mapping[str, object]) -> bytes:
        bodies, body = self._bodies, message.get("body")
        if bodies is not None and type(body) is dict:
            known = bodies.get(id(body))
            if known is None or known[0] is not body:
                known = bodies[id(body)] = (body, encode_json(body, max_bytes=self._max))
            data = encode_around(message, known[1], max_bytes=self._max)
            if data is not None:
                return data
        return encode_json(message, max_bytes=self._max)

    def close(self) -> None:
        """Stop listening and release the context; messages already queued to connected peers
        get ``CLOSE_LINGER_MS`` to leave (a match's last update and hand log). Safe to call
        twice."""
        sock, auth, ctx, wakeup = self._sock, self._auth, self._ctx, self._wakeup
        self._sock = self._auth = self._ctx = self._wakeup = None
        close_parts(wakeup, sock, CLOSE_LINGER_MS, auth, ctx)

    def _malformed(self, identity: bytes | None, exc: RemoteProtocolError) -> None:
        self.stats.malformed += 1
        if self._on_malformed is not None:
            self._on_malformed(identity, exc)


def _peer_ip(frame: zmq.Frame) -> str | None:
    """The IP address a frame came from (libzmq's "Peer-Address"), None when it does not say."""
    try:
        address = frame.get("Peer-Address")
    except zmq.ZMQError:
        return None
    return address if isinstance(address, str) and address else None
