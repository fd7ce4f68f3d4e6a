"""What the play log keeps beside a match's document, derived from the document alone: its
rules, players, hands (how each ended, who played which tile) and result, and whether it verifies.
Raises ``PlayLogError`` for a document that cannot be logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lanomino.engine import Event, HandEnded, HandStarted, Rules, TilePlayed
from lanomino.engine.errors import EngineError

if TYPE_CHECKING:
    from lanomino.fair.transcript_model import Transcript

RECORD_FORMAT = "lanomino.record/1"
TRANSCRIPT_FORMAT = "lanomino.transcript/1"


class PlayLogError(ValueError):
    """A document that cannot be logged, or a logged match that does not exist or is damaged."""


@dataclass(frozen=True, slots=True)
class HandFact:
    hand: int
    end: str  # domino | blocked | target | resigned
    winner: int | None  # a side
    points: tuple[int, ...]  # per side
    played: tuple[tuple[int, str], ...]  # (seat, tile) in the order played


@dataclass(frozen=True, slots=True)
class Derived:
    """What the log keeps beside the document, all derived from it."""

    rules_spec: dict[str, Any]
    names: tuple[str, ...]
    keys: tuple[str, ...]  # per seat, hex public keys (transcripts only)
    hands: tuple[HandFact, ...]
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    verified: bool | None
    verification: str


def derive(document: Any, verified: bool | None = None) -> Derived:
    """The facts of a record or transcript (``verified`` None: check it here).
    Raises PlayLogError."""
    if not isinstance(document, dict):
        raise PlayLogError("a logged match is a JSON object (a record or a transcript)")
    kind = document.get("format")
    if kind == RECORD_FORMAT:
        return _derive_record(document, document, verified, keys=())
    if kind == TRANSCRIPT_FORMAT:
        return _derive_transcript(document, verified)
    raise PlayLogError(f"not a record or a transcript (format {kind!r})")


def _derive_transcript(document: dict[str, Any], verified: bool | None) -> Derived:
    from lanomino.fair.transcript import TranscriptError, parse_transcript
    from lanomino.fair.verify import to_record, verify_parsed

    try:
        transcript = parse_transcript(document)
    except TranscriptError as exc:
        raise PlayLogError(f"damaged transcript: {exc}") from None
    keys = tuple(k.hex() for k in transcript.keys)
    report = verify_parsed(transcript)
    ok = report.ok if verified is None else verified and report.ok
    if report.ok:
        try:
            record = to_record(document)
        except TranscriptError:  # a hand re-shuffled after a migration has no one deal to replay
            return _derive_end(transcript, keys, ok,
                               "verified (a hand was re-shuffled: no move-by-move record)")
        derived = _derive_record(record, document, True, keys)
        end = transcript.end
        verification = "verified" if ok else "not verified by this peer"
        return Derived(derived.rules_spec, derived.names, keys, derived.hands, end.finished,
                       end.winner, end.scores, ok, verification)
    assert report.failure is not None
    rules_of(transcript.rules_spec)  # a transcript whose rules we cannot read is not logged
    return _derive_end(transcript, keys, False, f"does not verify: {report.failure.describe()}")


def _derive_end(transcript: Transcript, keys: tuple[str, ...], ok: bool,
                verification: str) -> Derived:
    """A transcript's facts from its closing statement alone (no hands to replay)."""
    end = transcript.end
    return Derived(dict(transcript.rules_spec), transcript.players, keys, (), end.finished,
                   end.winner, end.scores, ok, verification)


def _derive_record(record_doc: dict[str, Any], document: dict[str, Any], verified: bool | None,
                   keys: tuple[str, ...]) -> Derived:
    from lanomino.record import IllegalMoveError, MalformedRecordError, parse_record, replay

    try:
        record = parse_record(record_doc)
    except MalformedRecordError as exc:
        raise PlayLogError(f"damaged record: {exc}") from None
    hands: list[HandFact] = []
    played: list[tuple[int, str]] = []

    def listen(hand: int, event: Event) -> None:
        if isinstance(event, TilePlayed):
            played.append((event.seat, str(event.tile)))
        elif isinstance(event, HandEnded):
            hands.append(HandFact(event.hand, event.end, event.winner, tuple(event.points),
                                  tuple(played)))
            played.clear()
        elif isinstance(event, HandStarted):
            played.clear()

    try:
        result = replay(record, listen)
    except IllegalMoveError as exc:
        raise PlayLogError(f"the record does not replay: {exc}") from None
    check = "replays" if verified is None else "verified" if verified else "not verified"
    return Derived(dict(record.rules_spec), record.players, keys, tuple(hands), result.finished,
                   result.winner, result.scores, True if verified is None else verified, check)


def rules_of(spec: dict[str, Any]) -> Rules:
    try:
        return Rules.from_spec(dict(spec))
    except (EngineError, TypeError, ValueError) as exc:
        raise PlayLogError(f"unreadable rules: {exc}") from None
