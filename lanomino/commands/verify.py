"""``lanomino verify FILE [--json]``: check a match transcript offline.

Exit 0 when every hand is fair (one line per hand), 1 at the first failed check (naming the hand
and who is to blame), 2 when the file is not a readable, well-formed transcript.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

MAX_BYTES = 64 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a match transcript (lanomino.transcript/1)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def _load(path: str) -> Any:
    from lanomino.cli import CliError

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise CliError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MB: not a transcript")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CliError(f"{path} is not valid JSON: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from lanomino.cli import CliError
    from lanomino.fair.transcript import TranscriptError
    from lanomino.fair.verify import verify_transcript

    try:
        doc = _load(args.file)
        try:
            report = verify_transcript(doc)
        except TranscriptError as exc:
            raise CliError(f"{args.file} is not a well-formed transcript: {exc}") from None
    except CliError as exc:
        if args.json:
            print(json.dumps({"ok": False, "malformed": str(exc)}))
            return 2
        raise
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1
