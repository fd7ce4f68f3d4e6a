"""While the client is open the terminal is the UI's: the log goes to a file in the data
directory, never to the screen (Python's last-resort handler would write warnings over it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

LOG_NAME = "lanomino.log"
LOG_NOTE = (f"While the client is open its log goes to {LOG_NAME} in the data directory "
            "(--data-dir, else $LANOMINO_DATA_DIR, $XDG_DATA_HOME/lanomino or "
            "~/.local/share/lanomino), never to the screen; LANOMINO_LOG=DEBUG logs more.")


@contextmanager
def log_to_file(path: Path) -> Iterator[None]:
    """Everything logged (and every Python warning) goes to ``path`` while the client is open,
    never to the terminal, which belongs to the UI: Python's last-resort handler would write
    warnings over the full screen. The file keeps about the last 2 MB."""
    import logging
    import os
    from logging.handlers import RotatingFileHandler

    root = logging.getLogger()
    handler: logging.Handler
    try:
        handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=1, encoding="utf-8")
    except OSError:  # no file to be had: the log is lost rather than written over the screen
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    level = root.level
    root.addHandler(handler)
    try:
        root.setLevel(os.environ.get("LANOMINO_LOG", "INFO").upper())
    except ValueError:  # not a level's name
        root.setLevel(logging.INFO)
    logging.captureWarnings(True)
    try:
        yield
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        root.setLevel(level)
        handler.close()


@contextmanager
def stderr_to_log(path: Path) -> Iterator[None]:
    """What would be written to ``sys.stderr`` (a thread's traceback, say) goes to the log file
    while the full screen is up."""
    import os
    import sys

    try:
        log = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (closed below)
    except OSError:
        log = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    with log:
        saved, sys.stderr = sys.stderr, log
        try:
            yield
        finally:
            sys.stderr = saved
