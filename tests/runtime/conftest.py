"""The runtime's tests: the simulated LAN (tests/netlab.py) for the stop storms."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
