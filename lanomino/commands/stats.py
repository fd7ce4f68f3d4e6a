"""``lanomino stats``: your results from the play log."""

from __future__ import annotations

import argparse
import json

from lanomino.cli.output import print_lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the stats as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.logbook import open_log
    from lanomino.store.stats import Stats
    from lanomino.ui.history import stats_lines

    with open_log(args.data_dir) as log:
        stats = log.stats() if log is not None else Stats(0, 0, (), (), 0, 0, 0, 0, 0.0, (), (), 0)
    doc = stats.to_json()
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print_lines(stats_lines(doc))
    return 0
