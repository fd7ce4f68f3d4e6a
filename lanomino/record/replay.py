"""Replaying a record through the engine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lanomino.engine import (
    DealVoided,
    Event,
    GameState,
    HandEnded,
    Phase,
    Play,
    Resign,
    apply,
    new_game,
    parse_tile,
    start_hand,
)
from lanomino.engine.errors import EngineError
from lanomino.record.format import Record, as_action


class IllegalMoveError(ValueError):
    """A move the rules do not allow, or a deal that cannot be: names the hand and the move."""

    def __init__(self, hand: int, move: int | None, message: str) -> None:
        where = f"hand {hand}" + (f", move {move}" if move is not None else "")
        super().__init__(f"{where}: {message}")
        self.hand = hand
        self.move = move


@dataclass(frozen=True, slots=True)
class HandSummary:
    end: str  # domino | blocked | target | resigned | unfinished | void
    winner: int | None
    points: tuple[int, ...]
    pips_left: tuple[int | None, ...]

    def to_json(self) -> dict[str, object]:
        return {"end": self.end, "winner": self.winner, "points": list(self.points),
                "pips_left": list(self.pips_left)}


@dataclass(frozen=True, slots=True)
class ReplayResult:
    hands: tuple[HandSummary, ...]
    scores: tuple[int, ...]
    winner: int | None
    finished: bool
    state: GameState

    def to_json(self) -> dict[str, object]:
        return {"hands": [h.to_json() for h in self.hands], "scores": list(self.scores),
                "winner": self.winner, "finished": self.finished}


Listener = Callable[[int, Event], None]


def replay(record: Record, listener: Listener | None = None) -> ReplayResult:
    """Play the record's hands through the engine. Raises IllegalMoveError (hands and moves
    are numbered from 1)."""
    state = new_game(record.rules, len(record.players))
    summaries: list[HandSummary] = []
    for h, hand in enumerate(record.hands, start=1):
        if state.phase is Phase.OVER:
            raise IllegalMoveError(h, None, "the match was already over")
        deal = [[parse_tile(t) for t in tiles] for tiles in hand.deal]
        try:
            events = start_hand(state, deal, [parse_tile(t) for t in hand.boneyard])
        except EngineError as exc:
            raise IllegalMoveError(h, None, f"bad deal: {exc}") from None
        _tell(listener, h, events)
        if isinstance(events[0], DealVoided):
            if hand.moves:
                raise IllegalMoveError(h, 1, "the deal was void (nobody held a double): "
                                       "no moves may follow")
            summaries.append(_unfinished(state, "void"))
            continue
        opened = False
        for m, move in enumerate(hand.moves, start=1):
            # A seat may leave between hands; its resignation is written after the hand's end.
            between_hands = state.phase is Phase.DEAL and isinstance(move.action, Resign)
            if state.phase is not Phase.PLAY and not between_hands:
                raise IllegalMoveError(h, m, "the hand is already over")
            if not opened and isinstance(move.action, Play) and move.action.end is not None:
                raise IllegalMoveError(
                    h, m, "the first tile of a hand takes no end: the order it is written in "
                    "says which number lies on the left")
            action = as_action(move, not opened)
            try:
                events = apply(state, move.seat, action)
            except EngineError as exc:
                raise IllegalMoveError(h, m, str(exc)) from None
            opened = opened or isinstance(action, Play)
            _tell(listener, h, events)
        if state.phase is Phase.PLAY:
            if h != len(record.hands):
                raise IllegalMoveError(h, None, "the hand did not finish, but another hand follows")
            summaries.append(_unfinished(state, "unfinished"))
        else:
            ended = state.results[-1]
            summaries.append(_summary(ended))
    outcome = state.outcome
    return ReplayResult(
        tuple(summaries),
        tuple(state.scores),
        outcome.winner if outcome else None,
        outcome is not None,
        state,
    )


def _tell(listener: Listener | None, hand: int, events: list[Event]) -> None:
    if listener is not None:
        for event in events:
            listener(hand, event)


def _summary(ended: HandEnded) -> HandSummary:
    return HandSummary(str(ended.end), ended.winner, ended.points, ended.pips_left)


def _unfinished(state: GameState, how: str) -> HandSummary:
    from lanomino.engine.tiles import pips_of

    pips = tuple(pips_of(state.hands[s]) if state.active[s] else None for s in range(state.players))
    return HandSummary(how, None, tuple(state.hand_points), pips)
