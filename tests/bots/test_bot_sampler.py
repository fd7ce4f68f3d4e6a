"""The hidden-hand sampler is uniform over the consistent assignments: compared with exact
enumeration on small positions."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from bot_positions import random_positions

from lanomino.bots.knowledge import HandSampler, Knowledge, mask_of, read_knowledge, tiles_of
from lanomino.engine import Rules, Tile


def enumerate_assignments(know: Knowledge) -> list[tuple[tuple[Tile, ...], ...]]:
    """Every way to give the other seats their hands from the unseen tiles that ``know`` allows."""
    others = [s for s in range(know.players) if s != know.seat]
    found: list[tuple[tuple[Tile, ...], ...]] = []

    def place(i: int, left: list[Tile], hands: list[tuple[Tile, ...]]) -> None:
        if i == len(others):
            full: list[tuple[Tile, ...]] = [() for _ in range(know.players)]
            full[know.seat] = tuple(tiles_of(know.mine))
            for seat, hand in zip(others, hands, strict=True):
                full[seat] = hand
            if know.is_consistent(full):
                found.append(tuple(full))
            return
        for hand in itertools.combinations(left, know.hand_sizes[others[i]]):
            rest = [t for t in left if t not in hand]
            place(i + 1, rest, [*hands, hand])

    place(0, tiles_of(know.unseen), [])
    return found


def chi_square(counts: Counter[object], outcomes: list[object], samples: int) -> float:
    expected = samples / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


def assert_uniform(know: Knowledge, rng: random.Random) -> int:
    outcomes: list[object] = list(enumerate_assignments(know))
    sampler = HandSampler(know)
    boneyard_ways = 1  # the sampler counts hands as sets, the boneyard as a set
    assert sampler.count() == len(outcomes) * boneyard_ways
    samples = 200 * len(outcomes)
    counts: Counter[object] = Counter(sampler.sample(rng).hands for _ in range(samples))
    assert set(counts) <= set(outcomes)
    df = len(outcomes) - 1
    # Far beyond the 99.9th percentile of chi-square(df) for these sizes; a biased sampler fails.
    assert chi_square(counts, outcomes, samples) < df + 6 * (2 * df) ** 0.5 + 10
    return len(outcomes)


def test_sampler_matches_enumeration_on_a_hand_built_position() -> None:
    unseen = [Tile(6, 1), Tile(6, 2), Tile(5, 1), Tile(4, 0), Tile(3, 3), Tile(2, 0), Tile(1, 1)]
    mine = [Tile(0, 0)]
    full = (1 << 28) - 1
    lacks_6 = mask_of([t for t in unseen if t.has(6)])
    lacks_1 = mask_of([t for t in unseen if t.has(1)])
    know = Knowledge(
        seat=0, players=3, mine=mask_of(mine), played=full & ~mask_of(unseen + mine),
        unseen=mask_of(unseen), forbidden=(full & ~mask_of(mine), lacks_6, lacks_1),
        hand_sizes=(1, 2, 3), active=(True, True, True), boneyard=2,
    )
    assert assert_uniform(know, random.Random(5)) > 5


def test_sampler_matches_enumeration_on_real_small_positions() -> None:
    rng = random.Random(11)
    tested = 0
    for preset, players in (("classic", 3), ("classic", 2), ("allfives", 3), ("classic", 4)):
        for _ in range(40):
            for _state, obs in random_positions(Rules.preset(preset), players, rng):
                know = read_knowledge(obs)
                sampler = HandSampler(know)
                if 3 <= sampler.count() <= 60 and any(know.forbidden[s] & know.unseen
                                                       for s in range(players) if s != obs.seat):
                    assert_uniform(know, rng)
                    tested += 1
                    break
            if tested >= 8:
                return
    assert tested >= 3
