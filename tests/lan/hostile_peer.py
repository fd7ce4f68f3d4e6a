"""A hostile peer for the LAN tests, run inside a lab namespace (the attacks of scripts/attack.py).

    hostile_peer.py hello ADDRESS SECONDS CONNECTIONS      unseated connections flood hello
    hostile_peer.py guess ADDRESS SECONDS CONNECTIONS PIN [SOURCE]
                                                           guess the table's PIN (never PIN itself),
                                                           from the local address SOURCE if given
    hostile_peer.py forge ADDRESS DATA_DIR INTERFACE       sit down, sign 3 moves with garbage

Prints JSON lines: {"event": "started"}, then {"event": "done", ...} with what it achieved.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from attack import TIMINGS, forge_moves, guess_passphrases, hello_flood  # noqa: E402

from lanomino.net.keys import parse_direct_address  # noqa: E402


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


async def forge(address: str, data_dir: str, interface: str) -> None:
    from lanomino.node import PeerNode

    node = PeerNode(
        data_dir=Path(data_dir),
        address=parse_direct_address(address),
        player="forger",
        passphrase=None,
        timings=TIMINGS,
        level=None,
        source_ip=interface,
        migration=False,
        announce=False,
    )
    forged = forge_moves(node)
    await node.start()
    say(event="started")
    try:
        outcome = await node.run()
    finally:
        await node.close()
    say(
        **{
            **outcome.to_json(),
            "event": "done",
            "forged": forged["sent"],
            "refused": forged["refused"],
        }
    )


async def main(mode: str, address: str, *rest: str) -> None:
    if mode == "forge":
        await forge(address, *rest)
        return
    seconds, connections = float(rest[0]), int(rest[1])
    where = parse_direct_address(address)
    say(event="started")
    if mode == "hello":
        say(event="done", sent=await hello_flood(where, seconds, connections))
    else:
        source = rest[3] if len(rest) > 3 else None
        answers = await guess_passphrases(where, seconds, connections, rest[2], source)
        say(
            event="done",
            wrong=sum(c == "passphrase" for _, c in answers),
            throttled=sum(c == "throttled" for _, c in answers),
        )


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
