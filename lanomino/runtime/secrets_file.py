"""A peer's own deal secrets on disk (``secrets.json`` in its data directory), so that a restarted
peer can still reveal what it committed to. Written before the commitment leaves."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

KEEP = 64  # the newest secrets kept: enough for any hand still open

SecretKey = tuple[str, int, int]  # (table, hand, attempt)


def load_secrets(path: Path) -> dict[SecretKey, bytes]:
    """The secrets saved at ``path``; none if the file is missing or unreadable."""
    try:
        raw = json.loads(path.read_text())
        return {(t, int(h), int(a)): bytes.fromhex(s) for t, h, a, s in raw}
    except (OSError, ValueError, TypeError):
        return {}


def save_secrets(path: Path, secrets: Mapping[SecretKey, bytes]) -> None:
    """Replace the file at ``path`` by the newest ``KEEP`` of ``secrets`` (atomically)."""
    known = [[t, h, a, s.hex()] for (t, h, a), s in secrets.items()][-KEEP:]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(known))
    tmp.replace(path)
