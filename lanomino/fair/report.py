"""What the verifier says about a transcript: a report per hand, or the failure and who is to
blame. Pure values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lanomino.engine import GameState, Tile
from lanomino.engine.errors import seat_name
from lanomino.fair.transcript_model import Migration, Refusal


def seats_named(seats: Sequence[int]) -> str:
    """Seats in a problem's words, counted from 1: "seats 1, 3", or "no seats"."""
    return "seats " + ", ".join(str(seat + 1) for seat in seats) if seats else "no seats"


# Whom a failure blames when a signature over the file's content does not verify: the signed
# statement was changed after it was signed, and no seat's signature says by whom.
EDITED = "whoever changed the file"


@dataclass(frozen=True, slots=True)
class Blamed:
    """Whom a failed check blames: ``seat`` (counted from 0, as in the JSON) in words."""

    seat: int
    words: str

    @classmethod
    def player(cls, seat: int) -> Blamed:
        return cls(seat, seat_name(seat))

    @classmethod
    def host(cls, seat: int, new: bool = False) -> Blamed:
        return cls(seat, f"the {'new ' if new else ''}host ({seat_name(seat)})")


@dataclass(frozen=True, slots=True)
class Failure:
    check: str  # algorithm, header, evidence, rules, sequence, log, commitment, set, echo,
    # equivocation, secret, deal, move-signature, dispute, ownership, legality, unfinished, score,
    # end; in a re-shuffled hand also reshuffle, claim, reshuffle-commitment, reshuffle-set,
    # reshuffle-echo, reshuffle-secret
    hand: int | None
    blame: str  # in words, seats counted from 1 ("the host (seat 1)")
    message: str
    seat: int | None = None  # the seat blamed, counted from 0 (None: nobody's seat)

    def describe(self) -> str:
        where = f"hand {self.hand}: " if self.hand is not None else ""
        return f"{where}{self.message} [check: {self.check}; blame: {self.blame}]"


@dataclass(frozen=True, slots=True)
class HostSigned:
    """A move the host signed for a seat (the table's bot for a seat out of time on the move
    clock, or a resignation the host declared): the seat did not sign it."""

    index: int  # the move's index in the hand, from 0
    seat: int
    move: str  # the move in words
    disputed: bool = False  # the seat signed a dispute: it says it was there, in time

    def describe(self) -> str:
        who = seat_name(self.seat)
        disputed = f"; DISPUTED by {who}, who says it was there in time" if self.disputed else ""
        if self.move == "resign":
            return (f"move {self.index + 1} ({who} resigns: the host says {who} had left, "
                    f"which could not be checked{disputed})")
        return (f"move {self.index + 1} ({who}: {self.move}, the table's move for a seat out of "
                f"time{disputed})")


@dataclass(frozen=True, slots=True)
class AwayMove:
    """A move a seat's own client's bot made while the seat was out of time on the move clock,
    at a locked table (transcript/2): the seat signed it and its mark ``away``."""

    index: int  # the move's index in the hand's log, from 0
    seat: int
    move: str  # the move in words

    def describe(self) -> str:
        return f"move {self.index + 1} ({seat_name(self.seat)}: {self.move})"


@dataclass(frozen=True, slots=True)
class HandReport:
    hand: int
    attempts: int
    commitments: int
    tiles: int
    draws: int
    scores: tuple[int, ...]
    faults: tuple[Refusal, ...] = ()  # seats whose badly signed messages the host refused
    host_signed: tuple[HostSigned, ...] = ()  # moves the host signed for a seat, not the seat
    migrated: Migration | None = None  # the host changed during the hand
    unchecked: tuple[str, ...] = ()  # what could not be checked, in words
    locked: bool = False  # a locked deck's hand (transcript/2): ``commitments`` counts holders
    # in words: the players who shuffled the deal played (``commitments`` counts every deal's
    # and the re-shuffle's), and those who re-shuffled after a lost host (0: none did)
    shufflers: int = 0
    reshufflers: int = 0
    away: tuple[AwayMove, ...] = ()  # moves a seat's own bot made, out of time (transcript/2)

    def describe(self) -> str:
        scores = "-".join(str(s) for s in self.scores)
        redeals = f" ({self.attempts} deals)" if self.attempts > 1 else ""
        points = ("1 draw" if self.draws == 1 else f"{self.draws} draws") + (
            f", match totals {scores}")
        notes = [f"at fault: {r.describe()}" for r in self.faults]
        m = self.migrated
        if m is not None:
            notes.append(f"the host changed: {seat_name(m.host)} took over from move {m.at + 1} "
                         f"(the match's {_ordinal(m.term)} new host)")
        if self.host_signed:
            notes.append("signed by the host, not by the seat: "
                         + ", ".join(h.describe() for h in self.host_signed))
        if self.away:
            notes.append("the table's move for a seat out of time, made by that seat's own "
                         "client and signed by it: " + ", ".join(a.describe() for a in self.away))
        notes += [f"could not check {what}" for what in self.unchecked]
        who = self.shufflers or self.commitments
        plural = "s" if who != 1 else ""
        shuffled = (f"locked by {who} holder{plural}" if self.locked
                    else f"shuffled by {who} player{plural}")
        if self.reshufflers:
            shuffled += f", re-shuffled by {self.reshufflers} after the host left"
        return (f"hand {self.hand}: fair: {shuffled}{redeals}, {self.tiles} tiles, {points}"
                + "".join(f"; {n}" for n in notes))

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "attempts": self.attempts, "commitments": self.commitments,
                "tiles": self.tiles, "draws": self.draws, "scores": list(self.scores),
                "host_signed": [{"index": h.index, "seat": h.seat, "disputed": h.disputed}
                                for h in self.host_signed],
                "migrated": None if self.migrated is None else self.migrated.to_json(),
                "unchecked": list(self.unchecked), **({"locked": True} if self.locked else {}),
                **({"away": [{"index": a.index, "seat": a.seat} for a in self.away]}
                   if self.away else {})}


@dataclass(frozen=True, slots=True)
class DerivedDeal:
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    void: bool


@dataclass(frozen=True, slots=True)
class Report:
    hands: tuple[HandReport, ...]
    failure: Failure | None
    deals: tuple[tuple[DerivedDeal, ...], ...] = field(repr=False)  # per hand, per attempt
    # the engine state after the last hand (None when a check failed): a finished re-shuffled
    # hand can only be replayed this way, as its claims and re-shuffle say
    state: GameState | None = field(default=None, repr=False, compare=False)
    clock: str = ""  # what the header says of the move clock, in words
    caught: tuple[str, ...] = ()  # hosts the transcript's evidence convicts (fair/evidence.py)
    # what a locked match's closing departures could not show (fair/departures2.check_closing)
    closed: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failure is None

    def lines(self) -> list[str]:
        """What ``lanomino verify`` prints: a line per hand that checked out, the failure if any,
        what the header says of the move clock, and last the verdict."""
        out = [h.describe() for h in self.hands]
        if self.failure is not None:
            out.append(f"NOT FAIR: {self.failure.describe()}")
        elif not self.hands:
            out.append("no hands in this transcript")
        if self.closed and self.failure is None:
            out.append(f"The match ended as people left before the next hand; not checked: "
                       f"{'; '.join(self.closed)}.")
        if self.clock:
            out.append(self.clock)
        out += [f"Caught: {c}." for c in self.caught]
        return [*out, self.verdict()]

    def verdict(self) -> str:
        """One line: fair or not, and who is to blame."""
        f = self.failure
        caught = "; a host was caught cheating (proof above)" if self.caught else ""
        if f is not None:
            where = f" in hand {f.hand}" if f.hand is not None else ""
            return (f"Verdict: NOT FAIR: the {f.check} check failed{where}; to blame: "
                    f"{f.blame}{caught}.")
        hands = "1 hand" if len(self.hands) == 1 else f"{len(self.hands)} hands"
        changes = sum(h.migrated is not None for h in self.hands)
        signed = sum(len(h.host_signed) for h in self.hands)
        disputed = sum(m.disputed for h in self.hands for m in h.host_signed)
        away = sum(len(h.away) for h in self.hands)
        unchecked = sum(bool(h.unchecked) for h in self.hands)
        notes = [f"the host changed in {changes} of them" if changes else "",
                 f"{signed} move{'s' if signed > 1 else ''} signed by the host for a seat "
                 "(listed above)" if signed else "",
                 f"{disputed} of them disputed by their seat" if disputed else "",
                 f"{away} move{'s' if away > 1 else ''} made by a seat's own client for it out "
                 "of time (listed above)" if away else "",
                 f"{unchecked} could not be checked in full (said above)" if unchecked else "",
                 caught.removeprefix("; ")]
        said = "".join(f"; {n}" for n in notes if n)
        return f"Verdict: fair: every check of {hands} holds{said}."

    @property
    def faults(self) -> tuple[tuple[int, Refusal], ...]:
        """(hand, refusal) for every badly signed message the host refused: the seat is at fault."""
        return tuple((h.hand, r) for h in self.hands for r in h.faults)

    def to_json(self) -> dict[str, Any]:
        f = self.failure
        return {
            "ok": self.ok,
            "seats_from": 0,  # every "seat" field counts from 0; the words ("blame") from 1
            "faults": [{"hand": hand, "blame": seat_name(r.seat), **r.to_json()}
                       for hand, r in self.faults],
            "hands": [h.to_json() for h in self.hands],
            "clock": self.clock,
            "caught": list(self.caught),
            "verdict": self.verdict(),
            "failure": None if f is None else {"check": f.check, "hand": f.hand, "blame": f.blame,
                                               "seat": f.seat, "message": f.message},
        }


class Failed(Exception):
    """A check failed (raised inside the checker, turned into a Report by its caller)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
