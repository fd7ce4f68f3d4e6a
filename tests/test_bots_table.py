"""A headless table of the host's own seats (issue 30 item 12): ``host --headless --bots 1`` at two
seats has nobody to wait for, so it starts at once and plays to its end while people watch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.together("procs")  # (tests/together.py)


@pytest.mark.timeout(120)
def test_a_table_of_host_side_bots_starts_and_a_watcher_follows_it(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--bots", "1",
         "--bind", "127.0.0.1", "--no-announce", "--bot-delay", "0.2", "--set", "target=30",
         "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        watcher = subprocess.run(
            [sys.executable, "-m", "lanomino", "watch", address, "--json", "--interface",
             "127.0.0.1", "--data-dir", str(tmp_path / "watcher")],
            cwd=ROOT, capture_output=True, text=True, timeout=90)
        out, _ = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate(timeout=10)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["finished"] and result["verified"], result
    heard = [json.loads(line) for line in watcher.stdout.splitlines()]
    assert any(e.get("event") == "hand" and e["verified"] for e in heard), heard
    assert heard[-1]["finished"], heard[-1]
