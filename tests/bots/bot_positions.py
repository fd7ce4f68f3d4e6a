"""Deals and random positions for the bot tests (helpers, not tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from lanomino.engine import (
    TILES,
    End,
    GameState,
    Observation,
    Phase,
    Play,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    observe,
    parse_tile,
    start_hand,
)

PRESET_CASES: list[tuple[str, int]] = [
    ("classic", 2), ("classic", 3), ("classic", 4), ("block", 2), ("block", 3),
    ("allfives", 2), ("allfives", 4), ("partnership", 4),
]


def tiles(text: str) -> list[Tile]:
    """"6-6 5-1 3-3" -> tiles."""
    return [parse_tile(t) for t in text.split()]


def deal(state: GameState, hands: Sequence[str], boneyard_first: str = "") -> None:
    """Start a hand with the given hands; the boneyard starts with ``boneyard_first`` and then
    holds the other tiles in canonical order."""
    dealt = [tiles(h) for h in hands]
    front = tiles(boneyard_first)
    used = {t for h in dealt for t in h} | set(front)
    start_hand(state, dealt, front + [t for t in TILES if t not in used])


def opening_position() -> Observation:
    """Classic, 2 players: Ana led 6-6, Ben laid 6-1; Ana (seat 0) to play on 1 and 6."""
    state = new_game(Rules.classic(), 2)
    deal(state, ["6-6 1-1 6-5 1-0 6-4 3-2 3-0", "6-1 5-4 5-3 5-2 4-3 4-2 2-0"])
    apply(state, 0, Play(parse_tile("6-6")))
    apply(state, 1, Play(parse_tile("6-1"), End.LEFT))
    return observe(state, 0)


def random_hand(rules: Rules, players: int, rng: random.Random) -> GameState:
    state = new_game(rules, players)
    deck = list(TILES)
    rng.shuffle(deck)
    size = rules.hand_size_for(players)
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    start_hand(state, hands, deck[players * size :])
    return state


def random_positions(
    rules: Rules, players: int, rng: random.Random
) -> Iterator[tuple[GameState, Observation]]:
    """Every decision of a hand played by random moves: (true state, the mover's observation)."""
    state = random_hand(rules, players, rng)
    while state.phase is Phase.PLAY:
        seat = state.turn
        yield state, observe(state, seat)
        apply(state, seat, rng.choice(legal_actions(state, seat)))
