"""In-process self-play: its own shuffle deals exactly what random.Random.shuffle would."""

from __future__ import annotations

import random

from lanomino.botmatch import play_match, shuffle
from lanomino.bots import get_bot
from lanomino.engine import TILES, Rules


def test_shuffle_orders_the_deck_as_random_shuffle_does_and_leaves_the_same_state() -> None:
    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (0, 1, 2, 5, 17, 28):
            deck, expected = list(TILES[:size]), list(TILES[:size])
            shuffle(ours, deck)
            theirs.shuffle(expected)
            assert deck == expected, (seed, size)
        assert ours.getstate() == theirs.getstate()


def test_shuffle_leaves_another_kind_of_generator_to_its_own_shuffle() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    deck = list(TILES)
    shuffle(Counting(1), deck)
    assert Counting.calls == 1 and sorted(deck) == sorted(TILES)


def test_the_same_seed_plays_the_same_match() -> None:
    bots = [get_bot("random"), get_bot("greedy")] * 2
    first = play_match(Rules.partnership_game(), bots, random.Random(11), keep_record=True)
    again = play_match(Rules.partnership_game(), bots, random.Random(11), keep_record=True)
    assert first == again and first.hands >= 1
