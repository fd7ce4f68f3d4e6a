"""The game state of a match and the rules of play.

Theory of operation: a ``GameState`` is created for a match with ``new_game``. Each hand begins
with ``start_hand(state, deal, boneyard)``: chance is input, the engine never shuffles. Then the
seats act with ``apply(state, seat, action)``, which checks the action against the same logic as
``legal_actions`` and returns the events it caused. A hand ends inside ``apply`` the moment a seat
goes out, the line is blocked, a seat reaches the target during play (All Fives) or resigning
leaves one side; ``end_of_hand`` and ``end_of_match`` are the only places those outcomes are
decided. The state is mutable, like a chess board; ``copy()`` gives an independent one.

Phases: DEAL (waiting for a deal) -> PLAY -> DEAL ... -> OVER.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from lanomino.engine.actions import DRAW, PASS, Action, Draw, End, Pass, Play, Resign
from lanomino.engine.errors import IllegalActionError
from lanomino.engine.events import (
    DealVoided,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    Passed,
    PointsScored,
    Resigned,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.line import CLOSED, Line
from lanomino.engine.rules import Rules
from lanomino.engine.scoring import end_of_hand, end_of_match
from lanomino.engine.tiles import FULL_MASK, TILES, WITH, Tile, tiles_in

_ENDS = tuple(End)
# PLAYS[tile index][end index]: prebuilt actions, so the hot path allocates nothing.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(t, e) for e in End) for t in TILES)


class Phase(enum.Enum):
    DEAL = "deal"
    PLAY = "play"
    OVER = "over"


class GameState:
    """Everything about a match in progress, hidden information included."""

    __slots__ = (
        "rules", "players", "sides", "scores", "active", "departed", "phase", "hand_no",
        "hands", "boneyard", "drawn", "turn", "opener", "must_lead", "line", "hand_points",
        "history", "last_opener", "last_winner_seat", "results", "outcome", "dealt_hands",
    )

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.sides = 2 if rules.partnership else players
        self.scores = [0] * self.sides
        self.active = [True] * players
        self.departed: list[int] = []  # seats in the order they left
        self.phase = Phase.DEAL
        self.hand_no = 0  # deals so far, void ones included
        self.hands = [0] * players  # bitmasks over tile indices
        self.boneyard: list[Tile] = []
        self.drawn = 0  # tiles taken from the front of the boneyard
        self.turn = 0
        self.opener = 0
        self.must_lead: Tile | None = None
        self.line = Line(rules.fives)
        self.hand_points = [0] * self.sides
        self.history: list[Event] = []  # this hand's events, hidden details included
        self.last_opener: int | None = None
        self.last_winner_seat: int | None = None
        self.results: list[HandEnded] = []  # finished hands
        self.outcome: MatchEnded | None = None
        self.dealt_hands = 0  # hands actually played (void deals excluded)

    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = value[:]
            setattr(new, name, value)
        new.line = self.line.copy()
        return new

    # ----- questions ----------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.partnership else seat

    def hand_of(self, seat: int) -> list[Tile]:
        return tiles_in(self.hands[seat])

    def boneyard_left(self) -> int:
        return len(self.boneyard) - self.drawn

    def can_draw(self) -> bool:
        return self.rules.draws and self.boneyard_left() > self.rules.boneyard_reserve

    def next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.active[candidate]:
                return candidate
        return seat

    def fitting_mask(self) -> int:
        mask = 0
        for n in self.line.ends:
            if n != CLOSED:
                mask |= WITH[n]
        return mask

    def is_blocked(self) -> bool:
        """No seat can play and nobody may draw."""
        if self.line.is_empty or self.can_draw():
            return False
        fits = self.fitting_mask()
        return not any(self.hands[s] & fits for s in range(self.players) if self.active[s])


def new_game(rules: Rules, players: int) -> GameState:
    """A match for ``players`` seats, waiting for its first deal. Raises RulesError."""
    return GameState(rules, players)


# ----- dealing -------------------------------------------------------------------------------


def start_hand(state: GameState, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> list[Event]:
    """Deal a hand: ``deal[i]`` is seat i's hand, ``boneyard`` in draw order.

    Raises IllegalActionError when the match is not waiting for a deal or the deal is wrong.
    """
    from lanomino.engine.opening import choose_opener

    if state.phase is not Phase.DEAL:
        raise IllegalActionError("the match is not waiting for a deal")
    check_deal(state, deal, boneyard)
    state.hand_no += 1
    state.hands = [sum(1 << t.index for t in hand) for hand in deal]
    state.boneyard = list(boneyard)
    state.drawn = 0
    state.line = Line(state.rules.fives)
    state.hand_points = [0] * state.sides
    state.history = []
    choice = choose_opener(state)
    if choice is None:
        voided = DealVoided(state.hand_no)
        state.history.append(voided)
        return [voided]
    state.opener, state.must_lead = choice
    state.turn = state.opener
    state.phase = Phase.PLAY
    started = HandStarted(
        state.hand_no,
        state.opener,
        state.must_lead,
        tuple(len(hand) for hand in deal),
        len(state.boneyard),
    )
    state.history.append(started)
    events: list[Event] = [started]
    return events


def check_deal(state: GameState, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> None:
    """Raise IllegalActionError unless the deal uses every tile once with the right hand sizes."""
    if len(deal) != state.players:
        raise IllegalActionError(f"the deal has {len(deal)} hands for {state.players} seats")
    size = state.rules.hand_size_for(state.players)
    seen = 0
    for seat, hand in enumerate(deal):
        want = size if state.active[seat] else 0
        if len(hand) != want:
            raise IllegalActionError(f"seat {seat} was dealt {len(hand)} tiles, not {want}")
        for tile in hand:
            if seen >> tile.index & 1:
                raise IllegalActionError(f"{tile} is dealt twice")
            seen |= 1 << tile.index
    for tile in boneyard:
        if seen >> tile.index & 1:
            raise IllegalActionError(f"{tile} is both dealt and in the boneyard, or twice in the boneyard")
        seen |= 1 << tile.index
    if seen != FULL_MASK:
        missing = ", ".join(str(t) for t in tiles_in(FULL_MASK & ~seen))
        raise IllegalActionError(f"the deal is missing {missing}")


# ----- legal actions -------------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every move ``seat`` may make now, one action per distinct place to play.

    ``Resign`` is not listed: an active seat may resign at any time (``can_resign``).
    """
    if state.phase is not Phase.PLAY or seat != state.turn:
        return []
    hand = state.hands[seat]
    line = state.line
    if line.tiles == 0:
        if state.must_lead is not None:
            return [PLAYS[state.must_lead.index][0]]
        return [PLAYS[t.index][0] for t in tiles_in(hand)]
    actions: list[Action] = []
    ends = line.ends
    if not line.fives:
        left, right = ends[0], ends[1]
        actions = [PLAYS[t.index][0] for t in tiles_in(hand & WITH[left])]
        if right != left:
            actions += [PLAYS[t.index][1] for t in tiles_in(hand & WITH[right])]
    else:
        seen: set[tuple[int, tuple[int, bool, bool, bool, bool]]] = set()
        for e in range(4):
            n = ends[e]
            if n == CLOSED or not hand & WITH[n]:
                continue
            key = line.end_key(e)
            for t in tiles_in(hand & WITH[n]):
                if (t.index, key) not in seen:
                    seen.add((t.index, key))
                    actions.append(PLAYS[t.index][e])
    if (not actions or state.rules.draw_when_playable) and state.can_draw():
        actions.append(DRAW)
    elif not actions:
        actions.append(PASS)
    return actions


def can_resign(state: GameState, seat: int) -> bool:
    return state.phase is not Phase.OVER and 0 <= seat < state.players and state.active[seat]


def fitting_ends(state: GameState, tile: Tile) -> list[End]:
    """The distinct places ``tile`` could go now (empty when it does not fit)."""
    line = state.line
    keys: list[tuple[int, bool, bool, bool, bool]] = []
    out: list[End] = []
    for e in range(4):
        if line.ends[e] != CLOSED and tile.has(line.ends[e]):
            key = line.end_key(e)
            if key not in keys:
                keys.append(key)
                out.append(_ENDS[e])
    return out


# ----- applying ------------------------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action) -> list[Event]:
    """Carry out ``action`` for ``seat``. Returns the events. Raises IllegalActionError."""
    if isinstance(action, Resign):
        return _resign(state, seat)
    if state.phase is not Phase.PLAY:
        raise IllegalActionError(f"seat {seat} may not {action}: no hand is in play")
    if seat != state.turn:
        raise IllegalActionError(f"seat {seat} may not {action}: it is seat {state.turn}'s turn")
    if isinstance(action, Play):
        events = _play(state, seat, action)
    elif isinstance(action, Draw):
        events = _draw(state, seat)
    elif isinstance(action, Pass):
        events = _pass(state, seat)
    else:
        raise IllegalActionError(f"not an action: {action!r}")
    return events


def _why_not_stuck(state: GameState, seat: int) -> str | None:
    fits = state.hands[seat] & state.fitting_mask()
    if not fits:
        return None
    tile = tiles_in(fits)[0]
    number = next(n for n in state.line.ends if n != CLOSED and tile.has(n))
    return f"{tile} fits the {number}"


def _play(state: GameState, seat: int, action: Play) -> list[Event]:
    tile = action.tile
    if not state.hands[seat] >> tile.index & 1:
        raise IllegalActionError(f"seat {seat} may not play {tile}: it is not in seat {seat}'s hand")
    line = state.line
    if line.tiles == 0:
        if state.must_lead is not None and tile != state.must_lead:
            raise IllegalActionError(
                f"seat {seat} may not lead {tile}: this hand must be opened with {state.must_lead}"
            )
        high_on = action.end or End.LEFT
        if high_on not in (End.LEFT, End.RIGHT):
            raise IllegalActionError(f"seat {seat} may not lead {tile} {high_on}: the first tile lies left-right")
        exposed = line.place_first(tile, high_on)
        played = TilePlayed(seat, tile, high_on, True, exposed, line.spinner is not None)
    else:
        end = _resolve_end(state, seat, tile, action.end)
        exposed, spun = line.place(tile, end.value)
        played = TilePlayed(seat, tile, end, False, exposed, spun)
    state.hands[seat] &= ~(1 << tile.index)
    state.must_lead = None
    state.history.append(played)
    events: list[Event] = [played]
    if state.rules.fives:
        count = line.fives_count()
        if count and count % 5 == 0:
            side = state.side_of(seat)
            scored = PointsScored(side, count, "fives")
            state.scores[side] += count
            state.hand_points[side] += count
            state.history.append(scored)
            events.append(scored)
            if state.rules.target and state.scores[side] >= state.rules.target:
                return events + _finish_hand(state, "target", seat)
    if not state.hands[seat]:
        return events + _finish_hand(state, "domino", seat)
    state.turn = state.next_active(seat)
    return events + _maybe_blocked(state)


def _resolve_end(state: GameState, seat: int, tile: Tile, end: End | None) -> End:
    line = state.line
    if end is not None:
        n = line.ends[end.value]
        if n == CLOSED:
            raise IllegalActionError(f"seat {seat} may not play {tile} {end}: that end is not open")
        if not tile.has(n):
            raise IllegalActionError(f"seat {seat} may not play {tile} {end}: it does not match the {n}")
        return end
    places = fitting_ends(state, tile)
    if not places:
        showing = " or ".join(str(n) for n in line.open_numbers())
        raise IllegalActionError(f"seat {seat} may not play {tile}: it does not match the {showing}")
    if len(places) > 1:
        raise IllegalActionError(
            f"seat {seat} must say where {tile} goes: it fits {' and '.join(str(p) for p in places)}"
        )
    return places[0]


def _draw(state: GameState, seat: int) -> list[Event]:
    if not state.rules.draws:
        raise IllegalActionError(f"seat {seat} may not draw: nobody draws in this game")
    if not state.can_draw():
        left = state.boneyard_left()
        what = "the boneyard is empty" if left == 0 else f"the last {left} tiles stay in the boneyard"
        raise IllegalActionError(f"seat {seat} may not draw: {what}")
    if state.line.tiles == 0:
        raise IllegalActionError(f"seat {seat} may not draw: the hand has not been opened")
    if not state.rules.draw_when_playable:
        why = _why_not_stuck(state, seat)
        if why:
            raise IllegalActionError(f"seat {seat} may not draw: {why}")
    tile = state.boneyard[state.drawn]
    state.drawn += 1
    state.hands[seat] |= 1 << tile.index
    drawn = TileDrawn(seat, tile, state.line.open_numbers(), state.boneyard_left())
    state.history.append(drawn)
    return [drawn, *_maybe_blocked(state)]


def _pass(state: GameState, seat: int) -> list[Event]:
    if state.line.tiles == 0:
        raise IllegalActionError(f"seat {seat} may not pass: it must open the hand")
    why = _why_not_stuck(state, seat)
    if why:
        raise IllegalActionError(f"seat {seat} may not pass: {why}")
    if state.can_draw():
        raise IllegalActionError(f"seat {seat} may not pass: it must draw from the boneyard")
    passed = Passed(seat, state.line.open_numbers())
    state.history.append(passed)
    state.turn = state.next_active(seat)
    return [passed, *_maybe_blocked(state)]


def _maybe_blocked(state: GameState) -> list[Event]:
    if state.is_blocked():
        return _finish_hand(state, "blocked", None)
    return []


def _resign(state: GameState, seat: int) -> list[Event]:
    if not can_resign(state, seat):
        raise IllegalActionError(f"seat {seat} may not resign: it is not playing in this match")
    state.active[seat] = False
    state.departed.append(seat)
    state.hands[seat] = 0
    event = Resigned(seat)
    state.history.append(event)
    events: list[Event] = [event]
    remaining_sides = {state.side_of(s) for s in range(state.players) if state.active[s]}
    if state.rules.partnership or len(remaining_sides) == 1:
        # The last side standing wins the match (a partnership concedes as a team).
        winner = state.side_of(seat) ^ 1 if state.rules.partnership else remaining_sides.pop()
        if state.phase is Phase.PLAY:
            events += _finish_hand(state, "resigned", None, forced_winner=winner)
        else:
            events += _end_match(state, winner)
        return events
    if state.phase is Phase.PLAY:
        if state.turn == seat:
            state.turn = state.next_active(seat)
        if state.line.tiles == 0 and state.opener == seat:
            # The opener left before leading: the next seat opens, with any tile.
            state.opener = state.turn
            state.must_lead = None
        events += _maybe_blocked(state)
    return events


def _finish_hand(
    state: GameState, how: str, mover: int | None, forced_winner: int | None = None
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
