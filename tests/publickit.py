"""Random hands for the engine's public view (``engine/public.py``): a table whose seats each
keep their own tiles while the host runs only the view, with the full engine alongside as a
referee that must agree with it move by move. Used by tests/engine and tests/blind."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    TILES,
    Action,
    DealVoided,
    Draw,
    Event,
    GameState,
    HandEnd,
    HandEnded,
    MatchEnded,
    Pass,
    Phase,
    Play,
    Resign,
    Rules,
    Tile,
    TileDrawn,
    apply,
    legal_actions,
    new_game,
    start_hand,
)
from lanomino.engine.dealing import deal_for
from lanomino.engine.moves import draw_refusal, pass_refusal
from lanomino.engine.opening import opener_is_public
from lanomino.engine.public import Claim, PublicHand, public_opener
from lanomino.engine.tiles import tiles_in

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *[(p, n, {}) for p in ("classic", "block", "allfives") for n in (2, 3, 4)],
    ("partnership", 4, {}),
    ("partnership", 4, {"game": "allfives", "round_to_5": True}),
    ("classic", 2, {"boneyard_reserve": 2, "draw_when_playable": True}),
    ("classic", 3, {"no_double": "reshuffle", "next_opener": "highest-double"}),
    ("classic", 4, {"next_opener": "alternate", "no_winner_opener": "next-seat"}),
    ("allfives", 2, {"draw_when_playable": True, "boneyard_reserve": 2}),
    ("block", 2, {"target": 0, "blocked_tie": "lightest-tile"}),
    ("allfives", 3, {"target": 15}),  # hands that end at the target during play
]


@dataclass
class Table:
    """One hand at a table of seats that each keep their own tiles; the host has only ``view``.
    ``referee`` is the full engine fed the same moves, while every move has been honest."""

    view: PublicHand
    deck: list[Tile]
    boneyard: list[Tile]  # in draw order
    hands: list[int]  # each seat's own tiles, as a mask (the seat's knowledge, not the host's)
    referee: GameState | None
    # (seat, action, position in the deck): the locked hand's record of each play, draw, pass
    moves: list[tuple[int, Action, int | None]] = field(default_factory=list)
    drawn: int = 0
    lie_at: int | None = None  # the move at which a seat lied in a claim

    def position_of(self, tile: Tile) -> int:
        return self.deck.index(tile)

    def act(self, seat: int, action: Action) -> list[Event]:
        """The seat's move: the host's public view takes it, the seat's own tiles follow. A
        pass is a claim, and so is a draw where the rules forbid drawing while a tile fits."""
        claims = len(self.view.claims)
        events = self.view.apply(seat, action)
        claimed = isinstance(action, Pass) or (
            isinstance(action, Draw) and not self.view.core.rules.draw_when_playable)
        assert self.view.claims[claims:] == (
            [Claim(seat, len(self.moves), action, self.view.line.open_numbers())]
            if claimed else [])
        position = None
        if isinstance(action, Play):
            position = self.position_of(action.tile)
            self.hands[seat] &= ~action.tile.bit
        elif isinstance(action, Draw):
            position = self.position_of(self.boneyard[self.drawn])
            self.drawn += 1
            self.hands[seat] |= self.deck[position].bit
        elif isinstance(action, Resign):  # in the log, not among the record's moves
            self.hands[seat] = 0
            return events
        self.moves.append((seat, action, position))
        return events


def deal(before: GameState, rng: random.Random) -> tuple[Table | None, GameState]:
    """A random deal: the referee engine dealt it, the public view opens as it says. (None for
    a void deal, which the opening's rounds find without a hand to play; the referee)."""
    deck = list(TILES)
    rng.shuffle(deck)
    referee = before.copy()
    if isinstance(start_hand(referee, *deal_for(referee, deck))[0], DealVoided):
        return None, referee
    if opener_is_public(before):  # the opener follows from public facts: the view finds it
        assert public_opener(before) == (referee.opener, referee.must_lead)
    # (else the lead rounds find the engine's opener: tests/blind/test_blind_lead_rounds.py)
    view = PublicHand(before, referee.opener, referee.must_lead)
    assert view.started == referee.history[0]
    return Table(view, deck, list(referee.boneyard), list(referee.hands), referee), referee


def assert_same_position(view: PublicHand, full: GameState) -> None:
    """The host's public view shows what the full engine shows."""
    for part in ("ends", "double", "counted", "pending", "spinner", "tiles", "first"):
        assert getattr(view.line, part) == getattr(full.line, part), part
    assert view.counts == [len(full.hand_of(s)) for s in range(full.players)]
    assert view.boneyard_left() == full.boneyard_left()
    assert view.core.drawable == full.drawable
    assert view.core.active == full.active and view.core.hand_points == full.hand_points
    if full.phase is Phase.PLAY:  # (the end's points come with the reveal)
        assert view.turn == full.turn and view.outcome is None
        assert view.core.scores == full.scores


def public_part(events: list[Event]) -> list[Event]:
    """What the table sees of a full engine's events: no hand's end (that comes with the
    reveal) and no drawn tile."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, HandEnded | MatchEnded):
            continue
        out.append(TileDrawn(e.seat, None, e.ends, e.boneyard) if isinstance(e, TileDrawn) else e)
    return out


def false_claim(view: PublicHand, seat: int, legal: Sequence[Action]) -> Action | None:
    """The claim ``seat``, whose legal moves are ``legal``, could make falsely now: it holds a
    tile that fits, yet says it cannot play (a draw, where the rules forbid drawing then; else
    a pass)."""
    if not any(isinstance(a, Play) for a in legal) or view.line.tiles == 0:
        return None
    if not view.core.rules.draw_when_playable and draw_refusal(view.core, seat) is None:
        return DRAW
    return PASS if pass_refusal(view.core) is None else None


def play_hand(table: Table, rng: random.Random, lie: bool = False, resign: bool = False
              ) -> None:
    """Random moves until the public view says the hand is over, each seat choosing from its own
    tiles with the view's ``legal_for``; while nobody has lied, the referee engine takes every
    move too and the two must agree. With ``lie``, the first seat that can lies once; with
    ``resign``, now and then a seat leaves (not necessarily the one to move)."""
    view = table.view
    while view.outcome is None:
        seat = view.turn
        legal = view.legal_for(seat, tiles_in(table.hands[seat]))
        full = table.referee
        if full is not None and full.phase is Phase.PLAY:
            assert tuple(legal) == tuple(legal_actions(full, seat))
        action: Action = rng.choice(list(legal))
        if lie and table.lie_at is None and (false := false_claim(view, seat, legal)) is not None:
            action, table.lie_at, table.referee = false, view.moves, None
            full = None
        if resign and full is not None and full.phase is Phase.PLAY and rng.random() < 0.05:
            action = RESIGN
            seat = rng.choice([s for s in range(full.players) if full.active[s]])
        public = table.act(seat, action)
        if full is None:
            continue
        if full.phase is Phase.PLAY:
            assert public == public_part(apply(full, seat, action))
        else:  # the engine, knowing every hand, ended it blocked: the seats pass in turn
            assert full.results[-1].end is HandEnd.BLOCKED and isinstance(action, Pass)
        assert_same_position(view, full)


def playouts(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A random-playout test: ``match`` a new match of one of CONFIGS, ``rng`` its chance."""
    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                        suppress_health_check=[HealthCheck.too_slow])(
            given(match=st.sampled_from(CONFIGS).map(lambda c: new_game(
                Rules.preset(c[0], **c[2]), c[1])),
                  rng=st.integers(0, 2**32 - 1).map(random.Random))(test))
    return decorate


