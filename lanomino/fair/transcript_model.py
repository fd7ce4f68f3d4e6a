"""The parsed transcript's values (``lanomino.transcript/1``): hands, deals, moves, the end. Pure.

``lanomino.fair.transcript`` builds them from JSON (``parse_transcript``) and names them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lanomino.engine import Action, Tile
from lanomino.engine.errors import seat_name
from lanomino.fair.adoption import Adoption
from lanomino.fair.attempt import DealAttempt, Echo, SignedCommitment
from lanomino.fair.reshuffle import Claim

if TYPE_CHECKING:
    from lanomino.fair.evidence import Proof

FORMAT = "lanomino.transcript/1"
FORMAT2 = "lanomino.transcript/2"  # the locked deck's (fair/transcript2.py)
RECORD_FORMAT = "lanomino.record/1"  # a game record: no signatures, nothing to verify
# The match header's move clock (milliseconds a seat has per move, or null: none). A transcript
# written before the header carried it does not say; its host-signed moves keep their old meaning.
MOVE_CLOCK = "move_clock"


class TranscriptError(ValueError):
    """A transcript that is not well-formed JSON of the expected shape."""


class NotATranscript(TranscriptError):
    """Another of our documents (a game record), named as what it is."""


# ----- the model -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Abandoned:
    """A deal attempt that missed a deadline: the step it stopped at and the seats that did not
    answer (they take no part in the hand's later attempts)."""

    attempt: int
    step: str  # commit | echo | reveal
    unanswered: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"attempt": self.attempt, "step": self.step, "unanswered": list(self.unanswered)}


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: Action
    raw: dict[str, Any]  # exactly as written: this is what the seat signed


# what a seat may send badly signed, and the most refusals one hand's log lists
REFUSABLE = ("move", "commit", "echo", "reshuffle_commit", "reshuffle_echo")
MAX_REFUSED = 16
MAX_DISPUTES = 32  # a hand's disputes, one per move at most (fair/dispute_check.py)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A message of ``seat``'s that the host refused on arrival because its signature was not the
    seat's (``what``: its type). It never entered the log; the host states it here, signed, so
    that the seat is the one at fault, not the host."""

    seat: int
    what: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "what": self.what, "why": self.why}

    def describe(self) -> str:
        return (f"{seat_name(self.seat)} sent a {self.what.replace('_', ' ')} not signed by their "
                f"key (refused on arrival: {self.why})")


@dataclass(frozen=True, slots=True)
class Dispute:
    """A seat's signed word that the host made move ``index`` for it while it was there and in
    time (``statements.dispute_statement``). Kept with the hand but outside the host's log
    signature: the host cannot drop it from a copy it does not hold."""

    seat: int
    index: int
    signature: bytes

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "index": self.index, "signature": self.signature.hex()}


@dataclass(frozen=True, slots=True)
class Migration:
    """The host changed during a hand: from move ``at`` on, seat ``host`` (elected in ``term``) was
    host; it signs the hand's log and may sign resignations from then on."""

    host: int
    term: int
    at: int

    def to_json(self) -> dict[str, int]:
        return {"host": self.host, "term": self.term, "at": self.at}


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The deal could not be rebuilt after a migration: from move ``at`` on, the unknown tiles were
    dealt again by a commit-reveal round among the seats that claimed their hands
    (``lanomino/fair/reshuffle.py``). ``raw`` is the object as written (the log signs its
    digest)."""

    term: int
    host: int
    at: int
    opener: int
    claims: tuple[Claim, ...]
    commitments: tuple[SignedCommitment, ...]
    set_signature: bytes
    echoes: tuple[Echo, ...]
    secrets: tuple[bytes, ...]
    raw: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HandLog:
    hand: int
    host: int
    deals: tuple[DealAttempt, ...]
    moves: tuple[Move, ...]
    move_signatures: tuple[bytes, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    log_signature: bytes
    stated_deal: tuple[tuple[Tile, ...], ...] | None
    stated_boneyard: tuple[Tile, ...] | None
    migrated: Migration | None = None
    reshuffled: Reshuffled | None = None
    abandoned: tuple[Abandoned, ...] = ()
    away: frozenset[int] = frozenset()  # moves the table's bot made for a seat out of time
    adopted: Adoption | None = None  # seats the new host took over under its own keys
    refused: tuple[Refusal, ...] = ()  # badly signed messages the host refused on arrival
    disputes: tuple[Dispute, ...] = ()  # moves the host made for a seat that the seat disputes

    def excluded_before(self, attempt: int) -> set[int]:
        """The seats that failed to answer an attempt of this hand before ``attempt``."""
        return {s for a in self.abandoned if a.attempt < attempt for s in a.unanswered}

    @property
    def log_host(self) -> int:
        """The seat that signs the hand's log (the host when the hand ended)."""
        return self.host if self.migrated is None else self.migrated.host

    def host_at(self, index: int) -> int:
        """The seat that was host when move ``index`` (0-based) was made."""
        m = self.migrated
        return self.host if m is None or index < m.at else m.host


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """The host's closing statement: how many hands, whether the match finished, the result.
    Without it a transcript could be cut short after any hand without anyone noticing."""

    host: int
    hands: int
    finished: bool
    winner: int | None
    scores: tuple[int, ...]
    signature: bytes
    # a locked match's departures after its last hand, which ended it (``fair/departures2.py``:
    # ``Departure`` values; the closing statement names them)
    departures: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Transcript:
    header: dict[str, Any]  # format, algorithm, table, rules, players, keys: as written
    header_digest: str
    table: bytes
    algorithm: str
    rules_spec: dict[str, Any]
    players: tuple[str, ...]
    keys: tuple[bytes, ...]
    header_signatures: tuple[bytes, ...]
    hands: tuple[HandLog, ...]
    end: MatchEnd
    clock_declared: bool = False  # the header says whether the table had a move clock
    move_clock: int | None = None  # its milliseconds per move (None: no move clock)
    evidence: tuple[Proof, ...] = ()  # proof against a host the seats caught (fair/evidence.py)
