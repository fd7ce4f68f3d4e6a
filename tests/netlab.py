"""A simulated LAN made of Linux network namespaces, for tests that need real multicast.

Layout for ``NetLab(hosts=3)``::

    namespace <prefix>-br:   bridge br0 with ports v0 v1 v2 (multicast snooping off)
    namespace <prefix>-h0:   eth0 10.77.0.1/24  <-veth->  v0
    namespace <prefix>-h1:   eth0 10.77.0.2/24  <-veth->  v1
    namespace <prefix>-h2:   eth0 10.77.0.3/24  <-veth->  v2

Every host namespace has loopback up and a multicast route (224.0.0.0/4) on its veth. No device
is ever created in the root namespace (the veth pairs are made directly inside the namespaces), the
10.x addresses exist only inside them, and the namespace names carry the pid and a counter so
parallel runs never collide. ``close`` (also on ``__exit__``, also after a failure half-way
through ``setup``) kills every process started in the lab and deletes every namespace.

Processes run with ``ip netns exec``; ``spawn`` returns a ``LabProcess`` that reads JSON lines
from the child's stdout on a thread, so a test can wait for a line with a timeout.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

REPO_ROOT = Path(__file__).resolve().parent.parent
NAME_PREFIX = "lanomino"
_counter = itertools.count()
_availability: str | None | bool = False  # False = not probed yet; None = available
_probing = threading.Lock()  # (tests that run side by side probe once between them)


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=10)


def unavailable_reason() -> str | None:
    """Why network namespaces cannot be used here, or None when they can (probed once)."""
    global _availability
    with _probing:
        if _availability is False:
            _availability = _probe()
    return _availability  # type: ignore[return-value]


def _probe() -> str | None:
    reason: str | None = None
    if not sys.platform.startswith("linux"):
        reason = "network namespaces need Linux"
    elif os.geteuid() != 0:
        reason = "network namespaces need root (run the netns tests as root, as CI does)"
    elif shutil.which("ip") is None:
        reason = "the 'ip' command (iproute2) is not installed"
    else:
        probe = f"{NAME_PREFIX}-probe-{os.getpid()}"
        made = _ip("netns", "add", probe, check=False)
        if made.returncode != 0:
            reason = f"'ip netns add' failed: {made.stderr.strip()}"
        else:
            _ip("netns", "del", probe, check=False)
    return reason


def live_namespaces() -> list[str]:
    """Names of the namespaces that exist now."""
    out = _ip("netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


class LossUnavailable(RuntimeError):
    """Packet loss cannot be put on a link here (the message says why)."""


@dataclass(frozen=True)
class LabHost:
    """One machine on the simulated LAN."""

    index: int
    namespace: str
    ip: str


def _chatter(line: str) -> bool:
    """A log line a failure report does without: a heartbeat, or the CURVE handshake's steps."""
    return "'type': 'ping'" in line or line.startswith("DEBUG:zmq.auth:")


def _lab_log(pid: int) -> TextIO | None:
    """Where a child's whole stderr is kept, with times, when ``LANOMINO_LAB_LOGS`` names a folder
    (for chasing a failure that only shows under load; the failure report keeps the last lines)."""
    folder = os.environ.get("LANOMINO_LAB_LOGS")
    if not folder:
        return None
    os.makedirs(folder, exist_ok=True)
    return open(os.path.join(folder, f"{pid}.log"), "a", encoding="utf-8")  # noqa: SIM115


def _lab_level() -> dict[str, str]:
    """``LANOMINO_LAB_LEVEL`` (e.g. DEBUG) overrides the children's log level."""
    level = os.environ.get("LANOMINO_LAB_LEVEL")
    return {"LANOMINO_LOG": level} if level else {}


class LabProcess:
    """A process running inside a namespace, with its stdout read line by line on a thread."""

    def __init__(self, popen: subprocess.Popen[str], host: LabHost) -> None:
        self.popen = popen
        self.host = host
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []  # every JSON object line read so far
        self._returned: set[int] = set()
        # stderr is drained too: a child whose stderr pipe fills up blocks, and a test would
        # then wait for an answer that never comes. The last lines are kept for failure reports
        # (heartbeats left out: at DEBUG they would crowd out what happened).
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=200)
        # called with each stderr line on the reader thread, as soon as it is read (e.g. to fault
        # a process at the moment another one logs something); set before the child writes
        self.stderr_hooks: list[Callable[[str], None]] = []
        self.said: list[str] = []  # every stderr line so far, heartbeats left out (``wait_said``)
        self._said_changed = threading.Condition()
        self._said_ended = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._err_reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _read_stderr(self) -> None:
        if self.popen.stderr is None:
            return
        keep = _lab_log(self.popen.pid)
        try:
            for line in self.popen.stderr:
                line = line.rstrip("\n")
                if keep is not None:
                    keep.write(f"{time.time():.3f} {line}\n")
                    keep.flush()
                for hook in list(self.stderr_hooks):
                    try:
                        hook(line)
                    except Exception as exc:  # a broken hook must not stop the draining
                        self.stderr_tail.append(f"[stderr hook failed: {exc!r}]")
                if not _chatter(line):
                    self.stderr_tail.append(line)
                    with self._said_changed:
                        self.said.append(line)
                        self._said_changed.notify_all()
        finally:
            if keep is not None:
                keep.close()
            with self._said_changed:
                self._said_ended = True  # (a waiter stops waiting)
                self._said_changed.notify_all()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def send(self, obj: Any) -> None:
        """Write one JSON line to the child's stdin."""
        assert self.popen.stdin is not None
        self.popen.stdin.write(json.dumps(obj) + "\n")
        self.popen.stdin.flush()

    def expect(
        self, predicate: Callable[[dict[str, Any]], bool], timeout_s: float
    ) -> dict[str, Any]:
        """The first JSON line not returned before for which ``predicate`` holds.

        Lines skipped while looking are kept, so a later ``expect`` can still find them.

        Raises:
            AssertionError: none within ``timeout_s``, or the process ended first.
        """
        deadline = time.monotonic() + timeout_s
        checked = 0
        while True:
            for index in range(checked, len(self.seen)):
                if index not in self._returned and predicate(self.seen[index]):
                    self._returned.add(index)
                    return self.seen[index]
            checked = len(self.seen)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                tail = "\n".join(list(self.stderr_tail)[-30:])
                raise AssertionError(f"no matching line from pid {self.pid} in {timeout_s} s; "
                                     f"stderr:\n{tail}")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                self._err_reader.join(timeout=2)
                err = "\n".join(self.stderr_tail)
                rc = self.popen.wait(timeout=5)
                raise AssertionError(f"pid {self.pid} ended (rc {rc}): {err}")
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                self.seen.append(obj)

    def expect_busy(self, predicate: Callable[[dict[str, Any]], bool], idle_s: float,
                    limit_s: float) -> dict[str, Any]:
        """``expect``, for as long as the process keeps saying things (a long match on a slow
        machine is not a stall): fails after ``idle_s`` without a new stderr line, or after
        ``limit_s`` in all.

        Raises:
            AssertionError: a stall, the limit, or the process ended first.
        """
        deadline = time.monotonic() + limit_s
        while True:
            heard = len(self.said)
            try:
                return self.expect(predicate, min(idle_s, max(0.0, deadline - time.monotonic())))
            except AssertionError:
                if (self.popen.poll() is not None or len(self.said) == heard
                        or time.monotonic() >= deadline):
                    raise

    def wait_said(self, text: str, timeout_s: float) -> str:
        """The first stderr line (since the start) that contains ``text``: a test waits for what
        a process says it did, never for a length of time.

        Raises:
            AssertionError: none within ``timeout_s``, or the process's stderr ended first.
        """
        deadline = time.monotonic() + timeout_s
        checked = 0
        with self._said_changed:
            while True:
                for line in self.said[checked:]:
                    if text in line:
                        return line
                checked = len(self.said)
                if self._said_ended:
                    raise AssertionError(f"pid {self.pid} ended before saying {text!r}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    tail = "\n".join(list(self.stderr_tail)[-30:])
                    raise AssertionError(f"pid {self.pid} did not say {text!r} in {timeout_s} s; "
                                         f"stderr:\n{tail}")
                self._said_changed.wait(remaining)

    def kill(self) -> None:
        """SIGKILL the process and its children; wait for it."""
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.popen.wait(timeout=10)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                stream.close()
        self._reader.join(timeout=5)


class NetLab:
    """A bridge namespace and ``hosts`` host namespaces joined by veth pairs."""

    def __init__(self, hosts: int = 3, subnet: str = "10.77.0") -> None:
        if not 1 <= hosts <= 200:
            raise ValueError("hosts must be 1..200")
        self.prefix = f"{NAME_PREFIX}-{os.getpid()}-{next(_counter)}"
        self.bridge_namespace = f"{self.prefix}-br"
        self.hosts = [LabHost(i, f"{self.prefix}-h{i}", f"{subnet}.{i + 1}") for i in range(hosts)]
        self.processes: list[LabProcess] = []
        self._namespaces: list[str] = []

    def __enter__(self) -> NetLab:
        try:
            self.setup()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def namespaces(self) -> list[str]:
        """Every namespace this lab created (and has not yet deleted)."""
        return list(self._namespaces)

    def _add_namespace(self, name: str) -> None:
        _ip("netns", "add", name)
        self._namespaces.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def setup(self) -> None:
        """Build the namespaces, the bridge, the veth pairs, addresses and routes."""
        br = self.bridge_namespace
        self._add_namespace(br)
        _ip("-n", br, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", br, "link", "set", "br0", "up")
        for host in self.hosts:
            ns, port = host.namespace, f"v{host.index}"
            self._add_namespace(ns)
            _ip("-n", br, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
            _ip("-n", br, "link", "set", port, "master", "br0")
            _ip("-n", br, "link", "set", port, "up")
            _ip("-n", ns, "addr", "add", f"{host.ip}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def _link_ends(self, host: LabHost) -> list[tuple[str, str]]:
        """The two ends of a host's link: (namespace, device) for its eth0 and its bridge port."""
        return [(host.namespace, "eth0"), (self.bridge_namespace, f"v{host.index}")]

    def set_loss(self, host: LabHost, percent: float) -> None:
        """Drop ``percent`` % of the packets leaving either end of ``host``'s link, at random.

        The kernel here has no netem and no gact: an HTB root sends the packets a classic-BPF
        filter picks (``ld rand`` against a threshold) to a class whose pfifo holds 0 packets, so
        they are dropped; the rest go through a class with no real limit.

        Raises:
            LossUnavailable: tc is missing or the kernel refuses any of it (reason in the message).
        """
        if not 0 < percent < 100:
            raise ValueError("percent must be in (0, 100)")
        if shutil.which("tc") is None:
            raise LossUnavailable("the 'tc' command (iproute2) is not installed")
        threshold = min(2**32 - 1, round((1 - percent / 100) * 2**32))
        # ld [SKF_AD_OFF + SKF_AD_RANDOM]; jge #threshold ? 1:2 : no match (default class 1:1)
        program = f"4,32 0 0 {0xFFFFF000 + 56},53 0 1 {threshold},6 0 0 {0x10002},6 0 0 0"
        for ns, dev in self._link_ends(host):
            for args in (
                ["qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default", "1"],
                ["class", "add", "dev", dev, "parent", "1:", "classid", "1:1", "htb",
                 "rate", "10gbit", "quantum", "60000"],
                ["class", "add", "dev", dev, "parent", "1:", "classid", "1:2", "htb",
                 "rate", "10gbit", "quantum", "60000"],
                ["qdisc", "add", "dev", dev, "parent", "1:2", "handle", "2:", "pfifo",
                 "limit", "0"],
                ["filter", "add", "dev", dev, "parent", "1:", "protocol", "all", "prio", "1", "bpf",
                 "bytecode", program],
            ):
                done = subprocess.run(["ip", "netns", "exec", ns, "tc", *args], capture_output=True,
                                      text=True, timeout=10)
                if done.returncode != 0:
                    self.clear_loss(host)
                    raise LossUnavailable(f"tc {' '.join(args[:2])} on {dev}: "
                                          f"{done.stderr.strip()}")

    def clear_loss(self, host: LabHost) -> None:
        """Remove what ``set_loss`` put on the link (nothing happens when there is none)."""
        for ns, dev in self._link_ends(host):
            subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", dev, "root"],
                           capture_output=True, text=True, timeout=10)

    def loss_counts(self, host: LabHost) -> tuple[int, int]:
        """(packets offered, packets dropped) on both ends of a lossy link, summed."""
        offered = dropped = 0
        for ns, dev in self._link_ends(host):
            shown = ["ip", "netns", "exec", ns, "tc", "-s", "qdisc", "show", "dev", dev]
            out = subprocess.run(shown, capture_output=True, text=True, timeout=10).stdout
            for block in out.split("qdisc ")[1:]:
                words = block.split()
                if words[0] == "htb" and words[1] == "1:":
                    sent = int(words[words.index("pkt") - 1])
                    lost = int(words[words.index("(dropped") + 1].rstrip(","))
                    offered += sent + lost
                    dropped += lost
        return offered, dropped

    def run(
        self, host: LabHost, argv: Sequence[str], timeout_s: float = 10
    ) -> subprocess.CompletedProcess[str]:
        """Run a command to completion inside a host's namespace."""
        return subprocess.run(
            ["ip", "netns", "exec", host.namespace, *argv],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=self._env(),
        )

    def spawn(self, host: LabHost, argv: Sequence[str],
              env: Mapping[str, str] | None = None) -> LabProcess:
        """Start a long-running command inside a host's namespace (killed by ``close``); ``env``
        adds variables to the child's environment (e.g. ``LANOMINO_LOG``)."""
        popen = subprocess.Popen(
            ["ip", "netns", "exec", host.namespace, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**self._env(), **(env or {}), **_lab_level()},
        )
        process = LabProcess(popen, host)
        self.processes.append(process)
        return process

    def spawn_python(self, host: LabHost, script: Path | str, *args: str) -> LabProcess:
        """Start ``python -u script args...`` inside a host's namespace."""
        return self.spawn(host, [sys.executable, "-u", str(script), *args])

    @staticmethod
    def _env() -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p
        )
        return env

    def close(self) -> None:
        """Kill every process started here or still inside the namespaces; delete them all."""
        errors: list[str] = []
        for process in self.processes:
            try:
                process.kill()
            except Exception as exc:  # keep tearing down whatever happens
                errors.append(f"kill {process.pid}: {exc}")
        for ns in reversed(self._namespaces):
            pids = _ip("netns", "pids", ns, check=False).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            deleted = _ip("netns", "del", ns, check=False)
            if deleted.returncode != 0 and ns in live_namespaces():  # (gone already: the run's
                errors.append(f"delete {ns}: {deleted.stderr.strip()}")  # stop removed it)
        self._namespaces.clear()
        if errors:
            raise RuntimeError("netlab teardown: " + "; ".join(errors))


# ---- pytest fixtures (re-exported by tests/net/conftest.py and tests/discovery/conftest.py) -----

import pytest  # noqa: E402  (kept down here: the lab itself does not need pytest)


def require_netns() -> None:
    """Skip the calling test when network namespaces cannot be used here."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(reason)


@pytest.fixture(scope="module")
def lan() -> Iterator[NetLab]:
    """A three-host simulated LAN shared by one test module; checked empty after teardown."""
    require_netns()
    lab = NetLab(hosts=3)
    with lab:
        yield lab
    left = [ns for ns in live_namespaces() if ns.startswith(lab.prefix)]
    assert not left, f"namespaces outlived the lab: {left}"
    alive = [p.pid for p in lab.processes if p.popen.poll() is None]
    assert not alive, f"processes outlived the lab: {alive}"
