"""Document -> record -> view, once, for ``replay``, ``export``, ``hint`` and History.

A document is a game record (``lanomino.record/1``) or a signed match transcript
(``lanomino.transcript/1``): a transcript becomes a record by verifying it and deriving its deals
from the revealed secrets (``fair.to_record``), wherever a record is wanted.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from lanomino.client import ClientError
from lanomino.narrate import Cast, event_lines

if TYPE_CHECKING:
    from lanomino.engine import Event
    from lanomino.record import Record
    from lanomino.ui.history import ReplayView

TRANSCRIPT = "lanomino.transcript/1"
MAX_BYTES = 64 * 1024 * 1024


def is_transcript(document: object) -> bool:
    return isinstance(document, dict) and document.get("format") == TRANSCRIPT


def read_document(path: str) -> Any:
    """The JSON in the file at ``path``. Raises ClientError: unreadable, too large, not JSON."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ClientError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise ClientError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MB: "
                          "not a record or a transcript")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ClientError(f"{path} is not valid JSON: {exc}") from None


def record_document(document: Any) -> Any:
    """``document`` as a record's JSON: a transcript verified and turned into one, anything else
    as it is. Raises TranscriptError (a ValueError): a transcript that does not verify."""
    if is_transcript(document):
        from lanomino.fair import to_record

        return to_record(document)  # the deals are derived from the revealed secrets
    return document


def load_record(document: Any) -> Record:
    """The record ``document`` holds (a transcript converted first).

    Raises:
        TranscriptError: a transcript that does not verify.
        MalformedRecordError: not a record (both are ValueErrors; the message says what is wrong).
    """
    from lanomino.record import parse_record

    return parse_record(record_document(document))


def replay_view(record: Record, title: str) -> ReplayView:
    """Every step of ``record`` with all hands revealed, for the replay viewer.

    Raises IllegalMoveError (from the replay check) when the record does not replay."""
    from lanomino.engine import Play, apply, new_game, observe, parse_tile, start_hand
    from lanomino.record import replay
    from lanomino.record.format import as_action
    from lanomino.ui.helptext import describe_game
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
    return ReplayView(f"{title} · {describe_game(record.rules)}", names, record.rules, tuple(hands))


def document_view(document: Any, title: str) -> ReplayView:
    """The replay viewer for a record or transcript (JSON as stored: checked here). Raises
    ValueError when it cannot be replayed (a damaged document, or a transcript that does not
    verify)."""
    return replay_view(load_record(document), title)
