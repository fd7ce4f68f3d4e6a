"""What one seat may know: ``observe(state, seat)``.

An observation holds the seat's own tiles and only public facts about the others: tile counts,
the line, the boneyard count, scores and the public history, in which other seats' draws show no
tile. When a hand has ended, every hand is public (it is revealed in ``HandEnded``).

Theory of operation: an observation costs the same at the first move of a hand as at the last.
The public history is not copied per observation: each seat has an append-only public log of the
hand (kept in the GameState, extended with the events since that seat's last observation), and
the observation holds a ``History``, a read-only view of that log's first ``n`` events. Later
appends do not change a view, so it is as immutable as a tuple. The finished hands' tuple is made
once per finished hand and shared (GameState.results_seen). The legal moves are computed once,
here, and carried in the observation. Compiled with mypyc when installed (see setup.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, cast, overload

from lanomino.engine.actions import Action
from lanomino.engine.events import Event, HandEnded, MatchEnded, TileDrawn
from lanomino.engine.legal import legal_actions
from lanomino.engine.line import Line
from lanomino.engine.rules import Rules
from lanomino.engine.state import GameState, Phase
from lanomino.engine.tiles import Tile, tiles_in

if TYPE_CHECKING:  # a native 64-bit int when compiled (mypyc); a plain int to Python
    from mypy_extensions import i64


class History:
    """The first ``len(self)`` events of an append-only log: a hand's public history as one seat
    saw it at one moment. Read-only; equal to the tuple of the same events (and hashes like it).

    A ``Sequence`` by registration (below) rather than by inheritance: compiled (setup.py), a
    class with the ABC as its base is an interpreted class, and making one cost about half of an
    observation. So the mixin methods the ABC would lend (index, count, in) are written here."""

    __slots__ = ("_events", "_n")

    def __init__(self, events: list[Event], n: int) -> None:
        self._events = events  # only ever appended to (state.history in a game without draws)
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[: self._n])[index]
        i = index + self._n if index < 0 else index
        if not 0 <= i < self._n:
            raise IndexError("history index out of range")
        return self._events[i]

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._n)

    def __reversed__(self) -> Iterator[Event]:
        return reversed(self._events[: self._n])

    def __contains__(self, value: object) -> bool:
        return value in self._events[: self._n]

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The first place of ``value`` (as tuple.index). Raises ValueError when it is not in."""
        return tuple(self._events[: self._n]).index(value, start, self._n if stop is None else stop)

    def count(self, value: object) -> int:
        return tuple(self._events[: self._n]).count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._events[: self._n] == other._events[: other._n]
        if isinstance(other, tuple):
            return tuple(self._events[: self._n]) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._events[: self._n]))

    def __repr__(self) -> str:
        return f"History({tuple(self._events[: self._n])!r})"


Sequence.register(History)


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
    line: Line  # a snapshot (Line.snapshot): read-only; copy() it to try moves
    boneyard: int  # tiles left in the boneyard
    drawable: int  # of those, how many may still be drawn
    scores: tuple[int, ...]
    hand_points: tuple[int, ...]
    history: Sequence[Event]  # this hand, public view (a History from observe: read-only)
    legal: tuple[Action, ...]  # this seat's legal moves now
    results: tuple[HandEnded, ...]
    outcome: MatchEnded | None
    last_opener: int | None
    last_winner_seat: int | None

    def __new__(cls, *args: object, **kwargs: object) -> Observation:
        """An instance without its fields (the dataclass's __init__ stores them). Written out
        for observe's compiled route, where ``Observation.__new__(Observation)`` then becomes a
        native allocation instead of a call through type.__new__'s wrapper."""
        return object.__new__(cls)

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


def public_history(state: GameState, seat: int) -> History:
    """This hand's history as ``seat`` may see it now: O(events since its last look)."""
    history = state.history
    if not state.rules.draws:  # no TileDrawn: the whole history is public, one log for all
        return History(history, len(history))
    if state.views_of is not history:  # a new hand (or a new list): start the seats' logs again
        state.views = [[] for _ in range(state.players)]
        state.views_of = history
    view = state.views[seat]
    for i in range(len(view), len(history)):
        event = history[i]
        if type(event) is TileDrawn and event.seat != seat and event.tile is not None:
            event = TileDrawn(event.seat, None, event.ends, event.boneyard)
        view.append(event)
    return History(view, len(view))


def observe(state: GameState, seat: int) -> Observation:
    """What ``seat`` may know about ``state``."""
    rules = state.rules
    draws = rules.draws  # a property: read once
    boneyard = len(state.boneyard) - state.drawn
    # All but the reserve may be drawn, in a game with draws.
    drawable = max(0, boneyard - rules.boneyard_reserve) if boneyard and draws else 0
    phase = state.phase
    players = state.players
    phase_name = "play" if phase is _PLAY else "deal" if phase is _DEAL else "over"
    hand_no = state.hand_no
    dealt_hands = state.dealt_hands
    hand = tiles_in(state.hands[seat])
    # The same tuple either way: map() is the faster interpreted; compiled, a native count
    # (h.bit_count() is a method call into the interpreter) stored straight into a tuple of the
    # list's length (mypyc's form of tuple() over a generator on a list: no list, no generator).
    hands = state.hands
    hand_sizes = (
        tuple(_tile_count(h) for h in hands) if _COMPILED else tuple(map(int.bit_count, hands))
    )
    active = tuple(state.active)
    turn = state.turn
    opener = state.opener
    must_lead = state.must_lead if seat == state.opener else None
    line = state.line.snapshot()
    if _COMPILED:  # the last observation's tuples while they hold (see _kept)
        scores = state.scores_seen = _kept(state.scores_seen, state.scores)
        hand_points = state.points_seen = _kept(state.points_seen, state.hand_points)
    else:  # interpreted, comparing costs more than a new tuple
        scores = tuple(state.scores)
        hand_points = tuple(state.hand_points)
    # Without draws the whole history is public (public_history's first case, without its call).
    history = public_history(state, seat) if draws else History(state.history, len(state.history))
    legal = tuple(legal_actions(state, seat))
    results = state.results_seen  # the finished hands: copied only when one more has ended
    if state.results_of is not state.results or len(results) != len(state.results):
        results = state.results_seen = tuple(state.results)
        state.results_of = state.results
    outcome = state.outcome
    last_opener = state.last_opener
    last_winner_seat = state.last_winner_seat
    if _COMPILED:  # the same value, by native stores (see _native_observation)
        return _native_observation(
            seat, rules, players, phase_name, hand_no, dealt_hands, hand, hand_sizes, active, turn,
            opener, must_lead, line, boneyard, drawable, scores, hand_points,
            cast("Sequence[Event]", history), legal, results, outcome, last_opener,
            last_winner_seat,
        )
    # Interpreted, a frozen dataclass's __init__ sets each field with object.__setattr__, which
    # cost half of observe(): the draft (the same slots, plain stores) becomes the class instead.
    obs = _Draft()
    obs.seat = seat
    obs.rules = rules
    obs.players = players
    obs.phase = phase_name
    obs.hand_no = hand_no
    obs.dealt_hands = dealt_hands
    obs.hand = hand
    obs.hand_sizes = hand_sizes
    obs.active = active
    obs.turn = turn
    obs.opener = opener
    obs.must_lead = must_lead
    obs.line = line
    obs.boneyard = boneyard
    obs.drawable = drawable
    obs.scores = scores
    obs.hand_points = hand_points
    obs.history = history
    obs.legal = legal
    obs.results = results
    obs.outcome = outcome
    obs.last_opener = last_opener
    obs.last_winner_seat = last_winner_seat
    obs.__class__ = Observation
    made: Observation = obs
    return made


_PLAY: Final = Phase.PLAY
_DEAL: Final = Phase.DEAL

# Built by mypyc (setup.py), this module stores an observation's fields natively: a frozen
# dataclass's generated __init__ makes one interpreted __setattr__ call per field, which cost more
# than the rest of a move. Interpreted, the frozen class refuses such stores, so the class is used.
_COMPILED: Final = not __file__.endswith(".py")
# The interpreted route's draft: a plain class with the very slots of Observation, so that an
# instance may take Observation as its class once every field is stored (checked below).
def _draft_class() -> Any:
    return type("_Draft", (), {"__slots__": vars(Observation)["__slots__"]})


_Draft: Final[Any] = None if _COMPILED else _draft_class()


def _tile_count(mask: int) -> int:
    """``mask.bit_count()`` of a (double-six) hand mask, below 2**32: the bits are summed in
    pairs, nibbles and bytes, then the four bytes by one multiplication (no product passes
    2**58). Compiled, on a native 64-bit int: a tenth of the four table lookups it replaces."""
    x: i64 = mask
    x -= x >> 1 & 0x55555555
    x = (x & 0x33333333) + (x >> 2 & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return int(x * 0x01010101 >> 24 & 0xFF)


def _kept(seen: tuple[int, ...], now: list[int]) -> tuple[int, ...]:
    """``tuple(now)``, or ``seen`` itself when it holds the same numbers. Compiled, comparing two
    or four small ints costs less than making a tuple and later freeing it."""
    n = len(now)
    if len(seen) != n:
        return tuple(now)
    for i in range(n):
        if seen[i] != now[i]:
            return tuple(now)
    return seen


def _native_observation(
    seat: int,
    rules: Rules,
    players: int,
    phase: str,
    hand_no: int,
    dealt_hands: int,
    hand: tuple[Tile, ...],
    hand_sizes: tuple[int, ...],
    active: tuple[bool, ...],
    turn: int,
    opener: int,
    must_lead: Tile | None,
    line: Line,
    boneyard: int,
    drawable: int,
    scores: tuple[int, ...],
    hand_points: tuple[int, ...],
    history: Sequence[Event],
    legal: tuple[Action, ...],
    results: tuple[HandEnded, ...],
    outcome: MatchEnded | None,
    last_opener: int | None,
    last_winner_seat: int | None,
) -> Observation:
    """``Observation(...)`` with the same arguments, built by native stores (compiled only)."""
    obs = Observation.__new__(Observation)
    obs.seat = seat  # type: ignore[misc]
    obs.rules = rules  # type: ignore[misc]
    obs.players = players  # type: ignore[misc]
    obs.phase = phase  # type: ignore[misc]
    obs.hand_no = hand_no  # type: ignore[misc]
    obs.dealt_hands = dealt_hands  # type: ignore[misc]
    obs.hand = hand  # type: ignore[misc]
    obs.hand_sizes = hand_sizes  # type: ignore[misc]
    obs.active = active  # type: ignore[misc]
    obs.turn = turn  # type: ignore[misc]
    obs.opener = opener  # type: ignore[misc]
    obs.must_lead = must_lead  # type: ignore[misc]
    obs.line = line  # type: ignore[misc]
    obs.boneyard = boneyard  # type: ignore[misc]
    obs.drawable = drawable  # type: ignore[misc]
    obs.scores = scores  # type: ignore[misc]
    obs.hand_points = hand_points  # type: ignore[misc]
    obs.history = history  # type: ignore[misc]
    obs.legal = legal  # type: ignore[misc]
    obs.results = results  # type: ignore[misc]
    obs.outcome = outcome  # type: ignore[misc]
    obs.last_opener = last_opener  # type: ignore[misc]
    obs.last_winner_seat = last_winner_seat  # type: ignore[misc]
    return obs


def determinize(
    obs: Observation, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> object:
    """A full GameState consistent with ``obs``, given a guess at the hidden tiles.

    ``hands[s]`` must be seat s's hand (the observer's own included) and ``boneyard`` the tiles
    left to draw, in the order they would be drawn. Used by bots for search.
    """
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
