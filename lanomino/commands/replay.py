"""``lanomino replay FILE``: a record, hand by hand, in plain words (or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from lanomino.cli.errors import CliError
from lanomino.cli.output import print_lines
from lanomino.engine import DealVoided, Event, HandStarted, MatchEnded, Resigned, TilePlayed
from lanomino.narrate import Cast, event_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|ID",
                        help="a game record (lanomino.record/1), a signed transcript "
                             "(lanomino.transcript/1), or the ID of a logged match "
                             "(see `lanomino history`): stepped through on screen")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives (for an ID)")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.logbook import is_match_id, load_logged
    from lanomino.client.replay import load_record, read_document
    from lanomino.fair.transcript import TranscriptError
    from lanomino.record import IllegalMoveError, MalformedRecordError, replay

    logged = None
    if is_match_id(args.file) and not os.path.exists(args.file):
        logged = load_logged(args.data_dir, args.file)
        doc = logged.document
    else:
        doc = read_document(args.file)
    try:
        record = load_record(doc)
    except TranscriptError as exc:  # a transcript that does not verify
        print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    except MalformedRecordError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    if logged is not None and not args.json and sys.stdout.isatty() and sys.stdin.isatty():
        from lanomino.client.replay import replay_view
        from lanomino.ui.app import show_replay

        try:
            show_replay(replay_view(record, f"Match #{logged.summary.id}"))
        except IllegalMoveError as exc:
            print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
            return 1
        return 0
    cast = Cast(record.players, record.rules)
    lines: list[str] = []
    mover: list[int] = []  # the last seat that played, for a score's words
    left: list[int] = []

    def narrate(hand: int, event: Event) -> None:
        if isinstance(event, TilePlayed):
            mover[:] = [event.seat]
        elif isinstance(event, Resigned):
            left.append(event.seat)
        text = event_line(event, cast, mover[0] if mover else None, left)
        if text:
            lines.append(text if isinstance(event, HandStarted | DealVoided | MatchEnded)
                         else f"  {text}")

    try:
        result = replay(record, None if args.json else narrate)
    except IllegalMoveError as exc:
        if not args.json:
            print_lines(lines)
        print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        return print_lines([json.dumps(result.to_json())])
    if not result.finished:
        scores = ", ".join(f"{cast.side(s).text} {p}" for s, p in enumerate(result.scores))
        lines.append(f"The match is not finished. Scores: {scores}.")
    return print_lines(lines)
