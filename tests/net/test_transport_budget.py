"""The host transport under a flood: budgets per connection, bounded work per loop turn (real
CURVE sockets on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import zmq

from lanomino.net.budget import SEATED, UNSEATED, Budgets
from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport

pytestmark = pytest.mark.timeout(30)
MEMBER_SENDS = int(SEATED.burst) - 10


async def _drain(host: HostTransport, quiet_s: float = 0.3) -> list[str]:
    got: list[str] = []
    while (incoming := await host.receive(quiet_s)) is not None:
        got.append(incoming.peer_key)
    return got


def test_unseated_flood_is_dropped_and_a_seated_peer_keeps_its_budget() -> None:
    async def main() -> None:
        keys = CurveKeypair.generate()
        member = CurveKeypair.generate()
        host = HostTransport(keys, budgets=Budgets(), is_seated=lambda k: k == member.public)
        await host.start()
        stranger = PeerTransport(CurveKeypair.generate(), keys.public, "127.0.0.1", host.port)
        seated = PeerTransport(member, keys.public, "127.0.0.1", host.port)
        try:
            await stranger.connect(3)
            await seated.connect(3)
            for i in range(500):
                stranger.send_now({"n": i})
            for i in range(MEMBER_SENDS):
                seated.send_now({"n": i})
            got = await _drain(host)
        finally:
            stranger.close()
            seated.close()
            host.close()
        from_stranger = got.count(stranger.keypair.public)
        assert UNSEATED.burst <= from_stranger <= UNSEATED.burst + 2  # (a refill during the test)
        assert got.count(member.public) == MEMBER_SENDS  # within SEATED's burst
        assert host.stats.over_budget == 500 - from_stranger

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_flood_cannot_starve_the_event_loop() -> None:
    """While one connection floods, a ticker task on the same loop keeps running (heartbeats
    are such a task), and a newcomer completes its CURVE handshake (the ZAP handler too)."""

    async def main() -> None:
        keys = CurveKeypair.generate()
        host = HostTransport(keys, budgets=Budgets(), is_seated=lambda k: False)
        await host.start()
        gaps: list[float] = []
        stop = asyncio.Event()
        flooding = threading.Event()
        flooder = threading.Thread(target=_flood, args=(keys.public, host.port, flooding))

        async def ticker() -> None:
            last = time.monotonic()
            while not stop.is_set():
                await asyncio.sleep(0.01)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        async def consume() -> None:
            while not stop.is_set():
                await host.receive(0.05)

        flooder.start()
        tasks = [asyncio.create_task(ticker()), asyncio.create_task(consume())]
        newcomer = PeerTransport(CurveKeypair.generate(), keys.public, "127.0.0.1", host.port)
        try:
            await asyncio.sleep(0.3)
            assert flooding.is_set()
            await newcomer.connect(3)  # raises if the handshake starves
            await asyncio.sleep(0.5)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            flooder.join()
            newcomer.close()
            host.close()
        assert host.stats.over_budget > 1000
        assert max(gaps) < 0.2, f"the loop was starved for {max(gaps):.3f} s"

    asyncio.run(asyncio.wait_for(main(), 20))


def _flood(server_key: str, port: int, flooding: threading.Event, seconds: float = 1.5) -> None:
    """A thread sending small frames as fast as it can for ``seconds``."""
    ctx: zmq.Context[Any] = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    public, secret = zmq.curve_keypair()
    sock.curve_serverkey, sock.curve_publickey, sock.curve_secretkey = (
        server_key.encode("ascii"), public, secret)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(f"tcp://127.0.0.1:{port}")
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            try:
                sock.send(b'{"x":1}', zmq.NOBLOCK)
                flooding.set()
            except zmq.Again:
                time.sleep(0.0005)
    finally:
        sock.close(linger=0)
        ctx.destroy(linger=0)
