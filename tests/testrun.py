"""What a test run starts ends with the run, however the run ends (a pytest plugin).

Every process a run starts inherits ``LANOMINO_TEST_RUN=<pid>:<start>:<root>`` (the run's pytest
process, its start time in clock ticks since boot, and the checkout it tests), so that a leftover
names its owner even after the owner is gone; every network namespace a run makes is named
``lanomino-<pid>-...`` (tests/netlab.py). A run:

- first removes what an earlier run of the same checkout left when it was killed outright
  (``kill -9``): processes whose owner is dead, namespaces named after a dead pid that a record
  in ``RECORDS`` says ran this checkout, and their tmux sockets;
- on SIGTERM, SIGHUP or Ctrl-C ends its own processes and namespaces at once, then stops as
  pytest does on Ctrl-C (tests' ``finally`` blocks and fixtures still run);
- at its end ends whatever of its own is still there.

Nothing else is touched: a process without the variable, or whose owner is alive (another run
going on now), a namespace whose pid is alive or was not recorded for this checkout.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

RUN_VAR = "LANOMINO_TEST_RUN"
RECORDS = Path(tempfile.gettempdir()) / "lanomino-test-runs"
NAMESPACE = re.compile(r"lanomino-(?:probe-)?(\d+)(?:-|$)")
TMUX_SOCKET = re.compile(r"lanomino-test-(\d+)-")

_mark: str | None = None  # this run's RUN_VAR value, once configured


def start_ticks(pid: int) -> str | None:
    """When ``pid`` started (clock ticks since boot), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22, counted after the name's ")"


def alive(pid: int, start: str | None = None) -> bool:
    """Is ``pid`` running (and, given ``start``, the same process that started then)?"""
    ticks = start_ticks(pid)
    return ticks is not None and (start is None or ticks == start)


def marked() -> Iterator[tuple[int, str]]:
    """(pid, RUN_VAR value) of every process that carries the variable."""
    key = RUN_VAR.encode() + b"="
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        for item in environ.split(b"\0"):
            if item.startswith(key):
                yield int(entry.name), item[len(key):].decode(errors="replace")
                break


def _owner(mark: str) -> tuple[int, str, str] | None:
    pid, _, rest = mark.partition(":")
    start, _, root = rest.partition(":")
    return (int(pid), start, root) if pid.isdigit() and start and root else None


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _namespaces() -> list[str]:
    try:
        out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True,
                             timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def _delete_namespace(name: str) -> None:
    pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True,
                          timeout=10).stdout.split()
    for pid in pids:
        if pid.isdigit():
            _kill(int(pid))
    subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)


def _tmux_sockets(pid: int) -> list[Path]:
    folder = Path(tempfile.gettempdir()) / f"tmux-{os.geteuid()}"
    try:
        return [p for p in folder.iterdir() if (m := TMUX_SOCKET.match(p.name))
                and int(m.group(1)) == pid]
    except OSError:
        return []


def end_own(mark: str) -> None:
    """End every process this run started (by its mark) and delete its namespaces."""
    me = os.getpid()
    for pid, value in marked():
        if value == mark and pid != me:
            _kill(pid)
    owner = _owner(mark)
    if owner is None:
        return
    for name in _namespaces():
        found = NAMESPACE.match(name)
        if found and int(found.group(1)) == owner[0]:
            _delete_namespace(name)
    for socket in _tmux_sockets(owner[0]):  # (a tmux server killed leaves its socket file)
        socket.unlink(missing_ok=True)


def sweep_leftovers(root: str) -> list[str]:
    """Remove what killed runs of the checkout at ``root`` left; what was removed, in words."""
    removed: list[str] = []
    for pid, value in marked():
        owner = _owner(value)
        if owner is not None and owner[2] == root and not alive(owner[0], owner[1]):
            _kill(pid)
            removed.append(f"process {pid}")
    for record in RECORDS.glob("*.json"):
        try:
            data = json.loads(record.read_text())
            pid, start, mine = int(data["pid"]), str(data["start"]), data["root"] == root
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not mine or alive(pid, start):
            continue
        if not alive(pid):  # (a pid taken again by a new run: its namespaces are that run's)
            for name in _namespaces():
                found = NAMESPACE.match(name)
                if found and int(found.group(1)) == pid:
                    _delete_namespace(name)
                    removed.append(f"namespace {name}")
            for socket in _tmux_sockets(pid):
                socket.unlink(missing_ok=True)
        record.unlink(missing_ok=True)
    return removed


def _interrupted(signum: int, frame: FrameType | None) -> None:
    if _mark is not None:
        end_own(_mark)
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def pytest_configure(config: pytest.Config) -> None:
    global _mark
    root = str(config.rootpath)
    removed = sweep_leftovers(root)
    if removed:
        print(f"testrun: removed what an interrupted run left: {', '.join(removed)}")
    pid = os.getpid()
    start = start_ticks(pid) or "0"
    _mark = f"{pid}:{start}:{root}"
    os.environ[RUN_VAR] = _mark
    RECORDS.mkdir(parents=True, exist_ok=True)
    (RECORDS / f"{pid}.json").write_text(json.dumps({"pid": pid, "start": start, "root": root}))
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, _interrupted)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _mark is None:
        return
    end_own(_mark)
    (RECORDS / f"{os.getpid()}.json").unlink(missing_ok=True)
