"""Slow tests that mostly wait (whole matches between real processes, each in its own simulated
LAN) run side by side: a pytest plugin.

A test marked ``@pytest.mark.together(group, weight=1, alone=False)`` is one of a group: when
the run reaches the group's first test, every selected test of the group starts on a thread of its
own, in the run's order, as long as the weights running add up to at most ``CAPACITY`` (``alone``:
all of it); each test then waits for its own outcome, and passes or fails with its own assertion
and traceback. The tests of a group are moved next to each other (where the first of them stands),
so that no other test runs while the group does.

A together test takes only its parameters and the arguments this module builds in its thread:
``tmp_path`` (a fresh folder) and those named in ``PROVIDERS`` (e.g. ``lan4``: a simulated LAN,
tests/lan/conftest.py), each a context manager entered before the test and left after it. A
fixture of the same name that pytest sets up anyway yields nothing for such a test
(``is_together``). Its per-test timeout counts from the moment it started, not from the moment
the run waited for it; ``--no-together`` runs every test alone, as usual (to time one, or to tell
whether a failure comes from the company)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import pytest

CAPACITY = 4  # weight at once (a match of bots pausing between moves: about a quarter of a core)
PROVIDERS: dict[str, Callable[[], AbstractContextManager[Any]]] = {}
_KEY = pytest.StashKey["Group"]()


def is_together(node: pytest.Item) -> bool:
    """Is ``node`` a test that runs with its group (its arguments built by this module)?"""
    return _KEY in node.stash


@dataclass
class Group:
    name: str
    items: list[pytest.Function]
    tmp: pytest.TempPathFactory
    futures: dict[str, Future[None]] = field(default_factory=dict)
    began: dict[str, float] = field(default_factory=dict)
    took: dict[str, float] = field(default_factory=dict)
    started_at: float | None = None
    ended_at: float | None = None

    def start(self) -> None:
        self.started_at = time.monotonic()
        self.futures = {item.nodeid: Future() for item in self.items}
        threading.Thread(target=self._schedule, name=f"together-{self.name}", daemon=True).start()

    def _schedule(self) -> None:
        free = threading.Condition()
        used = [0]

        def run(item: pytest.Function, weight: int) -> None:
            future = self.futures[item.nodeid]
            self.began[item.nodeid] = time.monotonic()
            try:
                call(item, self.tmp)
            except BaseException as exc:  # (handed to the test, which raises it)
                future.set_exception(exc)
            else:
                future.set_result(None)
            self.took[item.nodeid] = time.monotonic() - self.began[item.nodeid]
            with free:
                used[0] -= weight
                free.notify_all()

        threads = []
        for item in self.items:
            weight = min(CAPACITY, weight_of(item))
            with free:
                free.wait_for(lambda: used[0] + weight <= CAPACITY)  # noqa: B023
                used[0] += weight
            thread = threading.Thread(target=run, args=(item, weight), daemon=True,
                                      name=f"together-{item.name}")
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        self.ended_at = time.monotonic()

    def wait(self, item: pytest.Function) -> None:
        """The test's outcome, raised here; its timeout counts from the moment it began."""
        future = self.futures[item.nodeid]
        marker = item.get_closest_marker("timeout")
        limit = float(marker.args[0]) if marker and marker.args else 300.0
        while not future.done():
            began = self.began.get(item.nodeid)
            if began is not None and time.monotonic() - began > limit:
                pytest.fail(f"{item.name} still running after {limit:.0f} s (its timeout)")
            time.sleep(0.05)
        future.result()


def weight_of(item: pytest.Item) -> int:
    """How much of ``CAPACITY`` the test takes (``alone=True``: all of it)."""
    marker = item.get_closest_marker("together")
    if marker is None:
        return 1
    return CAPACITY if marker.kwargs.get("alone") else int(marker.kwargs.get("weight", 1))


def call(item: pytest.Function, tmp: pytest.TempPathFactory) -> None:
    """Run the test function with its parameters and the arguments built here."""
    params = dict(getattr(item, "callspec", None).params) if hasattr(item, "callspec") else {}
    with contextlib.ExitStack() as stack:
        kwargs: dict[str, Any] = {}
        for name in item._fixtureinfo.argnames:
            if name in params:
                kwargs[name] = params[name]
            elif name == "tmp_path":
                kwargs[name] = tmp.mktemp(item.name[:30], numbered=True)
            elif name in PROVIDERS:
                kwargs[name] = stack.enter_context(PROVIDERS[name]())
            else:
                raise TypeError(f"a together test cannot take {name!r} (tests/together.py)")
        item.obj(**kwargs)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--no-together", action="store_true",
                     help="run the tests marked together one at a time (tests/together.py)")


def _group_name(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("together")
    if marker is None:
        return None
    return str(marker.args[0]) if marker.args else item.nodeid.split("::")[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if config.getoption("--no-together"):
        return
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        name = _group_name(item)
        if name is not None and isinstance(item, pytest.Function):
            groups.setdefault(name, []).append(item)
    if not groups:
        return
    tmp = config._tmp_path_factory  # type: ignore[attr-defined]
    order: list[pytest.Item] = []
    placed: set[str] = set()
    for item in items:
        name = _group_name(item) if isinstance(item, pytest.Function) else None
        if name is None:
            order.append(item)
        elif name not in placed:
            placed.add(name)
            members = groups[name]
            group = Group(name, members, tmp)  # type: ignore[arg-type]
            for member in members:
                member.stash[_KEY] = group
            order.extend(members)
    items[:] = order


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    group = pyfuncitem.stash.get(_KEY, None)
    if group is None:
        return None
    if group.started_at is None:
        group.start()
    group.wait(pyfuncitem)
    return True


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Each group's wall time, and each of its tests' own (the durations list shows waits)."""
    seen: dict[str, Group] = {}
    for item in terminalreporter.config.stash.get(_SESSION_ITEMS, []):
        group = item.stash.get(_KEY, None)
        if group is not None and group.started_at is not None:
            seen.setdefault(group.name, group)
    for group in seen.values():
        wall = (group.ended_at or time.monotonic()) - (group.started_at or 0.0)
        terminalreporter.write_line(f"together {group.name}: {len(group.items)} tests in "
                                    f"{wall:.1f} s; each test's own time:")
        for item in group.items:
            took = group.took.get(item.nodeid)
            shown = "not run" if took is None else f"{took:6.1f} s"
            terminalreporter.write_line(f"  {shown}  {item.nodeid}")


_SESSION_ITEMS = pytest.StashKey[list[pytest.Item]]()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    session.config.stash[_SESSION_ITEMS] = list(session.items)

