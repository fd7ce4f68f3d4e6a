"""A peer's end: a CURVE-client DEALER connected to one host whose public key it knows; the
connect waits for the CURVE handshake (libzmq's monitor socket) within a deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import zmq
from zmq.utils.monitor import parse_monitor_message

from lanomino.net.codec import MAX_MESSAGE_BYTES, decode_json, encode_json
from lanomino.net.errors import RemoteProtocolError, TransportError
from lanomino.net.keys import DirectAddress, z85_to_raw
from lanomino.net.zmq_transport.sockets import (
    CurveKeypair,
    MalformedHandler,
    TransportStats,
    Wakeup,
    close_parts,
    common_options,
    require,
    tcp_endpoint,
)

CONNECT_TIMEOUT_S = 5.0
_CLOSED = "the peer transport is not connected (or was closed)"


_HANDSHAKE_FAILED = (
    zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_HANDSHAKE_FAILED_AUTH
)


class PeerTransport:
    """A peer's end: connect to one host whose public key we know; send and receive dicts."""

    def __init__(
        self,
        keypair: CurveKeypair,
        server_key: str,
        host: str,
        port: int,
        *,
        source_ip: str | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        on_malformed: MalformedHandler | None = None,
    ) -> None:
        z85_to_raw(server_key)  # a bad key is a ValueError here, not a silent hang later
        if not 1 <= port <= 65535:
            raise ValueError(f"port {port} is out of range")
        self.keypair = keypair
        self.server_key = server_key
        self.stats = TransportStats()
        self._endpoint = tcp_endpoint(host, port)
        if source_ip is not None:  # leave through a chosen interface: tcp://SRC:0;HOST:PORT
            self._endpoint = f"tcp://{tcp_endpoint(source_ip, 0)[6:]};{self._endpoint[6:]}"
        self._max = max_message_bytes
        self._on_malformed = on_malformed
        self._ctx: zmq.Context[zmq.Socket[bytes]] | None = None
        self._sock: zmq.Socket[bytes] | None = None
        self._wakeup: Wakeup | None = None

    @classmethod
    def for_address(
        cls, keypair: CurveKeypair, address: DirectAddress, *, source_ip: str | None = None
    ) -> PeerTransport:
        """A transport for a direct ``HOST:PORT/KEY`` address.

        Raises:
            ValueError: the address carries no host key (a direct join needs it).
        """
        if address.server_key is None:
            raise ValueError(
                f"{address}: a direct join needs the host's key, as HOST:PORT/KEY "
                "(the host prints it when it opens the table)"
            )
        return cls(keypair, address.server_key, address.host, address.port, source_ip=source_ip)

    async def __aenter__(self) -> PeerTransport:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    async def connect(self, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        """Connect and wait until the CURVE handshake with the host has succeeded.

        Raises:
            TransportError: the handshake failed (wrong host key?) or timed out.
        """
        self._ctx = zmq.Context()
        sock = self._ctx.socket(zmq.DEALER)
        self._sock = sock
        common_options(sock, self._max)
        sock.setsockopt(zmq.IMMEDIATE, 1)
        sock.curve_serverkey = self.server_key.encode("ascii")
        sock.curve_publickey = self.keypair.public.encode("ascii")
        sock.curve_secretkey = self.keypair.secret.encode("ascii")
        self._wakeup = Wakeup(sock)
        monitor = sock.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED | _HANDSHAKE_FAILED)
        watch = Wakeup(monitor)
        error: TransportError | None = None
        try:
            sock.connect(self._endpoint)
            async with asyncio.timeout(timeout_s):
                await self._await_handshake(watch)
        except TimeoutError:
            error = TransportError(
                f"no encrypted handshake with {self._endpoint} within {timeout_s} s "
                "(host down, unreachable, or not the key it advertises)"
            )
        except (TransportError, zmq.ZMQError) as exc:
            error = TransportError(f"cannot connect to {self._endpoint}: {exc}")
        finally:
            watch.close()
            if not sock.closed:  # (closed under the wait: a newer connection replaced this one)
                sock.disable_monitor()
            monitor.close(linger=0)
        if self._sock is not sock:
            raise TransportError(f"the connection to {self._endpoint} was closed while connecting")
        if error is not None:
            self.close()
            raise error

    async def _await_handshake(self, monitor: Wakeup) -> None:
        while True:
            frames = await monitor.recv(None, copy=True)
            assert frames is not None  # (no timeout)
            event = parse_monitor_message(frames)
            if event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                return
            if event["event"] & _HANDSHAKE_FAILED:
                raise TransportError(f"handshake refused ({zmq.Event(event['event']).name})")

    async def send(self, message: Mapping[str, object]) -> None:
        """Send one message to the host.

        Raises:
            LocalProtocolError: the message is not JSON or is too long.
            TransportError: no live connection to the host, or its queue is full.
        """
        self.send_now(message)

    def send_now(self, message: Mapping[str, object]) -> None:
        """``send`` without a coroutine (it never blocks): over when this returns. Same errors."""
        data = encode_json(message, max_bytes=self._max)
        sock = require(self._sock, _CLOSED)
        try:
            sock.send(data, zmq.NOBLOCK)
        except zmq.Again:
            raise TransportError("the host is not reachable (or not keeping up)") from None
        finally:
            wakeup = self._wakeup
            if wakeup is not None and wakeup.waiters:
                wakeup.after_send()
        self.stats.sent += 1

    async def receive(self, timeout_s: float | None = None) -> dict[str, Any] | None:
        """The next well-formed message from the host, or None after ``timeout_s``."""
        wakeup = require(self._wakeup, _CLOSED)
        loop = wakeup.loop
        deadline = None if timeout_s is None else loop.time() + timeout_s
        while True:
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            frames = await wakeup.recv(remaining, copy=True)
            if frames is None:
                return None
            try:
                if len(frames) != 1:
                    raise RemoteProtocolError(f"expected one frame, got {len(frames)}")
                message = decode_json(frames[0], max_bytes=self._max)
            except RemoteProtocolError as exc:
                self.stats.malformed += 1
                if self._on_malformed is not None:
                    self._on_malformed(None, exc)
                await asyncio.sleep(0)  # (a flood of junk must not hold the loop, nor a cancel)
                continue
            self.stats.received += 1
            return message

    def close(self) -> None:
        """Disconnect at once (LINGER 0) and release the context. Safe to call twice."""
        sock, ctx, wakeup = self._sock, self._ctx, self._wakeup
        self._sock = self._ctx = self._wakeup = None
        close_parts(wakeup, sock, 0, None, ctx)
