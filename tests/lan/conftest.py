"""Fixtures for the LAN tests: a simulated LAN of network namespaces (tests/netlab.py). Most of
these tests run side by side (``pytest.mark.together``, tests/together.py), each in its own LAN."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netlab import NetLab, live_namespaces, require_netns  # noqa: E402
from together import PROVIDERS, is_together  # noqa: E402


def last_words(lab: NetLab) -> str:
    """What every process of ``lab`` said last: a stall then names the member that stopped rather
    than only the one the test waited on."""
    return "\n".join(f"--- pid {p.pid} in {p.host.namespace}, last stderr lines:\n"
                     + "\n".join(list(p.stderr_tail)[-40:]) for p in lab.processes)


@contextlib.contextmanager
def lab(hosts: int, subnet: str) -> Iterator[NetLab]:
    """A simulated LAN; every namespace and process is gone afterwards. A failure carries its
    processes' last words."""
    require_netns()
    built = NetLab(hosts=hosts, subnet=subnet)
    with built:
        try:
            yield built
        except BaseException as exc:
            exc.add_note(last_words(built))
            raise
    assert not [ns for ns in live_namespaces() if ns.startswith(built.prefix)]
    assert not [p.pid for p in built.processes if p.popen.poll() is None]


PROVIDERS["lan4"] = lambda: lab(4, "10.78.0")
PROVIDERS["lan6"] = lambda: lab(6, "10.79.0")


def _fixture(request: pytest.FixtureRequest, hosts: int, subnet: str) -> Iterator[NetLab | None]:
    if is_together(request.node):  # (it builds its own, in its thread)
        yield None
        return
    with lab(hosts, subnet) as built:
        yield built
        print(last_words(built))  # (shown by pytest only when the test failed)


@pytest.fixture
def lan4(request: pytest.FixtureRequest) -> Iterator[NetLab | None]:
    """Four hosts on one bridge; every namespace and process is gone afterwards."""
    yield from _fixture(request, 4, "10.78.0")


@pytest.fixture
def lan6(request: pytest.FixtureRequest) -> Iterator[NetLab | None]:
    """Six hosts on one bridge (e.g. four players and two watchers); all gone afterwards."""
    yield from _fixture(request, 6, "10.79.0")
