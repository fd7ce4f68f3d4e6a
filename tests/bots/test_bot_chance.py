"""bots/chance.py draws exactly what random.Random would, and leaves it in the same state."""

from __future__ import annotations

import platform
import random

import pytest

from lanomino.bots import chance
from lanomino.bots.chance import choice, seeded
from lanomino.engine import TILES


def test_choice_picks_as_random_choice_does_and_leaves_the_same_state() -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 28):
            items = TILES[:size]
            for _ in range(5):
                assert choice(ours, items) is theirs.choice(items), (seed, size)
        assert ours.getstate() == theirs.getstate()


def test_choice_of_nothing_raises_as_random_choice_does() -> None:
    with pytest.raises(IndexError):
        choice(random.Random(1), ())
    with pytest.raises(IndexError):
        random.Random(1).choice(())


def test_choice_leaves_another_kind_of_generator_to_its_own_choice() -> None:
    class Last(random.Random):
        def choice(self, seq):  # type: ignore[no-untyped-def, override]
            return seq[-1]

    assert choice(Last(1), (1, 2, 3)) == 3


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**63 + 12345, 2**64 - 1])
def test_seeded_is_the_generator_random_random_makes(seed: int) -> None:
    if platform.python_implementation() == "CPython":
        assert chance._SEEDS_ALIKE  # the short route is the one under test
    ours, theirs = seeded(seed), random.Random(seed)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(20)] == [theirs.random() for _ in range(20)]
    assert ours.gauss(0, 1) == theirs.gauss(0, 1) and ours.getstate() == theirs.getstate()
