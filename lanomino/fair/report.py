"""What the verifier says about a transcript: a report per hand, or the failure and who is to
blame. Pure values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lanomino.engine import GameState, Tile
from lanomino.engine.errors import seat_name
from lanomino.fair.transcript_model import Refusal


def seats_named(seats: Sequence[int]) -> str:
    """Seats in a problem's words, counted from 1: "seats 1, 3", or "no seats"."""
    return "seats " + ", ".join(str(seat + 1) for seat in seats) if seats else "no seats"


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
    check: str  # algorithm, header, rules, sequence, commitment, set, echo, equivocation,
    # secret, deal, move-signature, ownership, legality, unfinished, score, log, end; in a
    # re-shuffled hand also reshuffle, claim, reshuffle-commitment, reshuffle-set, reshuffle-echo,
    # reshuffle-secret
    hand: int | None
    blame: str  # in words, seats counted from 1 ("the host (seat 1)")
    message: str
    seat: int | None = None  # the seat blamed, counted from 0 (None: nobody's seat)

    def describe(self) -> str:
        where = f"hand {self.hand}: " if self.hand is not None else ""
        return f"{where}{self.message} [check: {self.check}; blame: {self.blame}]"


@dataclass(frozen=True, slots=True)
class HandReport:
    hand: int
    attempts: int
    commitments: int
    tiles: int
    draws: int
    scores: tuple[int, ...]
    faults: tuple[Refusal, ...] = ()  # seats whose badly signed messages the host refused

    def describe(self) -> str:
        scores = "-".join(str(s) for s in self.scores)
        redeals = f" ({self.attempts} deals)" if self.attempts > 1 else ""
        faults = "".join(f"; at fault: {r.describe()}" for r in self.faults)
        return (f"hand {self.hand}: fair: {self.commitments} commitments{redeals}, "
                f"{self.tiles} tiles, {self.draws} draws, scores {scores}{faults}")


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

    @property
    def ok(self) -> bool:
        return self.failure is None

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
            "hands": [{"hand": h.hand, "attempts": h.attempts, "commitments": h.commitments,
                       "tiles": h.tiles, "draws": h.draws, "scores": list(h.scores)}
                      for h in self.hands],
            "failure": None if f is None else {"check": f.check, "hand": f.hand, "blame": f.blame,
                                               "seat": f.seat, "message": f.message},
        }


class Failed(Exception):
    """A check failed (raised inside the checker, turned into a Report by its caller)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure
