"""Literal hands for the words and screens tests: a game dealt from written hands, and plays."""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.engine import (
    TILES,
    End,
    Event,
    GameState,
    HandEnded,
    MatchEnded,
    Play,
    Rules,
    apply,
    new_game,
    observe,
    parse_tile,
)
from lanomino.engine import start_hand as _start_hand
from lanomino.ui.state import UiState, on_new_observation

PASS_THEN_OUT = ["6-6 6-5", "0-0 1-0"]  # block, two tiles: seat 0 opens, seat 1 passes, seat 0 out


def game(rules: Rules, hands: list[str]) -> GameState:
    """A new match with one hand dealt from ``hands``; the boneyard is the rest in set order."""
    state = new_game(rules, len(hands))
    deal_hand(state, hands)
    return state


def deal_hand(state: GameState, hands: list[str]) -> list[Event]:
    deal = [[parse_tile(t) for t in h.split()] for h in hands]
    return _start_hand(state, deal, [t for t in TILES if all(t not in h for h in deal)])


def play(state: GameState, seat: int, tile: str, end: End | None = None) -> list[Event]:
    return apply(state, seat, Play(parse_tile(tile), end))


def four_one_fits_both_ends() -> GameState:
    """Block, seat 0 to play: the line shows 4 and 1, and seat 0 holds 4-1 (it fits both)."""
    from lanomino.engine import PASS

    state = game(Rules.preset("block"), ["6-6 6-1 4-1 0-0 3-3 5-5 2-2",
                                         "6-4 6-2 6-0 5-2 2-0 5-0 3-2"])
    play(state, 0, "6-6")
    play(state, 1, "6-4", End.LEFT)
    play(state, 0, "6-1", End.RIGHT)
    apply(state, 1, PASS)  # nothing with a 4 or a 1
    return state


def went_out() -> tuple[GameState, list[Event]]:
    """Block, two tiles each: seat 0 opens 6-6, seat 1 has no six, seat 0 goes out with 6-5
    (seat 1 keeps 0-0 and 1-0: one pip)."""
    from lanomino.engine import PASS

    state = game(Rules.preset("block", hand_size=2), PASS_THEN_OUT)
    events = play(state, 0, "6-6") + apply(state, 1, PASS) + play(state, 0, "6-5", End.LEFT)
    return state, events


def show(ui: UiState, state: GameState, events: Sequence[Event] = ()) -> UiState:
    """Seat 0's view of ``state`` put in ``ui``, as the client does after ``events``."""
    on_new_observation(ui, observe(state, 0))
    for event in events:
        if isinstance(event, HandEnded):
            ui.hand_result = event
        elif isinstance(event, MatchEnded):
            ui.match_result = event
    return ui
