"""Document -> record -> view, once, for ``replay``, ``export``, ``hint`` and History.

A document is a game record (``lanomino.record/1``) or a signed match transcript
(``lanomino.transcript/1``, or ``/2`` for the locked deck): a transcript becomes a record by
verifying it and deriving its deals from the revealed secrets or keys (``fair.to_record``),
wherever a record is wanted.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from lanomino.client import ClientError
from lanomino.narrate import Cast, event_lines

if TYPE_CHECKING:
    from lanomino.engine import Event, GameState, Rules
    from lanomino.fair.transcript_model import Transcript
    from lanomino.fair.walk import Step
    from lanomino.record import Record
    from lanomino.ui.history import ReplayFrame, ReplayView

TRANSCRIPT = "lanomino.transcript/1"
TRANSCRIPT2 = "lanomino.transcript/2"
MAX_BYTES = 64 * 1024 * 1024


def is_transcript(document: object) -> bool:
    """A signed match transcript of either format (the locked deck's is ``/2``)."""
    return isinstance(document, dict) and document.get("format") in (TRANSCRIPT, TRANSCRIPT2)


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
    from lanomino.engine import Play, apply, new_game, parse_tile, start_hand
    from lanomino.record import replay
    from lanomino.record.format import as_action

    replay(record)  # refuse a record that does not replay before stepping through it
    frames = _Frames(record.players, record.rules)
    state = new_game(record.rules, len(record.players))
    for h, hand in enumerate(record.hands, start=1):
        frames.add(h, 0, state, start_hand(state, [[parse_tile(t) for t in d] for d in hand.deal],
                                           [parse_tile(t) for t in hand.boneyard]))
        opened = False
        for m, move in enumerate(hand.moves, start=1):
            action = as_action(move, not opened)
            opened = opened or isinstance(action, Play)
            frames.add(h, m, state, apply(state, move.seat, action))
    return frames.view(title)


RESHUFFLED = ("The host left during this hand. The tiles already played stay on the board; the "
              "tiles nobody could vouch for were dealt again (re-shuffled), and play goes on.")
RESHUFFLED_BLIND = ("A player left during this hand, and their key went with them. The tiles "
                    "already played stay on the board; the players left shuffled the tiles "
                    "nobody held again, without anyone seeing them, and play goes on.")


class _Frames:
    """The replay viewer's frames, one per step of a match."""

    def __init__(self, names: tuple[str, ...], rules: Rules, reshuffled: str = RESHUFFLED
                 ) -> None:
        self.names, self.rules, self.cast = names, rules, Cast(names, rules)
        self.reshuffled = reshuffled
        self.hands: list[list[ReplayFrame]] = []

    def add(self, h: int, m: int, state: GameState, events: list[Event]) -> None:
        """The frame after a step (``walk``'s ``Step``; a first frame past move 0 is a
        re-shuffle)."""
        from lanomino.engine import observe
        from lanomino.ui.history import ReplayFrame

        if h > len(self.hands):
            self.hands.append([])
        views = [observe(state, s) for s in range(len(self.names))]
        text = ((self.reshuffled,) if m and not self.hands[-1]
                else tuple(event_lines(events, self.cast)))
        turn = state.turn if views[0].phase == "play" else None
        self.hands[-1].append(ReplayFrame(h, m, tuple(v.hand for v in views),
                                          tuple(views[0].history), views[0].boneyard,
                                          tuple(state.scores), turn, text))

    def view(self, title: str) -> ReplayView:
        from lanomino.ui.helptext import describe_game
        from lanomino.ui.history import ReplayView

        return ReplayView(f"{title} · {describe_game(self.rules)}", self.names, self.rules,
                          tuple(map(tuple, self.hands)))


def has_reshuffle(document: Any) -> bool:
    """A transcript with a hand re-shuffled after a host migration, or (transcript/2) re-shuffled
    blind after a holder left: no record can hold it (its deal went with the lost host, or the
    lost holder's key with it), so it is walked from the transcript itself (``walk_document``).
    So is a transcript/2 whose first hand was dealt again for a person who left it (a
    ``departures`` entry): a record keeps a resignation as a move of the hand before, and there
    is none."""
    hands = document.get("hands") if is_transcript(document) else None
    return isinstance(hands, list) and (any(
        isinstance(h, dict) and ("reshuffled" in h or isinstance(h.get("record"), dict)
                                 and "unheld" in h["record"]) for h in hands)
        or bool(hands) and isinstance(hands[0], dict) and bool(hands[0].get("departures")))


def walked_cast(document: Any) -> tuple[Transcript, Rules, str]:
    """A transcript's header (its players, its end), its rules and how its re-shuffle is said,
    for ``walk_document``. Raises TranscriptError: it is malformed."""
    from lanomino.engine import Rules
    from lanomino.fair.transcript import parse_transcript
    from lanomino.fair.transcript2 import parse_transcript2

    if document.get("format") == TRANSCRIPT2:
        head = parse_transcript2(document)[0]
        return head, Rules.from_spec(dict(head.rules_spec)), RESHUFFLED_BLIND
    transcript = parse_transcript(document)
    return transcript, Rules.from_spec(dict(transcript.rules_spec)), RESHUFFLED


def walk_document(document: Any, step: Step) -> GameState:
    """A transcript walked step by step (``fair.walk``, or ``fair.walk2`` for a transcript/2)
    once it verified; the final state. Raises TranscriptError: it does not verify."""
    from lanomino.fair.walk import walk
    from lanomino.fair.walk2 import walk_locked

    if document.get("format") == TRANSCRIPT2:
        return walk_locked(document, step)
    return walk(*verified_transcript(document), step)


def verified_transcript(document: Any) -> tuple[Transcript, Rules]:
    """``document`` parsed and verified, with its rules, to be walked (``fair.walk``). Raises
    TranscriptError: it does not verify."""
    from lanomino.engine import Rules
    from lanomino.fair.transcript import TranscriptError, parse_transcript
    from lanomino.fair.verify import verify_parsed

    transcript = parse_transcript(document)
    report = verify_parsed(transcript)
    if report.failure is not None:
        raise TranscriptError(f"the transcript does not verify: {report.failure.describe()}")
    return transcript, Rules.from_spec(dict(transcript.rules_spec))


def document_view(document: Any, title: str) -> ReplayView:
    """The replay viewer for a record or transcript (JSON as stored: checked here). Raises
    ValueError when it cannot be replayed (a damaged document, or a transcript that does not
    verify)."""
    if has_reshuffle(document):
        head, rules, said = walked_cast(document)
        frames = _Frames(head.players, rules, said)
        walk_document(document, frames.add)
        return frames.view(title)
    return replay_view(load_record(document), title)
