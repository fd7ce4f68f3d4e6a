"""One process per machine for scripts/bench_net.py: the host and each peer in its own process.

On a LAN the host and every peer are separate machines: the peers receive, parse and apply an
update at the same time. In one asyncio loop that work is serialised (three peers' work counts
three times), so bench_net.py also runs the host and each peer as its own process ('spawn'
start method), each with its own asyncio loop, on 127.0.0.1:

  bare      a pyzmq ROUTER (host) and DEALERs (peers) with CURVE: the host ``json.loads`` the
            move and ``json.dumps`` one update per peer, of the sizes bench_net.py captured from
            the real session
  bare-signed  bare, with the session path's signatures made and checked (``Signer``: the mover
            signs its move and the head it saw, the host checks the move and signs the new head,
            every peer checks all three), as bench_net's ``bare-curve-signed``
  session   HostSession over HostTransport (the host's own seat played by a host-side policy) and
            one PeerSession over PeerTransport per peer process, CURVE, as bench_net's "session"

Timing: the moving peer takes ``t0 = time.perf_counter_ns()`` (CLOCK_MONOTONIC on Linux, one
clock for every process of the machine) right before it sends (session: before
``PeerSession.submit``, which signs); every peer takes its receipt time right after parsing its
update (bare) or right after its session has applied it (the seat's list of moves grew); a move
takes ``max(receipts) - t0``. Control messages (JSON over multiprocessing pipes: who moves,
which move to watch for, go, the timestamps) stay outside the timed path: the next move starts
only after every peer has reported the previous one, and a peer reports only after it took its
receipt time. The children stop when told to, when their pipe closes (the parent is gone), or on
Ctrl-C; the parent terminates whatever is still running after a short wait.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import multiprocessing.connection
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import zmq  # noqa: E402
import zmq.asyncio  # noqa: E402

from lanomino.fair.chain import head_statement, seen_statement  # noqa: E402
from lanomino.fair.identity import Identity, KeyRing  # noqa: E402
from lanomino.fair.statements import move_statement  # noqa: E402
from lanomino.net.zmq_transport import CurveKeypair, HostTransport, PeerTransport  # noqa: E402

KINDS = ("bare", "bare-signed", "session")
ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # as lanomino's codec
SETUP_TIMEOUT_S = 60.0  # children starting, connecting, the first deal
STEP_TIMEOUT_S = 20.0  # any one step of a move (a hand's end brings a new deal)
# A peer reports its receipt time this long after taking it, so that its report (and the parent
# waking up to read it) does not take CPU from peers still handling the same update: this machine
# runs every "machine" of the table on a few cores.
REPORT_DELAY_S = 0.002


def first_legal(obs: Any) -> Any:
    return obs.legal[0]


class Signer:
    """The signatures a move costs on the session path, made and checked over bare messages
    (``bare-curve-signed``): the mover signs its move and the log head it saw; the host checks the
    move and signs the new head; each peer checks the move, the head and the seen head."""

    def __init__(self, seeds: tuple[bytes, bytes] | None = None) -> None:
        """``seeds``: the mover's and the host's identity seeds (processes of one run share
        them, ``seeds()``); None: new ones."""
        mover, host = (Identity.generate(), Identity.generate()) if seeds is None else (
            Identity.from_seed(seeds[0]), Identity.from_seed(seeds[1]))
        self.mover, self.host, self.ring = mover, host, KeyRing()

    def seeds(self) -> list[str]:
        return [self.mover.seed().hex(), self.host.seed().hex()]

    @classmethod
    def of(cls, seeds: list[str] | None) -> Signer | None:
        """The signer a child was given (None: an unsigned run)."""
        return None if seeds is None else cls((bytes.fromhex(seeds[0]), bytes.fromhex(seeds[1])))

    def statements(self, n: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        head = (n % 256).to_bytes(1, "big") * 32
        return (move_statement("h" * 64, 1, n, {"seat": 1, "play": "6-4", "end": "left"}),
                seen_statement("h" * 64, 1, n, head), head_statement("h" * 64, 1, n, head))

    def move(self, message: dict[str, Any], n: int) -> dict[str, Any]:
        move, seen, _ = self.statements(n)
        return dict(message, body=dict(message["body"],
                                       signature=self.mover.sign_statement(move).hex(),
                                       seen_signature=self.mover.sign_statement(seen).hex()))

    def relay(self, move: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
        n = move["seq"]
        statement, _, head = self.statements(n)
        assert self.ring.verify_statement(self.mover.public_key,
                                          bytes.fromhex(move["body"]["signature"]), statement)
        return dict(update, seq=n, body=dict(update["body"], head=self.host.sign_statement(
            head).hex(), signature=move["body"]["signature"],
            seen_signature=move["body"]["seen_signature"]))

    def check(self, update: dict[str, Any]) -> None:
        move, seen, head = self.statements(update["seq"])
        body = update["body"]
        for key, field, statement in ((self.mover.public_key, "signature", move),
                                      (self.mover.public_key, "seen_signature", seen),
                                      (self.host.public_key, "head", head)):
            assert self.ring.verify_statement(key, bytes.fromhex(body[field]), statement)


# ----- the children ------------------------------------------------------------------------------


class Control:
    """A child's end of its pipe to the parent, read by the child's asyncio loop."""

    def __init__(self, conn: Connection, handle: Callable[[dict[str, Any]], None]) -> None:
        self.conn = conn
        self.handle = handle
        self.stopped: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().add_reader(conn.fileno(), self._readable)

    def send(self, **message: Any) -> None:
        self.conn.send_bytes(json.dumps(message).encode())

    def _readable(self) -> None:
        try:
            while self.conn.poll():
                message = json.loads(self.conn.recv_bytes())
                if message.get("stop"):
                    self._stop()
                    return
                self.handle(message)
        except (EOFError, OSError):  # the parent is gone
            self._stop()

    def _stop(self) -> None:
        asyncio.get_running_loop().remove_reader(self.conn.fileno())
        if not self.stopped.done():
            self.stopped.set_result(None)


async def _bare_host(conn: Connection, config: dict[str, Any]) -> None:
    updates: list[dict[str, Any]] = config["updates"]
    signer = Signer.of(config.get("signer"))  # bare-signed: the session path's signatures
    peers = len(updates)
    ctx = zmq.asyncio.Context()
    try:
        keys = CurveKeypair.generate()
        router = ctx.socket(zmq.ROUTER)
        router.setsockopt(zmq.LINGER, 0)
        router.curve_server = True
        router.curve_secretkey = keys.secret.encode()
        router.curve_publickey = keys.public.encode()
        port = router.bind_to_random_port("tcp://127.0.0.1")
        control = Control(conn, lambda message: None)
        control.send(port=port, key=keys.public)
        identities: list[bytes | None] = [None] * peers
        while None in identities:  # each peer says which it is
            identity, data = await router.recv_multipart()
            identities[json.loads(data)["hello"]] = identity
        routes = [i for i in identities if i is not None]
        control.send(ready=True)

        async def host_loop() -> None:  # as bench_net's single-loop bare host
            while True:
                identity, data = await router.recv_multipart()
                move = json.loads(data)
                for i, peer in enumerate(routes):
                    body = (dict(updates[i], seq=move["seq"]) if signer is None
                            else signer.relay(move, updates[i]))
                    await router.send_multipart([peer, ENCODER.encode(body).encode()])

        await _run_until_stopped([asyncio.create_task(host_loop())], control)
    finally:
        ctx.destroy(linger=0)


async def _bare_peer(conn: Connection, config: dict[str, Any]) -> None:
    index: int = config["index"]
    move: dict[str, Any] = config["move"]
    signer = Signer.of(config.get("signer"))
    ctx = zmq.asyncio.Context()
    try:
        dealer = ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        keys = CurveKeypair.generate()
        dealer.curve_serverkey = config["key"].encode()
        dealer.curve_publickey = keys.public.encode()
        dealer.curve_secretkey = keys.secret.encode()
        dealer.connect(f"tcp://127.0.0.1:{config['port']}")
        await dealer.send(json.dumps({"hello": index}).encode())
        watch: dict[str, int] = {}
        orders: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def handle(message: dict[str, Any]) -> None:
            if "watch" in message:
                watch.clear()
                watch["n"] = message["watch"]
                control.send(armed=message["watch"])
            else:
                orders.put_nowait(message)

        control = Control(conn, handle)

        async def mover() -> None:
            while True:
                order = await orders.get()
                n = order["go"]
                watch["t0"] = time.perf_counter_ns()  # timed from here: as bench_net's bare submit
                body = dict(move, seq=n) if signer is None else signer.move(dict(move, seq=n), n)
                await dealer.send(ENCODER.encode(body).encode())

        loop = asyncio.get_running_loop()

        def send_report(report: dict[str, Any]) -> None:
            control.send(**report)

        async def reader() -> None:
            while True:
                update = json.loads(await dealer.recv())
                if update["seq"] == watch.get("n"):
                    if signer is not None:
                        signer.check(update)  # the mover's two signatures, the host's head
                    received = time.perf_counter_ns()
                    report = {"got": watch.pop("n"), "t": received, "t0": watch.pop("t0", None)}
                    loop.call_later(REPORT_DELAY_S, send_report, report)

        control.send(ready=True)
        tasks = [asyncio.create_task(mover()), asyncio.create_task(reader())]
        await _run_until_stopped(tasks, control)
    finally:
        ctx.destroy(linger=0)


def follow_up(session: Any, flush: Callable[[], None]) -> None:
    """After an input: a session whose next deadline has come already (work it left for once its
    output had gone: the check of a hand that just ended, the next deal, a host-side bot's move)
    runs its timer on the loop's next turn, as the runtime's timer task does when woken
    (runtime/base.py ``_timers``), and again while it is due. Later deadlines (heartbeats,
    liveness) are not run: the measured moves follow each other closely."""
    due = session.next_deadline()
    if due is not None and due <= time.monotonic():
        def run() -> None:
            session.handle_timer(time.monotonic())
            flush()
            follow_up(session, flush)

        asyncio.get_running_loop().call_soon(run)


async def _session_host(conn: Connection, config: dict[str, Any]) -> None:
    from lanomino.engine import Rules
    from lanomino.fair.identity import Identity
    from lanomino.net.session import HostSession, Sender

    keys = CurveKeypair.generate()
    host = HostTransport(keys, bind_ip="127.0.0.1")
    session = HostSession(Identity.generate(), keys.public, Rules.preset("classic", target=10**6),
                          config["peers"] + 1, host_policy=first_legal)
    try:
        await host.start()
        control = Control(conn, lambda message: None)
        control.send(port=host.port, key=keys.public)

        async def host_loop() -> None:  # as bench_net's SessionTable
            while True:
                incoming = await host.receive()
                assert incoming is not None
                sender = Sender(incoming.identity, incoming.peer_key)
                session.receive(sender, incoming.message, time.monotonic())
                flush()
                follow_up(session, flush)

        def flush() -> None:
            with host.batch():  # as the runtime's flush (runtime/base.py)
                for out in session.take_outgoing():
                    host.send_now(out.route, out.message)
            session.take_events()

        await _run_until_stopped([asyncio.create_task(host_loop())], control)
    finally:
        host.close()


async def _session_peer(conn: Connection, config: dict[str, Any]) -> None:
    from lanomino.fair.identity import Identity
    from lanomino.net.session import PeerSession

    keys = CurveKeypair.generate()
    peer = PeerSession(Identity.generate(), keys.public, config["key"], name=f"p{config['index']}")
    client = PeerTransport(keys, config["key"], "127.0.0.1", config["port"])
    watch: dict[str, Any] = {}
    turn: dict[str, Any] = {"announced": None, "action": None, "reporting": False}
    orders: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def flush() -> None:
        for message in peer.take_outgoing():
            client.send_now(message)
        peer.take_events()

    def handle(message: dict[str, Any]) -> None:
        if "watch" in message:
            watch.clear()
            watch.update(n=message["watch"], hand=message["hand"], count=message["count"])
            control.send(armed=message["watch"])
        else:
            orders.put_nowait(message)

    def check() -> None:
        """After each message: take the receipt time once this seat has the watched move (and
        report it a little later); while no move is watched or being reported, say when it is
        this seat's turn and decide its move (the untimed "prepare" step)."""
        if "n" in watch:
            if len(peer.moves.get(watch["hand"], ())) < watch["count"]:
                return  # a move is under way: nobody else's turn can come before it lands
            received = time.perf_counter_ns()
            report = {"got": watch.pop("n"), "t": received, "t0": watch.pop("t0", None)}
            turn["reporting"] = True
            asyncio.get_running_loop().call_later(REPORT_DELAY_S, reported, report)
        elif not turn["reporting"]:
            announce()

    def reported(report: dict[str, Any]) -> None:
        control.send(**report)
        turn["reporting"] = False
        announce()

    def announce() -> None:
        obs = peer.observation()
        if (obs is not None and obs.is_my_turn and peer.pending_move is None
                and peer.phase.value == "seated"):
            point = (peer.hand, len(peer.moves.get(peer.hand, ())))
            if point != turn["announced"]:
                turn["announced"], turn["action"] = point, first_legal(obs)
                control.send(turn=True, hand=point[0], count=point[1] + 1)

    try:
        await client.connect()
        peer.connect(time.monotonic())
        flush()
        control = Control(conn, handle)

        async def mover() -> None:
            while True:
                order = await orders.get()
                # timed from here: the seat submits (and signs)
                watch["t0"] = time.perf_counter_ns()
                peer.submit(turn["action"], time.monotonic())
                flush()
                del order

        async def reader() -> None:
            while True:
                message = await client.receive()
                assert message is not None
                peer.receive(message, time.monotonic())
                flush()
                check()
                follow_up(peer, flush)

        control.send(ready=True)
        check()
        tasks = [asyncio.create_task(mover()), asyncio.create_task(reader())]
        await _run_until_stopped(tasks, control)
    finally:
        client.close()


async def _run_until_stopped(tasks: list[asyncio.Task[None]], control: Control) -> None:
    """Run ``tasks`` until the parent says stop (or goes); a task that fails ends the child."""
    await asyncio.wait([*tasks, control.stopped], return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result


CHILDREN = {
    ("bare", "host"): _bare_host,
    ("bare", "peer"): _bare_peer,
    ("session", "host"): _session_host,
    ("session", "peer"): _session_peer,
}


def child_main(kind: str, role: str, conn: Connection, config_json: str) -> None:
    """A child process's entry point (run by multiprocessing with the 'spawn' start method)."""
    try:
        asyncio.run(CHILDREN[kind, role](conn, json.loads(config_json)))
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group: the parent cleans up
        pass
    except BaseException:
        try:
            conn.send_bytes(json.dumps({"error": traceback.format_exc()}).encode())
        except OSError:
            pass
    finally:
        conn.close()


# ----- the parent --------------------------------------------------------------------------------


class Children:
    """The child processes of one scenario and their pipes; ``close`` leaves none running."""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.names: list[str] = []
        self.procs: list[multiprocessing.process.BaseProcess] = []
        self.conns: list[Connection] = []

    def start(self, name: str, kind: str, role: str, config: dict[str, Any]) -> int:
        ours, theirs = self.ctx.Pipe()
        proc = self.ctx.Process(target=child_main, args=(kind, role, theirs, json.dumps(config)),
                                name=f"bench_net {name}", daemon=True)
        self.names.append(name)
        self.procs.append(proc)
        self.conns.append(ours)
        proc.start()
        theirs.close()  # only the child holds its end: the parent sees EOF when it dies
        return len(self.procs) - 1

    def send(self, child: int, **message: Any) -> None:
        self.conns[child].send_bytes(json.dumps(message).encode())

    def receive(self, timeout_s: float) -> tuple[int, dict[str, Any]]:
        """The next message from any child; raises when one failed, died or all stayed silent."""
        deadline = time.monotonic() + timeout_s
        while True:
            for child, conn in enumerate(self.conns):
                if conn.poll():
                    try:
                        message: dict[str, Any] = json.loads(conn.recv_bytes())
                    except EOFError:
                        raise RuntimeError(f"{self.names[child]} exited unexpectedly") from None
                    if "error" in message:
                        raise RuntimeError(f"{self.names[child]} failed:\n{message['error']}")
                    return child, message
            for child, proc in enumerate(self.procs):
                if not proc.is_alive():
                    raise RuntimeError(f"{self.names[child]} exited with code {proc.exitcode}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RuntimeError(f"no word from the children for {timeout_s:.0f} s")
            sentinels = [proc.sentinel for proc in self.procs]
            multiprocessing.connection.wait([*self.conns, *sentinels], timeout=remaining)

    def expect(self, child: int, key: str, timeout_s: float) -> dict[str, Any]:
        got, message = self.receive(timeout_s)
        if got != child or key not in message:
            raise RuntimeError(f"expected {key!r} from {self.names[child]}, "
                               f"got {message} from {self.names[got]}")
        return message

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send_bytes(json.dumps({"stop": True}).encode())
            except OSError:
                pass
        deadline = time.monotonic() + 3.0
        for proc in self.procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()


def measure_procs(kind: str, peers: int, move: dict[str, Any], updates: list[dict[str, Any]],
                  moves: int, warmup: int, hand_ends: list[bool] | None = None) -> list[float]:
    """Seconds per move fan-out with the host and each peer in its own process, for ``moves``
    moves after ``warmup`` untimed ones. ``move`` / ``updates``: what the bare host sends.
    ``hand_ends`` (session): gets one flag per timed move, whether the next move was in another
    hand (the move ended its hand; the last timed move counts as not)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    signed = {"signer": Signer().seeds()} if kind == "bare-signed" else {}
    kind = "bare" if signed else kind
    children = Children()
    times: list[float] = []
    hands: list[int] = []
    try:
        host = children.start("host", kind, "host", {"peers": peers, "updates": updates, **signed})
        where = children.expect(host, "port", SETUP_TIMEOUT_S)
        members = [children.start(f"peer {i}", kind, "peer", {"index": i, "port": where["port"],
                                                             "key": where["key"], "move": move,
                                                             **signed})
                   for i in range(peers)]
        pending: list[tuple[int, dict[str, Any]]] = []
        ready = {host} if kind == "session" else set()
        while len(ready) < peers + 1:
            child, message = children.receive(SETUP_TIMEOUT_S)
            if "ready" in message:
                ready.add(child)
            else:
                pending.append((child, message))

        def next_turn(timeout_s: float) -> tuple[int, dict[str, Any]]:
            for i, (_child, message) in enumerate(pending):
                if "turn" in message:
                    return pending.pop(i)
            while True:
                child, message = children.receive(timeout_s)
                if "turn" in message:
                    return child, message
                raise RuntimeError(f"unexpected {message} from {children.names[child]}")

        for n in range(warmup + moves):
            # untimed: whose move and which (session: the seat whose turn it is decided already)
            if kind == "session":
                mover, turn = next_turn(SETUP_TIMEOUT_S if n == 0 else STEP_TIMEOUT_S)
                hand, count = turn["hand"], turn["count"]
            else:
                mover, hand, count = members[0], 0, 0
            for member in members:
                children.send(member, watch=n, hand=hand, count=count)
            armed = 0
            while armed < peers:
                child, message = children.receive(STEP_TIMEOUT_S)
                if message.get("armed") == n:
                    armed += 1
                else:
                    pending.append((child, message))
            children.send(mover, go=n)
            receipts: list[int] = []
            start: int | None = None
            while len(receipts) < peers:
                child, message = children.receive(STEP_TIMEOUT_S)
                if message.get("got") == n:
                    receipts.append(message["t"])
                    if child == mover:
                        start = message["t0"]
                else:
                    pending.append((child, message))
            if start is None:
                raise RuntimeError(f"move {n}: the mover sent no start time")
            if n >= warmup:
                times.append((max(receipts) - start) / 1e9)
                hands.append(hand)
    finally:
        children.close()
    if hand_ends is not None:
        ends = [a != b for a, b in zip(hands, hands[1:], strict=False)]
        hand_ends[:] = ends + [False] * bool(hands)
    return times
