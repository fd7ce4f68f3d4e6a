"""The game state of a match, and dealing a hand.

Theory of operation: a ``GameState`` is created for a match with ``new_game``. Each hand begins
with ``start_hand(state, deal, boneyard)``: chance is input, the engine never shuffles. Then the
seats act with ``apply(state, seat, action)``, which checks the action against the same logic as
``legal_actions`` and returns the events it caused. A hand ends inside ``apply`` the moment a seat
goes out, the line is blocked, a seat reaches the target during play (All Fives) or resigning
leaves one side; ``end_of_hand`` and ``end_of_match`` are the only places those outcomes are
decided. The state is mutable, like a chess board; ``copy()`` gives an independent one.
``legal_actions`` and ``apply`` live in ``play.py``.

Phases: DEAL (waiting for a deal) -> PLAY -> DEAL ... -> OVER.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

from lanomino.engine.errors import IllegalActionError, seat_name
from lanomino.engine.events import DealVoided, Event, HandEnded, HandStarted, MatchEnded
from lanomino.engine.line import CLOSED, Line
from lanomino.engine.opening import choose_opener
from lanomino.engine.rules import Rules
from lanomino.engine.tiles import FULL_MASK, TILES, WITH, Tile, tiles_in

_new_tuple: Final = tuple.__new__


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
        "next_seat", "drawable", "fast", "views", "views_of", "results_seen", "results_of",
        "scores_seen", "points_seen",
    )

    def __init__(self, rules: Rules, players: int, check: bool = True) -> None:
        if check:
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
        self.next_seat = [(s + 1) % players for s in range(players)]  # clockwise, active seats only
        self.drawable = 0  # tiles that may still be drawn this hand
        # True while the hand is on the hot path: opened, two plain ends (not All Fives), no
        # drawing with a playable tile. apply/legal_actions then take their short route.
        self.fast = False
        # Each seat's public log of this hand, built from ``history`` by observe.public_history
        # as the seat looks (``views_of`` is the history list they were built from).
        self.views: list[list[Event]] = []
        self.views_of: list[Event] | None = None
        # ``results`` as the tuple observations hold (observe: made again only when a hand has
        # ended since, or ``results`` is another list; ``results_of`` is the list it was made of).
        self.results_seen: tuple[HandEnded, ...] = ()
        self.results_of: list[HandEnded] | None = None
        # ``scores`` and ``hand_points`` as the last observation's tuples (observe, compiled: the
        # same tuple again while the list still holds the same numbers).
        self.scores_seen: tuple[int, ...] = ()
        self.points_seen: tuple[int, ...] = ()

    def copy(self) -> GameState:
        """An independent copy (for search): lists are copied, values shared."""
        new = GameState(self.rules, self.players, check=False)
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = value[:]
            setattr(new, name, value)
        new.line = self.line.copy()
        return new

    # ----- questions ----------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.rules.partnership else seat

    def hand_of(self, seat: int) -> tuple[Tile, ...]:
        return tiles_in(self.hands[seat])

    def boneyard_left(self) -> int:
        return len(self.boneyard) - self.drawn

    def can_draw(self) -> bool:
        return self.drawable > 0

    def next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.active[candidate]:
                return candidate
        return seat

    def fitting_mask(self) -> int:
        """The tiles that would fit an open end now."""
        ends = self.line.ends
        mask = WITH[ends[0]] | WITH[ends[1]] if ends[0] != CLOSED else 0
        if ends[2] != CLOSED:
            mask |= WITH[ends[2]] | WITH[ends[3]]
        return mask

    def is_blocked(self) -> bool:
        """No seat can play and nobody may draw."""
        if self.line.tiles == 0 or self.can_draw():
            return False
        # Hands are disjoint bitmasks (a departed seat's is 0), so their sum is their union.
        return not sum(self.hands) & self.fitting_mask()


# The fields copy() carries over (not the seats' public logs: a copy builds its own). A literal,
# not GameState.__slots__, so that the module also compiles with mypyc (see setup.py), where
# native classes have no __slots__ to read.
_STATE_FIELDS: Final[tuple[str, ...]] = (
        "rules", "players", "sides", "scores", "active", "departed", "phase", "hand_no",
        "hands", "boneyard", "drawn", "turn", "opener", "must_lead", "line", "hand_points",
        "history", "last_opener", "last_winner_seat", "results", "outcome", "dealt_hands",
        "next_seat", "drawable", "fast",
)


def new_game(rules: Rules, players: int) -> GameState:
    """A match for ``players`` seats, waiting for its first deal. Raises RulesError."""
    return GameState(rules, players)


# ----- dealing -------------------------------------------------------------------------------


def start_hand(
    state: GameState, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> list[Event]:
    """Deal a hand: ``deal[i]`` is seat i's hand, ``boneyard`` in draw order.

    Raises IllegalActionError when the match is not waiting for a deal or the deal is wrong.
    """
    if state.phase is not Phase.DEAL:
        raise IllegalActionError("the match is not waiting for a deal")
    state.hands = check_deal(state, deal, boneyard)
    clear_hand(state, boneyard)
    choice = choose_opener(state)
    if choice is None:
        voided = DealVoided(state.hand_no)
        state.history.append(voided)
        return [voided]
    events: list[Event] = [open_hand(state, choice[0], choice[1], tuple(map(len, deal)))]
    return events


def clear_hand(state: GameState, boneyard: Sequence[Tile]) -> None:
    """A new deal's public reset: the hand's number, the boneyard (in draw order) and what may
    be drawn of it, an empty line, no points, no history yet."""
    state.hand_no += 1
    state.boneyard = list(boneyard)
    state.drawn = 0
    state.drawable = (
        max(0, len(boneyard) - state.rules.boneyard_reserve) if state.rules.draws else 0
    )
    state.line = Line(state.rules.fives)
    state.hand_points = [0] * state.sides
    state.history = []


def open_hand(
    state: GameState, opener: int, must_lead: Tile | None, sizes: tuple[int, ...]
) -> HandStarted:
    """The hand starts: ``opener`` to lead (``must_lead``, if the rules name the tile); the
    HandStarted event, in the history."""
    state.opener, state.must_lead = opener, must_lead
    state.turn = opener
    state.phase = Phase.PLAY
    state.fast = False
    # tuple.__new__: the named tuple without its interpreted __new__ (the same value).
    started: HandStarted = _new_tuple(
        HandStarted, (state.hand_no, opener, must_lead, sizes, len(state.boneyard))
    )
    state.history.append(started)
    return started


def check_deal(
    state: GameState, deal: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> list[int]:
    """The hands as bitmasks. Raises IllegalActionError unless the deal uses every tile once
    with the right hand sizes."""
    if len(deal) != state.players:
        raise IllegalActionError(f"the deal has {len(deal)} hands for {state.players} seats")
    size = state.rules.hand_size_for(state.players)
    seen = 0
    count = 0
    masks = []
    for seat, hand in enumerate(deal):
        want = size if state.active[seat] else 0
        if len(hand) != want:
            raise IllegalActionError(f"{seat_name(seat)} was dealt {len(hand)} tiles, not {want}")
        mask = 0
        for tile in hand:
            mask |= tile.bit
        masks.append(mask)
        seen |= mask
        count += len(hand)
    for tile in boneyard:
        seen |= tile.bit
    count += len(boneyard)
    if seen != FULL_MASK or count != len(TILES):
        missing = ", ".join(str(t) for t in tiles_in(FULL_MASK & ~seen))
        if missing:
            raise IllegalActionError(f"the deal is missing {missing}")
        raise IllegalActionError("the deal has a tile twice")
    return masks
