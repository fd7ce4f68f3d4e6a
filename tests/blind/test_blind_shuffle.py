"""The shuffle argument: an honest shuffle passes; a shuffler that swaps a tile for another,
duplicates one, drops one or reorders after proving fails; the argument does not transfer to
another context, seat or key."""

from __future__ import annotations

from dataclasses import replace

import pytest
from blindkit import context, holders, run_keys_and_shuffles

from lanomino.blind.deck import Ciphertext, Deck, aggregate_key, deck_digest, open_deck
from lanomino.blind.group import BASE, BlindError, add, base_mul
from lanomino.blind.hashing import Context
from lanomino.blind.rounds import BlindFault, ShuffleTurn, check_shuffle
from lanomino.blind.shuffle_proof import (
    ShuffleArgument,
    Shuffled,
    check_shuffle_proof,
    gen_shuffle,
    gen_shuffle_proof,
)

SEED = bytes([7]) * 32


@pytest.fixture(scope="module")
def keyed() -> Context:
    deal, _ = run_keys_and_shuffles(3)
    return deal.ctx


def start(ctx: Context) -> Deck:
    return open_deck(aggregate_key(ctx.keys), ctx.tiles)


def prove(ctx: Context, deck: Deck, shuffled: Shuffled) -> ShuffleArgument:
    return gen_shuffle_proof(ctx, 0, deck, shuffled, aggregate_key(ctx.keys), SEED)


def holds(ctx: Context, arg: ShuffleArgument, deck: Deck, out: Deck, seat: int = 0) -> bool:
    return check_shuffle_proof(ctx, seat, arg, deck, out, aggregate_key(ctx.keys))


def test_an_honest_shuffle_passes_and_moves_every_tile(keyed: Context) -> None:
    deck = start(keyed)
    shuffled = gen_shuffle(deck, aggregate_key(keyed.keys), SEED)
    assert sorted(shuffled.permutation) == list(range(28))
    assert not set(shuffled.deck) & set(deck)  # every ciphertext re-masked
    assert holds(keyed, prove(keyed, deck, shuffled), deck, shuffled.deck)


def test_a_shuffler_that_swaps_a_tile_for_another_fails(keyed: Context) -> None:
    """Output slot 0 carries tile 27 re-locked in place of whatever it should be."""
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    forged = Ciphertext(BASE, add(key, base_mul(28))).remasked(key, 5)
    bad = replace(honest, deck=(forged, *honest.deck[1:]))
    assert not holds(keyed, prove(keyed, deck, bad), deck, bad.deck)


def test_a_shuffler_that_duplicates_a_tile_fails(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    copy = deck[honest.permutation[1]].remasked(key, 11)
    bad = replace(honest, deck=(copy, *honest.deck[1:]))  # slot 0 = slot 1's tile again
    assert not holds(keyed, prove(keyed, deck, bad), deck, bad.deck)


def test_a_shuffler_that_drops_a_tile_fails(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    arg = prove(keyed, deck, honest)
    assert not holds(keyed, arg, deck, honest.deck[:-1])
    turn = ShuffleTurn(0, deck_digest(deck), honest.deck[:-1], arg)
    with pytest.raises(BlindFault, match="seat 1: returned 27 tiles for 28"):
        check_shuffle(keyed, turn, deck)


def test_reordering_after_the_argument_fails(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    arg = prove(keyed, deck, honest)
    swapped = (honest.deck[1], honest.deck[0], *honest.deck[2:])
    assert not holds(keyed, arg, deck, swapped)


def test_an_argument_does_not_transfer(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    arg = prove(keyed, deck, honest)
    assert holds(keyed, arg, deck, honest.deck)
    assert not holds(keyed, arg, deck, honest.deck, seat=1)  # claimed by another seat
    for other in (replace(keyed, hand=2), replace(keyed, attempt=2),
                  replace(keyed, table=bytes(16)), keyed.with_keys(reversed(keyed.keys))):
        assert not holds(other, arg, deck, honest.deck)
    other_start = start(context(3).with_keys(keyed.keys[:2] + (base_mul(99),)))
    assert not holds(keyed, arg, other_start, honest.deck)


def test_a_tampered_response_fails(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    arg = prove(keyed, deck, honest)
    for field_name in ("s1", "s2", "s3", "s4"):
        assert not holds(keyed, replace(arg, **{field_name: getattr(arg, field_name) + 1}),
                         deck, honest.deck)
    bumped = (arg.s_prime[0] + 1, *arg.s_prime[1:])
    assert not holds(keyed, replace(arg, s_prime=bumped), deck, honest.deck)
    hats = (arg.s_hat[0] + 1, *arg.s_hat[1:])
    assert not holds(keyed, replace(arg, s_hat=hats), deck, honest.deck)


def test_the_argument_round_trips_and_bad_bytes_are_refused(keyed: Context) -> None:
    deck, key = start(keyed), aggregate_key(keyed.keys)
    honest = gen_shuffle(deck, key, SEED)
    arg = prove(keyed, deck, honest)
    data = arg.to_bytes()
    assert ShuffleArgument.from_bytes(data, 28) == arg
    with pytest.raises(BlindError):
        ShuffleArgument.from_bytes(data[:-1], 28)
    with pytest.raises(BlindError):
        ShuffleArgument.from_bytes(b"\x01" + data[1:], 28)  # no point
    with pytest.raises(BlindError):
        ShuffleArgument.from_bytes(data[:-32] + b"\xff" * 32, 28)  # scalar above the order


def test_a_turn_must_start_from_the_deck_before_it() -> None:
    deal, hs = run_keys_and_shuffles(2, holders(2))
    first = start(deal.ctx)
    turn = hs[1].shuffle(first)  # seat 1 shuffles the open deck instead of seat 0's output
    with pytest.raises(BlindFault, match="seat 2: shuffled a deck other than"):
        check_shuffle(deal.ctx, turn, deal.turns[0].deck)
