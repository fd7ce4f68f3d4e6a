"""Many nodes on a simulated LAN, all sent one stop signal at once (issue 32's "done when").

``storm(role, sig, count)`` builds a NetLab (tests/netlab.py: namespaces joined by a bridge,
nothing leaves the machine), starts ``count`` nodes of ``role`` (each in a namespace of its own,
one "machine" each), waits until each is ready, sends every one of them ``sig`` in the same
instant and measures, for each, the time until its process is gone and whether its goodbye went
out:

* ``host``: ``count`` headless hosts announcing a table each; a browser in another namespace
  (tests/discovery/ns_agent.py) must see each table removed (zeroconf's goodbye).
* ``peer``: ``count`` headless players seated at ``count // 2`` tables (two at each, the tables
  waiting for more); each table's host must hear every one's ``bye``.
* ``watcher``: the same with headless watchers.

The hosts of the peer and watcher storms log at DEBUG, and a ``bye`` is read from their log.
``scripts/stop_storm.py`` runs it with 40 nodes; tests/runtime/test_stop_storm.py with fewer.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netlab import LabHost, LabProcess, NetLab, live_namespaces  # noqa: E402

LANOMINO = [sys.executable, "-P", "-u", "-m", "lanomino"]  # (-P: the tree on PYTHONPATH)
AGENT = Path(__file__).resolve().parent.parent / "discovery" / "ns_agent.py"
SIGNALS = {"TERM": signal.SIGTERM, "HUP": signal.SIGHUP, "INT": signal.SIGINT}
ROLES = ("host", "peer", "watcher")
STOP_WITHIN_S = 2.0
READY_S = 90.0  # (dozens of processes start on a shared 2-core machine)
WAIT_EXIT_S = 8.0  # how long exits are waited for after the signal


@dataclass
class Storm:
    """What one storm measured: per node, the seconds from the signal to its exit (None: still
    running ``WAIT_EXIT_S`` later, then killed), its exit status, whether its goodbye was seen,
    and how many were ended by the stop watchdog (runtime/stopping.py) instead of by
    themselves."""

    role: str
    sig: str
    exit_s: list[float | None] = field(default_factory=list)
    statuses: list[int | None] = field(default_factory=list)
    goodbyes: list[bool] = field(default_factory=list)
    overruns: int = 0
    left: list[str] = field(default_factory=list)  # the lab's namespaces still there after it

    def within(self, seconds: float = STOP_WITHIN_S) -> int:
        """How many exited within ``seconds`` of the signal."""
        return sum(1 for t in self.exit_s if t is not None and t <= seconds)

    def summary(self) -> str:
        done = sorted(t for t in self.exit_s if t is not None)
        slowest = f"{done[-1]:.2f} s" if done else "-"
        median = f"{done[len(done) // 2]:.2f} s" if done else "-"
        return (f"{self.role:7} SIG{self.sig:4} {len(self.exit_s)} nodes: "
                f"{self.within()} exited within {STOP_WITHIN_S:g} s, "
                f"{len(done)} within {WAIT_EXIT_S:g} s (median {median}, slowest {slowest}); "
                f"goodbye seen for {sum(self.goodbyes)}; watchdog ended {self.overruns}; "
                f"exit statuses {sorted({s for s in self.statuses if s is not None})}"
                + (f"; NAMESPACES LEFT {self.left}" if self.left else ""))


def _node_env(code: Path | None, level: str | None = None) -> dict[str, str]:
    env = {"PYTHONPATH": str(code)} if code is not None else {}
    return {**env, **({"LANOMINO_LOG": level} if level else {})}


def _host(lab: NetLab, where: LabHost, data: Path, name: str, env: Mapping[str, str]) -> LabProcess:
    return lab.spawn(where, [*LANOMINO, "host", "--headless", "--json", "--bind", where.ip,
                             "--name", name, "--seats", "4", "--level", "random",
                             "--data-dir", str(data / name)], env=env)


def _ready(process: LabProcess, event: str) -> dict[str, Any]:
    return process.expect(lambda line: line.get("event") == event, READY_S)


def storm(role: str, sig: str, count: int, data: Path, code: Path | None = None) -> Storm:
    """Start ``count`` nodes of ``role``, send them all SIG``sig`` at once, measure (see the
    module's docstring); ``code``: the lanomino tree the nodes run (default: this one)."""
    tables = count if role == "host" else max(1, count // 2)
    machines = tables + (1 if role == "host" else count)
    with NetLab(hosts=machines) as lab:
        measured = _storm(lab, role, sig, count, tables, data, code)
    measured.left = [ns for ns in live_namespaces() if ns.startswith(f"{lab.prefix}-")]
    return measured


def _storm(lab: NetLab, role: str, sig: str, count: int, tables: int, data: Path,
           code: Path | None) -> Storm:
    result = Storm(role, sig)
    env = _node_env(code, None if role == "host" else "DEBUG")
    hosts = [_host(lab, lab.hosts[i], data, f"Storm{i}", env) for i in range(tables)]
    listening = [_ready(h, "listening") for h in hosts]
    byes = [0] * tables
    lock = threading.Lock()
    if role == "host":
        nodes = hosts
        observer = lab.spawn_python(lab.hosts[tables], AGENT, "browse", lab.hosts[tables].ip)
        _ready(observer, "ready")
        for seen in listening:
            observer.expect(lambda line, p=seen["peer_id"]: line.get("event") == "added"
                            and line.get("host") == p, READY_S)
    else:
        for index, host in enumerate(hosts):
            def heard(line: str, index: int = index) -> None:
                if line.startswith("DEBUG:lanomino.node:in ") and "'type': 'bye'" in line:
                    with lock:
                        byes[index] += 1
            host.stderr_hooks.append(heard)
        nodes = []
        for n in range(count):
            where = lab.hosts[tables + n]
            address = listening[n % tables]["address"]
            command = ["join" if role == "peer" else "watch", address, "--headless"]
            nodes.append(lab.spawn(where, [*LANOMINO, *command, "--json", "--interface", where.ip,
                                           "--player", f"{role}{n}", "--timeout", "30",
                                           "--data-dir", str(data / f"{role}{n}")], env=env))
        for node in nodes:
            _ready(node, "seated" if role == "peer" else "watching")
    overran: list[str] = []
    for node in nodes:
        node.stderr_hooks.append(lambda line: overran.append(line) if "exiting now" in line
                                 else None)
    time.sleep(1.0)  # (settled: every table announced, every node in its steady state)
    signalled = time.monotonic()
    for node in nodes:
        os.kill(node.pid, SIGNALS[sig])
    result.exit_s, result.statuses = _exits(nodes, signalled)
    time.sleep(1.0)  # (a goodbye seen late is still a goodbye: the tables' TTL is 120 s)
    if role == "host":
        result.goodbyes = [_removed(observer, seen["peer_id"]) for seen in listening]
    else:
        with lock:  # (node n sits at table n % tables, the (n // tables)-th there)
            result.goodbyes = [n // tables < byes[n % tables] for n in range(count)]
    result.overruns = len(overran)
    return result


def _removed(observer: LabProcess, peer_id: str) -> bool:
    """The observer saw the table of ``peer_id`` removed (read so far, or within 0.5 s)."""
    try:
        observer.expect(lambda line: line.get("event") == "removed"
                        and line.get("host") == peer_id, 0.5)
    except AssertionError:
        return False
    return True


def _exits(nodes: list[LabProcess], signalled: float) -> tuple[list[float | None],
                                                               list[int | None]]:
    """When each node's process was gone (seconds after ``signalled``), and its status."""
    exit_s: list[float | None] = [None] * len(nodes)
    while time.monotonic() - signalled < WAIT_EXIT_S and None in exit_s:
        for index, node in enumerate(nodes):
            if exit_s[index] is None and node.popen.poll() is not None:
                exit_s[index] = time.monotonic() - signalled
        time.sleep(0.005)
    return exit_s, [node.popen.poll() for node in nodes]
