"""Who opens a hand, and whether they must lead a particular tile."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from lanomino.engine.tiles import TILES, Tile, heavier, tiles_in

if TYPE_CHECKING:
    from lanomino.engine.state import GameState

DOUBLES_HIGH_FIRST: Final[tuple[Tile, ...]] = tuple(t for t in reversed(TILES) if t.is_double)


def choose_opener(state: GameState) -> tuple[int, Tile | None] | None:
    """(opener, tile they must lead or None) for the hand just dealt; None: the deal is void."""
    rules = state.rules
    if state.dealt_hands == 0 or rules.next_opener == "highest-double":
        return first_hand_opener(state)
    assert state.last_opener is not None
    if rules.next_opener == "winner":
        if state.last_winner_seat is not None:
            seat = state.last_winner_seat
            return (seat if state.active[seat] else state.next_active(seat)), None
        if rules.no_winner_opener == "first-hand":
            return first_hand_opener(state)
    # alternate, left-of-last, and next-seat after a hand with no winner: the lead moves on.
    return state.next_active(state.last_opener), None


def opener_is_public(state: GameState) -> bool:
    """Whether ``choose_opener`` names the next hand's opener from public facts alone (the last
    opener and winner), without reading the hands: not for a first hand, not under
    ``next_opener=highest-double``, not after a hand nobody won when the first hand's rule
    then applies."""
    rules = state.rules
    if state.dealt_hands == 0 or rules.next_opener == "highest-double":
        return False
    return not (
        rules.next_opener == "winner"
        and state.last_winner_seat is None
        and rules.no_winner_opener == "first-hand"
    )


def first_hand_opener(state: GameState) -> tuple[int, Tile] | None:
    """The holder of the highest double leads it; with no double dealt, the heaviest tile leads
    (or the deal is void under ``no_double=reshuffle``)."""
    hands = state.hands
    for double in DOUBLES_HIGH_FIRST:
        for seat in range(state.players):
            if hands[seat] & double.bit:
                return seat, double
    if state.rules.no_double == "reshuffle":
        return None
    best: tuple[int, Tile] | None = None
    for seat in range(state.players):
        for tile in tiles_in(hands[seat]):
            if best is None or heavier(tile, best[1]):
                best = seat, tile
    assert best is not None
    return best
