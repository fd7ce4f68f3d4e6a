#!/usr/bin/env python3
"""Move fan-out latency on loopback: the real session path against a bare pyzmq reference.

One move: a peer sends a move to the host; the host parses it, builds each peer's update and
sends it to every peer (3 by default); the move is done when every peer has received and parsed
(session: applied) its update. We time that from the moving peer's send, for thousands of moves
after a warm-up, and print the median and p99. Issue 4's goal: the session's median at most 1.5x
the reference's.

Message sizes. Issue 4's reference is a bare ROUTER/DEALER JSON fan-out "of the same size". So
each run first plays a real table in memory (HostSession + PeerSessions, no sockets) and keeps a
peer's signed move and the updates answering it, picked so that their wire sizes are the medians
of the real ones; the bare references send exactly those (only ``seq`` changes per message:
``json.loads`` of the move on the host, one ``json.dumps`` per peer's update). The sizes of both
are printed so a reader can check they match. ``bare-curve-small`` keeps the older hand-written
messages (a ~75-byte move, ~265-byte updates: smaller than the real ones, which flattered the
reference) for comparison with older figures.

Two ways to run a table, both on 127.0.0.1 with CURVE:

One process, one asyncio loop (the host and all peers share it):

  bare        raw pyzmq ROUTER/DEALER + json, no CURVE, same-size messages   (the floor)
  bare-curve  raw pyzmq ROUTER/DEALER + json, CURVE, same-size messages       (the reference)
  bare-curve-small   the same with the old small messages
  bare-curve-signed  bare-curve, making and checking the session path's signatures per move
                     (the mover's move and seen head, the host's head; each peer checks all three)
  transport   lanomino.net.zmq_transport Host/PeerTransport (CURVE, ZAP, bounded JSON), same sizes
  session     the real path: HostSession + 3 PeerSessions over the transport; a peer's signed
              move is validated, applied and fanned out; done when every peer's session has it
  session-presigned  the same, with the move signed before the timer starts (PeerSession.presign,
              as an interactive client can while the player's selection rests on the move): the
              difference is what the Ed25519 signature costs on the path; not the headline figure

  Here every peer's receive-and-apply runs one after another, so the peers' work counts once per
  peer; on a LAN it happens on separate machines at the same time. This overstates what the
  session's per-peer work costs (it is larger than the bare peer's json.loads).

One process per machine (bench_net_procs.py: the host and each peer in its own process and loop):

  bare-curve-procs  the same-size bare-curve reference            (the reference of this group)
  bare-curve-signed-procs  the same, making and checking the session path's signatures per move,
                    as bare-curve-signed (the mover signs in its process, the host checks and
                    signs the head in its own, each peer checks all three in its own)
  session-procs     the real session path, as "session" (the host's own seat played by a
                    host-side policy)

  The moving peer takes its start time (time.perf_counter_ns, CLOCK_MONOTONIC: one clock for all
  processes of the machine) right before it sends (session: before PeerSession.submit, which
  signs); every peer takes its receipt time once it has parsed (bare) or applied (session) the
  update; a move takes the latest receipt minus the start. Control (who moves, go, the times)
  goes over pipes outside the timed path. This is closer to a LAN, but every "machine" still
  shares this machine's cores: with fewer cores than processes (host + peers, each with a ZeroMQ
  I/O thread) they also queue for CPU and pay wake-ups between processes, which the one-loop
  runs do not; both groups are printed, each against its own reference. session-procs also
  prints the moves that ended a hand apart from the others (they stay in its main figures): once
  such a move's update has gone, the host starts the next deal and every peer answers its commit
  round, milliseconds of work in each process, and a peer still to read the update waits for a
  core.

It also prints the host's work per move (HostSession.receive of a peer's move: parse, check its
Ed25519 signature, apply, build every peer's update), median, and what one signature check costs.
At a hand's end the host and every peer also run the verifier on the hand; both do that once the
move's own output has gone (their next timer, due at once), and the session scenarios run those
timers as the runtime does (``SessionTable.until`` says how the one loop keeps them apart).

This is a benchmark that prints figures, not a test.

    python scripts/bench_net.py [--moves N] [--peers 3] [--scenario NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import zmq  # noqa: E402
import zmq.asyncio  # noqa: E402

from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_net_procs  # noqa: E402
from bench_net_procs import Signer  # noqa: E402

REFERENCE = "bare-curve"  # of the single-loop scenarios
PROCS_REFERENCE = "bare-curve-procs"  # of the one-process-per-machine scenarios


ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # as lanomino's codec


def move_message(n: int) -> dict[str, Any]:
    """A small hand-written move (about 80 bytes): the old reference, kept as bare-curve-small."""
    return {"v": 1, "type": "move", "term": 0, "seq": n, "body": {"tile": "6-4", "end": "left"}}


def update_message(n: int, seat: int) -> dict[str, Any]:
    """A small hand-written update (about 280 bytes): the old reference, now bare-curve-small."""
    return {
        "v": 1,
        "type": "update",
        "term": 0,
        "seq": n,
        "body": {
            "event": {"kind": "tile_played", "seat": 0, "tile": "6-4", "end": "left"},
            "line": ["6-6", "6-4", "4-2", "2-2", "2-5", "5-1"],
            "ends": {"left": 6, "right": 1},
            "counts": [5, 6, 6, 6],
            "boneyard": 4,
            "turn": 1,
            "scores": [0, 15, 5, 0],
            "your_seat": seat,
        },
    }


@dataclass(frozen=True)
class Messages:
    """What the bare references send: one move, and the update each peer gets for it. They are
    templates: ``seq`` is set per message, the rest is sent as it is."""

    move: dict[str, Any]
    updates: tuple[dict[str, Any], ...]  # one per peer, in peer order

    def move_bytes(self, n: int) -> bytes:
        return ENCODER.encode(dict(self.move, seq=n)).encode()

    def update_bytes(self, n: int, peer: int) -> bytes:
        return ENCODER.encode(dict(self.updates[peer], seq=n)).encode()

    def sizes(self, seqs: range) -> tuple[float, float]:
        """Median wire bytes of the move and of an update, over the ``seq`` values of a run."""
        moves = [len(self.move_bytes(n)) for n in seqs]
        updates = [len(self.update_bytes(n, p)) for n in seqs for p in range(len(self.updates))]
        return statistics.median(moves), statistics.median(updates)


def small_messages(peers: int) -> Messages:
    return Messages(move_message(0), tuple(update_message(0, seat) for seat in range(1, peers + 1)))


@dataclass(frozen=True)
class RealMessages:
    """Messages of a real table, captured in memory: a peer's signed move and the update each peer
    got for it, chosen so that their sizes are the medians' (``messages``), plus the medians."""

    messages: Messages
    move_median: float  # wire bytes of a peer's move
    update_median: float  # wire bytes of one peer's update answering a peer's move
    update_range: tuple[int, int]
    moves: int  # peer moves seen
    followed: float  # share of peer moves the host-side bot answered (on the host's next timer)


def capture_real_messages(peers: int, moves: int = 1000) -> RealMessages:
    """Play a real table in memory (HostSession + PeerSessions, no sockets) and keep what a peer's
    move and the updates answering it look like on the wire."""
    from lanomino.engine import Rules
    from lanomino.fair.identity import Identity
    from lanomino.net.codec import decode_json, encode_json
    from lanomino.net.session import HostSession, PeerSession, Sender, YourTurn

    records: list[tuple[dict[str, Any], dict[int, dict[str, Any]]]] = []
    followed = 0
    keys = [CurveKeypair.generate().public for _ in range(peers + 1)]
    host = HostSession(Identity.generate(), keys[0], Rules.preset("classic", target=10**6),
                       peers + 1, host_policy=first_legal)
    sessions = [PeerSession(Identity.generate(), keys[i + 1], keys[0], name=f"p{i}")
                for i in range(peers)]
    senders = [Sender(f"r{i}".encode(), keys[i + 1]) for i in range(peers)]
    routes = {sender.route: i for i, sender in enumerate(senders)}
    for session in sessions:
        session.connect(0.0)
    for _ in range(100 * moves):
        moved = False
        for session, sender in zip(sessions, senders, strict=True):
            for message in session.take_outgoing():
                moved = True
                host.receive(sender, decode_json(encode_json(message)), 0.0)
                outgoing = host.take_outgoing()
                later = run_due(host)  # what its timer does at once: a host-side bot's move
                if message["type"] == "move":
                    body = message["body"]
                    answers = [o for o in outgoing if o.message["type"] == "update"]
                    first = {routes[o.route]: o.message for o in answers
                             if o.message["body"]["index"] == body["index"]}
                    followed += any(o.message["type"] == "update" for o in later)
                    records.append((message, first))
                outgoing += later
                for out in outgoing:
                    sessions[routes[out.route]].receive(decode_json(encode_json(out.message)), 0.0)
        for session in sessions:
            for event in session.take_events():
                if isinstance(event, YourTurn):
                    session.submit(first_legal(event.observation), 0.0)
        host.take_events()
        if not moved or len(records) >= moves:
            break
    if not records:
        raise RuntimeError("the in-memory table made no move")
    move_sizes = [len(encode_json(m)) for m, _ in records]
    update_sizes = [len(encode_json(u)) for _, first in records for u in first.values()]
    move_median, update_median = statistics.median(move_sizes), statistics.median(update_sizes)

    def distance(record: tuple[dict[str, Any], dict[int, dict[str, Any]]]) -> float:
        move, first = record
        if len(first) != peers:
            return float("inf")
        return abs(len(encode_json(move)) - move_median) + sum(
            abs(len(encode_json(u)) - update_median) for u in first.values())

    move, first = min(records, key=distance)
    return RealMessages(Messages(move, tuple(first[i] for i in range(peers))), move_median,
                        update_median, (min(update_sizes), max(update_sizes)), len(records),
                        followed / len(records))


def run_due(host: Any, now: float = 0.0) -> list[Any]:
    """Run an in-memory host's timer while it is due at ``now`` (the work it does once an input's
    output has gone: a host-side bot's move, a hand's check, the next deal); its output."""
    out: list[Any] = []
    for _ in range(100):
        due = host.next_deadline()
        if due is None or due > now:
            break
        host.handle_timer(now)
        out += host.take_outgoing()
    return out


@dataclass
class Rig:
    """A running fan-out: peer 0 submits move ``n``; ``wait_all(n)`` returns when all have it."""

    submit: Callable[[int], Awaitable[None]]
    wait_all: Callable[[int], Awaitable[None]]
    close: Callable[[], Awaitable[None]]
    prepare: Callable[[], Awaitable[None]] | None = None  # untimed: get ready for the next move


async def bare_rig(peers: int, messages: Messages, curve: bool, signed: bool = False) -> Rig:
    """Raw pyzmq: the host is a task that parses each move and fans an update out (``json.loads``
    of the move, ``json.dumps`` of each peer's update, both of the given sizes); ``signed``: with
    the session path's signatures made and checked (``Signer``)."""
    signer = Signer() if signed else None
    ctx = zmq.asyncio.Context()
    server = CurveKeypair.generate()
    router = ctx.socket(zmq.ROUTER)
    router.setsockopt(zmq.LINGER, 0)
    if curve:
        router.curve_server = True
        router.curve_secretkey = server.secret.encode()
        router.curve_publickey = server.public.encode()
    port = router.bind_to_random_port("tcp://127.0.0.1")
    dealers = []
    for _ in range(peers):
        dealer = ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        if curve:
            keys = CurveKeypair.generate()
            dealer.curve_serverkey = server.public.encode()
            dealer.curve_publickey = keys.public.encode()
            dealer.curve_secretkey = keys.secret.encode()
        dealer.connect(f"tcp://127.0.0.1:{port}")
        dealers.append(dealer)
    identities: list[bytes] = []
    for dealer in dealers:  # learn every peer's routing id
        await dealer.send(b"{}")
        identities.append((await router.recv_multipart())[0])

    updates = messages.updates

    async def host_loop() -> None:
        while True:
            identity, data = await router.recv_multipart()
            move = json.loads(data)
            for i, peer in enumerate(identities):
                body = (dict(updates[i], seq=move["seq"]) if signer is None
                        else signer.relay(move, updates[i]))
                await router.send_multipart([peer, ENCODER.encode(body).encode()])

    host = asyncio.create_task(host_loop())

    async def submit(n: int) -> None:
        move = dict(messages.move, seq=n)
        await dealers[0].send(ENCODER.encode(move if signer is None
                                             else signer.move(move, n)).encode())

    async def wait_all(n: int) -> None:
        for dealer in dealers:
            update = json.loads(await dealer.recv())
            assert update["seq"] == n
            if signer is not None:
                signer.check(update)

    async def close() -> None:
        host.cancel()
        await asyncio.gather(host, return_exceptions=True)
        ctx.destroy(linger=0)

    return Rig(submit, wait_all, close)


async def transport_rig(peers: int, messages: Messages) -> Rig:
    """The same fan-out through lanomino's HostTransport / PeerTransport (always CURVE)."""
    host = HostTransport(CurveKeypair.generate(), bind_ip="127.0.0.1")
    await host.start()
    clients = [
        PeerTransport(CurveKeypair.generate(), host.keypair.public, "127.0.0.1", host.port)
        for _ in range(peers)
    ]
    identities: list[bytes] = []
    for client in clients:
        await client.connect()
        await client.send({})
        incoming = await host.receive()
        assert incoming is not None
        identities.append(incoming.identity)

    async def host_loop() -> None:
        while True:
            incoming = await host.receive()
            assert incoming is not None
            for i, peer in enumerate(identities):
                await host.send(peer, dict(messages.updates[i], seq=incoming.message["seq"]))

    task = asyncio.create_task(host_loop())

    async def submit(n: int) -> None:
        await clients[0].send(dict(messages.move, seq=n))

    async def wait_all(n: int) -> None:
        for client in clients:
            message = await client.receive()
            assert message is not None and message["seq"] == n

    async def close() -> None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        for client in clients:
            client.close()
        host.close()

    return Rig(submit, wait_all, close)


class SessionTable:
    """A real table on loopback: HostSession + PeerSessions, each fed by its transport."""

    def __init__(self, peers: int) -> None:
        from lanomino.engine import Rules
        from lanomino.fair.identity import Identity
        from lanomino.net.session import HostSession, PeerSession

        self.host_keys = CurveKeypair.generate()
        self.host = HostTransport(self.host_keys, bind_ip="127.0.0.1")
        self.session = HostSession(Identity.generate(), self.host_keys.public,
                                   Rules.preset("classic", target=10**6), peers + 1,
                                   host_policy=first_legal)
        self.peer_keys = [CurveKeypair.generate() for _ in range(peers)]
        self.peers = [PeerSession(Identity.generate(), k.public, self.host_keys.public,
                                  name=f"p{i}") for i, k in enumerate(self.peer_keys)]
        self.clients: list[PeerTransport] = []
        self.tasks: list[asyncio.Task[None]] = []
        # What the timer waits for: the peers' loops check it after each message and wake the
        # waiting bench once it holds (not once per message, which would add loop hops the bare
        # reference, reading its dealers itself, does not have).
        self.goal: Callable[[], bool] | None = None
        self.reached: asyncio.Future[None] | None = None
        self.held: list[Callable[[], None]] = []  # follow-up work held while a move is timed
        self.landed: Callable[[Any], bool] | None = None  # whether one peer has the timed move

    async def start(self) -> None:
        from lanomino.net.session import Sender

        await self.host.start()
        for keys, peer in zip(self.peer_keys, self.peers, strict=True):
            client = PeerTransport(keys, self.host_keys.public, "127.0.0.1", self.host.port)
            await client.connect()
            self.clients.append(client)
            peer.connect(time.monotonic())
            self.tasks.append(asyncio.create_task(self._peer_loop(peer, client)))
            self._flush_peer(peer, client)

        def flush_host() -> None:
            with self.host.batch():  # as the runtime's flush (runtime/base.py)
                for out in self.session.take_outgoing():
                    self.host.send_now(out.route, out.message)
            self.session.take_events()

        async def host_loop() -> None:
            while True:
                incoming = await self.host.receive()
                assert incoming is not None
                self.session.receive(Sender(incoming.identity, incoming.peer_key), incoming.message,
                                     time.monotonic())
                flush_host()
                self._follow_up(self.session, flush_host)

        self.tasks.append(asyncio.create_task(host_loop()))

    def _flush_peer(self, peer: Any, client: PeerTransport) -> None:
        for message in peer.take_outgoing():
            client.send_now(message)
        peer.take_events()

    async def _peer_loop(self, peer: Any, client: PeerTransport) -> None:
        while True:
            message = await client.receive()
            assert message is not None
            peer.receive(message, time.monotonic())
            self._flush_peer(peer, client)
            reached = self.reached
            if reached is not None and not reached.done() and self.goal is not None and self.goal():
                reached.set_result(None)
                await asyncio.sleep(0)  # the timer stops first (a next message may be waiting)
            self._follow_up(peer, lambda: self._flush_peer(peer, client))
            if (reached is not None and not reached.done() and self.landed is not None
                    and self.landed(peer)):
                await asyncio.shield(reached)  # this "machine" has the move: the others go on

    def _follow_up(self, session: Any, flush: Callable[[], None]) -> None:
        """After an input: a session whose next deadline has come already (work it left for once
        its output had gone: the check of a hand that just ended, the next deal, a host-side bot's
        move) runs its timer, as the runtime's timer task does when woken (runtime/base.py
        ``_timers``), and again while it is due. On a LAN each machine does that while the others
        go on; in this one loop it would sit on the other parties' path, so while a move is timed
        it waits until every peer has the move (the per-process group runs it as it comes).
        Later deadlines (heartbeats, liveness) are not run: moves come quickly."""
        due = session.next_deadline()
        if due is None or due > time.monotonic():
            return

        def run() -> None:
            session.handle_timer(time.monotonic())
            flush()
            self._follow_up(session, flush)

        if self.landed is not None and self.reached is not None and not self.reached.done():
            self.held.append(run)  # (a move is timed: wait_all)
        else:
            asyncio.get_running_loop().call_soon(run)

    async def until(self, predicate: Callable[[], bool],
                    landed: Callable[[Any], bool] | None = None) -> None:
        """Until ``predicate`` holds. ``landed(peer)``: that peer has what is waited for; it
        reads nothing more until every peer has (on a LAN it would go on by itself, on its own
        machine, without holding up the others; in this one loop it would: a hand's end makes
        every peer check the hand, and the next hand's first message makes it do so at once)."""
        if predicate():
            return
        self.goal, self.reached = predicate, asyncio.get_running_loop().create_future()
        self.landed = landed
        try:
            await self.reached
        finally:
            self.goal = self.reached = self.landed = None
            for run in self.held:
                asyncio.get_running_loop().call_soon(run)
            self.held.clear()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for client in self.clients:
            client.close()
        self.host.close()


def first_legal(obs: Any) -> Any:
    return obs.legal[0]


async def session_rig(peers: int, presign: bool = False) -> Rig:
    """The real session path: a peer whose turn it is moves; done when every peer has the update.

    ``presign``: the move is signed while the player is still deciding (``PeerSession.presign``,
    for an interactive client whose selection rests on the move), so ``submit`` does not sign.
    """
    table = SessionTable(peers)
    await table.start()
    expected: dict[str, Any] = {}

    def mover() -> Any:
        for peer in table.peers:
            obs = peer.observation()
            if (obs is not None and obs.is_my_turn and peer.pending_move is None
                    and peer.phase.value == "seated"):
                return peer
        return None

    async def prepare() -> None:  # untimed: whose move, and which (a bot or a person decides)
        await table.until(lambda: mover() is not None)
        peer = mover()
        expected["peer"], expected["action"] = peer, first_legal(peer.observation())
        if presign:
            peer.presign(expected["action"])

    async def submit(n: int) -> None:  # timed from here: the seat submits its move
        peer = expected["peer"]
        hand = peer.hand
        expected["hand"], expected["count"] = hand, len(peer.moves[hand]) + 1
        peer.submit(expected["action"], time.monotonic())
        table._flush_peer(peer, table.clients[table.peers.index(peer)])

    async def wait_all(n: int) -> None:
        hand, count = expected["hand"], expected["count"]
        def landed(peer: Any) -> bool:
            return len(peer.moves.get(hand, ())) >= count

        await table.until(lambda: all(landed(p) for p in table.peers), landed)

    return Rig(submit, wait_all, table.close, prepare)


@dataclass(frozen=True)
class Setup:
    """What every scenario of a run shares: the number of peers and the messages to send."""

    peers: int
    real: Messages  # same sizes as the real session's (captured in this run)
    small: Messages  # the old hand-written messages


Make = Callable[[Setup], Awaitable[Rig]]

SCENARIOS: dict[str, Make] = {
    "bare": lambda s: bare_rig(s.peers, s.real, curve=False),
    "bare-curve": lambda s: bare_rig(s.peers, s.real, curve=True),
    "bare-curve-small": lambda s: bare_rig(s.peers, s.small, curve=True),
    "bare-curve-signed": lambda s: bare_rig(s.peers, s.real, curve=True, signed=True),
    "transport": lambda s: transport_rig(s.peers, s.real),
    "session": lambda s: session_rig(s.peers),
    "session-presigned": lambda s: session_rig(s.peers, presign=True),
}


def host_work_per_move(moves: int = 2000) -> dict[str, float]:
    """Median microseconds of HostSession.receive for a peer's move, in memory (no sockets)."""
    from lanomino.engine import Rules
    from lanomino.fair.identity import Identity, KeyRing
    from lanomino.net.session import HostSession, PeerSession, Sender, YourTurn

    times: list[float] = []
    verify_times: list[float] = []
    ring = KeyRing()
    while len(times) < moves:
        keys = [CurveKeypair.generate().public for _ in range(4)]
        host = HostSession(Identity.generate(), keys[0], Rules.preset("classic", target=10**6), 4,
                           host_policy=first_legal)
        peers = [PeerSession(Identity.generate(), keys[i + 1], keys[0], name=f"p{i}")
                 for i in range(3)]
        senders = [Sender(f"r{i}".encode(), keys[i + 1]) for i in range(3)]
        for peer in peers:
            peer.connect(0.0)
        for _ in range(5000):
            moved = False
            for peer, sender in zip(peers, senders, strict=True):
                for message in peer.take_outgoing():
                    moved = True
                    data = json.loads(json.dumps(message))
                    timed = message["type"] == "move"
                    start = time.perf_counter()
                    host.receive(sender, data, 0.0)
                    if timed:
                        times.append(time.perf_counter() - start)
                        body = data["body"]
                        statement = {"type": "lanomino.move/1", "header": peer.digest,
                                     "hand": body["hand"], "index": body["index"],
                                     "move": body["move"]}
                        start = time.perf_counter()
                        ring.verify_statement(peer.identity.public_key,
                                              bytes.fromhex(body["signature"]), statement)
                        verify_times.append(time.perf_counter() - start)
            routes = {s.route: p for s, p in zip(senders, peers, strict=True)}
            for out in host.take_outgoing() + run_due(host):
                moved = True
                routes[out.route].receive(json.loads(json.dumps(out.message)), 0.0)
            for peer in peers:
                for event in peer.take_events():
                    if isinstance(event, YourTurn):
                        peer.submit(first_legal(event.observation), 0.0)
            host.take_events()
            if not moved or len(times) >= moves:
                break
    return {"host_move_median_us": statistics.median(times) * 1e6,
            "signature_check_median_us": statistics.median(verify_times) * 1e6}


def warmup_of(moves: int) -> int:
    return max(50, moves // 10)


async def measure(make: Make, setup: Setup, moves: int) -> list[float]:
    """Seconds per move fan-out, for ``moves`` moves after a warm-up of a tenth as many."""
    rig = await make(setup)
    warmup = warmup_of(moves)
    times: list[float] = []
    try:
        for n in range(warmup + moves):
            if rig.prepare is not None:
                await rig.prepare()
            start = time.perf_counter()
            await rig.submit(n)
            await rig.wait_all(n)
            if n >= warmup:
                times.append(time.perf_counter() - start)
    finally:
        await rig.close()
    return times


def summarise(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
    }


def split_hand_ends(times: list[float], hand_ends: list[bool]) -> dict[str, float]:
    """The figures of the moves that ended a hand and of the others, apart. On this machine the
    fan-out of a hand's last move meets the work each process starts once it has gone (the
    host's next deal and check of the hand, each peer's answer to the next deal's commit round):
    with every "machine" of the table on a few shared cores, a peer still to read the update
    waits for a core. Apart machines would not wait."""
    ended = [t for t, end in zip(times, hand_ends, strict=True) if end]
    others = summarise([t for t, end in zip(times, hand_ends, strict=True) if not end])
    return {"hand_end_moves": float(len(ended)), **{
        f"hand_end_{key}": value for key, value in summarise(ended).items()}, **{
        f"in_hand_{key}": value for key, value in others.items()}}


# One process per machine (bench_net_procs.py): name -> kind of children.
PROC_SCENARIOS: dict[str, str] = {PROCS_REFERENCE: "bare", "bare-curve-signed-procs": "bare-signed",
                                  "session-procs": "session"}


def ratio(results: dict[str, dict[str, float]], name: str, reference: str) -> float | None:
    if name not in results or reference not in results:
        return None
    return results[name]["median_ms"] / results[reference]["median_ms"]


def main(argv: list[str] | None = None) -> int:
    try:
        return run(argv)
    except KeyboardInterrupt:  # any child process is gone already (measure_procs cleans up)
        print("interrupted", file=sys.stderr)
        return 130


def run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=None,
                        help="timed moves per scenario "
                             "(default 3000 in one loop, 2000 per process)")
    parser.add_argument("--peers", type=int, default=3)
    parser.add_argument("--scenario", action="append",
                        choices=sorted([*SCENARIOS, *PROC_SCENARIOS]))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.moves is not None and args.moves < 1 or args.peers < 1:
        parser.error("--moves and --peers must be at least 1")
    loop_moves = args.moves or 3000
    proc_moves = args.moves or 2000
    names = args.scenario or [*SCENARIOS, *PROC_SCENARIOS]
    loop_names = [n for n in names if n in SCENARIOS]
    proc_names = [n for n in names if n in PROC_SCENARIOS]
    if loop_names and REFERENCE not in loop_names:
        loop_names.insert(0, REFERENCE)
    if proc_names and PROCS_REFERENCE not in proc_names:
        proc_names.insert(0, PROCS_REFERENCE)
    captured = capture_real_messages(args.peers)
    setup = Setup(args.peers, captured.messages, small_messages(args.peers))
    seqs = range(warmup_of(max(loop_moves, proc_moves)) + max(loop_moves, proc_moves))
    sizes = {
        "real": {"move": captured.move_median, "update": captured.update_median,
                 "update_min": captured.update_range[0], "update_max": captured.update_range[1],
                 "peer_moves_captured": captured.moves, "followed_by_host_move": captured.followed},
        "reference": dict(zip(("move", "update"), setup.real.sizes(seqs), strict=True)),
        "small": dict(zip(("move", "update"), setup.small.sizes(seqs), strict=True)),
    }
    loop_results = {name: summarise(asyncio.run(measure(SCENARIOS[name], setup, loop_moves)))
                    for name in loop_names}
    proc_results = {}
    for name in proc_names:
        hand_ends: list[bool] = []
        times = bench_net_procs.measure_procs(
            PROC_SCENARIOS[name], args.peers, setup.real.move, list(setup.real.updates),
            proc_moves, warmup_of(proc_moves), hand_ends)
        proc_results[name] = summarise(times)
        if any(hand_ends):  # session: the moves that ended a hand, apart (and in the figures above)
            proc_results[name].update(split_hand_ends(times, hand_ends))
    for results, reference in ((loop_results, REFERENCE), (proc_results, PROCS_REFERENCE)):
        for name in results:
            results[name]["x_reference"] = ratio(results, name, reference) or 0.0
    ratios = {"single_loop": ratio(loop_results, "session", REFERENCE),
              "per_process": ratio(proc_results, "session-procs", PROCS_REFERENCE),
              "single_loop_signed": ratio(loop_results, "session", "bare-curve-signed"),
              "per_process_signed": ratio(proc_results, "session-procs",
                                          "bare-curve-signed-procs")}
    work = host_work_per_move() if "session" in names or "session-procs" in names else None
    if args.json:
        moves = {"single_loop": loop_moves, "per_process": proc_moves}
        print(json.dumps({"peers": args.peers, "moves": moves,
                          "bytes": sizes, "results": {**loop_results, **proc_results},
                          "session_x_reference": ratios, "host_work": work}))
        return 0
    real, ref, small = sizes["real"], sizes["reference"], sizes["small"]
    print(f"move fan-out to {args.peers} peers on loopback with CURVE")
    print(f"wire bytes (median): real session move {real['move']:.0f}, update {real['update']:.0f} "
          f"(range {real['update_min']}-{real['update_max']} "
          f"over {real['peer_moves_captured']} peer moves; "
          f"{real['followed_by_host_move']:.0%} followed by a host-side bot's move on its timer)")
    print(f"                     same-size reference move {ref['move']:.0f}, "
          f"update {ref['update']:.0f}; "
          f"bare-curve-small move {small['move']:.0f}, update {small['update']:.0f}")
    groups = (
        (loop_results, REFERENCE,
         f"one process, one asyncio loop (peers' work serialised), {loop_moves} moves"),
        (proc_results, PROCS_REFERENCE,
         f"one process per machine (host and each peer apart), {proc_moves} moves"),
    )
    for results, reference, title in groups:
        if not results:
            continue
        print(title)
        print(f"  {'scenario':<24} {'median ms':>10} {'p99 ms':>10} {'x ' + reference:>18}")
        for name, figures in results.items():
            print(f"  {name:<24} {figures['median_ms']:>10.3f} {figures['p99_ms']:>10.3f} "
                  f"{figures['x_reference']:>18.2f}")
    named = (("single loop", ratios["single_loop"]),
             ("one process per machine", ratios["per_process"]))
    shown = [f"{label} {value:.2f}" for label, value in named if value is not None]
    if shown:
        print(f"session / same-size bare-curve reference (median; goal <= 1.5): {'; '.join(shown)}")
    for label, results, name, ref in (
            ("single loop", loop_results, "session", "bare-curve-signed"),
            ("one process per machine", proc_results, "session-procs", "bare-curve-signed-procs")):
        signed, session = results.get(ref), results.get(name)
        if signed is not None and session is not None:  # the same signatures, over bare CURVE
            print(f"{label}: {name} / {ref} (median; goal <= 1.5): "
                  f"{session['median_ms'] / signed['median_ms']:.2f}; {name} p99 / its median "
                  f"(goal <= 3): {session['p99_ms'] / session['median_ms']:.2f}")
            if "hand_end_moves" in session:
                print(f"  of which {session['hand_end_moves']:.0f} moves ended a hand: median "
                      f"{session['hand_end_median_ms']:.3f} ms, p99 "
                      f"{session['hand_end_p99_ms']:.3f} ms; the other moves: median "
                      f"{session['in_hand_median_ms']:.3f} ms, p99 "
                      f"{session['in_hand_p99_ms']:.3f} ms (p99 / median "
                      f"{session['in_hand_p99_ms'] / session['in_hand_median_ms']:.2f})")
    if work is not None:
        print(f"host work per move (median): {work['host_move_median_us']:.1f} us, of which one "
              f"Ed25519 move-signature check: {work['signature_check_median_us']:.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
