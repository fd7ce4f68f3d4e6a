"""A host process patched to cheat, for tests/net/test_disputes_procs.py: a real ``HostNode`` on
127.0.0.1 (no announcement) whose session plays one move for a connected seat (tests/net/hostile.py
and test_disputes.py), as a host who edits their own copy would. It prints its address as one JSON
line, then serves until the match ends or it is stopped.

    python tests/net/disputing_host.py away|move DATA_DIR SEATS
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import plays_for  # noqa: E402
from test_disputes import marks_away_and_plays  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import Timings  # noqa: E402
from lanomino.node import HostNode  # noqa: E402


async def main(cheat: str, data_dir: Path, seats: int) -> None:
    clock = 20.0 if cheat == "away" else None  # the away cheat needs a table with a move clock
    node = HostNode(data_dir=data_dir, rules=Rules.preset("classic", target=60),
                    seats=seats, bots=0, level="greedy", name="cheat",
                    player="host", passphrase=None, bind="127.0.0.1", port=0,
                    timings=Timings(move_s=clock), interfaces=None, headless=True,
                    announce=False)
    if cheat == "away":
        marks_away_and_plays(node.session, 1)
    else:
        plays_for(node.session, 2, away=False, limit=1)
    await node.start()
    print(json.dumps({"address": node.address}), flush=True)
    try:
        await node.run()
    finally:
        await node.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])))
