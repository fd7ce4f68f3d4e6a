"""Play again after a LAN match: the host offers the same seats, the others see it and accept.

The host's ``r`` opens the table again at the same port and keeps every person's seat of the last
match for them (``HostSession.reserve``, for ``HOLD_S``): a stranger may take only a seat nobody
had, and a seat whose player does not come back opens to anyone after that. A joiner's client asks
the host's key service (at the last match's address) now and then from the match's end on: a new
key there is the host's offer, and the summary says so; ``r`` accepts it and sits down again, in
the seat kept for this player's identity.

After a host migration the member that hosts at the match's end offers it (``hosted_again``): it
opens the table again at its own port (where the others reconnected), sitting at seat 0 as every
host does; whoever had seat 0 (the host that left) is kept the seat this host had. The others look
out for the offer at that member's address (``new_host_at``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lanomino.client.seam import TableNode
    from lanomino.ui.lan import HostTable, JoinTable, LanView

HOLD_S = 60.0  # how long a rematch keeps the last match's seats for their players
OFFER_WAIT_S = 180.0  # how long a joiner's summary looks out for the host's offer
ASK_EVERY_S = 1.0


def kept_seats(node: TableNode | None) -> tuple[dict[bytes, int], dict[int, str]]:
    """The people of a hosted match, for its rematch: identity key -> seat, and seat -> name
    (the host's own seat and the bots' are the table's anyway; the rematch's host sits at seat
    0, so whoever sat there takes the seat this host had)."""
    from lanomino.node import HostNode, PeerNode

    if isinstance(node, HostNode):
        roster, mine = node.session.roster(), 0
    elif isinstance(node, PeerNode) and node.host is not None and node.session.seat is not None:
        roster, mine = node.host.roster(), int(node.session.seat)
    else:
        return {}, {}
    people = [(mine if int(e["seat"]) == 0 else int(e["seat"]), e) for e in roster
              if e["kind"] == "human"]
    return ({bytes.fromhex(e["identity"]): n for n, e in people},
            {n: str(e["name"]) for n, e in people})


def hosted_again(node: TableNode | None) -> HostTable | None:
    """How a member that hosts the table at the match's end (after a migration) opens it again:
    the same name, rules, seats, bots and passphrase (None: this node does not host)."""
    from lanomino.node import PeerNode
    from lanomino.ui.lan import HostTable

    if not isinstance(node, PeerNode) or node.host is None:
        return None
    host = node.host
    bots = sum(1 for e in host.roster() if e["kind"] == "bot")
    levels = sorted(set(node.session.bot_levels.values()))
    return HostTable(node.table_label(), str(host.rules.to_spec()["preset"]), host.players, bots,
                     levels[0] if levels else "normal", node.passphrase, rules=host.rules,
                     escrow=host.escrow)


def new_host_at(node: TableNode | None, seat: int) -> tuple[str, str, bytes] | None:
    """Where the member at ``seat`` hosts the table now: ("HOST:PORT", its CURVE key, its
    identity key), from the roster a peer was sent (None: not known)."""
    from lanomino.net.election import entry_of, host_address, raw_key
    from lanomino.node import PeerNode

    if not isinstance(node, PeerNode):
        return None
    entry = entry_of(node.session.roster, seat)
    where = host_address(entry)
    if entry is None or where is None:
        return None
    return f"{where[0]}:{where[1]}", where[2], raw_key(entry["identity"])


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
