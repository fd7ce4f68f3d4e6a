"""Weighing sampled worlds by how likely the opponents' past plays were in them.

Theory of operation: the sampler treats every deal that fits the voids as equally likely, but
people (and bots) do not play at random: a seat that laid a 1-0 while holding 6-6 and 6-5 that
also fitted is less likely than one that had nothing heavier. ``past_choices`` lists the other
seats' plays whose alternatives can be rebuilt from a world: the seat's hand at that play was its
hand in the world, plus what it played afterwards, provided it drew nothing afterwards. A world's
weight is the product, over those plays, of the chance that a player who prefers heavy tiles
(``exp(PIP_WEIGHT * pips)``) picks the tile it was seen to play. Sampling several worlds and
keeping one in proportion to its weight (sampling-importance-resampling) leans the search towards
the deals the table's behaviour suggests. The benchmark measured whether that helps.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.bots.knowledge import HandSampler, World, mask_of
from lanomino.engine import TILES, Observation, TileDrawn, TilePlayed

PIP_WEIGHT = 0.15  # how strongly the modelled player prefers heavy tiles, per pip
_WITH = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))


@dataclass(frozen=True, slots=True)
class Choice:
    """One past play by another seat: what it played, what fitted then, what it played later."""

    seat: int
    chosen: int  # tile index
    fits: int  # mask of the tiles that fitted the ends then
    later: int  # mask of the tiles the seat played afterwards (so it held them then)


def past_choices(obs: Observation) -> list[Choice]:
    """The other seats' plays this hand whose alternatives a world determines (see the module)."""
    if obs.rules.fives:
        return []  # the spinner's extra ends: not modelled
    ends = [0, 0]
    plays: list[tuple[int, TilePlayed, int]] = []
    last_draw: dict[int, int] = {}
    for i, event in enumerate(obs.history):
        if isinstance(event, TileDrawn):
            last_draw[event.seat] = i
        elif isinstance(event, TilePlayed):
            tile = event.tile
            if event.first:
                ends = [tile.high, tile.low] if int(event.end) == 0 else [tile.low, tile.high]
                continue
            plays.append((i, event, _WITH[ends[0]] | _WITH[ends[1]]))
            ends[int(event.end)] = event.exposed
    out = []
    for i, event, fits in plays:
        if event.seat == obs.seat or last_draw.get(event.seat, -1) > i:
            continue
        later = mask_of([e.tile for j, e, _ in plays if j > i and e.seat == event.seat])
        out.append(Choice(event.seat, event.tile.index, fits, later))
    return out


_LIKING = tuple(math.exp(PIP_WEIGHT * t.pips) for t in TILES)


def weight(world: World, choices: Sequence[Choice]) -> float:
    """How likely ``choices`` were, had the hands been ``world``'s (up to a constant)."""
    w = 1.0
    for c in choices:
        hand = mask_of(world.hands[c.seat]) | c.later | 1 << c.chosen
        options = hand & c.fits
        total = 0.0
        while options:
            low = options & -options
            total += _LIKING[low.bit_length() - 1]
            options ^= low
        w *= _LIKING[c.chosen] / total
    return w


class WeightedSampler:
    """Worlds from a ``HandSampler``, resampled by ``weight``: ``draws`` candidates, keep one."""

    def __init__(self, sampler: HandSampler, choices: Sequence[Choice], draws: int) -> None:
        self.sampler = sampler
        self.choices = tuple(choices)
        self.draws = draws

    def sample(self, rng: random.Random) -> World:
        if not self.choices or self.draws <= 1:
            return self.sampler.sample(rng)
        worlds = [self.sampler.sample(rng) for _ in range(self.draws)]
        weights = [weight(w, self.choices) for w in worlds]
        return rng.choices(worlds, weights)[0]
