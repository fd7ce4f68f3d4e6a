"""The ZeroMQ adapter: a CURVE-encrypted ROUTER on the host, a DEALER per peer. Only zmq importer.

Theory of operation:

* Every connection is CURVE: the host's ROUTER is a CURVE server with its own keypair; each peer's
  DEALER is a CURVE client that must know the host's public key before it connects (from the
  discovery TXT record, or from a direct ``HOST:PORT/KEY`` address). A peer holding the wrong key
  never completes the handshake, so it can neither send nor receive anything.
* The host runs a ZAP handler that accepts any client key (anyone on the LAN may sit down; the
  passphrase is the session's business) but makes libzmq attach the client's authenticated public
  key to every message. ``Incoming.peer_key`` is that key: the session can recognise a returning
  player by it, whatever connection it comes back on.
* Messages are single frames of UTF-8 JSON objects (``codec.encode_json`` / ``decode_json``), never
  pickle. libzmq drops a connection that sends a frame over ``max_message_bytes``
  (``ZMQ_MAXMSGSIZE``); frames that arrive but are not valid JSON objects are counted, reported to
  ``on_malformed`` and dropped, and never raise out of ``receive``.
* Sends never block: the host's ROUTER is ``ROUTER_MANDATORY`` and a send to a gone or saturated
  peer returns False; the peer's DEALER is ``IMMEDIATE`` and a send with no live connection raises
  ``TransportError`` (nothing is queued for a host that might come back in a later term).
* ``LINGER=0`` everywhere and each transport owns its context, so ``close`` is immediate and leaves
  no libzmq thread behind. Heartbeats, sequence numbers and terms are the session's job.
* No connection gets more than its budget (``net/budget.py``): when the host passes ``budgets``
  and ``is_seated``, a frame over its connection's budget (small without a seat, larger with
  one) is dropped before it is parsed, and counted (``stats.over_budget``). The work done per
  turn of the event loop is bounded: after ``MAX_BATCH`` frames read back to back, ``receive``
  yields to the loop, so timers (heartbeats), sends and the CURVE handshakes of newcomers (the
  ZAP handler runs on the same loop) always get their turn, whatever a flood queues.
* The hot path does not go through ``zmq.asyncio``'s futures: the sockets are plain (blocking-API)
  pyzmq sockets used only with ``NOBLOCK``, and ``_Wakeup`` watches the socket's descriptor with
  ``loop.add_reader``. A receive first takes a message that is already queued (no event-loop hop
  at all when several arrived together) and only waits when there is none. libzmq's descriptor is
  edge-triggered and any call on the socket (a send, too) may consume its signal, so after each
  send a waiting receive is woken if a message is ready. Closing a transport cancels a receive
  waiting on it. Needs a selector event loop (the default on Linux and macOS).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import zmq
import zmq.asyncio
import zmq.auth
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils.monitor import parse_monitor_message

from lanomino.net.budget import Budgets, Standing
from lanomino.net.codec import (
    MAX_MESSAGE_BYTES,
    DirectAddress,
    decode_json,
    encode_json,
    z85_to_raw,
)
from lanomino.net.errors import RemoteProtocolError, TransportError

HIGH_WATER_MARK = 1000
CONNECT_TIMEOUT_S = 5.0
MAX_BATCH = 32  # frames read back to back before the receive yields to the event loop

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


@dataclass(frozen=True, slots=True)
class Incoming:
    """One message the host received: from which connection, which key, and what it said."""

    identity: bytes  # the ROUTER routing id of the connection; send replies here
    peer_key: str  # the sender's CURVE public key (Z85), proven by the handshake
    message: dict[str, Any]


@dataclass(slots=True)
class TransportStats:
    """Counters a node can log or show; never reset by the transport."""

    received: int = 0
    sent: int = 0
    malformed: int = 0
    unroutable: int = 0
    over_budget: int = 0


def _endpoint(ip: str, port: int | str) -> str:
    address = ipaddress.ip_address(ip)  # raises ValueError on junk
    host = f"[{address}]" if address.version == 6 else str(address)
    return f"tcp://{host}:{port}"


def _common_options(sock: zmq.Socket[Any], max_message_bytes: int) -> None:
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, max_message_bytes)
    sock.setsockopt(zmq.SNDHWM, HIGH_WATER_MARK)
    sock.setsockopt(zmq.RCVHWM, HIGH_WATER_MARK)
    sock.setsockopt(zmq.IPV6, 1)


def _readable(sock: zmq.Socket[Any]) -> bool:
    """A message is queued (reading ``EVENTS`` also lowers the descriptor)."""
    return bool(sock.getsockopt(zmq.EVENTS) & zmq.POLLIN)  # type: ignore[operator,arg-type]

# A closing socket's queued messages get this long to leave; a peer gone meanwhile costs at most
# this much at close (a ROUTER drops what it cannot route at once).
CLOSE_LINGER_MS = 500


class _Wakeup:
    """Receives on a plain zmq socket from asyncio: NOBLOCK reads, woken by the socket's descriptor.

    The descriptor stays registered with the loop for the socket's life. libzmq raises it when the
    socket has news (a message after the queue ran dry, a connection change) and lowers it when
    the socket's state is read (``EVENTS``, or any send or receive), so the callback always reads
    ``EVENTS`` (else the loop would spin) and wakes the waiting receives when a message is ready.
    """

    def __init__(self, sock: zmq.Socket[Any]) -> None:
        self.sock = sock
        self.loop = asyncio.get_running_loop()
        self.fd = int(sock.getsockopt(zmq.FD))
        self.waiters: list[asyncio.Future[None]] = []
        self.poke_due = False
        self.loop.add_reader(self.fd, self._ready)

    def _ready(self) -> None:
        if self.waiters and _readable(self.sock):
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
        if self.waiters and not self.sock.closed and _readable(self.sock):
            self._wake()

    async def recv(self, timeout_s: float | None, copy: bool) -> list[Any] | None:
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
        if _readable(self.sock):  # arrived since the last try
            return
        waiter: asyncio.Future[None] = self.loop.create_future()
        self.waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter.cancelled() and waiter in self.waiters:  # timed out or the task stopped
                self.waiters.remove(waiter)

    def close(self) -> None:
        """Stop watching the descriptor and cancel the waiting receives (before the socket closes)."""
        if not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.cancel()


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
        self._ctx: zmq.Context[Any] | None = None
        self._auth: AsyncioAuthenticator | None = None
        self._sock: zmq.Socket[Any] | None = None
        self._wakeup: _Wakeup | None = None
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
        endpoint = _endpoint(self._bind_ip, self._port or "*")
        self._ctx = zmq.Context()
        self._auth = AsyncioAuthenticator(zmq.asyncio.Context.shadow(self._ctx.underlying))
        self._auth.start()
        self._auth.configure_curve(domain="*", location=zmq.auth.CURVE_ALLOW_ANY)
        sock = self._ctx.socket(zmq.ROUTER)
        self._sock = sock
        _common_options(sock, self._max)
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
        self._wakeup = _Wakeup(sock)

    async def receive(self, timeout_s: float | None = None) -> Incoming | None:
        """The next well-formed message from any peer, or None after ``timeout_s``."""
        wakeup = self._require_wakeup()
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
            return Incoming(identity, peer_key, message)

    async def send(self, identity: bytes, message: Mapping[str, Any]) -> bool:
        """Queue one message for one peer; False when that peer is gone or not keeping up.

        Raises:
            LocalProtocolError: the message is not JSON or is too long.
        """
        return self.send_now(identity, message)

    def send_now(self, identity: bytes, message: Mapping[str, Any]) -> bool:
        """``send`` without a coroutine: the send never blocks, so it is over when this returns
        (no task per message on the hot path). Same result and errors as ``send``."""
        data = encode_json(message, max_bytes=self._max)
        sock = self._require()
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

    def close(self) -> None:
        """Stop listening and release the context; messages already queued to connected peers
        get ``CLOSE_LINGER_MS`` to leave (a match's last update and hand log). Safe to call
        twice."""
        sock, auth, ctx, wakeup = self._sock, self._auth, self._ctx, self._wakeup
        self._sock = self._auth = self._ctx = self._wakeup = None
        if wakeup is not None:
            wakeup.close()
        if sock is not None:
            sock.close(linger=CLOSE_LINGER_MS)
        if auth is not None:
            auth.stop()
        if ctx is not None:
            ctx.destroy(linger=0)  # closes anything left on it, then terminates

    def _require(self) -> zmq.Socket[Any]:
        if self._sock is None:
            raise TransportError("the host transport is not started (or was closed)")
        return self._sock

    def _require_wakeup(self) -> _Wakeup:
        if self._wakeup is None:
            raise TransportError("the host transport is not started (or was closed)")
        return self._wakeup

    def _malformed(self, identity: bytes | None, exc: RemoteProtocolError) -> None:
        self.stats.malformed += 1
        if self._on_malformed is not None:
            self._on_malformed(identity, exc)


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
        self._endpoint = _endpoint(host, port)
        if source_ip is not None:  # leave through a chosen interface: tcp://SRC:0;HOST:PORT
            self._endpoint = f"tcp://{_endpoint(source_ip, 0)[6:]};{self._endpoint[6:]}"
        self._max = max_message_bytes
        self._on_malformed = on_malformed
        self._ctx: zmq.Context[Any] | None = None
        self._sock: zmq.Socket[Any] | None = None
        self._wakeup: _Wakeup | None = None

    @classmethod
    def for_address(
        cls, keypair: CurveKeypair, address: DirectAddress, **options: Any
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
        return cls(keypair, address.server_key, address.host, address.port, **options)

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
        _common_options(sock, self._max)
        sock.setsockopt(zmq.IMMEDIATE, 1)
        sock.curve_serverkey = self.server_key.encode("ascii")
        sock.curve_publickey = self.keypair.public.encode("ascii")
        sock.curve_secretkey = self.keypair.secret.encode("ascii")
        self._wakeup = _Wakeup(sock)
        monitor = sock.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED | _HANDSHAKE_FAILED)
        watch = _Wakeup(monitor)
        error: TransportError | None = None
        try:
            sock.connect(self._endpoint)
            await asyncio.wait_for(self._await_handshake(watch), timeout_s)
        except TimeoutError:
            error = TransportError(
                f"no encrypted handshake with {self._endpoint} within {timeout_s} s "
                "(host down, unreachable, or not the key it advertises)"
            )
        except (TransportError, zmq.ZMQError) as exc:
            error = TransportError(f"cannot connect to {self._endpoint}: {exc}")
        finally:
            watch.close()
            sock.disable_monitor()
            monitor.close(linger=0)
        if error is not None:
            self.close()
            raise error

    async def _await_handshake(self, monitor: _Wakeup) -> None:
        while True:
            frames = await monitor.recv(None, copy=True)
            assert frames is not None  # (no timeout)
            event = parse_monitor_message(frames)
            if event["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                return
            if event["event"] & _HANDSHAKE_FAILED:
                raise TransportError(f"handshake refused ({zmq.Event(event['event']).name})")

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send one message to the host.

        Raises:
            LocalProtocolError: the message is not JSON or is too long.
            TransportError: no live connection to the host, or its queue is full.
        """
        self.send_now(message)

    def send_now(self, message: Mapping[str, Any]) -> None:
        """``send`` without a coroutine (it never blocks): over when this returns. Same errors."""
        data = encode_json(message, max_bytes=self._max)
        sock = self._require()
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
        wakeup = self._require_wakeup()
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
                continue
            self.stats.received += 1
            return message

    def close(self) -> None:
        """Disconnect at once (LINGER 0) and release the context. Safe to call twice."""
        sock, ctx, wakeup = self._sock, self._ctx, self._wakeup
        self._sock = self._ctx = self._wakeup = None
        if wakeup is not None:
            wakeup.close()
        if sock is not None:
            sock.close(linger=0)
        if ctx is not None:
            ctx.destroy(linger=0)  # closes anything left on it, then terminates

    def _require(self) -> zmq.Socket[Any]:
        if self._sock is None:
            raise TransportError("the peer transport is not connected (or was closed)")
        return self._sock

    def _require_wakeup(self) -> _Wakeup:
        if self._wakeup is None:
            raise TransportError("the peer transport is not connected (or was closed)")
        return self._wakeup
