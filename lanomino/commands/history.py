"""``lanomino history``: the logged matches, newest first (and helpers the log commands share)."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lanomino.store import LoggedMatch, PlayLog

_MATCH_ID = re.compile(r"#?[0-9]{1,12}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, default=20, metavar="N",
                        help="show the N newest matches (default 20)")
    parser.add_argument("--json", action="store_true", help="print the matches as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives")


def run(args: argparse.Namespace) -> int:
    from lanomino.cli import CliError
    from lanomino.commands.replay import print_lines
    from lanomino.ui.history import history_header, history_row

    if args.limit < 1:
        raise CliError("--limit must be at least 1")
    with open_log(args) as log:
        rows = [m.to_json() for m in log.matches(args.limit)] if log is not None else []
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print("No matches logged yet: finish a game and it shows up here.")
        return 0
    return print_lines([history_header(), *(history_row(row) for row in rows)])


def is_match_id(text: str) -> bool:
    """'12' or '#12': the id of a logged match."""
    return _MATCH_ID.fullmatch(text) is not None


@contextmanager
def open_log(args: argparse.Namespace, create: bool = False) -> Iterator[PlayLog | None]:
    """The play log in ``--data-dir`` (None when there is no database yet and ``create`` is off).

    Raises CliError for a database that is newer than this program or damaged."""
    from lanomino.cli import CliError
    from lanomino.paths import data_dir
    from lanomino.store import PlayLog, StoreError, open_store
    from lanomino.store.db import DB_NAME

    try:
        folder = data_dir(getattr(args, "data_dir", None))
    except OSError as exc:
        raise CliError(f"cannot use the data directory: {exc}") from None
    if not create and not (folder / DB_NAME).exists():
        yield None
        return
    try:
        store = open_store(folder)
    except (StoreError, OSError) as exc:
        raise CliError(str(exc)) from None
    try:
        yield PlayLog(store)
    finally:
        store.close()


def load_logged(args: argparse.Namespace, text: str | None = None) -> LoggedMatch:
    """The logged match named by ``text`` (default ``args.file``). Raises CliError."""
    from lanomino.cli import CliError
    from lanomino.store import PlayLogError

    text = text if text is not None else args.file
    match_id = int(text.lstrip("#"))
    with open_log(args) as log:
        if log is None:
            raise CliError(f"no logged match has the id {match_id} (nothing is logged yet)")
        try:
            return log.get(match_id)
        except PlayLogError as exc:
            raise CliError(str(exc)) from None
