"""Nodes on one segment all sent a stop signal at once exit within 2 s, and their goodbyes go out
(issue 32; needs root for the namespaces, skips otherwise). tests/runtime/storm.py does the work;
``scripts/stop_storm.py`` runs the same storms with 40 nodes each.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from netlab import require_netns
from storm import STOP_WITHIN_S, storm

pytestmark = [pytest.mark.netns, pytest.mark.timeout(300)]
COUNT = 8


@pytest.mark.parametrize(("role", "sig"), [("host", "TERM"), ("peer", "HUP"), ("watcher", "INT")])
def test_nodes_sent_a_stop_signal_at_once_all_exit_within_2_s_after_their_goodbye(
        role: str, sig: str, tmp_path: Path) -> None:
    require_netns()
    measured = storm(role, sig, COUNT, tmp_path)
    assert measured.within(STOP_WITHIN_S) == COUNT, measured.summary()
    assert all(measured.goodbyes), measured.summary()
    assert measured.overruns == 0, measured.summary()  # each stopped itself, no watchdog
    assert measured.left == []  # (every namespace of the storm is gone)
