"""A member's standby ROUTER (runtime/standby.py) on real CURVE sockets on 127.0.0.1: what reaches
it before the member hosts waits, and is served first once it does."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport
from lanomino.runtime import standby

pytestmark = pytest.mark.timeout(30)


class Host:
    """The host session's receive, as the standby loop calls it: what it was given, in order."""

    def __init__(self) -> None:
        self.got: list[str] = []

    def receive(self, sender: Any, message: dict[str, Any], now: float) -> None:
        self.got.append(message["body"]["name"])


class Member:
    """The parts of a PeerNode the standby loop reads: its ROUTER, its host (None until an
    election makes it one), its flush and wake-up."""

    def __init__(self, router: HostTransport) -> None:
        self.standby: HostTransport | None = router
        self.host: Host | None = None
        self.wake = asyncio.Event()
        self.flushes = 0

    def now(self) -> float:
        return 0.0

    def _flush(self) -> None:
        self.flushes += 1


def hello(name: str) -> dict[str, Any]:
    return {"v": 1, "type": "hello", "term": 1, "seq": 1, "body": {"name": name}}


def test_a_hello_that_waited_is_served_first_even_when_another_arrives_as_the_member_hosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The LAN kill test's failure on a loaded machine: two survivors said hello to the next
    candidate; the first hello reached it before it hosted and waited; the second arrived just as
    it began to host, and the loop served that one and dropped what waited, so the first survivor
    was never let in and the table needed two more terms."""
    monkeypatch.setattr(standby, "WAIT_S", 5.0)  # the loop wakes only on a message (no poll)

    async def scenario() -> list[str]:
        keys = CurveKeypair.generate()
        router = HostTransport(keys, bind_ip="127.0.0.1", port=0)
        await router.start()
        member = Member(router)
        serving = asyncio.create_task(standby.serve(member))  # type: ignore[arg-type]
        first = PeerTransport(CurveKeypair.generate(), keys.public, "127.0.0.1", router.port)
        second = PeerTransport(CurveKeypair.generate(), keys.public, "127.0.0.1", router.port)
        try:
            await first.connect(timeout_s=3)
            await second.connect(timeout_s=3)
            await first.send(hello("first"))
            await asyncio.sleep(0.2)  # it reached the member, which does not host yet: it waits
            host = Host()
            member.host = host  # an election made the member the host ...
            await second.send(hello("second"))  # ... and a hello arrives before the loop looks
            async with asyncio.timeout(5):
                while len(host.got) < 2:
                    await asyncio.sleep(0.01)
            return host.got
        finally:
            serving.cancel()
            await asyncio.gather(serving, return_exceptions=True)
            first.close()
            second.close()
            router.close()

    assert asyncio.run(scenario()) == ["first", "second"]
