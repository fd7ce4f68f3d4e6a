"""``lanomino export ID FILE``: write a logged match's record or transcript to a file."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from lanomino.cli.errors import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID", help="a logged match (see `lanomino history`)")
    parser.add_argument("file", metavar="FILE", help="where to write it ('-' for standard output)")
    parser.add_argument("--record", action="store_true",
                        help="write a transcript as a plain record (lanomino.record/1)")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.logbook import is_match_id, load_logged
    from lanomino.client.replay import is_transcript, record_document

    if not is_match_id(args.id):
        raise CliError(f"{args.id!r} is not a match id (a number from `lanomino history`)")
    document = load_logged(args.data_dir, args.id).document
    if args.record:
        try:
            document = record_document(document)
        except ValueError as exc:  # a transcript that does not verify
            raise CliError(f"cannot turn match {args.id} into a record: {exc}") from None
    text = json.dumps(document, indent=1) + "\n"
    if args.file == "-":
        sys.stdout.write(text)
        return 0
    path = Path(args.file)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)  # never a half-written file under the name asked for
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CliError(f"cannot write {args.file}: {exc.strerror or exc}") from None
    kind = "transcript" if is_transcript(document) else "record"
    print(f"wrote match {args.id.lstrip('#')} ({kind}) to {args.file}")
    return 0
