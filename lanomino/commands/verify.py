"""``lanomino verify FILE [--json]``: check a match transcript offline.

Exit 0 when every hand is fair (one line per hand), 1 at the first failed check (naming the hand
and who is to blame), 2 when the file is not a readable, well-formed transcript.
"""

from __future__ import annotations

import argparse
import json

from lanomino.cli.errors import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a match transcript (lanomino.transcript/1, or /2: the locked deck)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    from lanomino.client import ClientError
    from lanomino.client.replay import read_document
    from lanomino.fair.transcript import NotATranscript, TranscriptError
    from lanomino.fair.verify import verify_transcript

    try:
        doc = read_document(args.file)
        try:
            report = verify_transcript(doc)
        except NotATranscript as exc:
            raise CliError(f"{args.file} {exc}") from None
        except TranscriptError as exc:
            raise CliError(f"{args.file} is not a well-formed transcript: {exc}") from None
    except (CliError, ClientError) as exc:
        if args.json:
            print(json.dumps({"ok": False, "malformed": str(exc)}))
            return 2
        raise
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1
