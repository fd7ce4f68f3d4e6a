"""Who leads a hand nobody can see: public rounds of "who holds this tile?". Pure.

With today's deal the host reads every hand and the engine names the opener
(``engine/opening.py``: the highest double leads; with no double dealt, the heaviest tile, or a
void deal under ``no_double=reshuffle``). With the locked deck nobody can read the hands, so the
host asks in the engine's own order: "who holds 6-6?", then 5-5, and so on, then (with no double
dealt) every other tile from the heaviest down. The seat that holds the tile answers with its
lead (a play with its proof, checked like any play); every other active seat answers a signed
"not me", which the hand's end checks (``hand_check.py``). When every seat says "not me" to the
last question, the deal is void.

The first hand of a match needs the rounds, every hand under ``next_opener=highest-double``, and
a hand after one nobody won when the rules then go back to the first hand's rule
(``no_winner_opener=first-hand``, as in the classic presets): ``needs_rounds``. Otherwise the
engine's opener follows from public facts (``engine/public.py``'s ``public_opener``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lanomino.blind.group import BlindError
from lanomino.engine import GameState, Rules, Tile
from lanomino.engine.errors import seat_name
from lanomino.engine.opening import DOUBLES_HIGH_FIRST, opener_is_public
from lanomino.engine.tiles import TILES


def needs_rounds(state: GameState) -> bool:
    """Whether the next hand's opener depends on the hidden hands (the engine's rule,
    ``opener_is_public``)."""
    return not opener_is_public(state)


def questions(rules: Rules) -> tuple[Tile, ...]:
    """The tiles asked about, in order: the doubles high first, then (``no_double=heaviest``)
    every other tile from the heaviest down, by the engine's weight (pips, then the high end)."""
    if rules.no_double == "reshuffle":
        return DOUBLES_HIGH_FIRST
    rest = sorted((t for t in TILES if not t.is_double), key=lambda t: (t.pips, t.high),
                  reverse=True)
    return (*DOUBLES_HIGH_FIRST, *rest)


@dataclass(slots=True)
class LeadRounds:
    """The rounds of one deal (see the module docstring); ``seats`` are the active seats."""

    rules: Rules
    seats: tuple[int, ...]
    asked: int = 0  # index into ``questions(rules)``
    answered: set[int] = field(default_factory=set)  # "not me" to the current question
    claims: list[tuple[int, Tile]] = field(default_factory=list)  # every "not me", in order
    leader: tuple[int, Tile] | None = None

    def question(self) -> Tile | None:
        """The tile asked about now; None once someone led or the deal is void."""
        order = questions(self.rules)
        if self.leader is not None or self.asked >= len(order):
            return None
        return order[self.asked]

    @property
    def void(self) -> bool:
        return self.leader is None and self.question() is None

    def not_me(self, seat: int) -> None:
        """A seat's signed "not me" to the current question. Raises: BlindError out of turn."""
        tile = self._current(seat)
        if seat in self.answered:
            raise BlindError(f"{seat_name(seat)} already answered for {tile}")
        self.answered.add(seat)
        self.claims.append((seat, tile))
        if self.answered == set(self.seats):
            self.asked += 1
            self.answered = set()

    def lead(self, seat: int, tile: Tile) -> None:
        """The seat that holds the asked tile leads it (its play proof checked by the caller).

        Raises: BlindError for another tile, or a seat that said "not me" to it.
        """
        asked = self._current(seat)
        if tile != asked:
            raise BlindError(f"{seat_name(seat)} led {tile}, but the question is {asked}")
        if seat in self.answered:
            raise BlindError(f"{seat_name(seat)} said it does not hold {tile}")
        self.leader = (seat, tile)

    def _current(self, seat: int) -> Tile:
        if seat not in self.seats:
            raise BlindError(f"{seat_name(seat)} has no hand in this deal")
        tile = self.question()
        if tile is None:
            raise BlindError("the rounds are over")
        return tile
