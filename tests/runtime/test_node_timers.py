"""The node's timer task (runtime/base.py): it must stop when the node stops, whatever it was
waiting for at that moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lanomino.runtime.base import NodeBase, Outcome


def test_the_timer_task_stops_when_the_match_ends_as_a_message_wakes_it(tmp_path: Path) -> None:
    """A chaos game's new host: a peer's ping woke the timer task just as the match ended. On
    Python 3.11 ``asyncio.wait_for`` returns instead of raising when the cancel finds the wait it
    wraps already done, so the task ran on, the node never closed and never printed its
    outcome."""

    async def scenario() -> Outcome:
        node = NodeBase(tmp_path)
        node.done = asyncio.get_running_loop().create_future()
        timers = asyncio.create_task(node._timers(lambda now: None, lambda: None))
        serving = asyncio.create_task(node._serve([timers], linger_s=0.0))
        await asyncio.sleep(0.01)  # the timer task waits for a wake-up
        node.wake.set()  # a message arrived ...
        node._finish(Outcome(True))  # ... with the match's end: the node stops its tasks
        try:
            return await asyncio.wait_for(serving, 2.0)
        finally:
            timers.cancel()

    assert asyncio.run(scenario()).finished


def test_a_host_that_stepped_down_stops_the_peer_following_the_match(tmp_path: Path) -> None:
    """A stop signal reaches the host node (``install_quit_handlers``); after it stepped down
    the peer that follows the match for it is what has to leave."""
    from lanomino.engine import Rules
    from lanomino.net.keys import DirectAddress
    from lanomino.net.session import Timings
    from lanomino.net.zmq_transport import CurveKeypair
    from lanomino.runtime.host_node import HostNode
    from lanomino.runtime.peer_node import PeerNode

    async def scenario() -> Outcome:
        host = HostNode(data_dir=tmp_path, rules=Rules.classic(), seats=3,
                        bots=0, level="random", name="Stepped", player="host", passphrase=None,
                        bind="127.0.0.1", port=0, timings=Timings(), interfaces=None,
                        announce=False)
        host.done = asyncio.get_running_loop().create_future()
        host._finish(Outcome(False, reason="stepped down", stepped_down=True))
        follower = PeerNode(data_dir=tmp_path, player="host", passphrase=None, timings=Timings(),
                            address=DirectAddress("127.0.0.1", 9, CurveKeypair.generate().public),
                            level=None, migration=False, announce=False)
        follower.done = asyncio.get_running_loop().create_future()
        host.follower = follower
        host.quit()
        async with asyncio.timeout(1.0):
            return await follower.done

    assert asyncio.run(scenario()).reason == "quit"
