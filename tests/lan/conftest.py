"""Fixtures for the LAN tests: a simulated LAN of network namespaces (tests/netlab.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netlab import NetLab, live_namespaces, require_netns  # noqa: E402


def _lab(hosts: int, subnet: str) -> Iterator[NetLab]:
    require_netns()
    lab = NetLab(hosts=hosts, subnet=subnet)
    with lab:
        yield lab
        # Shown by pytest only when the test failed: what every process said last, so that a
        # stall names the member that stopped rather than only the one the test waited on.
        for process in lab.processes:
            print(f"--- pid {process.pid} in {process.host.namespace}, last stderr lines:")
            print("\n".join(list(process.stderr_tail)[-40:]))
    assert not [ns for ns in live_namespaces() if ns.startswith(lab.prefix)]
    assert not [p.pid for p in lab.processes if p.popen.poll() is None]


@pytest.fixture
def lan4() -> Iterator[NetLab]:
    """Four hosts on one bridge; every namespace and process is gone afterwards."""
    yield from _lab(4, "10.78.0")


@pytest.fixture
def lan6() -> Iterator[NetLab]:
    """Six hosts on one bridge (e.g. four players and two watchers); all gone afterwards."""
    yield from _lab(6, "10.79.0")
