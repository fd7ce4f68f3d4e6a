"""How a deck order becomes a deal: the one rule every part of lanomino uses.

Seats are dealt in seat order, each active seat taking the next ``hand_size`` tiles from the
front of the deck (a seat that has left the match gets none); the rest of the deck, in order, is
the boneyard, and draws take from its front.
"""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.engine.state import GameState
from lanomino.engine.tiles import Tile


def split_deck(
    deck: Sequence[Tile], active: Sequence[bool], hand_size: int
) -> tuple[list[list[Tile]], list[Tile]]:
    """(hands per seat, boneyard in draw order) from a deck order."""
    hands: list[list[Tile]] = []
    at = 0
    for playing in active:
        if playing:
            hands.append(list(deck[at : at + hand_size]))
            at += hand_size
        else:
            hands.append([])
    return hands, list(deck[at:])


def deal_for(
    state: GameState, deck: Sequence[Tile]
) -> tuple[list[list[Tile]], list[Tile]]:
    """``split_deck`` with the seats and hand size of a GameState."""
    return split_deck(deck, state.active, state.rules.hand_size_for(state.players))
