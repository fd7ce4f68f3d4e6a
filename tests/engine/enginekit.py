"""Helpers for engine scenario tests: literal hands written as in the seed documents."""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.engine import (
    TILES,
    Action,
    End,
    Event,
    GameState,
    Play,
    Rules,
    Tile,
    apply,
    new_game,
    parse_tile,
    start_hand,
)


def tiles(text: str) -> list[Tile]:
    """ "6-6 5-3 1-0" -> the tiles."""
    return [parse_tile(t) for t in text.split()]


def deal_hand(
    state: GameState, hands: Sequence[str], boneyard_front: str = ""
) -> list[Event]:
    """Start a hand with literal hands. The boneyard is ``boneyard_front`` (drawn first) then every
    other tile in canonical order."""
    deal = [tiles(h) for h in hands]
    front = tiles(boneyard_front)
    used = {t for hand in deal for t in hand} | set(front)
    rest = [t for t in TILES if t not in used]
    return start_hand(state, deal, front + rest)


def game(rules: Rules, hands: Sequence[str], boneyard_front: str = "") -> GameState:
    """A new match with one hand dealt from literal hands."""
    state = new_game(rules, len(hands))
    deal_hand(state, hands, boneyard_front)
    return state


def play(state: GameState, seat: int, tile: str, end: str | None = None) -> list[Event]:
    return apply(state, seat, Play(parse_tile(tile), End.parse(end) if end else None))


def act(state: GameState, seat: int, action: Action) -> list[Event]:
    return apply(state, seat, action)


# A partnership hand that blocks after ten tiles: every six ends up on the line and both ends show
# a six. Seat 0 holds the 6-6 and opens; each seat plays in turn.
PARTNERSHIP_BLOCK_MOVES: list[tuple[int, str, str | None]] = [
    (0, "6-6", None),
    (1, "6-5", "left"),
    (2, "5-4", "left"),
    (3, "4-6", "left"),
    (0, "6-3", "right"),
    (1, "3-2", "right"),
    (2, "2-6", "right"),
    (3, "6-1", "left"),
    (0, "1-0", "left"),
    (1, "0-6", "left"),
]


def partnership_hands(equal: bool) -> list[str]:
    """Hands for PARTNERSHIP_BLOCK_MOVES. Left over: team 0 (seats 0 + 2) 45 pips and team 1 45
    when ``equal``; otherwise team 0 41 (seat 0: 0-0 1-1 2-0 3-3 = 10, seat 2: 31) and team 1 49
    (seat 1: 2-1 2-2 3-1 5-5 = 21, seat 3: 28)."""
    seat0, seat1 = (
        ("0-0 1-1 2-0 5-5", "2-1 2-2 3-1 3-3") if equal else ("0-0 1-1 2-0 3-3", "2-1 2-2 3-1 5-5")
    )
    return [
        "6-6 6-3 1-0 " + seat0,
        "6-5 3-2 6-0 " + seat1,
        "5-4 6-2 5-3 5-2 4-4 3-0 4-1",
        "6-4 6-1 4-0 4-2 4-3 5-0 5-1",
    ]
