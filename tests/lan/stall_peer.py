"""A bot peer that keeps its connection and heartbeats up but never sends some message types
(``--mute commit,move``): a silent-but-connected player, for the deadline tests. The rest of the
arguments are ``lanomino bot``'s."""

from __future__ import annotations

import sys
from typing import Any

from lanomino import node
from lanomino.cli import main


def muted(types: set[str]) -> None:
    send = node.PeerNode._send

    async def silent_send(self: node.PeerNode, message: dict[str, Any]) -> None:
        if message.get("type") in types:
            return
        await send(self, message)

    node.PeerNode._send = silent_send  # type: ignore[method-assign]


if __name__ == "__main__":
    args = sys.argv[1:]
    at = args.index("--mute")
    muted(set(args[at + 1].split(",")))
    sys.exit(main(["bot", *args[:at], *args[at + 2:]]))
