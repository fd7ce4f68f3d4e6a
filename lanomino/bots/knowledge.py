"""What the table has revealed to one seat, and hidden hands sampled consistently with it.

Theory of operation: ``read_knowledge(obs)`` walks this hand's public history once. Every draw
and pass tells that the seat held nothing for the numbers showing (a *void*); a tile it drew and
kept did not fit either (under the standard rules the tile that fits is played at once, so a draw
followed by that seat's play was the played tile). A kept draw may bring back numbers the seat
lacked before, so it relaxes the seat's constraint to "nothing for the ends showing at that
draw". The opening also speaks: when the highest double (or, with no doubles, the heaviest tile)
had to lead, nobody was dealt a higher double, so a seat that has kept no draw cannot hold one.

The result is, for every seat, a mask of tiles it cannot hold now. ``HandSampler`` draws
assignments of the unseen tiles to the other hands, the boneyard and tiles that left with a
resigned seat, uniformly over every assignment that respects those masks and the hand sizes. It
counts the completions exactly (a memoised count over remaining capacities) and places one tile
at a time with probability proportional to the completions, so no sample is ever rejected.

The model is per tile and per seat: it knows "seat 2 holds no 5" but not "at most one of seat
2's tiles can be a 5, the one it drew later". That is sound (the true hands are always possible)
and exact for the constraints it keeps.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.engine import (
    TILES,
    HandStarted,
    Observation,
    Passed,
    Resigned,
    Tile,
    TileDrawn,
    TilePlayed,
)

_FULL = (1 << len(TILES)) - 1
_WITH: tuple[int, ...] = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))
_DOUBLES = sum(1 << t.index for t in TILES if t.is_double)


def mask_of(tiles: Sequence[Tile]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t.index
    return mask


def tiles_of(mask: int) -> list[Tile]:
    out = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    return out


def with_numbers(numbers: Sequence[int]) -> int:
    """Mask of the tiles that carry any of ``numbers``."""
    mask = 0
    for n in numbers:
        if 0 <= n < len(_WITH):
            mask |= _WITH[n]
    return mask


def opening_exclusion(lead: Tile) -> int:
    """Tiles nobody was dealt when ``lead`` had to open the hand (the first-hand rule)."""
    if lead.is_double:
        return sum(1 << t.index for t in TILES if t.is_double and t.high > lead.high)
    heavier = sum(1 << t.index for t in TILES if (t.pips, t.high) > (lead.pips, lead.high))
    return _DOUBLES | heavier


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's view of where the tiles can be."""

    seat: int
    players: int
    mine: int  # mask of the observer's own tiles
    played: int  # mask of tiles on the line
    unseen: int  # mask of tiles the observer cannot see (other hands, boneyard, gone)
    forbidden: tuple[int, ...]  # per seat: tiles it cannot hold now
    hand_sizes: tuple[int, ...]
    active: tuple[bool, ...]
    boneyard: int  # tiles not dealt and not drawn (the sleeping tiles in the block game)

    def lacks(self, seat: int, number: int) -> bool:
        """True when ``seat`` is known to hold no tile with ``number``."""
        return not (_WITH[number] & self.unseen & ~self.forbidden[seat])

    def voids(self, seat: int) -> frozenset[int]:
        return frozenset(n for n in range(7) if self.lacks(seat, n))

    def unseen_with(self, number: int) -> int:
        """How many tiles carrying ``number`` the observer cannot see."""
        return (self.unseen & _WITH[number]).bit_count()

    def possible(self, seat: int) -> int:
        """Mask of the unseen tiles ``seat`` might hold."""
        return self.unseen & ~self.forbidden[seat]

    def is_consistent(self, hands: Sequence[Sequence[Tile]]) -> bool:
        """True when ``hands`` (every seat's tiles now) respect what is known."""
        for seat, hand in enumerate(hands):
            mask = mask_of(hand)
            if seat == self.seat:
                if mask != self.mine:
                    return False
                continue
            if len(hand) != self.hand_sizes[seat]:
                return False
            if mask & ~self.unseen or mask & self.forbidden[seat]:
                return False
        return True


def read_knowledge(obs: Observation) -> Knowledge:
    """Everything ``obs`` reveals about where the hidden tiles are."""
    forbidden = [0] * obs.players
    played = 0
    history = obs.history
    free_draws = obs.rules.draw_when_playable
    for i, event in enumerate(history):
        if isinstance(event, HandStarted) and event.must_lead is not None:
            excluded = opening_exclusion(event.must_lead)
            forbidden = [f | excluded for f in forbidden]
        elif isinstance(event, TilePlayed):
            played |= 1 << event.tile.index
        elif isinstance(event, Passed):
            forbidden[event.seat] |= with_numbers(event.ends)
        elif isinstance(event, TileDrawn):
            if free_draws:
                forbidden[event.seat] = 0  # a draw proves nothing when drawing is always allowed
                continue
            void = with_numbers(event.ends)
            following = history[i + 1] if i + 1 < len(history) else None
            played_at_once = isinstance(following, TilePlayed) and following.seat == event.seat
            # A kept tile lacked the ends too, but may carry numbers the seat lacked before.
            forbidden[event.seat] = forbidden[event.seat] | void if played_at_once else void
        elif isinstance(event, Resigned):
            forbidden[event.seat] = _FULL
    mine = mask_of(obs.hand)
    forbidden[obs.seat] = _FULL & ~mine
    for seat in range(obs.players):
        if not obs.active[seat]:
            forbidden[seat] = _FULL
    return Knowledge(
        seat=obs.seat,
        players=obs.players,
        mine=mine,
        played=played,
        unseen=_FULL & ~mine & ~played,
        forbidden=tuple(forbidden),
        hand_sizes=obs.hand_sizes,
        active=obs.active,
        boneyard=obs.boneyard,
    )


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden tiles: every seat's hand and the boneyard in draw order."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]


# A memoised sampling step: (slots, cumulative completions, capacities after each slot).
_Choice = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


class HandSampler:
    """Uniform samples of the hidden tiles, consistent with a ``Knowledge``."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        others = [s for s in range(know.players) if s != know.seat and know.hand_sizes[s] > 0]
        self.slots = others  # slot j < len(others) is a seat; then the boneyard, then "gone"
        tiles = tiles_of(know.unseen)
        gone = len(tiles) - sum(know.hand_sizes[s] for s in others) - know.boneyard
        if gone < 0:
            raise ValueError("the observation has fewer unseen tiles than the hands and boneyard")
        self.caps = (*(know.hand_sizes[s] for s in others), know.boneyard, gone)
        self.relaxed = False
        self.tiles, self.allowed = self._allowed(tiles, strict=True)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choice_memo: dict[tuple[int, tuple[int, ...]], _Choice] = {}
        if self.count() == 0:
            # Cannot happen with the engine's rules; stay useful with hand-built observations.
            self.relaxed = True
            self.tiles, self.allowed = self._allowed(tiles, strict=False)
            self._memo.clear()
            self._choice_memo.clear()

    def _allowed(self, tiles: list[Tile], strict: bool) -> tuple[list[Tile], list[tuple[int, ...]]]:
        nslots = len(self.caps)
        rows = []
        for t in tiles:
            bit = 1 << t.index
            seats = tuple(
                j for j, s in enumerate(self.slots) if not (strict and self.know.forbidden[s] & bit)
            )
            rows.append((t, (*seats, nslots - 2, nslots - 1)))
        # Most constrained first keeps the memo small.
        rows.sort(key=lambda row: len(row[1]))
        return [r[0] for r in rows], [r[1] for r in rows]

    def count(self) -> int:
        """How many assignments are consistent (hands as sets, boneyard as a set)."""
        return self._count(0, self.caps)

    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self.tiles):
            return 1
        key = (i, caps)
        got = self._memo.get(key)
        if got is not None:
            return got
        total = 0
        for j in self.allowed[i]:
            if caps[j]:
                total += self._count(i + 1, caps[:j] + (caps[j] - 1,) + caps[j + 1 :])
        self._memo[key] = total
        return total

    def _choices(self, i: int, caps: tuple[int, ...]) -> _Choice:
        """Where tile ``i`` may go given the capacities left: (slots, cumulative completions,
        capacities after each), memoised so repeated samples of one position are cheap."""
        key = (i, caps)
        got = self._choice_memo.get(key)
        if got is not None:
            return got
        slots: list[int] = []
        cumulative: list[int] = []
        after: list[tuple[int, ...]] = []
        total = 0
        for j in self.allowed[i]:
            if caps[j]:
                nxt = caps[:j] + (caps[j] - 1,) + caps[j + 1 :]
                ways = self._count(i + 1, nxt)
                if ways:
                    total += ways
                    slots.append(j)
                    cumulative.append(total)
                    after.append(nxt)
        choice = (tuple(slots), tuple(cumulative), tuple(after))
        self._choice_memo[key] = choice
        return choice

    def sample(self, rng: random.Random) -> World:
        """One assignment, uniform over the consistent ones; the boneyard order is shuffled."""
        caps = self.caps
        bins: list[list[Tile]] = [[] for _ in caps]
        for i, tile in enumerate(self.tiles):
            slots, cumulative, after = self._choices(i, caps)
            k = bisect_right(cumulative, rng.randrange(cumulative[-1])) if len(slots) > 1 else 0
            bins[slots[k]].append(tile)
            caps = after[k]
        know = self.know
        hands: list[tuple[Tile, ...]] = [() for _ in range(know.players)]
        hands[know.seat] = tuple(tiles_of(know.mine))
        for j, seat in enumerate(self.slots):
            hands[seat] = tuple(sorted(bins[j]))
        boneyard = bins[len(self.slots)]
        rng.shuffle(boneyard)
        return World(tuple(hands), tuple(boneyard))
