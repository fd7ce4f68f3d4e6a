"""A move's public part: what a play, a draw, a pass or a resignation does to the line, the
turn, the boneyard's count and the seats, and the refusals that public facts decide.

``apply`` (play.py) runs these for every move off its hot path, then the checks that need the
hands (is the tile the seat's, does one of its tiles fit) and the hand's end; the public view
(public.py) runs them alone, for a table where nobody holds the hands. None of them reads a hand.
"""

from __future__ import annotations

from typing import Final

from lanomino.engine.actions import Action, Draw, End, Pass, Play
from lanomino.engine.errors import IllegalActionError, seat_name
from lanomino.engine.events import Passed, PointsScored, Resigned, TilePlayed
from lanomino.engine.legal import can_resign, fitting_ends
from lanomino.engine.line import CLOSED
from lanomino.engine.state import GameState, Phase
from lanomino.engine.tiles import OTHER, Tile

_PLAY: Final = Phase.PLAY
_new_tuple: Final = tuple.__new__


def check_turn(state: GameState, seat: int, action: Action) -> None:
    """Raises IllegalActionError unless ``action`` is a play, draw or pass and it is ``seat``'s
    turn in a hand in play (public facts: the public view checks a move with it too)."""
    kind = type(action)
    if kind is not Play and kind is not Draw and kind is not Pass:
        raise IllegalActionError(f"not an action: {action!r}")
    if state.phase is not _PLAY:
        raise IllegalActionError(f"{seat_name(seat)} may not {action}: no hand is in play")
    if seat != state.turn:
        raise IllegalActionError(
            f"{seat_name(seat)} may not {action}: it is {seat_name(state.turn)}'s turn"
        )


def lay(state: GameState, seat: int, action: Play) -> TilePlayed:
    """Lay ``action``'s tile on the line for ``seat``: the rules of the line (the lead, which
    end, whether it matches), from public facts alone. Whether the tile is the seat's is the
    caller's check (its hand, or the locked deck's proof). Returns the event (not yet in the
    history). Raises IllegalActionError, the line unchanged."""
    tile = action.tile
    line = state.line
    if line.tiles == 0:
        return _lead(state, seat, action)
    end = action.end
    if end is None:
        end = _resolve_end(state, seat, tile, None)
    ends = line.ends
    number = ends[end]
    exposed = OTHER[tile.index][number] if number != CLOSED else -1
    if exposed < 0:
        _refuse_end(state, seat, tile, end)
    spun = False
    if line.fives:
        exposed, spun = line.place(tile, end)
    else:  # a two-ended line: only the end and the count change (Line.snapshot relies on it)
        ends[end] = exposed
        line.tiles += 1
    return TilePlayed(seat, tile, end, False, exposed, spun)


def _lead(state: GameState, seat: int, action: Play) -> TilePlayed:
    tile = action.tile
    must = state.must_lead
    if must is not None and tile is not must and tile != must:
        raise IllegalActionError(
            f"{seat_name(seat)} may not lead {tile}: this hand must be opened with {must}"
        )
    high_on = action.end or End.LEFT
    if high_on not in (End.LEFT, End.RIGHT):
        raise IllegalActionError(
            f"{seat_name(seat)} may not lead {tile} {high_on}: the first tile lies left-right"
        )
    line = state.line
    exposed = line.place_first(tile, high_on)
    state.must_lead = None
    played: TilePlayed = _new_tuple(
        TilePlayed, (seat, tile, high_on, True, exposed, line.spinner is not None)
    )
    return played


def score_fives(state: GameState, seat: int) -> PointsScored | None:
    """All Fives, after ``seat`` played: the points the ends now count, added to its side's
    scores and the history (None: the count is no multiple of 5)."""
    count = state.line.fives_count()
    if not count or count % 5:
        return None
    side = state.side_of(seat)
    scored = PointsScored(side, count, "fives")
    state.scores[side] += count
    state.hand_points[side] += count
    state.history.append(scored)
    return scored


def reaches_target(state: GameState, side: int) -> bool:
    """Whether ``side``'s score ends the hand (All Fives: a target reached during play)."""
    return bool(state.rules.target) and state.scores[side] >= state.rules.target


def _refuse_end(state: GameState, seat: int, tile: Tile, end: End) -> None:
    n = state.line.ends[end]
    if n == CLOSED:
        raise IllegalActionError(
            f"{seat_name(seat)} may not play {tile} {end}: that end is not open"
        )
    raise IllegalActionError(
        f"{seat_name(seat)} may not play {tile} {end}: it does not match the {n}"
    )


def _resolve_end(state: GameState, seat: int, tile: Tile, end: End | None) -> End:
    line = state.line
    if end is not None:
        if not tile.has(line.ends[end]):
            _refuse_end(state, seat, tile, end)
        return end
    places = fitting_ends(state, tile)
    if not places:
        showing = " or ".join(str(n) for n in line.open_numbers())
        raise IllegalActionError(
            f"{seat_name(seat)} may not play {tile}: it does not match the {showing}"
        )
    if len(places) > 1:
        fits = " and ".join(str(p) for p in places)
        raise IllegalActionError(f"{seat_name(seat)} must say where {tile} goes: it fits {fits}")
    return places[0]


def draw_refusal(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not draw now, from public facts (None: it may, unless the rules forbid
    drawing with a tile that fits, which only its hand can tell)."""
    if not state.rules.draws:
        return "nobody draws in this game"
    if not state.can_draw():
        left = state.boneyard_left()
        if left == 0:
            return "the boneyard is empty"
        return f"the last {left} tiles stay in the boneyard"
    if state.line.tiles == 0:
        return "the hand has not been opened"
    return None


def take_from_boneyard(state: GameState) -> Tile:
    """The boneyard's next tile, taken (the seat's hand is the caller's)."""
    tile = state.boneyard[state.drawn]
    state.drawn += 1
    state.drawable -= 1
    return tile


def pass_refusal(state: GameState) -> str | None:
    """Why no seat may pass now, from public facts (None: a seat with no tile that fits may)."""
    if state.line.tiles == 0:
        return "the hand has not been opened"
    if state.can_draw():
        return "the boneyard has tiles to draw"
    return None


def record_pass(state: GameState, seat: int) -> Passed:
    """``seat`` passes: the event, in the history, and the turn moves on."""
    passed = Passed(seat, state.line.open_numbers())
    state.history.append(passed)
    state.turn = state.next_seat[seat]
    return passed


def check_resign(state: GameState, seat: int) -> None:
    """Raises IllegalActionError unless ``seat`` may resign now (``can_resign``)."""
    if not can_resign(state, seat):
        why = "the match is over" if state.phase is Phase.OVER else "that seat is not in the match"
        raise IllegalActionError(f"{seat_name(seat)} may not resign: {why}")


def leave(state: GameState, seat: int) -> tuple[Resigned, int | None]:
    """``seat`` leaves the match (``can_resign`` checked): the event, in the history, and the
    side that wins by it when one side is left (a partnership concedes as a team), else None.
    With no winner and a hand in play, the turn and the lead pass on."""
    state.active[seat] = False
    state.next_seat = [state.next_active(s) for s in range(state.players)]
    state.departed.append(seat)
    state.hands[seat] = 0
    event = Resigned(seat)
    state.history.append(event)
    remaining_sides = {state.side_of(s) for s in range(state.players) if state.active[s]}
    if state.rules.partnership or len(remaining_sides) == 1:
        # The last side standing wins the match (a partnership concedes as a team).
        return event, state.side_of(seat) ^ 1 if state.rules.partnership else remaining_sides.pop()
    if state.phase is Phase.PLAY:
        if state.turn == seat:
            state.turn = state.next_active(seat)
        if state.line.tiles == 0 and state.opener == seat:
            # The opener left before leading: the next seat opens, with any tile.
            state.opener = state.turn
            state.must_lead = None
    return event, None
