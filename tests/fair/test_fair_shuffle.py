"""The shuffle: published test vectors, permutation, the deal rule, no bias (chi-square)."""

from __future__ import annotations

import math
from pathlib import Path

from lanomino.engine import TILES, Rules
from lanomino.fair.commit import DealContext, commitment
from lanomino.fair.shuffle import (
    ALGORITHM,
    deal_from_deck,
    deck_order,
    shuffle_seed,
    uniform_below,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "fair-deal.md"

# The vectors published in docs/fair-deal.md: table id 00 01 .. 0f, hand 1, attempt 1,
# seat s's secret is 32 bytes of value s+1.
CTX = DealContext(bytes(range(16)), 1, 1)
SECRETS = [(s, bytes([s + 1]) * 32) for s in range(4)]
VECTOR_COMMITMENTS = [
    "a4f29819665facc6aea591a9d43f8d164cf32872ce9f86a5f5ea6bbde5ec937f",
    "09c2f8c987e428f3c2d7d336922534adaede5f3bcc287c4bf5029374c8307f5f",
    "463f80e650aecf98301a3c28ef458124066e905034fe3a6b30310ccadd160836",
    "d8a194538cda74a7ec12e551df47b159fee6b1812aa45e5e6e9fb2e79cc07933",
]
VECTOR_SEED = "22e47d8cf40600a998cfe756f87e137a8759c2c24627d42ea23bcb6464f5b9ef"
VECTOR_DECK = ("3-1 5-2 4-2 6-3 2-2 6-2 4-3 1-1 3-2 6-6 5-5 2-1 4-1 6-4 "
               "4-0 5-4 5-1 5-0 5-3 6-0 3-0 3-3 6-5 2-0 4-4 0-0 1-0 6-1")
VECTOR_SEED_2 = "5c9327bca5ba577efaf0763ecb87a58547a964a21c443bc975b47bd52554a4ef"
VECTOR_DECK_2 = ("0-0 1-1 5-0 6-5 4-3 1-0 6-0 4-4 6-1 5-3 2-0 6-4 3-2 6-3 "
                 "2-1 3-3 5-5 4-0 3-1 2-2 6-2 4-2 6-6 3-0 5-1 5-2 4-1 5-4")


def deck_text(secrets: list[tuple[int, bytes]], ctx: DealContext = CTX) -> str:
    return " ".join(str(t) for t in deck_order(shuffle_seed(ctx, secrets)))


def test_commitment_vectors() -> None:
    assert [commitment(CTX, s, secret).hex() for s, secret in SECRETS] == VECTOR_COMMITMENTS


def test_seed_and_deck_vectors() -> None:
    assert shuffle_seed(CTX, SECRETS).hex() == VECTOR_SEED
    assert deck_text(SECRETS) == VECTOR_DECK
    assert shuffle_seed(CTX, SECRETS[:2]).hex() == VECTOR_SEED_2
    assert deck_text(SECRETS[:2]) == VECTOR_DECK_2


def test_published_document_carries_the_same_vectors() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert ALGORITHM in text
    for value in [*VECTOR_COMMITMENTS, VECTOR_SEED, VECTOR_DECK, VECTOR_SEED_2, VECTOR_DECK_2]:
        assert value in text


def test_every_input_moves_the_deck() -> None:
    base = deck_text(SECRETS)
    assert deck_text(SECRETS, DealContext(bytes(range(16)), 1, 2)) != base  # a re-deal
    assert deck_text(SECRETS, DealContext(bytes(range(16)), 2, 1)) != base
    assert deck_text(SECRETS, DealContext(bytes(16), 1, 1)) != base
    changed = [SECRETS[0], (1, b"\x09" * 32), *SECRETS[2:]]
    assert deck_text(changed) != base


def test_deck_is_a_permutation_of_the_set() -> None:
    for n in range(50):
        deck = deck_order(n.to_bytes(32, "big"))
        assert sorted(deck) == sorted(TILES)


def test_deal_rule_gives_blocks_to_active_seats_in_order() -> None:
    deck = list(TILES)
    hands, boneyard = deal_from_deck(deck, Rules.classic(), [True, False, True, True])
    assert hands == [deck[0:5], [], deck[5:10], deck[10:15]]
    assert boneyard == deck[15:]


class _Words:
    def __init__(self, words: list[int]) -> None:
        self.words = words

    def word(self) -> int:
        return self.words.pop(0)


def test_rejection_sampling_skips_the_biased_tail() -> None:
    # For bound 3, 2**32 mod 3 == 1: the single word 2**32-1 would favour 0; it must be skipped.
    stream = _Words([2**32 - 1, 2**32 - 2, 7])
    assert uniform_below(stream, 3) == (2**32 - 2) % 3  # type: ignore[arg-type]
    assert uniform_below(stream, 3) == 1  # type: ignore[arg-type]


def chi_square_p_value(statistic: float, df: int) -> float:
    """Upper tail of chi-square by the Wilson–Hilferty cube-root normal approximation."""
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_chi_square_approximation_is_sane() -> None:
    assert abs(chi_square_p_value(108.0, 108) - 0.48) < 0.02
    assert chi_square_p_value(150.0, 108) < 0.01  # the 1% critical value for 108 df is ~143


def test_every_tile_lands_on_every_seat_uniformly() -> None:
    deals = 6000
    rules = Rules.classic()
    counts = [[0] * 5 for _ in TILES]  # seats 0-3, then the boneyard
    for n in range(deals):
        secrets = [(s, n.to_bytes(28, "big") + bytes([s]) * 4) for s in range(4)]
        hands, boneyard = deal_from_deck(deck_order(shuffle_seed(CTX, secrets)), rules, [True] * 4)
        for seat, hand in enumerate(hands):
            for tile in hand:
                counts[tile.index][seat] += 1
        for tile in boneyard:
            counts[tile.index][4] += 1
    share = [5 / 28] * 4 + [8 / 28]
    statistic = sum(
        (row[c] - deals * share[c]) ** 2 / (deals * share[c]) for row in counts for c in range(5)
    )
    assert chi_square_p_value(statistic, (28 - 1) * (5 - 1)) > 0.01


def test_an_independent_implementation_of_the_document_agrees() -> None:
    """Written from docs/fair-deal.md alone, sharing no code with lanomino.fair.shuffle."""
    import hashlib
    import hmac

    message = bytes(range(16)) + (1).to_bytes(4, "big") + (1).to_bytes(4, "big")
    message += b"".join(bytes([s]) + secret for s, secret in SECRETS)
    seed = hmac.new(b"lanomino.seed/1", message, hashlib.sha256).digest()
    words: list[int] = []
    block = 0

    def next_word() -> int:
        nonlocal block
        if not words:
            message = b"lanomino.stream/1" + block.to_bytes(8, "big")
            data = hmac.new(seed, message, hashlib.sha256).digest()
            words.extend(int.from_bytes(data[i : i + 4], "big") for i in range(0, 32, 4))
            block += 1
        return words.pop(0)

    deck = [f"{h}-{lo}" for h in range(7) for lo in range(h + 1)]
    for i in range(27, 0, -1):
        while (w := next_word()) >= 2**32 - 2**32 % (i + 1):
            pass
        j = w % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert seed.hex() == VECTOR_SEED
    assert " ".join(deck) == VECTOR_DECK


def test_the_deal_rule_agrees_with_the_engines_dealing_rule() -> None:
    from lanomino.engine.dealing import split_deck

    deck = deck_order(b"\x42" * 32)
    for active in ([True, True], [True, True, True], [True, False, True, True]):
        size = 5 if len(active) > 2 else 7
        assert deal_from_deck(deck, Rules.classic(), active) == split_deck(deck, active, size)
