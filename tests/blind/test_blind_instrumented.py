"""The issue's "instrumented host": a party that tries to open every position with everything it
has seen (every public share of the deal, of each draw and of each play) and the keys it has
learns its own tiles and the played ones, nothing else; a watcher learns the played ones; so
does any group of people short of the whole table, pooling their keys (no escrow)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from blindkit import Dealt, draw, public_shares, run_deal

from lanomino.blind.deck import opened, share_of, tile_of
from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.rounds import Share


def midhand(n: int) -> tuple[Dealt, set[int], dict[int, set[int]], dict[int, Share]]:
    """A deal, then each seat but 0 draws once and each seat plays its first dealt tile."""
    dealt = run_deal(n)
    owned = {s: set(dealt.round.layout.dealt[s]) for s in range(n)}
    for seat in range(1, n):
        position, _ = draw(dealt, seat)
        owned[seat].add(position)
    played: set[int] = set()
    shown: dict[int, Share] = {}
    for h in dealt.holders:
        position = dealt.round.layout.dealt[h.seat][0]
        own = h.play(position)
        assert not isinstance(own, Refusal)
        shown[position] = own
        played.add(position)
        owned[h.seat].discard(position)
    return dealt, played, owned, shown


def readable(dealt: Dealt, group: Sequence[int], shown: dict[int, Share]) -> set[int]:
    """Every position whose tile comes out of the shares seen plus the ``group``'s own keys."""
    secrets = {s: dealt.holders[s].reveal().secret for s in group}
    out = set()
    for position, c in enumerate(dealt.deck):
        seen = {s.seat: s.point for s in public_shares(dealt, position)}
        if position in shown:
            seen[shown[position].seat] = shown[position].point
        for seat, secret in secrets.items():
            seen.setdefault(seat, share_of(secret, c))
        try:
            tile_of(opened(c, seen.values()), 28)
        except BlindError:
            continue
        out.add(position)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_host_reads_its_own_tiles_and_the_played_ones_only(n: int) -> None:
    dealt, played, owned, shown = midhand(n)
    assert readable(dealt, [0], shown) == owned[0] | played


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_watcher_reads_the_played_tiles_only(n: int) -> None:
    dealt, played, _owned, shown = midhand(n)
    assert readable(dealt, [], shown) == played


def test_any_group_short_of_the_table_reads_only_its_own_and_the_played() -> None:
    dealt, played, owned, shown = midhand(4)
    for size in (2, 3):
        for group in combinations(range(4), size):
            theirs = set().union(*(owned[s] for s in group))
            assert readable(dealt, group, shown) == theirs | played
    assert readable(dealt, range(4), shown) == set(range(28))  # the whole table reads all
