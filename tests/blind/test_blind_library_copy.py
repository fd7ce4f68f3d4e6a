"""The ristretto255 binding (``rbcl``) writes the libsodium it bundles to a temporary file at
import and leaves it there: 2.7 MB in the temporary folder for every process that used the locked
deck, which filled this machine's disk over a long run of tests. ``blind/group.py`` removes the
copy once it is loaded; the group still works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_process_that_uses_the_locked_deck_leaves_no_library_behind(tmp_path: Path) -> None:
    code = ("from lanomino.blind.group import add, base_mul; "
            "print(add(base_mul(2), base_mul(3)) == base_mul(5))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path),
                                                     "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"  # (the library works without its file)
    assert list(tmp_path.iterdir()) == []
