"""``lanomino replay FILE``: a record, hand by hand, in plain words (or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lanomino.cli.errors import CliError
from lanomino.cli.output import print_lines
from lanomino.engine import (
    DealVoided,
    Event,
    HandStarted,
    MatchEnded,
    Resigned,
    TileDrawn,
    TilePlayed,
)
from lanomino.narrate import Cast, event_line

if TYPE_CHECKING:
    from lanomino.engine import GameState


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|ID",
                        help="a game record (lanomino.record/1), a signed transcript "
                             "(lanomino.transcript/1), or the ID of a logged match "
                             "(see `lanomino history`): stepped through on screen")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives (for an ID)")


def run(args: argparse.Namespace) -> int:
    from lanomino.client.logbook import is_match_id, load_logged
    from lanomino.client.replay import has_reshuffle, load_record, read_document
    from lanomino.fair.transcript import TranscriptError
    from lanomino.record import IllegalMoveError, MalformedRecordError, replay

    logged = None
    if is_match_id(args.file) and not os.path.exists(args.file):
        logged = load_logged(args.data_dir, args.file)
        doc = logged.document
    else:
        doc = read_document(args.file)
    if logged is not None and not args.json and sys.stdout.isatty() and sys.stdin.isatty():
        return _viewer(args.file, doc, f"Match #{logged.summary.id}")
    if has_reshuffle(doc):  # (no record holds a hand re-shuffled after a host migration)
        return _walked(args, doc)
    try:
        record = load_record(doc)
    except TranscriptError as exc:  # a transcript that does not verify
        print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    except MalformedRecordError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    story = _Story(Cast(record.players, record.rules))
    try:
        result = replay(record, None if args.json else lambda _, event: story.hear(event))
    except IllegalMoveError as exc:
        if not args.json:
            print_lines(story.lines)
        print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        return print_lines([json.dumps(result.to_json())])
    return print_lines(story.ending(result.finished, result.scores))


class _Story:
    """A match in plain words, one engine event at a time."""

    def __init__(self, cast: Cast) -> None:
        self.cast, self.lines = cast, list[str]()
        self.mover: int | None = None  # the last seat that played, for a score's words
        self.left: list[int] = []

    def hear(self, event: Event) -> None:
        if isinstance(event, TilePlayed):
            self.mover = event.seat
        elif isinstance(event, Resigned):
            self.left.append(event.seat)
        text = event_line(event, self.cast, self.mover, self.left)
        if text:
            self.lines.append(text if isinstance(event, HandStarted | DealVoided | MatchEnded)
                              else f"  {text}")

    def ending(self, finished: bool, scores: Sequence[int]) -> list[str]:
        if not finished:
            said = ", ".join(f"{self.cast.side(s).text} {p}" for s, p in enumerate(scores))
            self.lines.append(f"The match is not finished. Scores: {said}.")
        return self.lines


def _viewer(name: str, doc: object, title: str) -> int:
    """A logged match stepped through on screen (``client.replay.document_view``, as History
    does)."""
    from lanomino.client.replay import document_view
    from lanomino.record import MalformedRecordError
    from lanomino.ui.app import show_replay

    try:
        view = document_view(doc, title)
    except MalformedRecordError as exc:
        raise CliError(f"{name}: {exc}") from None
    except ValueError as exc:  # a transcript that does not verify, a record that does not replay
        print(f"lanomino replay: {name}: {exc}", file=sys.stderr)
        return 1
    show_replay(view)
    return 0


def _walked(args: argparse.Namespace, doc: object) -> int:
    """A transcript with a hand re-shuffled (after a host migration, or blind after a holder
    left), replayed from what it holds (``client.replay.walk_document``): that hand from its
    re-shuffle on."""
    from lanomino.client.replay import walk_document, walked_cast
    from lanomino.fair.transcript import TranscriptError

    try:
        transcript, rules, said = walked_cast(doc)
        story = _Story(Cast(transcript.players, rules))

        def step(h: int, m: int, state: GameState, events: list[Event]) -> None:
            if m and not events:  # a re-shuffle: the moves before it as a watcher saw them
                for event in state.history:
                    story.hear(TileDrawn(event.seat, None, event.ends, event.boneyard)
                               if isinstance(event, TileDrawn) else event)
                story.lines.append(f"  {said}")
            for event in events:
                story.hear(event)

        state = walk_document(doc, step)
    except TranscriptError as exc:  # a transcript that does not verify
        print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    end = transcript.end
    if args.json:
        hands = [{"end": str(e.end), "winner": e.winner, "points": list(e.points),
                  "pips_left": list(e.pips_left)} for e in state.results]
        return print_lines([json.dumps({"hands": hands, "scores": list(end.scores),
                                        "winner": end.winner, "finished": end.finished})])
    return print_lines(story.ending(end.finished, end.scores))
