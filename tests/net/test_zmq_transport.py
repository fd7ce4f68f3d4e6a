"""Real CURVE ROUTER/DEALER sockets on 127.0.0.1 (port 0): round trips, refusals, bad frames."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager

import pytest
import zmq
import zmq.asyncio
from zmq.utils import z85

from lanomino.net.codec import LocalProtocolError, RemoteProtocolError
from lanomino.net.errors import TransportError
from lanomino.net.keys import DirectAddress, raw_to_z85, z85_to_raw
from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport

pytestmark = pytest.mark.timeout(20)

HOST_KEYS = CurveKeypair.generate()


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), timeout=10))


@pytest.fixture(autouse=True)
def no_thread_outlives_the_test() -> Iterator[None]:
    before = {t.ident for t in threading.enumerate()}
    yield
    after = [t for t in threading.enumerate() if t.ident not in before]
    assert not after, f"threads left behind: {after}"


@asynccontextmanager
async def table(**options: object) -> AsyncIterator[HostTransport]:
    host = HostTransport(HOST_KEYS, bind_ip="127.0.0.1", port=0, **options)  # type: ignore[arg-type]
    await host.start()
    try:
        yield host
    finally:
        host.close()


@asynccontextmanager
async def peer_of(
    host: HostTransport, keys: CurveKeypair | None = None
) -> AsyncIterator[PeerTransport]:
    peer = PeerTransport(keys or CurveKeypair.generate(), HOST_KEYS.public, "127.0.0.1", host.port)
    await peer.connect(timeout_s=3)
    try:
        yield peer
    finally:
        peer.close()


def test_curve_round_trip_carries_the_peers_authenticated_key() -> None:
    async def scenario() -> None:
        async with table() as host:
            assert host.port > 0
            keys = CurveKeypair.generate()
            async with peer_of(host, keys) as peer:
                await peer.send({"type": "hello", "seat": None, "name": "Ann ♥"})
                incoming = await host.receive(timeout_s=3)
                assert incoming is not None
                assert incoming.message == {"type": "hello", "seat": None, "name": "Ann ♥"}
                assert incoming.peer_key == keys.public
                assert await host.send(incoming.identity, {"type": "welcome", "seat": 2})
                assert await peer.receive(timeout_s=3) == {"type": "welcome", "seat": 2}
                assert (host.stats.received, host.stats.sent) == (1, 1)
                assert (peer.stats.received, peer.stats.sent) == (1, 1)

    run(scenario)


def test_host_tells_peers_apart_and_sends_each_only_its_own() -> None:
    async def scenario() -> None:
        async with table() as host, peer_of(host) as ann, peer_of(host) as bob:
            await ann.send({"from": "ann"})
            await bob.send({"from": "bob"})
            got = [await host.receive(timeout_s=3) for _ in range(2)]
            by_name = {m.message["from"]: m for m in got if m is not None}
            assert by_name["ann"].identity != by_name["bob"].identity
            assert by_name["ann"].peer_key == ann.keypair.public
            assert by_name["bob"].peer_key == bob.keypair.public
            for name, incoming in by_name.items():
                assert await host.send(incoming.identity, {"to": name})
            assert await ann.receive(timeout_s=3) == {"to": "ann"}
            assert await bob.receive(timeout_s=3) == {"to": "bob"}
            assert await ann.receive(timeout_s=0.2) is None

    run(scenario)


def test_peer_with_the_wrong_server_key_cannot_talk() -> None:
    async def scenario() -> None:
        async with table() as host:
            impostor_key = CurveKeypair.generate().public
            peer = PeerTransport(CurveKeypair.generate(), impostor_key, "127.0.0.1", host.port)
            with pytest.raises(TransportError):
                await peer.connect(timeout_s=1)
            with pytest.raises(TransportError):
                await peer.send({"sneaky": True})
            assert await host.receive(timeout_s=0.3) is None
            peer.close()

    run(scenario)


def test_plaintext_client_gets_nothing_through() -> None:
    async def scenario() -> None:
        async with table() as host:
            ctx = zmq.asyncio.Context()
            raw = ctx.socket(zmq.DEALER)
            raw.setsockopt(zmq.LINGER, 0)
            raw.connect(f"tcp://127.0.0.1:{host.port}")
            await raw.send(b'{"plain": true}')
            assert await host.receive(timeout_s=0.5) is None
            raw.close()
            ctx.term()

    run(scenario)


def test_malformed_frames_are_counted_dropped_and_reported() -> None:
    async def scenario() -> None:
        reports: list[tuple[bytes | None, RemoteProtocolError]] = []
        async with table(on_malformed=lambda i, e: reports.append((i, e))) as host:
            ctx = zmq.asyncio.Context()
            raw = ctx.socket(zmq.DEALER)
            raw.setsockopt(zmq.LINGER, 0)
            keys = CurveKeypair.generate()
            raw.curve_serverkey = HOST_KEYS.public.encode()
            raw.curve_publickey = keys.public.encode()
            raw.curve_secretkey = keys.secret.encode()
            raw.connect(f"tcp://127.0.0.1:{host.port}")
            for bad in (b"not json", b"[1, 2]", b'{"a": NaN}', b"\xff\xfe", b'{"a":1,"a":2}'):
                await raw.send(bad)
            await raw.send_multipart([b'{"a": 1}', b'{"b": 2}'])
            await raw.send(b'{"fine": true}')
            incoming = await host.receive(timeout_s=3)
            assert incoming is not None and incoming.message == {"fine": True}
            assert host.stats.malformed == 6
            assert len(reports) == 6
            assert all(identity == incoming.identity for identity, _ in reports)
            raw.close()
            ctx.term()

    run(scenario)


def test_oversize_messages_are_refused_both_ways() -> None:
    async def scenario() -> None:
        async with table(max_message_bytes=1024) as host:
            peer = PeerTransport(
                CurveKeypair.generate(),
                HOST_KEYS.public,
                "127.0.0.1",
                host.port,
                max_message_bytes=1024,
            )
            await peer.connect(timeout_s=3)
            with pytest.raises(LocalProtocolError):
                await peer.send({"blob": "x" * 2000})
            # A frame over ZMQ_MAXMSGSIZE from a raw client never reaches the host.
            ctx = zmq.asyncio.Context()
            raw = ctx.socket(zmq.DEALER)
            raw.setsockopt(zmq.LINGER, 0)
            keys = CurveKeypair.generate()
            raw.curve_serverkey = HOST_KEYS.public.encode()
            raw.curve_publickey = keys.public.encode()
            raw.curve_secretkey = keys.secret.encode()
            raw.connect(f"tcp://127.0.0.1:{host.port}")
            await raw.send(b'{"blob":"' + b"x" * 5000 + b'"}')
            await peer.send({"small": 1})
            incoming = await host.receive(timeout_s=3)
            assert incoming is not None and incoming.message == {"small": 1}
            assert await host.receive(timeout_s=0.3) is None
            with pytest.raises(LocalProtocolError):
                await host.send(incoming.identity, {"blob": "y" * 2000})
            raw.close()
            ctx.term()
            peer.close()

    run(scenario)


def test_sending_to_a_gone_peer_returns_false() -> None:
    async def scenario() -> None:
        async with table() as host:
            assert not await host.send(b"\x00nobody", {"hello": 1})
            async with peer_of(host) as peer:
                await peer.send({"hi": 1})
                incoming = await host.receive(timeout_s=3)
                assert incoming is not None
            for _ in range(100):  # the disconnect reaches the host within a few ms
                if not await host.send(incoming.identity, {"still": "there?"}):
                    break
                await asyncio.sleep(0.02)
            else:
                pytest.fail("send to a closed peer kept succeeding")
            assert host.stats.unroutable >= 2

    run(scenario)


def test_peer_send_fails_once_the_host_is_gone() -> None:
    async def scenario() -> None:
        host = HostTransport(HOST_KEYS, bind_ip="127.0.0.1")
        await host.start()
        async with peer_of(host) as peer:
            host.close()
            for _ in range(100):
                try:
                    await peer.send({"anyone": "home?"})
                except TransportError:
                    break
                await asyncio.sleep(0.02)
            else:
                pytest.fail("send to a closed host kept succeeding")

    run(scenario)


def test_direct_address_with_key_connects_and_without_key_is_refused() -> None:
    async def scenario() -> None:
        async with table() as host:
            address = DirectAddress("127.0.0.1", host.port, HOST_KEYS.public)
            peer = PeerTransport.for_address(CurveKeypair.generate(), address)
            await peer.connect(timeout_s=3)
            await peer.send({"via": str(address)})
            incoming = await host.receive(timeout_s=3)
            assert incoming is not None and incoming.message["via"] == str(address)
            peer.close()
            with pytest.raises(ValueError, match="HOST:PORT/KEY"):
                PeerTransport.for_address(
                    CurveKeypair.generate(), DirectAddress("127.0.0.1", host.port)
                )

    run(scenario)


def test_peer_can_leave_through_a_chosen_source_address() -> None:
    async def scenario() -> None:
        async with table() as host:
            peer = PeerTransport(
                CurveKeypair.generate(),
                HOST_KEYS.public,
                "127.0.0.1",
                host.port,
                source_ip="127.0.0.1",
            )
            await peer.connect(timeout_s=3)
            await peer.send({"ok": 1})
            assert await host.receive(timeout_s=3) is not None
            peer.close()

    run(scenario)


def test_binding_a_taken_port_is_a_transport_error() -> None:
    async def scenario() -> None:
        async with table() as host:
            clash = HostTransport(HOST_KEYS, bind_ip="127.0.0.1", port=host.port)
            with pytest.raises(TransportError, match="cannot listen"):
                await clash.start()
            clash.close()

    run(scenario)


def test_keypairs_round_trip_and_agree_with_libzmq_z85() -> None:
    keys = CurveKeypair.generate()
    assert CurveKeypair.from_secret(keys.secret) == keys
    assert keys.secret not in repr(keys)
    raw = z85.decode(keys.public.encode())
    assert z85_to_raw(keys.public) == raw
    assert raw_to_z85(raw) == keys.public
    with pytest.raises(ValueError):
        CurveKeypair.from_secret("not a key")
    with pytest.raises(ValueError):
        PeerTransport(keys, "short", "127.0.0.1", 5555)
    with pytest.raises(ValueError):
        PeerTransport(keys, keys.public, "127.0.0.1", 0)


def test_send_now_delivers_at_once_and_a_waiting_receive_still_wakes() -> None:
    async def scenario() -> None:
        async with table() as host, peer_of(host) as peer:
            peer.send_now({"n": 0})
            incoming = await host.receive(timeout_s=3)
            assert incoming is not None and incoming.message == {"n": 0}
            # A receive already waiting on each side must not miss what arrives while the same
            # socket sends without a coroutine (libzmq's descriptor is edge-triggered).
            waiting_host = asyncio.ensure_future(host.receive(timeout_s=3))
            waiting_peer = asyncio.ensure_future(peer.receive(timeout_s=3))
            await asyncio.sleep(0.01)
            assert host.send_now(incoming.identity, {"to": "peer"})
            peer.send_now({"n": 1})
            got = await waiting_host
            assert got is not None and got.message == {"n": 1}
            assert await waiting_peer == {"to": "peer"}
            assert not host.send_now(b"\x00nobody", {"x": 1})
            with pytest.raises(LocalProtocolError):
                peer.send_now({"bad": float("nan")})
            assert (peer.stats.sent, host.stats.sent, host.stats.unroutable) == (2, 1, 1)

    run(scenario)


def test_queued_messages_come_one_per_receive_and_a_zero_timeout_still_takes_one() -> None:
    async def scenario() -> None:
        async with table() as host, peer_of(host) as peer:
            for n in range(5):
                peer.send_now({"n": n})
            first = await host.receive(timeout_s=3)
            assert first is not None and first.message == {"n": 0}
            await asyncio.sleep(0.05)  # the rest are queued by now
            got = [await host.receive(timeout_s=0) for _ in range(4)]
            assert [g.message["n"] for g in got if g is not None] == [1, 2, 3, 4]
            assert await host.receive(timeout_s=0) is None
            assert await host.receive(timeout_s=0.05) is None

    run(scenario)


def test_two_waiting_receives_each_get_a_message() -> None:
    async def scenario() -> None:
        async with table() as host, peer_of(host) as peer:
            peer.send_now({"hello": True})
            incoming = await host.receive(timeout_s=3)
            assert incoming is not None
            waiting = [asyncio.ensure_future(peer.receive(timeout_s=3)) for _ in range(2)]
            await asyncio.sleep(0.01)
            host.send_now(incoming.identity, {"n": 1})
            host.send_now(incoming.identity, {"n": 2})
            assert sorted(m["n"] for m in await asyncio.gather(*waiting) if m is not None) == [1, 2]

    run(scenario)


def test_closing_a_transport_cancels_a_receive_waiting_on_it() -> None:
    async def scenario() -> None:
        async with table() as host, peer_of(host) as peer:
            waiting_peer = asyncio.ensure_future(peer.receive())
            waiting_host = asyncio.ensure_future(host.receive())
            await asyncio.sleep(0.01)
            peer.close()
            host.close()
            for waiting in (waiting_peer, waiting_host):
                with pytest.raises(asyncio.CancelledError):
                    await waiting
            with pytest.raises(TransportError):
                await peer.receive(timeout_s=0.1)

    run(scenario)


def test_in_a_batch_a_body_sent_to_several_peers_is_encoded_once_and_arrives_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import lanomino.net.zmq_transport.router as router

    encoded: list[object] = []
    real = router.encode_json

    def counting(obj: object, **options: int) -> bytes:
        encoded.append(obj)
        return real(obj, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(router, "encode_json", counting)

    async def scenario() -> None:
        async with table() as host, peer_of(host) as one, peer_of(host) as two:
            routes = []
            for peer in (one, two):
                peer.send_now({"hi": 1})
                incoming = await host.receive(timeout_s=3)
                assert incoming is not None
                routes.append(incoming.identity)
            body = {"event": {"e": "played", "tile": "6-4"}, "name": "Zoë"}
            with host.batch():
                for seq, route in enumerate(routes, 1):
                    assert host.send_now(route, {"v": 1, "type": "update", "term": 0, "seq": seq,
                                                 "body": body})
            assert encoded == [body]  # once, for both
            for seq, peer in enumerate((one, two), 1):
                assert await peer.receive(timeout_s=3) == {"v": 1, "type": "update", "term": 0,
                                                           "seq": seq, "body": body}
            encoded.clear()
            host.send_now(routes[0], {"v": 1, "type": "update", "term": 0, "seq": 3, "body": body})
            assert len(encoded) == 1 and encoded[0] is not body  # outside a batch: whole

    run(scenario)
