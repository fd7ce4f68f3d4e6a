"""The client's log file (issue 30 item 3): a log that cannot be written, or a level that is no
level's name, never stops the client or reaches the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_unwritable_log_or_a_bad_level_does_not_stop_the_client(tmp_path: Path) -> None:
    (tmp_path / "lanomino.log").mkdir()  # no file can be opened there
    done = subprocess.run([sys.executable, "-m", "lanomino", "play", "--lines", "--data-dir",
                           str(tmp_path)], input="quit\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LANOMINO_LOG": "LOUD"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Type new to play the computer" in done.stdout
