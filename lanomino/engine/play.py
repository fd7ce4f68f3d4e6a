"""The rules of play: ``apply`` (see state.py for the theory of operation).

``apply`` checks an action against what ``legal_actions`` (legal.py) allows, from the same tables,
and returns the events it caused. The hot path, a play on a two-ended line, is kept flat and
table-driven (scripts/bench_engine.py measures it). Off it, a move's public part (the line, the
turn, the boneyard's count, the seats, and the refusals public facts decide) is moves.py's, which
the public view (public.py) runs too; here are the checks that need the hands and the hand's end.
"""

from __future__ import annotations

from typing import Final

from lanomino.engine.actions import Action, Draw, End, Pass, Play, Resign
from lanomino.engine.errors import IllegalActionError, seat_name
from lanomino.engine.events import (
    Event,
    HandEnd,
    Passed,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.line import CLOSED
from lanomino.engine.moves import (
    check_resign,
    check_turn,
    draw_refusal,
    lay,
    leave,
    pass_refusal,
    reaches_target,
    record_pass,
    score_fives,
    take_from_boneyard,
)
from lanomino.engine.scoring import end_of_hand, end_of_match
from lanomino.engine.state import GameState, Phase
from lanomino.engine.tiles import NUMBERS, OTHER, TILES, WITH, Tile, tiles_in

_PLAY: Final = Phase.PLAY
_new_tuple: Final = tuple.__new__
_DOMINO: Final = HandEnd.DOMINO
_BLOCKED: Final = HandEnd.BLOCKED
_LEFT: Final = End.LEFT
_RIGHT: Final = End.RIGHT
_SEATS: Final = range(4)  # Rules.check_players: 2 to 4 seats


# The hot path's events, made at first use and then shared: an event is an immutable value, so
# each later identical move reuses it instead of building it again (compiled, the build was the
# hot path's largest cost). _PLAYED[seat][tile index][end][number left showing]: a play that is
# not the first tile, on the left or right end, making no spinner. _PASSED[seat][left][right]:
# a pass on a two-ended line. Empty until played: building them all cost start-up more than a
# short run's moves gain.
_PLAYED: Final[list[list[list[list[TilePlayed | None]]]]] = [
    [[[None] * len(NUMBERS) for _ in range(2)] for _ in TILES] for _ in _SEATS
]
_PASSED: Final[list[list[list[Passed | None]]]] = [
    [[None] * len(NUMBERS) for _ in NUMBERS] for _ in _SEATS
]


def _play_event(seat: int, tile: Tile, end: End, exposed: int) -> TilePlayed:
    """The hot path's TilePlayed, made and kept for next time (when ``end`` is an End, as the
    actions legal_actions lists have: an end given as a plain int is recorded as given)."""
    played: TilePlayed = _new_tuple(TilePlayed, (seat, tile, end, False, exposed, False))
    if isinstance(end, End):
        _PLAYED[seat][tile.index][end][exposed] = played
    return played


def _pass_event(seat: int, left: int, right: int) -> Passed:
    """The hot path's Passed, made and kept for next time."""
    passed: Passed = _new_tuple(Passed, (seat, (left,) if left == right else (left, right)))
    _PASSED[seat][left][right] = passed
    return passed


_COMPILED: Final = not __file__.endswith(".py")  # built by mypyc (setup.py)


def _held(hands: list[int]) -> int:
    """Every tile still in a hand: ``sum(hands)`` (the hands are disjoint masks). Compiled, this
    loop is native and sum() a call into the interpreter; interpreted, sum() is the faster, so
    the hot path calls this only when compiled."""
    held = 0
    for hand in hands:
        held |= hand
    return held


# ----- applying ------------------------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action) -> list[Event]:
    """Carry out ``action`` for ``seat``. Returns the events. Raises IllegalActionError."""
    kind = type(action)
    # ``fast`` is only ever true while a hand is in play (see start_hand and _finish_hand).
    if kind is Play and state.fast and seat == state.turn:
        # The hot path, kept flat on purpose: a legal play on a two-ended line. Anything
        # unusual (no end given, a tile not in hand, a mismatch) falls through to _play,
        # which explains the refusal.
        # Annotated, so that the compiled build checks the types once and then works on a
        # native Tile (unannotated, the union's attribute is a plain object to it).
        tile: Tile = action.tile  # type: ignore[union-attr]
        end: End | None = action.end  # type: ignore[union-attr]
        hands = state.hands
        hand = hands[seat]
        if end is not None and hand & tile.bit:
            # The end as a plain int: compiled, indexing a list by the End itself is a generic
            # item lookup (four of them here).
            e = 0 if end is _LEFT else 1 if end is _RIGHT else int(end)
            ends = state.line.ends
            exposed = OTHER[tile.index][ends[e]]
            if exposed >= 0:
                ends[e] = exposed
                state.line.tiles += 1
                hand ^= tile.bit
                hands[seat] = hand
                played = _PLAYED[seat][tile.index][e][exposed]
                if played is None or played.end is not end:  # new, or an end given as an int
                    played = _play_event(seat, tile, end, exposed)
                state.history.append(played)
                if not hand:
                    return [played, *_finish_hand(state, _DOMINO, seat)]
                state.turn = state.next_seat[seat]
                if state.drawable <= 0 and not (
                    (_held(hands) if _COMPILED else sum(hands)) & (WITH[ends[0]] | WITH[ends[1]])
                ):
                    return [played, *_finish_hand(state, _BLOCKED, None)]
                return [played]
    elif kind is Pass and state.fast and seat == state.turn:
        ends = state.line.ends
        left, right = ends[0], ends[1]
        hands = state.hands
        fits = WITH[left] | WITH[right]
        if state.drawable <= 0 and not hands[seat] & fits:
            passed = _PASSED[seat][left][right] or _pass_event(seat, left, right)
            state.history.append(passed)
            state.turn = state.next_seat[seat]
            if not (_held(hands) if _COMPILED else sum(hands)) & fits:
                return [passed, *_finish_hand(state, _BLOCKED, None)]
            return [passed]
    if kind is Resign:
        return _resign(state, seat)
    check_turn(state, seat, action)
    if kind is Play:
        return _play(state, seat, action)  # type: ignore[arg-type]
    if kind is Draw:
        return _draw(state, seat)
    return _pass(state, seat)


def _why_not_stuck(state: GameState, seat: int) -> str | None:
    fits = state.hands[seat] & state.fitting_mask()
    if not fits:
        return None
    tile = tiles_in(fits)[-1]
    number = next(n for n in state.line.ends if n != CLOSED and tile.has(n))
    return f"{tile} fits the {number}"


def _play(state: GameState, seat: int, action: Play) -> list[Event]:
    tile = action.tile
    hands = state.hands
    hand = hands[seat]
    if not hand & tile.bit:
        raise IllegalActionError(
            f"{seat_name(seat)} may not play {tile}: it is not in {seat_name(seat)}'s hand"
        )
    played = lay(state, seat, action)
    hand ^= tile.bit
    hands[seat] = hand
    state.history.append(played)
    line = state.line
    if played.first:
        state.fast = not line.fives and not state.rules.draw_when_playable
    if line.fives:
        return _after_fives_play(state, seat, played)
    if not hand:
        return [played, *_finish_hand(state, _DOMINO, seat)]
    state.turn = state.next_seat[seat]
    if played.first:
        return [played, *_maybe_blocked(state)]
    ends = line.ends
    if state.drawable <= 0 and not sum(hands) & (WITH[ends[0]] | WITH[ends[1]]):
        return [played, *_finish_hand(state, _BLOCKED, None)]
    return [played]


def _after_fives_play(state: GameState, seat: int, played: TilePlayed) -> list[Event]:
    events: list[Event] = [played]
    scored = score_fives(state, seat)
    if scored is not None:
        events.append(scored)
        if reaches_target(state, scored.side):
            return events + _finish_hand(state, HandEnd.TARGET, seat)
    if not state.hands[seat]:
        return events + _finish_hand(state, _DOMINO, seat)
    state.turn = state.next_seat[seat]
    return events + _maybe_blocked(state)


def _draw(state: GameState, seat: int) -> list[Event]:
    why = draw_refusal(state, seat)
    if why is None and not state.rules.draw_when_playable:
        why = _why_not_stuck(state, seat)
    if why:
        raise IllegalActionError(f"{seat_name(seat)} may not draw: {why}")
    tile = take_from_boneyard(state)
    state.hands[seat] |= 1 << tile.index
    drawn = TileDrawn(seat, tile, state.line.open_numbers(), state.boneyard_left())
    state.history.append(drawn)
    return [drawn, *_maybe_blocked(state)]


def _pass(state: GameState, seat: int) -> list[Event]:
    # A tile that fits is the first reason given, before the boneyard's.
    why = _why_not_stuck(state, seat) or pass_refusal(state)
    if why:
        raise IllegalActionError(f"{seat_name(seat)} may not pass: {why}")
    return [record_pass(state, seat), *_maybe_blocked(state)]


def _maybe_blocked(state: GameState) -> list[Event]:
    if state.is_blocked():
        return _finish_hand(state, _BLOCKED, None)
    return []


def _resign(state: GameState, seat: int) -> list[Event]:
    check_resign(state, seat)
    event, winner = leave(state, seat)
    events: list[Event] = [event]
    if winner is not None:
        if state.phase is Phase.PLAY:
            events += _finish_hand(state, HandEnd.RESIGNED, None, forced_winner=winner)
        else:
            events += _end_match(state, winner)
        return events
    if state.phase is Phase.PLAY:
        events += _maybe_blocked(state)
    return events


def _finish_hand(
    state: GameState, how: HandEnd, mover: int | None, forced_winner: int | None = None
) -> list[Event]:
    ended, winner_seat = end_of_hand(state, how, mover, forced_winner)
    for side, points in enumerate(ended.points):
        extra = points - state.hand_points[side]
        state.scores[side] += extra
    state.history.append(ended)
    state.results.append(ended)
    state.last_opener = state.opener
    state.last_winner_seat = winner_seat
    state.dealt_hands += 1
    state.phase = Phase.DEAL
    state.fast = False
    events: list[Event] = [ended]
    match_ended = end_of_match(state, forced_winner)
    if match_ended is not None:
        state.phase = Phase.OVER
        state.outcome = match_ended
        state.history.append(match_ended)
        events.append(match_ended)
    return events


def _end_match(state: GameState, winner: int) -> list[Event]:
    match_ended = end_of_match(state, winner)
    assert match_ended is not None
    state.phase = Phase.OVER
    state.outcome = match_ended
    state.history.append(match_ended)
    return [match_ended]
