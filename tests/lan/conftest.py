"""Fixtures for the LAN tests: a simulated LAN of network namespaces (tests/netlab.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netlab import NetLab, live_namespaces, require_netns  # noqa: E402


@pytest.fixture
def lan4() -> Iterator[NetLab]:
    """Four hosts on one bridge; every namespace and process is gone afterwards."""
    require_netns()
    lab = NetLab(hosts=4, subnet="10.78.0")
    with lab:
        yield lab
    assert not [ns for ns in live_namespaces() if ns.startswith(lab.prefix)]
    assert not [p.pid for p in lab.processes if p.popen.poll() is None]
