"""A session that fails on one message does not leave its node deaf (runtime/base.py ``hear``).

Found at a locked table in real processes (issue 29): a person who quit at a hand's end made the
host's session raise on its goodbye, which ended the host node's receiving task; its timers went
on pinging, so the seats kept it, while it heard nobody: four seconds later the host stopped
("lost touch with most of the table") and the match was lost. Here a real host node and a real
peer node over ZeroMQ on 127.0.0.1 play a match in which each one's session fails once, on the
first ping it gets (the peer thinks a little, so pings go both ways): both nodes hear on, the
match finishes, and each outcome counts the message it dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lanomino.engine import Rules
from lanomino.net.keys import DirectAddress
from lanomino.net.session import Timings
from lanomino.runtime.base import Outcome
from lanomino.runtime.host_node import HostNode
from lanomino.runtime.peer_node import PeerNode

pytestmark = pytest.mark.timeout(60)


def fail_once_on(session: Any, kind: str) -> list[str]:
    """Make ``session.receive`` raise on the first message of type ``kind`` (before anything
    changed, as a fault of ours would); returns the kinds it received after that one."""
    receive, heard, failed = session.receive, [], []

    def faulty(*args: Any) -> None:
        message = next(a for a in args if isinstance(a, dict))
        if message.get("type") == kind and not failed:
            failed.append(kind)
            raise RuntimeError("a fault of the session's own")
        if failed:
            heard.append(str(message.get("type")))
        receive(*args)

    session.receive = faulty
    return heard


def test_a_node_whose_session_fails_on_a_message_hears_on_and_the_match_finishes(
        tmp_path: Path) -> None:
    timings = Timings(heartbeat_s=0.1, liveness_s=0.5, grace_s=2.0)

    async def scenario() -> tuple[Outcome, Outcome, list[str], list[str]]:
        host = HostNode(data_dir=tmp_path / "host", rules=Rules.preset("classic", target=20),
                        seats=2, bots=0, level="greedy", name="Faulty", player="host",
                        passphrase=None, bind="127.0.0.1", port=0, timings=timings,
                        interfaces=None, announce=False)
        await host.start()
        peer = PeerNode(data_dir=tmp_path / "peer", player="peer", passphrase=None,
                        address=DirectAddress("127.0.0.1", host.transport.port,
                                              host.keys.public),
                        timings=timings, level="greedy", source_ip="127.0.0.1",
                        table_name="Faulty", announce=False, migration=False, delay_s=0.2)
        await peer.start()
        host_heard = fail_once_on(host.session, "ping")
        peer_heard = fail_once_on(peer.session, "ping")

        async def run(node: HostNode | PeerNode) -> Outcome:
            try:
                return await node.run()
            finally:
                await node.close()

        async with asyncio.timeout(45):
            outcomes = await asyncio.gather(run(host), run(peer))
        return outcomes[0], outcomes[1], host_heard, peer_heard

    host, peer, host_heard, peer_heard = asyncio.run(scenario())
    assert host.finished and peer.finished, (host.reason, peer.reason)
    assert host.scores == peer.scores and max(host.scores) >= 20
    assert host.problems.get("failed.ping") == 1, host.problems
    assert peer.problems.get("failed.ping") == 1, peer.problems
    assert "move" in host_heard and "update" in peer_heard  # (moves heard after the fault)
