"""Where lanomino keeps its files: the data directory (XDG)."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory, created if missing.

    The first of: ``override``, ``$LANOMINO_DATA_DIR``, ``$XDG_DATA_HOME/lanomino``,
    ``~/.local/share/lanomino``.
    """
    if override:
        path = Path(override)
    elif os.environ.get("LANOMINO_DATA_DIR"):
        path = Path(os.environ["LANOMINO_DATA_DIR"])
    elif os.environ.get("XDG_DATA_HOME"):
        path = Path(os.environ["XDG_DATA_HOME"]) / "lanomino"
    else:
        path = Path.home() / ".local" / "share" / "lanomino"
    path = path.expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path
