"""Fixtures for the network tests: the simulated LAN lives in tests/netlab.py."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from netlab import lan  # noqa: E402,F401
