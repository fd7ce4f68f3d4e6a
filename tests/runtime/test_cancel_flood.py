"""A node stops when it is told to, however busy it is (issue 32).

Each long-running task of a host and of a peer (receiving, timers, watching the LAN for a newer
host) is stopped many times while events arrive as fast as the event loop can deliver them:
browser events, pings and other messages over real ZeroMQ sockets on 127.0.0.1. The node must
finish every time. On Python 3.11 an ``asyncio.wait_for`` whose inner wait has just finished
returns instead of raising the cancel, so a loop around one runs on and the node never closes.

The browser's queue is fed straight from the test (its zeroconf sockets are not opened: the race
is in asyncio, and multicast may only run inside the namespaces of tests/discovery/); everything
else is the real node.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from lanomino.discovery import zeroconf_adapter
from lanomino.discovery.announce import TableAnnouncement
from lanomino.discovery.zeroconf_adapter import SeenTable, TableAnnouncer, TableBrowser, TableEvent
from lanomino.engine import Rules
from lanomino.net.keys import DirectAddress
from lanomino.net.session import Timings
from lanomino.net.wire.messages import Ping
from lanomino.net.wire.schemas import build
from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport
from lanomino.runtime.base import NodeBase, Outcome
from lanomino.runtime.host_node import HostNode
from lanomino.runtime.peer_node import PeerNode

pytestmark = pytest.mark.timeout(120)

ROUNDS = 60
STOP_WITHIN_S = 1.0  # a stopped node's tasks are all over within this
HOST_KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"


def _table_event(n: int) -> TableEvent:
    seen = TableAnnouncement(name="Elsewhere", rules="classic", seats_taken=1, seats_total=4,
                             host_peer_id=f"{n:016x}", term=0, has_passphrase=False,
                             host_key=HOST_KEY)
    return TableEvent("updated", SeenTable(seen.service_name, seen, ("127.0.0.1",), 4000))


class FloodedBrowser(TableBrowser):
    """A ``TableBrowser`` whose queue the test fills without a pause (no sockets are opened)."""

    floods: list[FloodedBrowser] = []

    async def start(self) -> None:
        FloodedBrowser.floods.append(self)

    async def close(self) -> None:
        FloodedBrowser.floods.remove(self)


async def _flood_browsers(running: Callable[[], bool]) -> None:
    n = 0
    while running():
        for browser in list(FloodedBrowser.floods):
            n += 1
            browser._queue.put_nowait(_table_event(n % 64))
            while browser._queue.qsize() > 64:  # (a bounded backlog: always something queued)
                browser._queue.get_nowait()
        await asyncio.sleep(0)


async def _flood_sends(send: Callable[[int], object], running: Callable[[], bool]) -> None:
    seq = 0
    while running():
        seq += 1
        try:
            send(seq)
        except Exception:  # noqa: BLE001 - a full queue or a closed socket: keep flooding
            pass
        await asyncio.sleep(0)


@asynccontextmanager
async def _floods(*senders: Callable[[int], object]) -> AsyncIterator[None]:
    on = [True]
    tasks = [asyncio.create_task(_flood_browsers(lambda: on[0]))]
    tasks += [asyncio.create_task(_flood_sends(send, lambda: on[0])) for send in senders]
    try:
        yield
    finally:
        on[0] = False
        await asyncio.gather(*tasks, return_exceptions=True)


Flooded = tuple[NodeBase, Callable[[int], object]]  # a node, and how to flood it


async def _stop_under_flood(start: Callable[[], Awaitable[Flooded]], rounds: int,
                            seed: int) -> list[str]:
    """``rounds`` times: start a node (``start`` gives it and the way to flood it), run it and, at a
    random moment, stop it, in turn by the match's end, by cancelling its run, and by cancelling
    each of its tasks one by one; then close it. The rounds in which the node, or a task of it,
    did not finish in time."""
    rng = random.Random(seed)
    stuck: list[str] = []
    for index in range(rounds):
        node, send = await start()
        how = ("finished", "cancelled", "each task cancelled")[index % 3]
        async with _floods(send):
            ours = set(asyncio.all_tasks())  # (the test's own: this one and the floods)
            running = asyncio.create_task(node.run())
            if isinstance(node, PeerNode):  # as an election starts it (net/member.py's Watch)
                node._spawn(node._watch_terms())
            await asyncio.sleep(rng.uniform(0.0, 0.03))
            stopping = asyncio.create_task(_stop(node, running, how, ours))
            done, _ = await asyncio.wait([stopping], timeout=STOP_WITHIN_S)
        if not done or node.tasks:
            names = sorted(t.get_coro().__qualname__  # type: ignore[union-attr]
                           for t in asyncio.all_tasks()
                           if not t.done() and t is not asyncio.current_task())
            stuck.append(f"round {index} ({how}): still running {names}")
            await _unstick(ours)
            await node.close()  # type: ignore[attr-defined]
    return stuck


async def _stop(node: NodeBase, running: asyncio.Task[Outcome], how: str,
                ours: set[asyncio.Task[object]]) -> None:
    if how == "each task cancelled":
        for task in asyncio.all_tasks() - ours - {running, asyncio.current_task()}:
            task.cancel()
            await asyncio.wait([task])
        node._finish(Outcome(False, reason="test"))
    elif how == "cancelled":
        running.cancel()
    else:
        node._finish(Outcome(False, reason="test"))
    try:
        await running
    except asyncio.CancelledError:
        pass
    await node.close()  # type: ignore[attr-defined]


async def _unstick(ours: set[asyncio.Task[object]]) -> None:
    """After a failed round: stop what of the node still runs (the floods are over: no wait is
    cut short)."""
    for _ in range(50):
        left = [t for t in asyncio.all_tasks() - ours if t is not asyncio.current_task()]
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.sleep(0.05)


async def _host(tmp_path: Path) -> Flooded:
    """A host announcing (never registered: no socket opens) with a peer pinging it."""
    node = HostNode(data_dir=tmp_path, rules=Rules.classic(), seats=4,
                    bots=0, level="random", name="Busy", player="host", passphrase=None,
                    bind="127.0.0.1", port=0, timings=Timings(), interfaces=["127.0.0.1"],
                    announce=False)
    await node.start()
    node.announcer = TableAnnouncer(["127.0.0.1"])
    pinger = PeerTransport(CurveKeypair.generate(), node.keys.public, "127.0.0.1",
                           node.transport.port)
    await pinger.connect()
    closing = node.close

    async def close() -> None:
        pinger.close()
        await closing()

    node.close = close  # type: ignore[method-assign]
    return node, lambda seq: pinger.send_now(build(Ping(), 0, seq))


def test_a_host_stops_every_time_while_pings_and_browser_events_pour_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zeroconf_adapter, "TableBrowser", FloodedBrowser)
    assert asyncio.run(_stop_under_flood(lambda: _host(tmp_path), ROUNDS, seed=32)) == []


def test_a_peer_stops_every_time_while_messages_and_browser_events_pour_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zeroconf_adapter, "TableBrowser", FloodedBrowser)

    async def scenario() -> list[str]:
        keys = CurveKeypair.generate()
        table = HostTransport(keys, bind_ip="127.0.0.1")  # (a host that only floods)
        await table.start()

        async def peer() -> Flooded:
            node = PeerNode(data_dir=tmp_path, player="peer", passphrase=None,
                            address=DirectAddress("127.0.0.1", table.port, keys.public),
                            timings=Timings(), level="random", source_ip="127.0.0.1",
                            table_name="Busy")
            await node.start()
            while True:  # its hello: the connection to flood
                hello = await table.receive(5.0)
                assert hello is not None
                if hello.peer_key == node.keys.public:
                    break
            return node, lambda seq: table.send_now(hello.identity, build(Ping(), 0, seq))

        try:
            return await _stop_under_flood(peer, ROUNDS, seed=33)
        finally:
            table.close()

    assert asyncio.run(scenario()) == []
