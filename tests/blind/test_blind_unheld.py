"""The blind re-shuffle after a holder is lost: the survivors re-lock exactly the tiles nobody
holds, no survivor shows its hand, and a bad blinding, share or hand vector is caught."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from blindkit import TABLE, draw, run_deal, seed

from lanomino.blind.deck import Deck, aggregate_key, deck_digest, opened, share_of, tile_of
from lanomino.blind.group import BlindError, Point
from lanomino.blind.hashing import Context
from lanomino.blind.proofs import EqualLogProof
from lanomino.blind.rounds import BlindFault, ShuffleTurn, check_shuffle
from lanomino.blind.shuffle_proof import shuffle_with_argument
from lanomino.blind.unheld import (
    blind,
    check_blinding,
    combine,
    hand_vector,
    opening_share,
    unheld_deck,
)


@dataclass
class Loss:
    ctx: Context
    secrets: dict[int, int]
    hands: dict[int, set[int]]
    on_line: set[int]
    unheld: set[int]


def lose_seat_three() -> Loss:
    """Four seats deal; seat index 1 draws twice; one tile each of seats 0 and 2 is played;
    then seat index 3 is gone."""
    dealt = run_deal(4)
    drawn = [draw(dealt, 1)[1] for _ in range(2)]
    hands = {s: set(dealt.hands[s]) for s in range(3)}
    hands[1] |= set(drawn)
    on_line = {dealt.hands[0][0], dealt.hands[2][0]}
    hands[0] -= on_line
    hands[2] -= on_line
    every = {h.seat: h.reveal().secret for h in dealt.holders}
    tiles_of_deck = [tile_of(opened(c, [share_of(sum(every.values()), c)]), 28)
                     for c in dealt.deck]
    boneyard_left = {tiles_of_deck[p] for p in dealt.round.layout.boneyard[2:]}
    ctx = Context(TABLE, 1, 1, 28, (0, 1, 2), dealt.ctx.keys[:3])
    return Loss(ctx, {s: every[s] for s in range(3)}, hands, on_line,
                set(dealt.hands[3]) | boneyard_left)


Shares = dict[int, list[tuple[Point, EqualLogProof]]]


def reshuffle(loss: Loss, lie: int | None = None) -> tuple[Deck, Deck, Shares]:
    ctx, key = loss.ctx, aggregate_key(loss.ctx.keys)
    vectors = []
    for s in ctx.holders:
        hand = loss.hands[s] - ({min(loss.hands[s])} if s == lie else set())
        vectors.append(hand_vector(ctx, hand, seed("vector", s)))
    deck = combine(ctx, vectors, loss.on_line)
    for s in ctx.holders:
        out, argument = shuffle_with_argument(ctx, s, deck, key, seed("again", s))
        deck = check_shuffle(ctx, ShuffleTurn(s, deck_digest(deck), out, argument), deck)
    blinded = deck
    for s in ctx.holders:
        after, proofs = blind(ctx, s, blinded, seed("blind", s))
        blinded = check_blinding(ctx, s, blinded, after, proofs)
    shares = {s: [opening_share(ctx, s, loss.secrets[s], blinded, i) for i in range(28)]
              for s in ctx.holders}
    return deck, blinded, shares


@pytest.fixture(scope="module")
def loss() -> Loss:
    return lose_seat_three()


def test_the_survivors_relock_exactly_the_tiles_nobody_holds(loss: Loss) -> None:
    shuffled, blinded, shares = reshuffle(loss)
    new = unheld_deck(loss.ctx, shuffled, blinded, shares, len(loss.unheld))
    total = sum(loss.secrets.values())
    opened_tiles = [tile_of(opened(c, [share_of(total, c)]), 28) for c in new]
    assert sorted(opened_tiles) == sorted(loss.unheld)
    assert len(new) == 5 + 8 - 2  # seat 3's hand and the boneyard's six left
    # the blinded copy shows nothing but "held or not": no slot opens to a tile
    for c in blinded:
        point = opened(c, [share_of(total, c)])
        with pytest.raises(BlindError):
            tile_of(point, 28)


def test_a_false_hand_vector_shows_as_a_wrong_count(loss: Loss) -> None:
    shuffled, blinded, shares = reshuffle(loss, lie=1)
    with pytest.raises(BlindError, match="found 12 unheld tiles, not 11"):
        unheld_deck(loss.ctx, shuffled, blinded, shares, len(loss.unheld))


def test_a_bad_blinding_names_the_survivor(loss: Loss) -> None:
    ctx = loss.ctx
    deck = combine(ctx, [hand_vector(ctx, loss.hands[s], seed("v", s)) for s in ctx.holders],
                   loss.on_line)
    after, proofs = blind(ctx, 1, deck, seed("b", 1))
    swapped = (after[1], after[0], *after[2:])  # a blinding must keep every slot in place
    with pytest.raises(BlindFault, match="seat 2: its blinding of slot 0 does not hold"):
        check_blinding(ctx, 1, deck, swapped, proofs)
    with pytest.raises(BlindFault, match="seat 2: blinded another number"):
        check_blinding(ctx, 1, deck, after[:-1], proofs)


def test_a_bad_opening_share_names_the_survivor(loss: Loss) -> None:
    shuffled, blinded, shares = reshuffle(loss)
    point, proof = shares[2][5]
    bad: EqualLogProof = replace(proof, s=proof.s + 1)
    shares[2][5] = (point, bad)
    with pytest.raises(BlindFault, match="seat 3: its share of blinded slot 5 does not hold"):
        unheld_deck(loss.ctx, shuffled, blinded, shares, len(loss.unheld))
