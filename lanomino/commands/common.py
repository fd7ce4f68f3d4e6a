"""Argument helpers shared by several subcommands."""

from __future__ import annotations

import argparse

from lanomino.engine import PRESETS, Rules, RulesError, rules_from_cli


def add_rules_arguments(parser: argparse.ArgumentParser, default: str = "classic") -> None:
    parser.add_argument("--rules", default=default, metavar="NAME",
                        help=f"rules preset: {', '.join(PRESETS)} (default {default})")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="change one rule option (repeatable); see `lanomino rules`")


def rules_from_args(args: argparse.Namespace) -> Rules:
    from lanomino.cli import CliError

    try:
        return rules_from_cli(args.rules, args.settings)
    except RulesError as exc:
        raise CliError(str(exc)) from None
