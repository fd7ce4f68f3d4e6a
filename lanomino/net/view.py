"""What a peer knows of the match, rebuilt from its own tiles and the public events. Pure.

A peer never holds the full ``GameState`` (it does not know the other hands). ``PeerView`` keeps
what an ``Observation`` needs: its own tiles, the line (rebuilt with the engine's ``Line`` from
the public ``TilePlayed`` events), the counts, scores and results, and the public history of the
hand. The host says whose turn it is with every update; everything else follows from the events.
``observation()`` gives the same ``Observation`` the host's ``observe(state, seat)`` would give
(a test checks this over random matches), legal moves included.
"""

from __future__ import annotations

from lanomino.engine import (
    DealVoided,
    Event,
    GameState,
    HandEnded,
    HandStarted,
    MatchEnded,
    Observation,
    PointsScored,
    Resigned,
    Rules,
    Tile,
    TileDrawn,
    TilePlayed,
    legal_actions,
)
from lanomino.engine.events import unopened_draw
from lanomino.engine.line import Line
from lanomino.engine.observe import determinize, public_events
from lanomino.engine.scoring import lightest_member
from lanomino.engine.tiles import TILES


class PeerView:
    """One seat's knowledge of a match. Feed it ``start_hand`` then ``apply`` with the events."""

    def __init__(self, rules: Rules, players: int, seat: int) -> None:
        self.rules, self.players, self.seat = rules, players, seat
        self.sides = 2 if rules.partnership else players
        self.scores = [0] * self.sides
        self.active = [True] * players
        self.phase = "deal"
        self.hand_no = 0
        self.dealt_hands = 0
        self.hand: set[Tile] = set()
        self.sizes = [0] * players
        self.turn = 0
        self.opener = 0
        self.must_lead: Tile | None = None
        self.line = Line(rules.fives)
        self.boneyard = 0
        self.hand_points = [0] * self.sides
        self.history: list[Event] = []
        self.results: list[HandEnded] = []
        self.outcome: MatchEnded | None = None
        self.last_opener: int | None = None
        self.last_winner_seat: int | None = None
        self.last_mover = 0
        self._cached: Observation | None = None  # observation() until the next change

    def start_hand(self, tiles: tuple[Tile, ...], started: HandStarted, turn: int) -> None:
        """A new hand: this seat's tiles and the public HandStarted event."""
        self.hand = set(tiles)
        self.hand_no = started.hand
        self.sizes = list(started.hand_sizes)
        # a seat dealt no tiles is out of the match: one that left before this deal (a locked
        # table deals a hand again without a person who left it before it could be scored)
        self.active = [a and n > 0 for a, n in zip(self.active, started.hand_sizes, strict=True)]
        self.boneyard = started.boneyard
        self.opener = started.opener
        self.must_lead = started.must_lead
        self.line = Line(self.rules.fives)
        self.hand_points = [0] * self.sides
        self.history = [started]
        self.phase = "play"
        self.turn = turn
        self._cached = None

    def apply(self, events: list[Event], turn: int) -> None:
        """The public events of one move, then whose turn it is."""
        for event in events:
            self._apply(event)
        self.turn = turn
        self._cached = None

    def changed(self) -> None:
        """Forget the cached observation: call after setting fields directly."""
        self._cached = None

    def opened_draw(self, tile: Tile) -> None:
        """This seat's last draw opened after its event came (the locked deck, net/peer/
        blind.py): the tile joins its hand, and its draw's event shows it, as at any table."""
        self.hand.add(tile)
        at = next(i for i in range(len(self.history) - 1, -1, -1)
                  if type(self.history[i]) is TileDrawn)
        drawn = self.history[at]
        assert isinstance(drawn, TileDrawn)
        self.history[at] = drawn._replace(tile=tile)
        self._cached = None

    def _apply(self, event: Event) -> None:  # one branch per event type: long but flat
        self.history.append(event)
        kind = type(event)
        if kind is TilePlayed:
            assert isinstance(event, TilePlayed)
            if event.first:
                self.line.place_first(event.tile, event.end)
            else:
                self.line.place(event.tile, event.end)
            self.sizes[event.seat] -= 1
            self.must_lead = None
            self.last_mover = event.seat
            if event.seat == self.seat:
                self.hand.discard(event.tile)
        elif kind is TileDrawn:
            assert isinstance(event, TileDrawn)
            self.sizes[event.seat] += 1
            self.boneyard = event.boneyard
            if event.seat == self.seat and event.tile is not None:
                self.hand.add(event.tile)
        elif kind is PointsScored:
            assert isinstance(event, PointsScored)
            self.scores[event.side] += event.points
            self.hand_points[event.side] += event.points
        elif kind is Resigned:
            assert isinstance(event, Resigned)
            self.active[event.seat] = False
            self.sizes[event.seat] = 0
            if event.seat == self.seat:
                self.hand = set()
        elif kind is HandEnded:
            assert isinstance(event, HandEnded)
            for side, points in enumerate(event.points):
                self.scores[side] += points - self.hand_points[side]
            self.results.append(event)
            self.last_opener = self.opener
            self.last_winner_seat = self._winner_seat(event)
            self.dealt_hands += 1
            self.phase = "deal"
        elif kind is MatchEnded:
            assert isinstance(event, MatchEnded)
            self.outcome = event
            self.phase = "over"
        elif kind is DealVoided:
            assert isinstance(event, DealVoided)
            self.hand_no = event.hand

    def observation(self) -> Observation:
        """The seat's Observation now, legal moves included.

        Built once per change and then shared: an update costs one build, however many times the
        session, the UI and ``submit``'s legality check ask. Do not mutate it (``determinize``
        copies the line).
        """
        if self._cached is None:
            self._cached = self._observe()
        return self._cached

    def _observe(self) -> Observation:
        reserve = self.rules.boneyard_reserve if self.rules.draws else self.boneyard
        hand = tuple(sorted(self.hand, key=_index))
        obs = Observation(
            seat=self.seat, rules=self.rules, players=self.players, phase=self.phase,
            hand_no=self.hand_no, dealt_hands=self.dealt_hands, hand=hand,
            hand_sizes=tuple(self.sizes), active=tuple(self.active), turn=self.turn,
            opener=self.opener, must_lead=self.must_lead if self.seat == self.opener else None,
            line=self.line.copy(), boneyard=self.boneyard,
            drawable=max(0, self.boneyard - reserve), scores=tuple(self.scores),
            hand_points=tuple(self.hand_points), history=tuple(self.history), legal=(),
            results=tuple(self.results), outcome=self.outcome, last_opener=self.last_opener,
            last_winner_seat=self.last_winner_seat,
        )
        if self.phase != "play" or self.turn != self.seat or unopened_draw(self.history, self.seat):
            return obs  # (its own draw still opening: nothing to do until the tile shows)
        # Our own legal moves depend only on our tiles, the line and the boneyard count: a state
        # with the other hands empty and a stand-in boneyard answers exactly.
        hands = [hand if s == self.seat else () for s in range(self.players)]
        mine = {t.index for t in hand}
        filler = [t for t in TILES if t.index not in mine][: self.boneyard]
        state = determinize(obs, hands, filler)
        # Nobody has seen ``obs`` yet: fill in its legal moves rather than build it a second time
        # (dataclasses.replace on this frozen, 23-field class costs as much as the build).
        object.__setattr__(obs, "legal", tuple(legal_actions(state, self.seat)))  # type: ignore[arg-type]
        return obs


    def _winner_seat(self, event: HandEnded) -> int | None:
        """The seat that won the hand, as the engine names it."""
        if event.winner is None or event.end == "resigned":
            return None
        if event.end in ("domino", "target"):
            return self.last_mover
        # Blocked: the end shows every hand, so the engine's own rule names the seat.
        return lightest_member(self.active, self.rules.partnership, event.winner, event.pips_left)


def _index(tile: Tile) -> int:
    return tile.index


def view_after(state: GameState, rules: Rules, seat: int) -> PeerView:
    """A seat's view after the finished hands whose engine state is ``state`` (all of it public)."""
    view = PeerView(rules, state.players, seat)
    view.scores, view.active = list(state.scores), list(state.active)
    view.phase, view.hand_no, view.dealt_hands = state.phase.value, state.hand_no, state.dealt_hands
    view.results, view.outcome = list(state.results), state.outcome
    view.last_opener, view.last_winner_seat = state.last_opener, state.last_winner_seat
    view.hand_points = list(state.hand_points)
    view.history = public_events(state.history, seat)
    view.turn, view.opener = state.turn, state.opener
    view.changed()
    return view
