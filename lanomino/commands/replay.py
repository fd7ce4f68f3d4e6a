"""``lanomino replay FILE``: a record, hand by hand, in plain words (or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from lanomino.engine import DealVoided, Event, HandStarted, MatchEnded, Resigned, TilePlayed
from lanomino.narrate import Cast, event_line, event_lines

if TYPE_CHECKING:
    from lanomino.record import Record
    from lanomino.ui.history import ReplayView


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE|ID",
                        help="a game record (lanomino.record/1), a signed transcript "
                             "(lanomino.transcript/1), or the ID of a logged match "
                             "(see `lanomino history`): stepped through on screen")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the play log lives (for an ID)")


def load_json(path: str) -> Any:
    """Parsed JSON from ``path``; CliError (exit 2) when unreadable."""
    from lanomino.cli import CliError

    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CliError(f"{path} is not valid JSON: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from lanomino.cli import CliError
    from lanomino.commands.history import is_match_id, load_logged
    from lanomino.record import IllegalMoveError, MalformedRecordError, parse_record, replay

    logged = None
    if is_match_id(args.file) and not os.path.exists(args.file):
        logged = load_logged(args)
        doc = logged.document
    else:
        doc = load_json(args.file)
    if isinstance(doc, dict) and doc.get("format") == "lanomino.transcript/1":
        from lanomino.fair import to_record
        from lanomino.fair.transcript import TranscriptError

        try:
            doc = to_record(doc)  # the deals are derived from the revealed secrets
        except TranscriptError as exc:
            print(f"lanomino replay: {args.file}: {exc}", file=sys.stderr)
            return 1
    try:
        record = parse_record(doc)
    except MalformedRecordError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    if logged is not None and not args.json and sys.stdout.isatty() and sys.stdin.isatty():
        return _step_through(record, f"Match #{logged.summary.id}")
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


def print_lines(lines: list[str]) -> int:
    """Print ``lines``; a reader that stops early (``| head``) ends them quietly. Returns 0."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the broken pipe again when it flushes at exit: point stdout away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def replay_view(record: Record, title: str) -> ReplayView:
    """Every step of ``record`` with all hands revealed, for the replay viewer.

    Raises IllegalMoveError (from the replay check) when the record does not replay."""
    from lanomino.engine import Play, apply, new_game, observe, parse_tile, start_hand
    from lanomino.record import replay
    from lanomino.record.format import as_action
    from lanomino.ui.history import ReplayFrame, ReplayView

    replay(record)  # refuse a record that does not replay before stepping through it
    names = record.players
    cast = Cast(names, record.rules)
    state = new_game(record.rules, len(names))
    hands: list[tuple[ReplayFrame, ...]] = []

    def frame(h: int, m: int, events: list[Event]) -> ReplayFrame:
        views = [observe(state, s) for s in range(len(names))]
        text = tuple(event_lines(events, cast))
        turn = state.turn if views[0].phase == "play" else None
        return ReplayFrame(h, m, tuple(v.hand for v in views), tuple(views[0].history),
                           views[0].boneyard, tuple(state.scores), turn, text)

    for h, hand in enumerate(record.hands, start=1):
        events = start_hand(state, [[parse_tile(t) for t in d] for d in hand.deal],
                            [parse_tile(t) for t in hand.boneyard])
        frames = [frame(h, 0, events)]
        opened = False
        for m, move in enumerate(hand.moves, start=1):
            action = as_action(move, not opened)
            opened = opened or isinstance(action, Play)
            frames.append(frame(h, m, apply(state, move.seat, action)))
        hands.append(tuple(frames))
    from lanomino.ui.helptext import describe_game

    return ReplayView(f"{title} · {describe_game(record.rules)}", names, record.rules, tuple(hands))


def _step_through(record: Record, title: str) -> int:
    from lanomino.ui.app import build_app
    from lanomino.ui.state import QuitApp, Screen, UiState

    ui = UiState(screen=Screen.REPLAY)
    ui.replay = replay_view(record, title)
    ui.replay.quit_on_leave = True

    def intents(intent: object) -> None:
        if isinstance(intent, QuitApp):
            app.exit(result=0)

    app = build_app(ui, intents)
    app.run()
    return 0
