"""A bot peer that keeps its connection and heartbeats up but never sends some message types
(``--mute commit,move``): a silent-but-connected player, for the deadline tests. The rest of the
arguments are ``lanomino bot``'s."""

from __future__ import annotations

import sys
from typing import Any

from lanomino.cli import main
from lanomino.net.peer.session import PeerSession
from lanomino.runtime.host_link import HostLink


def muted(types: set[str]) -> None:
    if "move" in types:  # a player who never moves: no move is made (a move made and lost on
        # the way is the host's to pass on, and the seat would rightly leave a host that does not)
        PeerSession.submit = lambda self, action, now: None  # type: ignore[method-assign]
    send = HostLink.send

    async def silent_send(self: HostLink, message: dict[str, Any]) -> None:
        if message.get("type") in types:
            return
        await send(self, message)

    HostLink.send = silent_send  # type: ignore[method-assign]


if __name__ == "__main__":
    args = sys.argv[1:]
    at = args.index("--mute")
    muted(set(args[at + 1].split(",")))
    sys.exit(main(["bot", *args[:at], *args[at + 2:]]))
