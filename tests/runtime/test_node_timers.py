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
