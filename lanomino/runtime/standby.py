"""A member's standby ROUTER (docs/host-migration.md): bound by every ``PeerNode`` at start, at
the address the roster gives for it.

While the member is a peer it hears on it only a member's proof against the host
(net/peer/proof_passing.py), which its peer session checks; anything else (a hello from a member
that elected sooner) waits for this member to host, as it would in the socket. Once an election
made it the host it serves the table there. ``tell`` sends a proof to another member's standby
ROUTER.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from lanomino.engine.errors import seat_name
from lanomino.net.election import entry_of, host_address
from lanomino.net.errors import TransportError
from lanomino.net.session import HostSession, Sender
from lanomino.net.wire.checks import JsonObject
from lanomino.net.zmq_transport import Incoming, PeerTransport
from lanomino.runtime.stopping import cancelling

if TYPE_CHECKING:
    from lanomino.runtime.peer_node import PeerNode

log = logging.getLogger("lanomino.node")
WAITING = 256  # messages kept until this member hosts (a peer's socket would hold them)
WAIT_S = 0.02  # how often a member with messages waiting looks whether it hosts yet
TELL_LINGER_S = 0.5  # a proof sent to a member: time for ZeroMQ to send it before the close
PREVOTE = "prevote"


async def serve(node: PeerNode) -> None:
    """Read ``node``'s standby ROUTER until the node stops (see the module docstring)."""
    while node.standby is None:
        if cancelling():
            return
        await asyncio.sleep(0.01)
    waiting: list[Incoming] | None = []  # None once this member has hosted
    while not cancelling():
        if waiting and node.host is not None:  # it hosts now: what waited is served first
            for each in waiting:
                _serve_one(node, node.host, each)
            waiting = None
            node._flush()
            node.wake.set()
        # (while messages wait, look every WAIT_S whether this member hosts yet)
        incoming = await node.standby.receive(WAIT_S if waiting else None)
        if incoming is None:
            continue
        host = node.host
        if host is None:
            if incoming.message.get("type") == "proof":
                node.session.elections.proof(incoming.message, incoming.peer_key, node.now())
                node._flush()
                node.wake.set()
            elif incoming.message.get("type") == PREVOTE:
                _prevote(node, incoming)
            elif waiting is not None and len(waiting) < WAITING:
                waiting.append(incoming)  # (a candidate gone back to being a peer: dropped)
            continue
        # it hosts now, and a message came before the loop looked: what waited goes first (a
        # member's hello left here was lost when another's arrived just as this member began to
        # host, and the table needed two more terms: the LAN kill test's failure on CI)
        for each in waiting or ():
            _serve_one(node, host, each)
        waiting = None
        if incoming.message.get("type") == PREVOTE:  # (a member's, not the host session's)
            _prevote(node, incoming)
            continue
        _serve_one(node, host, incoming)
        node._flush()
        node.wake.set()


def _prevote(node: PeerNode, incoming: Incoming) -> None:
    """A member's pre-vote (net/peer/prevotes.py): the member acts on it or answers it."""
    node.member.prevote(incoming.message, incoming.peer_key, node.now())
    node._flush()
    node.wake.set()


def _serve_one(node: PeerNode, host: HostSession, incoming: Incoming) -> None:
    log.debug("in  %s", str(incoming.message)[:120])
    try:
        sender = Sender(incoming.identity, incoming.peer_key, incoming.peer_ip)
        host.receive(sender, incoming.message, node.now())
    except Exception:  # a bug in the migration code must not silence the table
        log.exception("the host session failed on %s", str(incoming.message)[:200])
        host.stats.update(["migration.error"])


def tell_deadline(node: PeerNode) -> float:
    """How long ``tell`` waits for a member's standby ROUTER to answer."""
    return max(1.0, 2 * node.session.timings.liveness_s)


async def tell(node: PeerNode, seat: int, message: JsonObject) -> None:
    """Send ``message`` (proof against the host, or the match's last word from the host:
    net/peer/proof_passing.py) to the member at ``seat``, on its standby ROUTER."""
    where = host_address(entry_of(node.session.roster, seat))
    if where is None:
        return
    transport = PeerTransport(node.keys, where[2], where[0], where[1], source_ip=node.source_ip)
    try:
        await transport.connect(timeout_s=tell_deadline(node))
        await transport.send(message)
        await asyncio.sleep(TELL_LINGER_S)  # (ZeroMQ sends in the background)
    except (TransportError, OSError) as exc:
        log.info("cannot send %s the proof: %s", seat_name(seat), exc)
    finally:
        transport.close()


class Links:
    """This member's connections to the other members' standby ROUTERs for its pre-votes
    (net/peer/prevotes.py): one DEALER a member, opened when first needed, within a deadline,
    and kept for the match. While one comes up only the newest status waits for it (an older
    one is out of date); one that cannot connect in time is dropped (the next resend tries
    again). Its ``tell``s go each on a connection of its own."""

    def __init__(self, node: PeerNode) -> None:
        self.node = node
        self.open: dict[int, PeerTransport] = {}
        self.waiting: dict[int, JsonObject] = {}
        self.telling: set[asyncio.Future[None]] = set()  # ``tell``s under way

    def tell(self, messages: Iterable[tuple[int, JsonObject]]) -> None:
        """Send each (member seat, message) on a connection of its own (``tell``: proof against
        the host, the match's last word from the host), keeping it until it has gone."""
        for seat, message in messages:
            task = asyncio.ensure_future(tell(self.node, seat, message))
            self.telling.add(task)
            task.add_done_callback(self.telling.discard)
            self.node._spawn(task)

    async def told(self) -> None:
        """Wait until the ``tell``s under way have gone, within their deadline: the match's last
        points or hand log a member passes on (net/peer/proof_passing.pass_end) must leave before
        the node stops, or a member the host sent them to some of only would never finish."""
        if self.telling:
            await asyncio.wait(list(self.telling),
                               timeout=tell_deadline(self.node) + TELL_LINGER_S)

    def send(self, seat: int, message: JsonObject) -> None:
        transport = self.open.get(seat)
        if transport is not None:
            try:
                transport.send_now(message)
                return
            except TransportError:  # (the member went away: connect afresh)
                transport.close()
                del self.open[seat]
        connecting = seat in self.waiting
        self.waiting[seat] = message
        if not connecting:
            self.node._spawn(self._connect(seat))

    async def _connect(self, seat: int) -> None:
        node = self.node
        where = host_address(entry_of(node.session.roster, seat))
        if where is None:
            self.waiting.pop(seat, None)  # (a member with migration off has no standby ROUTER)
            return
        transport = PeerTransport(node.keys, where[2], where[0], where[1],
                                  source_ip=node.source_ip)
        try:
            await transport.connect(timeout_s=max(1.0, node.session.timings.liveness_s))
        except TransportError as exc:
            self.waiting.pop(seat, None)
            log.info("cannot reach %s for a pre-vote: %s", seat_name(seat), exc)
            return
        except asyncio.CancelledError:  # (the node stops)
            transport.close()
            raise
        message = self.waiting.pop(seat, None)
        old = self.open.pop(seat, None)
        if old is not None:
            old.close()
        self.open[seat] = transport
        if message is not None:
            self.send(seat, message)

    def close(self) -> None:
        for transport in self.open.values():
            transport.close()
        self.open.clear()
