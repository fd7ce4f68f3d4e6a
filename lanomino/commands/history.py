"""``lanomino history``: the logged matches, newest first."""

from __future__ import annotations

import argparse
import json

from lanomino.cli.errors import CliError
from lanomino.cli.output import print_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, default=20, metavar="N",
                        help="show the N newest matches (default 20)")
    parser.add_argument("--json", action="store_true", help="print the matches as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.logbook import open_log
    from lanomino.ui.history import history_header, history_row

    if args.limit < 1:
        raise CliError("--limit must be at least 1")
    with open_log(args.data_dir) as log:
        rows = [m.to_json() for m in log.matches(args.limit)] if log is not None else []
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print("No matches logged yet: finish a game and it shows up here.")
        return 0
    return print_lines([history_header(), *(line for row in rows for line in history_row(row))])
