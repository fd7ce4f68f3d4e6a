"""A test run that is stopped (SIGTERM, SIGHUP, Ctrl-C) ends what it started; one killed outright
leaves it for the next run of the same checkout to remove, and that run touches nothing else.

Each case runs a small pytest of its own (with the tests/testrun.py plugin, in a folder of its
own) whose test starts a process in a new session (as the LAN tests start hosts and bots), and a
network namespace of the simulated LAN when we are root, then waits to be stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netlab import live_namespaces
from testrun import RUN_VAR, alive

TESTS = Path(__file__).resolve().parent
INNER = '''
import json, os, subprocess, sys, time
from netlab import NetLab, unavailable_reason

def test_waits_to_be_stopped():
    child = subprocess.Popen(["sleep", "600"], start_new_session=True)
    namespaces, inside = [], None
    if unavailable_reason() is None:
        lab = NetLab(hosts=1, subnet="10.91.0")
        lab.__enter__()
        inside = lab.spawn(lab.hosts[0], ["sleep", "600"]).pid
        namespaces = lab.namespaces
    started = {"child": child.pid, "inside": inside, "namespaces": namespaces}
    with open(os.environ["INNER_STARTED"], "w") as out:
        json.dump(started, out)
    time.sleep(600)
'''


def run_inner(folder: Path, test: str) -> subprocess.Popen[str]:
    folder.mkdir(exist_ok=True)
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_inner.py").write_text(test)
    env = {**os.environ, "INNER_STARTED": str(folder / "started.json"),
           "PYTHONPATH": os.pathsep.join((str(TESTS), str(TESTS.parent)))}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "testrun",
         "-c", str(folder / "pytest.ini"), "--rootdir", str(folder), str(folder / "test_inner.py")],
        cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def started(folder: Path, inner: subprocess.Popen[str], timeout_s: float = 60) -> dict[str, object]:
    """What the inner test started, once it has written it down."""
    path = folder / "started.json"
    deadline = time.monotonic() + timeout_s
    while not path.exists() or not path.read_text().endswith("}"):
        assert inner.poll() is None, inner.communicate()[0]
        assert time.monotonic() < deadline, "the inner test never started"
        time.sleep(0.05)
    data: dict[str, object] = json.loads(path.read_text())
    return data


def pids(what: dict[str, object]) -> list[int]:
    return [int(p) for p in (what["child"], what["inside"]) if isinstance(p, int)]


def gone(what: dict[str, object], timeout_s: float = 10) -> bool:
    deadline = time.monotonic() + timeout_s
    names = [str(n) for n in what["namespaces"]]  # type: ignore[attr-defined]
    while time.monotonic() < deadline:
        if not [p for p in pids(what) if alive(p)] and not set(names) & set(live_namespaces()):
            return True
        time.sleep(0.05)
    return False


def reap_leftovers(what: dict[str, object]) -> None:
    """(Only if a check failed: what the inner run left, removed by its pids and names.)"""
    for pid in pids(what):
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    for name in what["namespaces"]:  # type: ignore[attr-defined]
        subprocess.run(["ip", "netns", "del", str(name)], capture_output=True, timeout=10)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "Ctrl-C"])
def test_a_stopped_run_ends_what_it_started(tmp_path: Path, stop: signal.Signals) -> None:
    inner = run_inner(tmp_path / "run", INNER)
    what: dict[str, object] = {"child": None, "inside": None, "namespaces": []}
    try:
        what = started(tmp_path / "run", inner)
        assert alive(int(what["child"]))  # type: ignore[arg-type]
        inner.send_signal(stop)
        out, _ = inner.communicate(timeout=60)
        assert gone(what), out
        assert inner.returncode != 0 and "KeyboardInterrupt" in out, out
    finally:
        inner.kill()
        inner.communicate()
        reap_leftovers(what)


def test_a_killed_runs_leftovers_go_at_the_next_run_and_nothing_else(tmp_path: Path) -> None:
    inner = run_inner(tmp_path / "run", INNER)
    what: dict[str, object] = {"child": None, "inside": None, "namespaces": []}
    mine = os.environ[RUN_VAR]  # this run's mark: a live owner
    dead_elsewhere = f"{2**22 + 7}:1:/somewhere/else"  # a dead owner of another checkout
    bystanders = [subprocess.Popen(["sleep", "600"], start_new_session=True,
                                   env={**os.environ, RUN_VAR: mark})
                  for mark in (mine, dead_elsewhere)]
    bystanders.append(subprocess.Popen(["sleep", "600"], start_new_session=True,
                                       env={k: v for k, v in os.environ.items() if k != RUN_VAR}))
    try:
        what = started(tmp_path / "run", inner)
        inner.kill()  # kill -9: nothing of the run gets to clean up
        inner.communicate(timeout=30)
        assert not gone(what, timeout_s=1), "a kill -9 leaves them (or this test shows nothing)"
        again = run_inner(tmp_path / "run", "def test_nothing():\n    pass\n")
        out, _ = again.communicate(timeout=120)
        assert again.returncode == 0, out
        assert gone(what), out
        assert "removed what an interrupted run left" in out, out
        assert all(b.poll() is None for b in bystanders), "a process not of that run was ended"
    finally:
        for b in bystanders:
            b.kill()
            b.wait()
        reap_leftovers(what)


def test_this_run_is_marked_so_its_children_name_it() -> None:
    child = subprocess.run([sys.executable, "-c", f"import os; print(os.environ['{RUN_VAR}'])"],
                           capture_output=True, text=True, timeout=30, check=True)
    assert child.stdout.split(":")[0] == str(os.getpid())
