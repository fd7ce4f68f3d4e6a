#!/usr/bin/env python3
"""Attack a headless host on 127.0.0.1 the way a hostile or buggy peer would, and print a table.

Every attack starts its own headless host (``lanomino host --headless --json``, bound to
127.0.0.1, no announcement) and a real player in its own process (this script's ``--probe``
mode: a bot-played ``PeerNode`` that also times the gaps between the host's messages). The
attackers run in this process. Nothing leaves the machine: every socket is on 127.0.0.1. Each
attack is bounded in count and time (``CAP_S``) and everything it started is stopped at its end.

Columns:

  attack      what was done (see ATTACKS below)
  outcome     held: every goal met (at a table without a move clock, a player who never moves
              is waited for: that row holds when the table waits and keeps everyone posted);
              degraded: the game went on but a goal was missed (named in the last column); stalled:
              the real player's match did not end in time; crashed: the host process died
  hb delay    the longest silence the real player saw from the host, less one heartbeat (0.25 s)
  mem         the host's peak resident memory above its size when the table opened (MB)
  game        whether the real player's match finished, and verified, with the same result as
              the host's
  notes       what the attack achieved, in numbers

Goals (issue 13): a flood delays the host's heartbeats by at most 0.2 s, adds at most 50 MB,
causes no false host loss and no contradictory result, and a real player can join during it.
The machine is shared: run it with ``nice`` and read delays as upper bounds.

    python scripts/attack.py [--only NAME ...] [--json]
    python scripts/attack.py --hosts [--json]    (the malicious-host rows: scripts/host_attacks.py)
    python scripts/attack.py --blind [--json]    (the locked deck's rows: scripts/blind_attacks.py)
    python scripts/attack.py --hosts --procs [--only NAME ...] [--json]
                                                 (the same rows as real processes on 127.0.0.1:
                                                  scripts/host_attacks_procs.py)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import zmq  # noqa: E402

from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.net.codec import encode_json  # noqa: E402
from lanomino.net.keys import DirectAddress, parse_direct_address  # noqa: E402
from lanomino.net.session_base import (  # noqa: E402
    Timings,
    join_statement,
    passphrase_key,
    passphrase_proof,
)
from lanomino.net.wire.messages import Move, Resync  # noqa: E402

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
HEARTBEAT_S = 0.25
CAP_S = 60.0  # no attack runs longer than this
STATUS_S = 5.0  # the real player says how the table looks this often (a match that must not end)
FLOOD_S = 5.0
FLOODERS = 40
DELAY_GOAL_S = 0.2
MEMORY_GOAL_MB = 50.0
BASELINE = {"delay_s": 0.0}  # the delay seen with no attack, measured first in the same run
TIMINGS = Timings(heartbeat_s=HEARTBEAT_S, liveness_s=5 * HEARTBEAT_S, grace_s=30.0)


# ----- the real player (a separate process) ---------------------------------------------------


async def probe_main(args: argparse.Namespace) -> None:
    """Play one seat with a bot; print JSON lines: seated, one per hand, then the result."""
    from lanomino.net.session import HostSilent, Joined, MatchOver, TranscriptUpdated
    from lanomino.node import PeerNode

    address = parse_direct_address(args.probe)
    node = PeerNode(
        data_dir=Path(args.data_dir),
        address=address,
        player="probe",
        passphrase=args.passphrase,
        timings=TIMINGS,
        level="normal",
        delay_s=args.delay,
        migration=False,
        announce=False,
    )
    started = time.monotonic()
    seen: dict[str, Any] = {"seated": None, "last": None, "gap": 0.0, "silent": 0, "hands": 0}
    receive = node.session.receive

    def timed(message: Any, now: float) -> None:
        last = seen["last"]
        if last is not None and node.session.phase.value == "seated":
            seen["gap"] = max(seen["gap"], now - last)
        seen["last"] = now
        receive(message, now)

    node.session.receive = timed  # type: ignore[method-assign]

    def watch(event: Any) -> None:
        if isinstance(event, Joined) and seen["seated"] is None:
            seen["seated"] = time.monotonic() - started
            print(json.dumps({"event": "seated", "after_s": seen["seated"]}), flush=True)
        elif isinstance(event, HostSilent):
            seen["silent"] += 1
        elif isinstance(event, MatchOver) and seen["last"] is not None:  # (a silence until now)
            seen["gap"] = max(seen["gap"], time.monotonic() - seen["last"])
        elif isinstance(event, TranscriptUpdated):
            hands = len(event.transcript["hands"])
            if hands != seen["hands"]:
                seen["hands"] = hands
                print(json.dumps({"event": "hand", "hands": hands}), flush=True)

    async def report_status() -> None:  # what a match that must not end shows meanwhile
        while True:
            await asyncio.sleep(STATUS_S)
            print(json.dumps({"event": "status", "max_gap_s": seen["gap"],
                              "host_silent": seen["silent"], "hands": seen["hands"]}), flush=True)

    node.subscribe(watch)
    status = asyncio.ensure_future(report_status())
    try:
        await node.start()
        outcome = await node.run()
    finally:
        status.cancel()
        await node.close()
    result = outcome.to_json()
    result.update(
        event="result",
        max_gap_s=seen["gap"],
        host_silent=seen["silent"],
        seated_after_s=seen["seated"],
    )
    print(json.dumps(result), flush=True)


# ----- processes -------------------------------------------------------------------------------


class Child:
    """A child process whose stdout is JSON lines, read as they come."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc, self.name = proc, name
        self.lines: list[dict[str, Any]] = []
        self.news = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, name: str, args: list[str], log: Path) -> Child:
        err = open(log, "wb")  # noqa: SIM115 - the child writes to it until it ends
        proc = await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.PIPE, stderr=err, cwd=ROOT
        )
        err.close()
        return cls(proc, name)

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                self.news.set()
                return
            try:
                self.lines.append(json.loads(line))
            except ValueError:
                continue
            self.news.set()

    async def wait_for(self, event: str, timeout_s: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout_s
        while True:
            found = next((x for x in self.lines if x.get("event") == event), None)
            if found is not None or self.proc.returncode is not None and self.reader.done():
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.news.clear()
            try:
                await asyncio.wait_for(self.news.wait(), remaining)
            except TimeoutError:
                return None

    def last(self, event: str) -> dict[str, Any] | None:
        return next((x for x in reversed(self.lines) if x.get("event") == event), None)

    async def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.returncode is None:
            try:
                self.proc.send_signal(sig)
                await asyncio.wait_for(self.proc.wait(), 5)
            except (ProcessLookupError, TimeoutError):
                if self.proc.returncode is None:
                    self.proc.kill()
                    await self.proc.wait()
        await asyncio.wait_for(self.reader, 5)


def rss_mb(pid: int, field_name: str = "VmRSS") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass
class Table:
    """One headless host and what it takes to attack it."""

    work: Path
    host: Child
    address: DirectAddress
    base_mb: float
    peak_mb: float = 0.0
    children: list[Child] = field(default_factory=list)
    sampler: asyncio.Future[None] | None = None

    @classmethod
    async def open(
        cls,
        work: Path,
        seats: int,
        bots: int = 0,
        passphrase: str | None = None,
        target: int = 100,
        bot_delay: float = 0.05,
        escrow: bool = False,
        extra: tuple[str, ...] = (),
    ) -> Table:
        args = [
            PY,
            "-m",
            "lanomino",
            "host",
            "--headless",
            "--deal",
            "fair",  # (these rows attack the fair deal; --blind runs the locked deck's)
            "--json",
            "--no-announce",
            "--bind",
            "127.0.0.1",
            "--seats",
            str(seats),
            "--bots",
            str(bots),
            "--data-dir",
            str(work / "host"),
            "--heartbeat",
            str(HEARTBEAT_S),
            "--bot-delay",
            str(bot_delay),
            "--set",
            f"target={target}",
        ]
        if passphrase is not None:
            args += ["--passphrase", passphrase]
        if escrow:
            args.append("--escrow")
        args += extra
        host = await Child.start("host", args, work / "host.err")
        listening = await host.wait_for("listening", 20)
        if listening is None:
            await host.stop()
            raise RuntimeError(f"the host did not open: {(work / 'host.err').read_text()[-400:]}")
        table = cls(work, host, parse_direct_address(listening["address"]), rss_mb(host.proc.pid))
        table.peak_mb = table.base_mb
        table.sampler = asyncio.ensure_future(table._sample())
        return table

    async def _sample(self) -> None:
        while self.host.proc.returncode is None:
            self.peak_mb = max(self.peak_mb, rss_mb(self.host.proc.pid))
            await asyncio.sleep(0.1)

    async def probe(
        self, name: str = "probe", passphrase: str | None = None, delay: float = 0.05
    ) -> Child:
        args = [
            PY,
            str(Path(__file__).resolve()),
            "--probe",
            str(self.address),
            "--data-dir",
            str(self.work / name),
            "--delay",
            str(delay),
        ]
        if passphrase is not None:
            args += ["--passphrase", passphrase]
        child = await Child.start(name, args, self.work / f"{name}.err")
        self.children.append(child)
        return child

    async def close(self) -> None:
        for child in self.children:
            await child.stop()
        await self.host.stop()
        if self.sampler is not None:
            self.sampler.cancel()

    @property
    def added_mb(self) -> float:
        return max(0.0, self.peak_mb - self.base_mb)

    def transcript(self) -> Path | None:
        result = self.host.last("match_over") or self.host.last("stopped")
        path = result.get("transcript") if result else None
        return Path(path) if path else None


async def in_process_peer(
    table: Table, name: str, level: str | None = "normal", delay: float = 0.05
) -> Any:
    """A seat played in this process (an attacker's own seat): a started ``PeerNode``."""
    from lanomino.node import PeerNode

    node = PeerNode(
        data_dir=table.work / name,
        address=table.address,
        player=name,
        passphrase=None,
        timings=TIMINGS,
        level=level,
        delay_s=delay,
        migration=False,
        announce=False,
    )
    await node.start()
    return node


async def run_node(node: Any) -> asyncio.Future[Any]:
    return asyncio.ensure_future(node.run())


async def stop_node(node: Any, task: asyncio.Future[Any] | None) -> None:
    if task is not None and not task.done():
        node.quit()
        try:
            await asyncio.wait_for(task, 3)
        except (TimeoutError, Exception):  # noqa: BLE001 - stopping an attacker, whatever it did
            task.cancel()
    await node.close()


# ----- raw connections (the flooders and the guesser) -------------------------------------


KEYS: dict[tuple[bytes, str], bytes] = {}  # passphrase keys made (slow on purpose), by host


class RawPeer:
    """A bare CURVE DEALER on a shared context: sends hand-made protocol messages (from the
    local address ``source`` when given: a guesser on another machine, 127.0.0.x here)."""

    def __init__(
        self, ctx: zmq.Context[Any], address: DirectAddress, source: str | None = None
    ) -> None:
        public, secret = zmq.curve_keypair()
        self.curve = public.decode("ascii")
        self.identity = Identity.generate()
        sock = ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, 1000)
        sock.curve_serverkey = (address.server_key or "").encode("ascii")
        sock.curve_publickey, sock.curve_secretkey = public, secret
        where = f"{source}:0;" if source else ""
        sock.connect(f"tcp://{where}{address.host}:{address.port}")
        self.sock = sock
        self.seq = 0

    def message(self, type_: str, **body: Any) -> bytes:
        self.seq += 1
        return encode_json({"v": 1, "type": type_, "term": 0, "seq": self.seq, "body": body})

    def hello(self) -> bytes:
        return self.message(
            "hello",
            name="flood",
            identity=self.identity.public_key.hex(),
            curve=self.curve,
            addr=None,
        )

    def send(self, data: bytes) -> bool:
        try:
            self.sock.send(data, zmq.NOBLOCK)
            return True
        except zmq.Again:
            return False

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(json.loads(self.sock.recv(zmq.NOBLOCK)))
            except zmq.Again:
                return out

    def answer(self, challenge: dict[str, Any], passphrase: str, server: str) -> bytes:
        """The ``auth`` for a challenge's body: the join signed, the passphrase proved."""
        host, nonce = bytes.fromhex(challenge["host"]), bytes.fromhex(challenge["nonce"])
        statement = join_statement(nonce, bytes.fromhex(challenge["table"]), server, self.curve)
        key = KEYS.get((host, passphrase)) or passphrase_key(passphrase, host)
        KEYS[(host, passphrase)] = key
        proof = passphrase_proof(key, nonce, server, self.curve, self.identity.public_key)
        signature = self.identity.sign_statement(statement)
        return self.message("auth", proof=proof.hex(), signature=signature.hex())

    def close(self) -> None:
        self.sock.close(linger=0)


async def flood_elsewhere(table: Table) -> int:
    """``hello_flood`` from a process of its own at the lowest CPU priority: on a LAN the flooders
    are other machines, so here they should not win the CPU from the host they flood (what the
    host spends on their frames, decrypting them included, still counts)."""
    args = ["nice", "-n", "19", PY, str(Path(__file__).resolve()), "--flood", str(table.address)]
    child = await Child.start("flood", args, table.work / "flood.err")
    done = await child.wait_for("done", FLOOD_S + 30)
    await child.stop()
    return int(done["sent"]) if done else 0


async def hello_flood(address: DirectAddress, seconds: float, count: int = FLOODERS) -> int:
    """``count`` unseated connections send ``hello`` as fast as they can; returns how many."""
    ctx: zmq.Context[Any] = zmq.Context()
    peers = [RawPeer(ctx, address) for _ in range(count)]
    sent = 0
    try:
        await asyncio.sleep(0.3)  # the CURVE handshakes
        hellos = [p.hello() for p in peers]
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for peer, hello in zip(peers, hellos, strict=True):
                for _ in range(20):
                    if not peer.send(hello):
                        break
                    sent += 1
                peer.drain()
            await asyncio.sleep(0)
    finally:
        for peer in peers:
            peer.close()
        ctx.destroy(linger=0)
    return sent


# ----- results ---------------------------------------------------------------------------------


@dataclass
class Row:
    attack: str
    outcome: str = "held"
    delay_s: float | None = None
    mem_mb: float | None = None
    game: str = "-"
    notes: list[str] = field(default_factory=list)

    def miss(self, note: str, outcome: str = "degraded") -> None:
        self.notes.append(note)
        rank = ["held", "degraded", "stalled", "crashed"]
        if rank.index(outcome) > rank.index(self.outcome):
            self.outcome = outcome


async def judge(
    row: Row, table: Table, probe: Child, wait_s: float, *, flood: bool = True
) -> dict[str, Any] | None:
    """Wait for the real player's result and fill in the common columns of ``row``."""
    result = await probe.wait_for("result", wait_s)
    host = await table.host.wait_for("match_over", 5 if result else 0.5)
    row.mem_mb = table.added_mb
    if table.host.proc.returncode not in (None, 0):
        row.miss(f"host exited with {table.host.proc.returncode}", "crashed")
    if result is None:
        row.miss("the real player's match did not end", "stalled")
        row.game = "no"
        return None
    gap = result["max_gap_s"]
    row.delay_s = max(0.0, gap - HEARTBEAT_S)
    finished = bool(result["finished"])
    same = host is not None and (host["winner"], host["scores"]) == (
        result["winner"],
        result["scores"],
    )
    row.game = ("yes" if finished else "no") + (", verified" if result["verified"] else "")
    if not finished:
        row.miss(f"real player stopped: {result['reason'][:60]}", "stalled")
    elif not same:
        row.miss(f"contradictory results: host {host and host['winner']}, peer {result['winner']}")
    if result["host_silent"]:
        row.miss(f"the real player thought the host silent {result['host_silent']}x")
    if flood and row.delay_s > BASELINE["delay_s"] + DELAY_GOAL_S:
        row.miss(f"heartbeats {row.delay_s:.2f} s late (baseline {BASELINE['delay_s']:.2f} s)")
    if flood and row.mem_mb > MEMORY_GOAL_MB:
        row.miss(f"{row.mem_mb:.0f} MB added")
    if finished and not result["verified"]:
        row.miss("the real player's match does not verify")
    return result


# ----- the attacks -----------------------------------------------------------------------------


async def attack_baseline(work: Path) -> Row:
    row = Row("none (baseline)")
    table = await Table.open(work, seats=2)
    try:
        probe = await table.probe()
        await judge(row, table, probe, CAP_S)
    finally:
        await table.close()
    return row


async def attack_hello_lobby(work: Path) -> Row:
    row = Row(f"{FLOODERS} unseated hello flood, lobby, {FLOOD_S:.0f} s")
    table = await Table.open(work, seats=2)
    try:
        flood = asyncio.ensure_future(flood_elsewhere(table))
        await asyncio.sleep(1.0)
        probe = await table.probe()
        seated = await probe.wait_for("seated", FLOOD_S + 5)
        sent = await flood
        row.notes.append(f"{sent} hellos sent")
        if seated is None:
            row.miss("the real player could not join during the flood")
        else:
            row.notes.append(f"joined in {seated['after_s']:.1f} s")
        await judge(row, table, probe, CAP_S)
    finally:
        await table.close()
    return row


async def attack_hello_game(work: Path) -> Row:
    row = Row(f"{FLOODERS} unseated hello flood, in game, {FLOOD_S:.0f} s")
    table = await Table.open(work, seats=2, target=150)
    try:
        probe = await table.probe()
        if await probe.wait_for("hand", 20) is None:
            row.miss("the match did not start", "stalled")
        sent = await flood_elsewhere(table)
        row.notes.append(f"{sent} hellos sent")
        await judge(row, table, probe, CAP_S)
    finally:
        await table.close()
    return row


def send_raw(node: Any) -> int:
    """Send what the node's session has queued straight through its transport (no backlog,
    nothing awaited); returns the bytes sent. A full queue drops the rest, as a flooder would."""
    sent = 0
    for message in node.session.take_outgoing():
        try:
            node.transport.send_now(message)
            sent += len(encode_json(message))
        except Exception:  # noqa: BLE001 - the flooder's queue is full: go on
            pass
    return sent


async def seated_flood(address: DirectAddress, data_dir: Path) -> int:
    """Take a seat (a bot plays it), then flood stale moves and resyncs for ``FLOOD_S`` seconds
    once the match has begun, and play on to the end; returns how many were sent."""
    from lanomino.node import PeerNode

    node = PeerNode(data_dir=data_dir, address=address, player="flooder", passphrase=None,
                    timings=TIMINGS, level="normal", delay_s=0.05, migration=False,
                    announce=False)
    await node.start()
    task = await run_node(node)
    session, sent = node.session, 0
    try:
        while session.doc is None and not task.done():
            await asyncio.sleep(0.05)
        end = time.monotonic() + FLOOD_S
        while time.monotonic() < end:
            for i in range(50):
                if i % 2:
                    session._send(Resync())
                else:
                    move = {"seat": session.seat, "pass": True}
                    session._send(Move(max(1, session.hand), 0, move, bytes(64)))
                sent += 1
            send_raw(node)
            await asyncio.sleep(0.001)
        session.resync_asked = False
        await asyncio.wait_for(task, CAP_S)
    finally:
        await stop_node(node, task)
    return sent


async def attack_seated_flood(work: Path) -> Row:
    row = Row(f"seated peer floods moves + resyncs, {FLOOD_S:.0f} s")
    table = await Table.open(work, seats=3, target=150)
    try:
        probe = await table.probe()
        args = ["nice", "-n", "19", PY, str(Path(__file__).resolve()), "--flood-seated",
                str(table.address), "--data-dir", str(work / "flooder")]
        flooder = await Child.start("flooder", args, work / "flooder.err")
        table.children.append(flooder)
        if await probe.wait_for("hand", 20) is None:
            row.miss("the match did not start", "stalled")
        await judge(row, table, probe, CAP_S)
        done = await flooder.wait_for("done", 10)
        row.notes.append(f"{done['sent'] if done else '?'} messages sent")
    finally:
        await table.close()
    return row


async def attack_resync_amplify(work: Path) -> Row:
    row = Row("1,000 resyncs from one seated peer")
    table = await Table.open(work, seats=3, target=150)
    node = task = None
    try:
        probe = await table.probe()
        node = await in_process_peer(table, "asker")
        got = {"bytes": 0, "snapshots": 0}
        receive = node.session.receive

        def counted(message: Any, now: float) -> None:
            kind = message.get("type")
            if kind in ("snapshot", "snapshot_part"):
                got["snapshots"] += kind == "snapshot" or message["body"]["part"] == 0
                got["bytes"] += len(encode_json(message))
            receive(message, now)

        node.session.receive = counted
        task = await run_node(node)
        await probe.wait_for("hand", 20)
        asked = 0
        for _ in range(20):
            for _ in range(50):
                node.session._send(Resync())
            asked += send_raw(node)
            await asyncio.sleep(0.05)
        await asyncio.sleep(3)
        node.session.resync_asked = False
        row.notes.append(
            f"{got['snapshots']} snapshots, {got['bytes'] / 1e6:.1f} MB sent back "
            f"for {asked / 1e3:.0f} kB asked"
        )
        if got["snapshots"] > 10:
            row.miss("resync answers are not rate-limited")
        await judge(row, table, probe, CAP_S)
    finally:
        if node is not None:
            await stop_node(node, task)
        await table.close()
    return row


def forge_moves(node: Any, count: int = 3) -> dict[str, int]:
    """Make ``node`` (a started ``PeerNode`` without a bot) sign its first ``count`` moves with
    garbage, then honestly (a refused move is made again); returns the live counts."""
    from lanomino.engine import IllegalActionError
    from lanomino.fair.transcript import move_json
    from lanomino.net.session import ProtocolProblem, YourTurn
    from lanomino.node import bot_policy

    policy, session = bot_policy("normal"), node.session
    forged = {"sent": 0, "refused": 0}

    def play(event: Any) -> None:
        if isinstance(event, ProtocolProblem) and event.code == "bad_signature":
            forged["refused"] += 1
            session.pending_move = None
            event = YourTurn(session.observation())  # refused: move again, honestly
        if not isinstance(event, YourTurn):
            return
        action = policy(event.observation)
        if forged["sent"] < count:
            forged["sent"] += 1
            move = move_json(session.seat, action)
            index = len(session.moves.get(session.hand, []))
            session._presigned = (
                session.digest,
                session.hand,
                index,
                move,
                secrets.token_bytes(64),
                session.arrival.seen(session.hand, index),  # (the log head it saw, honestly)
            )
        try:
            node.submit(action)
        except IllegalActionError:
            pass

    node.subscribe(lambda e: asyncio.get_running_loop().call_soon(play, e))
    return forged


async def verify_file(path: Path | None) -> str:
    """``lanomino verify``'s verdict on a transcript, in a few words."""
    if path is None:
        return "no transcript"
    out = await asyncio.create_subprocess_exec(
        PY,
        "-m",
        "lanomino",
        "verify",
        str(path),
        "--json",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    data, _ = await out.communicate()
    report = json.loads(data or b"{}")
    failure = report.get("failure") or {}
    return (
        "fair"
        if report.get("ok")
        else (f"NOT FAIR, blames {failure.get('blame', '?')} ({failure.get('check', '?')})")
    )


async def attack_garbage_signatures(work: Path) -> Row:
    row = Row("seated peer signs its moves with garbage")
    table = await Table.open(work, seats=3)
    node = task = None
    try:
        probe = await table.probe()
        node = await in_process_peer(table, "forger", level=None)
        forged = forge_moves(node)
        task = await run_node(node)
        result = await judge(row, table, probe, CAP_S, flood=False)
        host = table.host.last("match_over")
        verdict = await verify_file(table.transcript())
        row.notes.append(
            f"{forged['sent']} forged, {forged['refused']} refused on arrival; verify: {verdict}"
        )
        if forged["refused"] < forged["sent"]:
            row.miss("forged moves entered the log")
        if host is not None and host["verified"] and verdict != "fair":
            row.miss("the host says verified but the transcript is not fair")
        if result is not None and verdict != "fair":
            row.miss("the transcript does not verify")
    finally:
        if node is not None:
            await stop_node(node, task)
        await table.close()
    return row


async def guess_passphrases(
    address: DirectAddress,
    seconds: float,
    connections: int,
    avoid: str = "",
    source: str | None = None,
) -> list[tuple[float, str]]:
    """Guess 4-digit PINs (never ``avoid``) from ``connections`` connections (each its own
    throwaway key, all from ``source``) for ``seconds``; returns each answer: (seconds since the
    start, the refusal's code)."""
    ctx: zmq.Context[Any] = zmq.Context()
    guessers = [RawPeer(ctx, address, source) for _ in range(connections)]
    server = address.server_key or ""
    answers: list[tuple[float, str]] = []
    try:
        await asyncio.sleep(0.3)
        start = time.monotonic()
        asked = {id(g): start for g in guessers}
        for g in guessers:
            g.send(g.hello())
        while time.monotonic() < start + seconds:
            for g in guessers:
                if time.monotonic() - asked[id(g)] > 0.6:  # dropped (over budget): ask again
                    asked[id(g)] = time.monotonic()
                    g.send(g.hello())
                for reply in g.drain():
                    asked[id(g)] = time.monotonic()
                    body, kind = reply.get("body", {}), reply.get("type")
                    if kind == "refused":
                        answers.append((time.monotonic() - start, str(body.get("code"))))
                        g.send(g.hello())
                    if kind == "challenge":
                        guess = f"{secrets.randbelow(10_000):04d}"
                        g.send(g.answer(body, "x" if guess == avoid else guess, server))
            await asyncio.sleep(0.002)
    finally:
        for g in guessers:
            g.close()
        ctx.destroy(linger=0)
    return answers


async def join_once(
    address: DirectAddress, passphrase: str, timeout_s: float = 10.0
) -> tuple[str, float]:
    """Ask for a seat with a fresh key and ``passphrase``, from 127.0.0.1, and leave it again at
    once (in a lobby the seat is free again); returns what came back ("welcome", a refusal's code,
    or "silent" after ``timeout_s``) and how long it took."""
    ctx: zmq.Context[Any] = zmq.Context()
    peer = RawPeer(ctx, address)
    start = time.monotonic()
    try:
        peer.send(peer.hello())
        while time.monotonic() - start < timeout_s:
            for reply in peer.drain():
                kind, body = reply.get("type"), reply.get("body", {})
                if kind == "challenge":
                    peer.send(peer.answer(body, passphrase, address.server_key or ""))
                elif kind == "welcome":
                    took = time.monotonic() - start
                    peer.send(peer.message("bye", reason="seen in", handover=False))
                    await asyncio.sleep(0.05)
                    return "welcome", took
                elif kind == "refused":
                    return str(body.get("code")), time.monotonic() - start
            await asyncio.sleep(0.005)
        return "silent", time.monotonic() - start
    finally:
        peer.close()
        ctx.destroy(linger=0)


GUESS_S = 30.0


async def attack_passphrase(work: Path) -> Row:
    pin = f"{secrets.randbelow(10_000):04d}"
    row = Row(f"passphrase guessing, 4 connections, {GUESS_S:.0f} s")
    table = await Table.open(work, seats=2, passphrase=pin)
    try:
        answers = await guess_passphrases(table.address, GUESS_S, 4, avoid=pin)
        wrong = [t for t, code in answers if code == "passphrase"]
        late = [t for t in wrong if t >= GUESS_S / 3]  # past the first burst: the steady rate
        rate = len(late) / (GUESS_S * 2 / 3)
        days = (10_000 / rate / 86_400) if rate else float("inf")
        throttled = sum(code == "throttled" for _, code in answers)
        shown = f"{days:.2g} days"
        if days == float("inf"):  # none checked past the burst: the table's rate is 1 a minute
            shown = "about a week or more"
        row.notes.append(
            f"{len(wrong)} wrong answers checked ({len(late)} in the last "
            f"{GUESS_S * 2 / 3:.0f} s), {throttled} throttled: all 10^4 PINs "
            f"take {shown} at that rate"
        )
        if days < 1:
            row.miss("a 4-digit PIN falls in under a day")
        began = time.monotonic()
        probe = await table.probe(passphrase=pin)
        first = await probe.wait_for("seated", 15) or await probe.wait_for("result", 15) or {}
        told = re.search(r"try again in (\d+) s", str(first.get("reason", "")))
        if told:  # a newcomer after the guessing waits out the table's budget, as told
            await asyncio.sleep(int(told.group(1)) + 0.5)
            probe = await table.probe("probe2", passphrase=pin)
        if await probe.wait_for("seated", 20) is not None:
            row.notes.append(f"the right passphrase got in {time.monotonic() - began:.0f} s later"
                             + (f" (told to wait {told.group(1)} s)" if told else ""))
        await judge(row, table, probe, CAP_S, flood=False)
    finally:
        await table.close()
    return row


GUESSERS = 50
FLOOD_GUESS_S = 90.0
JOIN_AT_S = (10.0, 25.0, 40.0, 55.0, 70.0)  # when the right person tries, into the guessing


async def attack_passphrase_flood(work: Path) -> Row:
    """50 keys guess from 127.0.0.2 (another machine) while the right PIN joins from 127.0.0.1."""
    pin = f"{secrets.randbelow(10_000):04d}"
    row = Row(f"{GUESSERS} keys guess a PIN {FLOOD_GUESS_S:.0f} s, the right one joins")
    table = await Table.open(work, seats=3, passphrase=pin)
    args = ["nice", "-n", "19", PY, str(Path(__file__).resolve()), "--guess", str(table.address),
            "--passphrase", pin]
    try:
        guesser = await Child.start("guess", args, work / "guess.err")
        table.children.append(guesser)
        started = await guesser.wait_for("started", 30)
        began = time.monotonic()
        joins = []
        for at in JOIN_AT_S:
            await asyncio.sleep(max(0.0, began + at - time.monotonic()))
            joins.append(await join_once(table.address, pin, timeout_s=10.0))
        done = await guesser.wait_for("done", FLOOD_GUESS_S + 30) if started else None
        inside = sorted(s for outcome, s in joins if outcome == "welcome")
        took = f" (median {inside[len(inside) // 2]:.2f} s, worst {inside[-1]:.2f} s)"
        row.notes.append(f"the right PIN got in {len(inside)} of {len(joins)} times"
                         + (took if inside else ""))
        refused = [outcome for outcome, _ in joins if outcome != "welcome"]
        if refused or not inside or inside[-1] > 10.0:
            row.miss(f"the right PIN was kept out: {', '.join(refused) or 'slow'}")
        if done is None:
            row.miss("the guesser did not report", "stalled")
        else:
            late = done["wrong_late"] / ((FLOOD_GUESS_S - 30) / 60)
            row.notes.append(f"{done['wrong']} wrong answers checked, {done['throttled']} "
                             f"throttled; past the first 30 s {late:.1f} a minute")
        row.mem_mb = table.added_mb
    finally:
        await table.close()
    return row


async def guess_main(address: DirectAddress, pin: str) -> dict[str, Any]:
    """``--guess``: the flood of ``attack_passphrase_flood``, in a process of its own."""
    print(json.dumps({"event": "started"}), flush=True)
    answers = await guess_passphrases(address, FLOOD_GUESS_S, GUESSERS, pin, "127.0.0.2")
    wrong = [t for t, code in answers if code == "passphrase"]
    return {"event": "done", "wrong": len(wrong), "wrong_late": sum(t >= 30 for t in wrong),
            "throttled": sum(code == "throttled" for _, code in answers)}


LONG_HANDS = 45


async def attack_long_match(work: Path) -> Row:
    row = Row(f"real player restarts after {LONG_HANDS} hands")
    table = await Table.open(work, seats=2, target=100_000, bot_delay=0.0)
    try:
        probe = await table.probe(delay=0.0)
        deadline = time.monotonic() + 4 * CAP_S
        while time.monotonic() < deadline and probe.proc.returncode is None:
            last = probe.last("hand")
            if last is not None and last["hands"] >= LONG_HANDS:
                break
            await asyncio.sleep(0.2)
        path = table.transcript() or next(
            (table.work / "host" / "transcripts").glob("*.json"), None
        )
        size = path.stat().st_size if path is not None and path.exists() else 0
        await probe.stop(signal.SIGKILL)
        row.notes.append(f"transcript {size / 1e3:.0f} kB")
        again = await table.probe("probe")
        hands = LONG_HANDS
        end = time.monotonic() + 20
        while time.monotonic() < end and again.proc.returncode is None:
            last = again.last("hand")
            if last is not None and last["hands"] >= hands + 2:
                break
            await asyncio.sleep(0.2)
        last = again.last("hand")
        resumed = last is not None and last["hands"] >= hands + 2
        row.game = "resynced" if resumed else "no"
        row.mem_mb = table.added_mb
        if not resumed:
            row.miss("the restarted player never resynced (the table stopped)", "stalled")
        else:
            row.notes.append(f"restarted player resynced and played to hand {last['hands']}")
    finally:
        await table.close()
    return row


def _raw(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else bytes.fromhex(value)


async def attack_escrow_pool(work: Path, escrow: bool = False) -> Row:
    from lanomino.fair.commit import DealContext
    from lanomino.fair.escrow import Escrow, Share, rebuild_unchecked

    row = Row("two non-host players pool escrow shares" + (" (--escrow)" if escrow else ""))
    table = await Table.open(work, seats=3, escrow=escrow)
    nodes: list[Any] = []
    tasks: list[asyncio.Future[Any]] = []
    try:
        for name in ("pool1", "pool2"):
            nodes.append(await in_process_peer(table, name))
            tasks.append(await run_node(nodes[-1]))
        end = time.monotonic() + 20
        while time.monotonic() < end and not all(
            n.session.escrow or n.session.doc and n.session.doc["hands"] for n in nodes
        ):
            await asyncio.sleep(0.05)
        shares = [n.session.escrow for n in nodes]
        common = set(shares[0]) & set(shares[1])
        if not common:
            row.notes.append("no escrow shares were sent: nothing to pool")
        else:
            key = sorted(common)[0]
            body = shares[0][key]
            ctx = DealContext(nodes[0].session.table, key[0], key[1])
            escrow = Escrow(
                ctx,
                tuple(body.seats),
                tuple(body.holders),
                tuple(_raw(d) for d in body.digests),
            )
            pooled = rebuild_unchecked(
                escrow,
                [
                    Share(n.session.seat, _raw(s[key].share))
                    for n, s in zip(nodes, shares, strict=True)
                ],
            )
            mine = nodes[0].session.secrets.get((ctx.table.hex(), key[0], key[1]))
            seats = list(body.seats)
            got = pooled[32 * seats.index(nodes[0].session.seat) :][:32]
            if mine is not None and got == mine:
                row.miss(
                    f"pooled shares rebuild all {len(seats)} secrets of hand {key[0]}: "
                    "every hand and the boneyard"
                )
            else:
                row.notes.append("pooled shares do not rebuild the secrets")
        row.game = "n/a"
    finally:
        for node, task in zip(nodes, tasks, strict=False):
            await stop_node(node, task)
        await table.close()
    return row


async def attack_bot_keys(work: Path) -> Row:
    row = Row("a human asks for the host-side bots' keys")
    table = await Table.open(work, seats=3, bots=1)
    node = task = None
    try:
        node = await in_process_peer(table, "curious")
        seen: list[dict[str, Any]] = []
        receive = node.session.receive

        def watched(message: Any, now: float) -> None:
            if message.get("type") == "bots":
                seen.extend(message["body"]["bots"])
            receive(message, now)

        node.session.receive = watched
        task = await run_node(node)
        end = time.monotonic() + 15
        while time.monotonic() < end and not (node.session.doc and node.session.doc["hands"]):
            await asyncio.sleep(0.05)
        keys = [b for b in seen if "seed" in b]
        if keys:
            row.miss(f"received {len(keys)} bot signing key(s): can sign as the bot")
        else:
            row.notes.append(f"{len(seen)} bot entries received, no key among them")
        row.game = "n/a"
    finally:
        if node is not None:
            await stop_node(node, task)
        await table.close()
    return row


async def judge_waiting(row: Row, table: Table, probe: Child, wait_s: float) -> None:
    """A player who never moves at a table without a move clock is waited for: that is the rule
    (issue 13: only a table's move clock hands a seat to the bot). Held when, ``wait_s`` on, the
    match has not ended, nobody was dropped and the host kept the real player posted."""
    await asyncio.sleep(wait_s)
    statuses = [x for x in probe.lines if x.get("event") == "status"]
    ended = any(x.get("event") == "result" for x in probe.lines)
    row.mem_mb = table.added_mb
    if table.host.proc.returncode is not None:
        row.miss(f"host exited with {table.host.proc.returncode}", "crashed")
    elif ended or not statuses:
        row.miss("the match ended (or the real player stopped) though the table must wait")
    else:
        last = statuses[-1]
        row.delay_s = max(0.0, last["max_gap_s"] - HEARTBEAT_S)
        if last["host_silent"]:
            row.miss(f"the real player thought the host silent {last['host_silent']}x")
        row.notes.append(f"no move clock: the table waits for the player ({wait_s:.0f} s, as"
                         " designed; --move-time hands the seat to the table's bot)")
    row.game = "waits"


async def attack_silent(work: Path, what: str, clock: bool = False) -> Row:
    row = Row(
        f"seated peer heartbeats but never sends its {what}" + (", move clock" if clock else "")
    )
    extra = ("--grace", "5", *(("--move-time", "3") if clock else ()))  # deadlines, then leave
    table = await Table.open(work, seats=3, extra=extra)
    node = task = None
    try:
        probe = await table.probe()
        node = await in_process_peer(table, "mute", level=None if what == "move" else "normal")
        if what != "move":
            ignored = {"commit": "commit_req", "reveal": "reveal_req"}[what]
            node.session._handlers = {**node.session._handlers, ignored: lambda self, body: None}
        task = await run_node(node)
        if what == "move" and not clock:
            await judge_waiting(row, table, probe, 20.0)
        else:
            await judge(row, table, probe, 45.0, flood=False)
        row.mem_mb = table.added_mb
    finally:
        if node is not None:
            await stop_node(node, task)
        await table.close()
    return row


ATTACKS: dict[str, Callable[[Path], Awaitable[Row]]] = {
    "baseline": attack_baseline,
    "silent-commit": lambda w: attack_silent(w, "commit"),
    "silent-reveal": lambda w: attack_silent(w, "reveal"),
    "silent-move": lambda w: attack_silent(w, "move"),
    "silent-move-clock": lambda w: attack_silent(w, "move", clock=True),
    "hello-lobby": attack_hello_lobby,
    "hello-game": attack_hello_game,
    "seated-flood": attack_seated_flood,
    "garbage-signatures": attack_garbage_signatures,
    "passphrase": attack_passphrase,
    "passphrase-flood": attack_passphrase_flood,
    "long-match": attack_long_match,
    "resync": attack_resync_amplify,
    "escrow-pool": attack_escrow_pool,  # the default table: no escrow
    "escrow-pool-on": lambda w: attack_escrow_pool(w, escrow=True),
    "bot-keys": attack_bot_keys,
}


def print_table(rows: list[Row]) -> None:
    print(f"{'attack':46} {'outcome':9} {'hb delay':>8} {'mem MB':>7}  {'game':15} notes")
    for r in rows:
        delay = "-" if r.delay_s is None else f"{r.delay_s:.2f} s"
        mem = "-" if r.mem_mb is None else f"{r.mem_mb:.0f}"
        print(f"{r.attack:46} {r.outcome:9} {delay:>8} {mem:>7}  {r.game:15} {'; '.join(r.notes)}")


async def main(args: argparse.Namespace) -> int:
    names = args.only or list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        print(f"unknown attack(s): {', '.join(unknown)}; known: {', '.join(ATTACKS)}")
        return 2
    rows: list[Row] = []
    if "baseline" in names:
        names.remove("baseline")
    names.insert(0, "baseline")  # the reference for the heartbeat delays of this run
    for name in names:
        work = Path(tempfile.mkdtemp(prefix=f"lanomino-attack-{name}-"))
        try:
            row = await asyncio.wait_for(ATTACKS[name](work), 6 * CAP_S)
        except Exception as exc:  # noqa: BLE001 - one attack's failure is a row, not the end
            row = Row(name)
            row.miss(f"the attack itself failed: {exc!r}"[:120], "stalled")
        finally:
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
        rows.append(row)
        if name == "baseline" and row.delay_s is not None:
            BASELINE["delay_s"] = row.delay_s
        print(f"  ... {name}: {row.outcome}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps([r.__dict__ for r in rows]))
    else:
        print_table(rows)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help=f"among {', '.join(ATTACKS)}")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep each attack's folder (logs)")
    parser.add_argument("--probe", metavar="ADDRESS", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", help=argparse.SUPPRESS)
    parser.add_argument("--delay", type=float, default=0.05, help=argparse.SUPPRESS)
    parser.add_argument("--passphrase", help=argparse.SUPPRESS)
    parser.add_argument("--flood", metavar="ADDRESS", help=argparse.SUPPRESS)
    parser.add_argument("--guess", metavar="ADDRESS", help=argparse.SUPPRESS)
    parser.add_argument("--flood-seated", metavar="ADDRESS", help=argparse.SUPPRESS)
    parser.add_argument("--hosts", action="store_true",
                        help="the malicious-host rows instead (in memory: scripts/host_attacks.py)")
    parser.add_argument("--blind", action="store_true",
                        help="the locked deck's rows instead (in memory: scripts/blind_attacks.py)")
    parser.add_argument("--procs", action="store_true",
                        help="with --hosts: the rows as real processes on 127.0.0.1 "
                             "(scripts/host_attacks_procs.py)")
    parsed = parser.parse_args()
    if parsed.blind:
        import blind_attacks

        sys.exit(blind_attacks.main(["--json"] if parsed.json else []))
    if parsed.hosts:
        import host_attacks
        import host_attacks_procs

        rows = host_attacks_procs if parsed.procs else host_attacks
        sys.exit(rows.main((["--json"] if parsed.json else [])
                           + (["--only", *parsed.only] if parsed.only else [])))
    os.environ.setdefault("LANOMINO_LOG", "WARNING")
    logging.basicConfig(level=logging.ERROR)  # the attackers' own nodes: only their failures
    if parsed.probe:
        asyncio.run(probe_main(parsed))
        sys.exit(0)
    if parsed.flood_seated:
        where = parse_direct_address(parsed.flood_seated)
        sent = asyncio.run(seated_flood(where, Path(parsed.data_dir)))
        print(json.dumps({"event": "done", "sent": sent}), flush=True)
        sys.exit(0)
    if parsed.guess:  # (the passphrase guessers' process: see attack_passphrase_flood)
        report = asyncio.run(guess_main(parse_direct_address(parsed.guess), parsed.passphrase))
        print(json.dumps(report), flush=True)
        sys.exit(0)
    if parsed.flood:  # (a flooder process of its own: see flood_elsewhere)
        sent = asyncio.run(hello_flood(parse_direct_address(parsed.flood), FLOOD_S))
        print(json.dumps({"event": "done", "sent": sent}), flush=True)
        sys.exit(0)
    sys.exit(asyncio.run(main(parsed)))
