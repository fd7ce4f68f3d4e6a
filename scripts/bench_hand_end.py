#!/usr/bin/env python3
"""CPU time a hand's end costs the host and each peer, in memory (no sockets).

A table as scripts/bench_net.py plays it (the host's own seat played by a host-side policy, three
peers, classic rules with a target no hand reaches, every seat playing its first legal move), in
one process: every message goes through the real codec (encoded to bytes, decoded), each node
reads its messages one at a time and, after each, runs its timer while it is due at once (the work
a hand's end leaves for once its output has gone), as the runtime does. Each node's calls are
timed in CPU time (``time.thread_time``: other jobs on the machine do not count).

A hand ends with one move; from it until every peer holds the next hand's deal, each node's work
falls in three parts:

  path    the host: taking the hand's last move (its log and closing signed, the log and the
          update sent); a peer: reading that log and update. This is on the move's own latency.
  after   the work each node then does at once, on its timer: the check of the hand (the verifier
          on the transcript; a peer's own checks), the host's own commitments for the next deal.
          It competes for the cores with the peers still to read the update (bench_net's
          processes mode runs four "machines" on this machine's cores).
  deal    the next deal's commit-reveal round, up to the deal.

For comparison, ``in-hand`` is a node's work for any other move (the host: taking a peer's move;
a peer: reading its update). Figures are medians over the hand ends (a peer's: the median over
the hand ends of the three peers' mean). ``checks recalled`` counts the signature checks a
session's ``KeyRing`` answered from memory (a signature it had checked on arrival), per hand end
and node, where the code measured has that memory.

``--against REV`` measures the same table (same secrets, so the same deals and moves) on git
revision REV of this repository too, in the same run (``git archive`` into a temporary folder,
imported from there), alternating the two ``--rounds`` times, and prints both and their ratio:
e.g. ``--against 072c81b`` (main before the hand-end work of issue 28 point 9).

``--profile`` prints where the "after" part's time goes instead (cProfile, this tree).

    python scripts/bench_hand_end.py [--hands 40] [--rounds 3] [--against REV] [--json]
    python scripts/bench_hand_end.py --profile [--hands 40]
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import hashlib
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("path", "after", "deal")


def first_legal(obs: Any) -> Any:
    return obs.legal[0]


class Timed:
    """CPU seconds per part of the hand end in progress, per node (0: host, 1..: the peers)."""

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes
        self.ends: list[dict[str, list[float]]] = []  # per hand end: part -> seconds per node
        self.in_hand: dict[str, list[float]] = {"host": [], "peer": []}
        self.current: dict[str, list[float]] | None = None
        self.recalled: list[list[int]] = []  # per hand end: checks answered from memory per node

    def begin(self, recalled: list[int]) -> None:
        self.current = {part: [0.0] * self.nodes for part in PARTS}
        self.ends.append(self.current)
        self.recalled.append([-n for n in recalled])

    def end(self, recalled: list[int]) -> None:
        self.recalled[-1] = [a + b for a, b in zip(self.recalled[-1], recalled, strict=True)]
        self.current = None

    def add(self, node: int, part: str, seconds: float) -> None:
        if self.current is not None:
            self.current[part][node] += seconds


PROFILES: dict[str, cProfile.Profile] = {}  # --profile: the "after" part of each kind of node


def cpu(call: Callable[[], None], profile: str | None = None) -> float:
    """CPU seconds of ``call``; under --profile, profiled as ``profile``'s (host or peer)."""
    profiler = PROFILES.get(profile) if profile is not None else None
    start = time.thread_time()
    if profiler is not None:
        profiler.enable()
    call()
    if profiler is not None:
        profiler.disable()
    return time.thread_time() - start


def play(hands: int) -> Timed:
    """Play until ``hands`` hands have ended; the CPU time of each hand end's parts."""
    from lanomino.engine import Rules
    from lanomino.fair.identity import Identity
    from lanomino.net.codec import decode_json, encode_json
    from lanomino.net.session import HostSession, PeerSession, Sender, YourTurn

    sys.path.insert(1, str(ROOT / "tests" / "net"))
    from sessionkit import counter_secrets, curve_key  # (same secrets: the same deals each run)

    peers = 3
    seed = hashlib.sha256(b"bench_hand_end").digest()
    identity = [Identity.from_seed(hashlib.sha256(seed + bytes([n])).digest())
                for n in range(peers + 1)]
    host = HostSession(identity[0], curve_key(0), Rules.preset("classic", target=10**6),
                       peers + 1, host_policy=first_legal, secret_source=counter_secrets("host"))
    sessions = [PeerSession(identity[n + 1], curve_key(n + 1), curve_key(0), name=f"p{n}",
                            secret_source=counter_secrets(f"p{n}")) for n in range(peers)]
    senders = [Sender(f"r{n}".encode(), curve_key(n + 1)) for n in range(peers)]
    route_of = {sender.route: n for n, sender in enumerate(senders)}
    timed = Timed(peers + 1)
    to_host: deque[tuple[int, dict[str, Any]]] = deque()
    to_peer: deque[tuple[int, dict[str, Any]]] = deque()
    # the host's part of the hand end in progress, each peer's, how many peers have yet to be
    # dealt the next hand, and the (hand, index) of the move that ended the hand
    state: dict[str, Any] = {"part": "deal", "peer_part": ["deal"] * peers, "waiting": 0,
                             "last": None}

    def recalled() -> list[int]:
        rings = [host.shared.ring, *(s.ring for s in sessions)]
        return [getattr(ring, "recalled", 0) for ring in rings]

    def logged() -> tuple[int, Any]:
        doc = host.doc
        return (0, None) if doc is None else (len(doc["hands"]), doc["end"])

    def wire(message: dict[str, Any]) -> dict[str, Any]:
        decoded = decode_json(encode_json(message))
        assert isinstance(decoded, dict)
        return decoded

    def host_call(call: Callable[[], None], kind: str) -> None:
        before = logged()
        seconds = cpu(call, "host" if timed.current is not None and state["part"] == "after"
                      else None)
        if logged()[0] > before[0] and timed.current is None:
            timed.begin(recalled())  # this call took the hand's last move
            timed.add(0, "path", seconds)
            state["part"], state["peer_part"] = "after", ["path"] * peers
            state["waiting"] = peers
            assert host.doc is not None
            entry = host.doc["hands"][-1]
            state["last"] = (entry["hand"], len(entry["moves"]) - 1)
        elif timed.current is not None:
            timed.add(0, state["part"], seconds)
        elif kind == "move":
            timed.in_hand["host"].append(seconds)
        for out in host.take_outgoing():
            to_peer.append((route_of[out.route], wire(out.message)))
        host.take_events()

    def host_due() -> None:
        for _ in range(100):
            due = host.next_deadline()
            if due is None or due > 0.0:
                break
            host_call(lambda: host.handle_timer(0.0), "timer")
        if state["part"] == "after":
            state["part"] = "deal"  # (what it does at once after the last move: its "after")

    def peer_call(n: int, message: dict[str, Any]) -> None:
        session = sessions[n]
        kind, body = message["type"], message.get("body")
        seconds = cpu(lambda: session.receive(message, 0.0))
        last = (kind == "update" and isinstance(body, dict)
                and (body.get("hand"), body.get("index")) == state["last"])
        part: str | None = state["peer_part"][n]
        if timed.current is None or (kind == "update" and not last):
            part = None  # a move inside a hand (one still on its way when the hand ended, too)
            if kind == "update":
                timed.in_hand["peer"].append(seconds)
        else:
            timed.add(n + 1, part or "deal", seconds)
            part = "after" if last else part
        for _ in range(100):  # its timer while due at once (a hand's check, owed)
            due = session.next_deadline()
            if due is None or due > 0.0:
                break
            spent = cpu(lambda: session.handle_timer(0.0), "peer" if part == "after" else None)
            if part is not None:
                timed.add(n + 1, part, spent)
        if last:
            state["peer_part"][n] = "deal"
        if timed.current is not None and kind == "deal":
            state["waiting"] -= 1
            if state["waiting"] == 0:
                timed.end(recalled())
        to_host.extend((n, out) for out in session.take_outgoing())
        for event in session.take_events():
            if isinstance(event, YourTurn):  # (a move's signing is the mover's, not timed here)
                session.submit(first_legal(event.observation), 0.0)
                to_host.extend((n, out) for out in session.take_outgoing())

    for n, session in enumerate(sessions):
        session.connect(0.0)
        to_host.extend((n, out) for out in session.take_outgoing())
    for _ in range(10**7):
        if len(timed.ends) > hands or (len(timed.ends) == hands and timed.current is None):
            break
        if to_peer:  # (first: every peer has read a move before the host takes the next)
            peer_call(*to_peer.popleft())
        elif to_host:
            n, message = to_host.popleft()
            data = wire(message)
            host_call(functools.partial(host.receive, senders[n], data, 0.0), data["type"])
            host_due()
        else:
            raise RuntimeError("the table went quiet before its hands were played")
    timed.ends = timed.ends[:hands]
    return timed


def figures(timed: Timed) -> dict[str, float]:
    """Medians in ms: each part, for the host and per peer (the mean of the peers of a hand end)."""
    out: dict[str, float] = {"hand_ends": float(len(timed.ends))}
    for who, nodes in (("host", [0]), ("peer", list(range(1, timed.nodes)))):
        totals = []
        for part in PARTS:
            values = [statistics.fmean(end[part][n] for n in nodes) for end in timed.ends]
            out[f"{who}_{part}_ms"] = statistics.median(values) * 1000
        for end in timed.ends:
            totals.append(statistics.fmean(sum(end[p][n] for p in PARTS) for n in nodes))
        out[f"{who}_total_ms"] = statistics.median(totals) * 1000
        out[f"{who}_in_hand_ms"] = statistics.median(timed.in_hand[who]) * 1000
        out[f"{who}_recalled"] = statistics.median(
            statistics.fmean(r[n] for n in nodes) for r in timed.recalled)
    return out


def child(source: str, hands: int) -> None:
    sys.path.insert(0, source)
    print(json.dumps(figures(play(hands))))


def profile(hands: int) -> None:
    """Where the "after" part's time goes (cProfile; this tree only)."""
    PROFILES.update(host=cProfile.Profile(), peer=cProfile.Profile())
    play(hands)
    for who, profiler in PROFILES.items():
        print(f"--- {who}: the after part of {hands} hand ends (every peer's, for peer)")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def measure(source: Path, hands: int) -> dict[str, float]:
    """One run on the lanomino found in ``source``, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run([sys.executable, __file__, "--child", str(source), "--hands", str(hands)],
                          env=env, check=True, capture_output=True, text=True, timeout=900)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def pooled(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def show(name: str, f: dict[str, float]) -> None:
    for who in ("host", "peer"):
        parts = "  ".join(f"{part} {f[f'{who}_{part}_ms']:6.2f}" for part in PARTS)
        print(f"  {name:<12} {who}: {parts}  total {f[f'{who}_total_ms']:6.2f} ms   "
              f"(in-hand move {f[f'{who}_in_hand_ms']:.2f} ms; checks recalled "
              f"{f[f'{who}_recalled']:.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="hand ends measured per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each revision")
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--profile", action="store_true",
                        help="profile the after part instead (cProfile, this tree)")
    parser.add_argument("--child", metavar="SOURCE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        parser.error("--hands and --rounds must be at least 1")
    if args.child is not None:
        child(args.child, args.hands)
        return 0
    if args.profile:
        sys.path.insert(0, str(ROOT))
        profile(args.hands)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench_hand_end.") as tmp:
        sources = {"this tree": ROOT}
        if args.against is not None:
            before = Path(tmp) / "before"
            before.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "lanomino"],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
            sources = {args.against: before, **sources}
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in sources}
        for _ in range(args.rounds):  # alternating: the machine's load falls on both alike
            for name, source in sources.items():
                runs[name].append(measure(source, args.hands))
    results = {name: pooled(r) for name, r in runs.items()}
    if args.json:
        print(json.dumps({"hands": args.hands, "rounds": args.rounds, "results": results}))
        return 0
    print(f"CPU ms of a hand's end, in memory (host and 3 peers; median over {args.hands} hand "
          f"ends, median of {args.rounds} runs each)")
    for name, f in results.items():
        show(name, f)
    if args.against is not None:
        before_f, after_f = results[args.against], results["this tree"]
        for who in ("host", "peer"):
            b, a = before_f[f"{who}_total_ms"], after_f[f"{who}_total_ms"]
            ba, aa = before_f[f"{who}_after_ms"], after_f[f"{who}_after_ms"]
            print(f"  {who}: total {b:.2f} -> {a:.2f} ms ({a / b:.2f}x); "
                  f"after {ba:.2f} -> {aa:.2f} ms ({aa / ba:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
