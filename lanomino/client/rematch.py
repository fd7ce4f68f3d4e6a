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

A joiner who goes back to the menu instead says no (``decline``): it is let in as a watcher and
says goodbye with ``net.watchers.DECLINE``; the host frees the seat at once and its waiting screen
says who declined.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lanomino.client.seam import TableNode
    from lanomino.discovery.table_key import TableKey
    from lanomino.net.keys import DirectAddress
    from lanomino.node import Outcome, PeerNode
    from lanomino.ui.lan import HostTable, JoinTable, LanView

HOLD_S = 60.0  # how long a rematch keeps the last match's seats for their players
OFFER_WAIT_S = 180.0  # how long a joiner's summary looks out for the host's offer
ASK_EVERY_S = 1.0
DECLINE_WAIT_S = 5.0  # how long a joiner who says no waits to be let in to say it


def kept_seats(node: TableNode | None) -> tuple[dict[bytes, int], dict[int, str]]:
    """The people of a hosted match, for its rematch: identity key -> seat, and seat -> name
    (the host's own seat and the bots' are the table's anyway; the rematch's host sits at seat
    0, so whoever sat there takes the seat this host had)."""
    hosting = None if node is None else node.hosting()
    if hosting is None:
        return {}, {}
    mine = hosting.seat
    people = [(mine if e.seat == 0 else e.seat, e) for e in hosting.roster if e.kind == "human"]
    return {e.identity: n for n, e in people}, {n: e.name for n, e in people}


def hosted_again(node: TableNode | None) -> HostTable | None:
    """How a member that hosts the table at the match's end (after a migration) opens it again:
    the same name, rules, seats, bots, passphrase and deal (None: this node does not host, or hosted
    from the start: its rematch opens as any host's does)."""
    from lanomino.ui.lan import HostTable

    h = None if node is None else node.hosting()
    if h is None or not h.took_over:
        return None
    bots = sum(1 for e in h.roster if e.kind == "bot")
    return HostTable(h.name, str(h.rules.to_spec()["preset"]), h.players, bots,
                     h.bot_levels[0] if h.bot_levels else "normal", h.passphrase, rules=h.rules,
                     escrow=h.escrow, blind=h.blind)


def new_host_at(node: TableNode | None, seat: int) -> tuple[str, str, bytes] | None:
    """Where the member at ``seat`` hosts the table now: ("HOST:PORT", its CURVE key, its
    identity key), from the roster a peer was sent (None: not known)."""
    return None if node is None else node.member_address(seat)


async def watch_for_offer(lan: LanView, still_here: Callable[[], bool], join: JoinTable,
                          old_key: str, host: str, redraw: Callable[[], None],
                          seen: Callable[[TableKey], None]) -> None:
    """Ask the last match's address until it answers with a new key (the host's offer: ``seen``
    is given the answer, then ``lan.rematch`` names the host), the player moves on, or
    ``OFFER_WAIT_S`` pass."""
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
            seen(answer)  # (before the screen offers it: leaving from then on declines it)
            lan.rematch = host
            redraw()
            return
        await asyncio.sleep(ASK_EVERY_S)


class Offer:
    """A joiner's side of a rematch: it looks out for the host's offer (``look``), and once one
    was seen, leaving without accepting it says no (``stop``)."""

    def __init__(self) -> None:
        self.looking: asyncio.Future[None] | None = None
        self.offered: TableKey | None = None  # the host's offer, once seen
        self.watcher_at: Callable[[DirectAddress], PeerNode] | None = None  # (join_table's)

    def look(self, lan: LanView, still_here: Callable[[], bool], join: JoinTable, old_key: str,
             host: str, redraw: Callable[[], None]) -> None:
        """Watch ``join``'s address for the offer (``watch_for_offer``), once."""
        if self.looking is None:
            self.looking = asyncio.ensure_future(
                watch_for_offer(lan, still_here, join, old_key, host, redraw, self._seen))

    def _seen(self, answer: TableKey) -> None:
        self.offered = answer

    def accept(self) -> None:
        """The player takes the offer: leaving the last match declines nothing."""
        self.offered = None

    def stop(self, join: object) -> Awaitable[bool] | None:
        """Stop looking; the way to decline the offer seen at ``join``'s address (None: no offer
        was seen, or it was accepted)."""
        from lanomino.client.address import parse_target
        from lanomino.net.keys import DirectAddress
        from lanomino.ui.lan import JoinTable

        if self.looking is not None:
            self.looking.cancel()
            self.looking = None
        offered, self.offered = self.offered, None
        if offered is None or self.watcher_at is None or not isinstance(join, JoinTable):
            return None
        host = parse_target(join.address).host
        return decline(self.watcher_at(DirectAddress(host, offered.port, offered.curve)))


async def decline(node: PeerNode) -> bool:
    """Tell a rematch's host (``node``: a watcher of its table) that this player will not play
    it, within ``DECLINE_WAIT_S``. True when the host was told."""
    from lanomino.net.session import Closed, Joined, JoinRefused
    from lanomino.net.watchers import DECLINE

    let_in: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def heard(event: object) -> None:
        if isinstance(event, Joined | JoinRefused | Closed) and not let_in.done():
            let_in.set_result(isinstance(event, Joined))

    node.subscribe(heard)
    running: asyncio.Future[Outcome] | None = None
    try:
        async with asyncio.timeout(DECLINE_WAIT_S):  # (never wait_for: runtime/stopping.py)
            await node.start()
        running = asyncio.ensure_future(node.run())
        async with asyncio.timeout(DECLINE_WAIT_S):
            told = await let_in
        if told:
            node.quit(DECLINE)
            await asyncio.wait([running], timeout=1.0)  # (its goodbye leaves)
        return told
    except (TimeoutError, OSError, ValueError):
        return False
    finally:
        if running is not None and not running.done():
            running.cancel()
        await node.close()
