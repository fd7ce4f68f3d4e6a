"""What one seat may know: ``observe(state, seat)``.

An observation holds the seat's own tiles and only public facts about the others: tile counts,
the line, the boneyard count, scores and the public history, in which other seats' draws show no
tile. When a hand has ended, every hand is public (it is revealed in ``HandEnded``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.engine.actions import Action
from lanomino.engine.events import Event, HandEnded, MatchEnded, TileDrawn
from lanomino.engine.line import Line
from lanomino.engine.rules import Rules
from lanomino.engine.tiles import Tile, tiles_in


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    rules: Rules
    players: int
    phase: str  # "deal", "play" or "over"
    hand_no: int
    dealt_hands: int
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    active: tuple[bool, ...]
    turn: int
    opener: int
    must_lead: Tile | None  # set in the opener's own observation (HandStarted announces it to all)
    line: Line  # a private copy; treat as read-only
    boneyard: int  # tiles left in the boneyard
    drawable: int  # of those, how many may still be drawn
    scores: tuple[int, ...]
    hand_points: tuple[int, ...]
    history: tuple[Event, ...]  # this hand, public view
    legal: tuple[Action, ...]  # this seat's legal moves now
    results: tuple[HandEnded, ...]
    outcome: MatchEnded | None
    last_opener: int | None
    last_winner_seat: int | None

    @property
    def ends(self) -> tuple[int, ...]:
        return tuple(self.line.ends)

    @property
    def is_my_turn(self) -> bool:
        return self.phase == "play" and self.turn == self.seat

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.partnership else seat


def public_event(event: Event, viewer: int) -> Event:
    """``event`` as ``viewer`` may see it."""
    if isinstance(event, TileDrawn) and event.seat != viewer and event.tile is not None:
        return TileDrawn(event.seat, None, event.ends, event.boneyard)
    return event


def public_events(events: Sequence[Event], viewer: int) -> list[Event]:
    return [public_event(e, viewer) for e in events]


def observe(state: object, seat: int) -> Observation:
    """What ``seat`` may know about ``state`` (a GameState)."""
    from lanomino.engine.play import legal_actions
    from lanomino.engine.state import GameState

    assert isinstance(state, GameState)
    reserve = state.rules.boneyard_reserve if state.rules.draws else state.boneyard_left()
    return Observation(
        seat=seat,
        rules=state.rules,
        players=state.players,
        phase=state.phase.value,
        hand_no=state.hand_no,
        dealt_hands=state.dealt_hands,
        hand=tiles_in(state.hands[seat]),
        hand_sizes=tuple(bin(h).count("1") for h in state.hands),
        active=tuple(state.active),
        turn=state.turn,
        opener=state.opener,
        must_lead=state.must_lead if seat == state.opener else None,
        line=state.line.copy(),
        boneyard=state.boneyard_left(),
        drawable=max(0, state.boneyard_left() - reserve),
        scores=tuple(state.scores),
        hand_points=tuple(state.hand_points),
        history=tuple(public_events(state.history, seat)),
        legal=tuple(legal_actions(state, seat)),
        results=tuple(state.results),
        outcome=state.outcome,
        last_opener=state.last_opener,
        last_winner_seat=state.last_winner_seat,
    )


def determinize(obs: Observation, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> object:
    """A full GameState consistent with ``obs``, given a guess at the hidden tiles.

    ``hands[s]`` must be seat s's hand (the observer's own included) and ``boneyard`` the tiles
    left to draw, in the order they would be drawn. Used by bots for search.
    """
    from lanomino.engine.state import GameState, Phase

    state = GameState(obs.rules, obs.players)
    state.scores = list(obs.scores)
    state.active = list(obs.active)
    # Who left, for scoring (the order they left in is not public; it only ranks them at the end).
    state.departed = [s for s in range(obs.players) if not obs.active[s]]
    state.phase = Phase(obs.phase)
    state.hand_no = obs.hand_no
    state.dealt_hands = obs.dealt_hands
    state.hands = [sum(1 << t.index for t in h) for h in hands]
    state.boneyard = list(boneyard)
    state.drawn = 0
    state.turn = obs.turn
    state.opener = obs.opener
    state.must_lead = obs.must_lead
    state.line = obs.line.copy()
    state.hand_points = list(obs.hand_points)
    state.last_opener = obs.last_opener
    state.last_winner_seat = obs.last_winner_seat
    state.results = list(obs.results)
    # The hot-path fields, set as start_hand, apply and resigning would have left them.
    state.drawable = min(obs.drawable, len(state.boneyard))
    state.next_seat = [state.next_active(s) for s in range(obs.players)]
    state.fast = (
        state.phase is Phase.PLAY
        and state.line.tiles > 0
        and not obs.rules.fives
        and not obs.rules.draw_when_playable
    )
    return state
