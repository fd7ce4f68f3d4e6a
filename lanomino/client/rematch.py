"""Play again after a LAN match: the host offers the same seats, the others see it and accept.

The host's ``r`` opens the table again at the same port and keeps every person's seat of the last
match for them (``HostSession.reserve``, for ``HOLD_S``): a stranger may take only a seat nobody
had, and a seat whose player does not come back opens to anyone after that. A joiner's client asks
the host's key service (at the last match's address) now and then from the match's end on: a new
key there is the host's offer, and the summary says so; ``r`` accepts it and sits down again, in
the seat kept for this player's identity.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lanomino.client.seam import TableNode
    from lanomino.ui.lan import JoinTable, LanView

HOLD_S = 60.0  # how long a rematch keeps the last match's seats for their players
OFFER_WAIT_S = 180.0  # how long a joiner's summary looks out for the host's offer
ASK_EVERY_S = 1.0


def kept_seats(node: TableNode | None) -> tuple[dict[bytes, int], dict[int, str]]:
    """The people of a hosted match, for its rematch: identity key -> seat, and seat -> name
    (the host's own seat and the bots' are the table's anyway)."""
    from lanomino.node import HostNode

    if not isinstance(node, HostNode):
        return {}, {}
    people = [e for e in node.session.roster() if e["kind"] == "human"]
    return ({bytes.fromhex(e["identity"]): int(e["seat"]) for e in people},
            {int(e["seat"]): str(e["name"]) for e in people})


async def watch_for_offer(lan: LanView, still_here: Callable[[], bool], join: JoinTable,
                          old_key: str, host: str, redraw: Callable[[], None]) -> None:
    """Ask the last match's address until it answers with a new key (the host's offer: then
    ``lan.rematch`` names the host), the player moves on, or ``OFFER_WAIT_S`` pass."""
    from lanomino.client.address import parse_target
    from lanomino.discovery.key_service import KeyServiceError, fetch_table_key

    try:
        target = parse_target(join.address)
    except ValueError:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + OFFER_WAIT_S
    while still_here() and loop.time() < deadline:
        try:
            answer = await fetch_table_key(target.host, target.port, timeout_s=ASK_EVERY_S)
        except KeyServiceError:
            answer = None
        if answer is not None and answer.curve != old_key and still_here():
            lan.rematch = host
            redraw()
            return
        await asyncio.sleep(ASK_EVERY_S)
