"""What the play log keeps beside a match's document, derived from the document alone: its
rules, players, hands (how each ended, who played which tile) and result, and whether it verifies.
Raises ``PlayLogError`` for a document that cannot be logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lanomino.engine import Event, GameState, HandEnded, HandStarted, Rules, TilePlayed
from lanomino.engine.errors import EngineError

if TYPE_CHECKING:
    from collections.abc import Callable

    from lanomino.fair.report import Report
    from lanomino.fair.transcript_model import Transcript

RECORD_FORMAT = "lanomino.record/1"
TRANSCRIPT_FORMAT = "lanomino.transcript/1"
TRANSCRIPT2_FORMAT = "lanomino.transcript/2"  # the locked deck's
TRANSCRIPT_FORMATS = (TRANSCRIPT_FORMAT, TRANSCRIPT2_FORMAT)


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


def derive(document: Any, verified: bool | None = None,
           check: Callable[[Any], Report] | None = None) -> Derived:
    """The facts of a record or transcript (``verified`` None: check it here). ``check``: how a
    transcript is checked (default ``verify_transcript``; a node that logs its match after every
    hand passes its ``TranscriptStream``'s, which checks each hand once). Raises PlayLogError."""
    if not isinstance(document, dict):
        raise PlayLogError("a logged match is a JSON object (a record or a transcript)")
    kind = document.get("format")
    if kind == RECORD_FORMAT:
        return _derive_record(document, document, verified, keys=())
    if kind in TRANSCRIPT_FORMATS:
        return _derive_transcript(document, verified, check)
    raise PlayLogError(f"not a record or a transcript (format {kind!r})")


def _derive_transcript(document: dict[str, Any], verified: bool | None,
                       check: Callable[[Any], Report] | None) -> Derived:
    from lanomino.fair.transcript import TranscriptError, parse_transcript
    from lanomino.fair.transcript2 import parse_transcript2
    from lanomino.fair.verify import to_record, verify_parsed, verify_transcript

    locked = document.get("format") == TRANSCRIPT2_FORMAT
    try:  # (a transcript/2's header and end: its hands are verify's)
        transcript = parse_transcript2(document)[0] if locked else parse_transcript(document)
    except TranscriptError as exc:
        raise PlayLogError(f"damaged transcript: {exc}") from None
    keys = tuple(k.hex() for k in transcript.keys)
    report = (check(document) if check is not None else verify_transcript(document) if locked
              else verify_parsed(transcript))
    ok = report.ok if verified is None else verified and report.ok
    if report.ok:
        try:
            record = to_record(document, report)
        except TranscriptError:  # a hand re-shuffled after a migration (or blind after a
            # holder left): no record holds it
            return _derive_walked(document if locked else None, transcript, keys, ok, report)
        derived = _derive_record(record, document, True, keys)
        end = transcript.end
        verification = "verified" if ok else "not verified by this peer"
        return Derived(derived.rules_spec, derived.names, keys, derived.hands, end.finished,
                       end.winner, end.scores, ok, verification)
    assert report.failure is not None
    rules_of(transcript.rules_spec)  # a transcript whose rules we cannot read is not logged
    return _derive_end(transcript, keys, False, f"does not verify: {report.failure.describe()}")


def _derive_walked(locked: dict[str, Any] | None, transcript: Transcript, keys: tuple[str, ...],
                   ok: bool, report: Report) -> Derived:
    """A verified transcript with a re-shuffled hand, walked hand by hand (``fair.walk``; a
    transcript/2, ``locked``, by ``fair.walk2`` with its ``report``)."""
    from lanomino.fair.walk import walk
    from lanomino.fair.walk2 import walk_locked

    facts = _HandFacts()

    def step(h: int, m: int, state: GameState, events: list[Event]) -> None:
        if m and not events:  # a re-shuffle: the tiles played before it are on the board
            facts.played[:] = [(e.seat, str(e.tile)) for e in state.history
                               if isinstance(e, TilePlayed)]
        for event in events:
            facts.hear(event)

    try:
        if locked is not None:
            walk_locked(locked, step, report)
        else:
            walk(transcript, rules_of(transcript.rules_spec), step)
    except ValueError as exc:  # (it verified: the walk cannot fail)
        raise PlayLogError(f"the transcript does not replay: {exc}") from None
    end = transcript.end
    return Derived(dict(transcript.rules_spec), transcript.players, keys, tuple(facts.hands),
                   end.finished, end.winner, end.scores, ok,
                   "verified" if ok else "not verified by this peer")


class _HandFacts:
    """Each hand's facts, from the engine's events as they come."""

    def __init__(self) -> None:
        self.hands: list[HandFact] = []
        self.played: list[tuple[int, str]] = []

    def hear(self, event: Event) -> None:
        if isinstance(event, TilePlayed):
            self.played.append((event.seat, str(event.tile)))
        elif isinstance(event, HandEnded):
            self.hands.append(HandFact(event.hand, event.end, event.winner,
                                       tuple(event.points), tuple(self.played)))
            self.played.clear()
        elif isinstance(event, HandStarted):
            self.played.clear()


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
    facts = _HandFacts()
    hands = facts.hands
    try:
        result = replay(record, lambda _, event: facts.hear(event))
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
