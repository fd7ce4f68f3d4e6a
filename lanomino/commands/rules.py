"""``lanomino rules``: the presets and every rule option."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from lanomino.cli.options import add_rules_arguments, rules_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the options as JSON")


def run(args: argparse.Namespace) -> int:
    from lanomino.engine import PRESETS

    rules = rules_from_args(args)
    if args.json:
        print(json.dumps(asdict(rules)))
        return 0
    options = f" with {', '.join(args.settings)}" if args.settings else ""
    print(f"Preset {args.rules}{options}:")
    for name, value in asdict(rules).items():
        shown = str(value).lower() if isinstance(value, bool) else value
        print(f"  {name:20} {'null' if value is None else shown}")
    print(f"Presets: {', '.join(PRESETS)}. Change an option with --set NAME=VALUE.")
    return 0
