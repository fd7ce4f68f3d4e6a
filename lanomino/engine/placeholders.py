"""A hand's state when some seats' tiles are unknown: placeholders for them. Pure.

When the tiles of some seats and the boneyard's order are unknown (a host lost its deal and the
survivors claim their own tiles: ``fair/reshuffle.py``; a holder left a locked hand and its key
went with it: ``blind/unheld_check.py``), ``world_at`` builds a game state that agrees with
everything that *can* be known: the claimants' hands are exact (so their moves are checked in
full: ownership, must-play, draws), every tile an unclaimed seat played was free to be its (not
claimed, not on the line), an unclaimed seat that drew or passed could have been stuck, and the
hand did not end before the re-shuffle. The unclaimed seats' tiles are placeholders (each
starting with the tiles it plays), moved around as their moves require; their identities are
never used afterwards, because the re-shuffle deals those tiles again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from lanomino.engine.actions import Action, Draw, Pass, Play, Resign
from lanomino.engine.errors import IllegalActionError, seat_name
from lanomino.engine.events import HandEnded, HandStarted
from lanomino.engine.line import Line
from lanomino.engine.play import apply
from lanomino.engine.state import _STATE_FIELDS, GameState, Phase
from lanomino.engine.tiles import TILES, Tile, tiles_in


class WorldError(ValueError):
    """The claims and the moves before a re-shuffle do not fit together. ``check`` names the check
    (claim, ownership, legality, unfinished, blocked) and ``seat`` the seat at fault (None: the
    log). ``blocked``: the hand was blocked at ``move`` (an index of the moves given), whatever
    the unclaimed seats held: no tile they could hold fits the line (a table that cannot see the
    hands learns of a block only as every seat passes, so a loss can come after it)."""

    def __init__(self, check: str, seat: int | None, message: str, move: int | None = None
                 ) -> None:
        super().__init__(message)
        self.check, self.seat, self.move = check, seat, move


class Claimed(Protocol):
    """A claimant's part of the deal: its dealt tiles, then its draws in order."""

    @property
    def seat(self) -> int: ...
    @property
    def dealt(self) -> tuple[Tile, ...]: ...
    @property
    def drawn(self) -> tuple[Tile, ...]: ...


@dataclass(slots=True)
class World:
    """The state after the moves before the re-shuffle, and the deal it was started from (the
    claimants' parts exact, placeholders elsewhere)."""

    state: GameState
    deal: list[list[Tile]]
    boneyard: list[Tile]


def world_at(state: GameState, attempts: int, opener: int, claims: Mapping[int, Claimed],
             moves: Sequence[tuple[int, Action]]) -> World:
    """Play ``moves`` (the hand's moves before the re-shuffle) on ``state`` (waiting for a deal;
    ``attempts`` deals were made for this hand), in place, as far as the claims allow. Raises
    WorldError (``state`` is then half-changed: throw it away)."""
    rules, players = state.rules, state.players
    size = rules.hand_size_for(players)
    dealt_to = [s for s in range(players) if state.active[s]]
    bone = len(TILES) - size * len(dealt_to)
    seen: set[Tile] = set()
    for seat, c in sorted(claims.items()):
        if seat != c.seat or seat not in dealt_to:
            raise WorldError("claim", seat,
                                 f"{seat_name(seat)} claims tiles but was not dealt in")
        if len(c.dealt) != size:
            raise WorldError("claim", seat,
                                 f"{seat_name(seat)} claims {len(c.dealt)} dealt tiles, not {size}")
        for t in (*c.dealt, *c.drawn):
            if t in seen:
                raise WorldError("claim", seat, f"{t} is claimed twice ({seat_name(seat)})")
            seen.add(t)
    # who drew which boneyard position
    owner: list[int] = [s for s, a in moves if isinstance(a, Draw)]
    if len(owner) > bone:
        raise WorldError("legality", None, f"{len(owner)} draws from a boneyard of {bone}")
    boneyard: list[Tile | None] = [None] * bone
    for seat, c in claims.items():
        positions = [p for p, s in enumerate(owner) if s == seat]
        if len(positions) != len(c.drawn):
            raise WorldError("claim", seat, f"{seat_name(seat)} claims {len(c.drawn)} draws "
                                 f"but drew {len(positions)} times")
        for p, t in zip(positions, c.drawn, strict=True):
            boneyard[p] = t
    reserved = {p for p, s in enumerate(owner) if s in claims}
    pool = [t for t in TILES if t not in seen]
    # An unclaimed seat starts with the tiles it will play (as many as its hand holds), so that
    # none of them sits in the hand of a seat that resigns before it is played.
    deal: list[list[Tile]] = [[] for _ in range(players)]
    for seat in dealt_to:
        if seat not in claims:
            deal[seat] = [a.tile for s, a in moves
                          if s == seat and isinstance(a, Play) and a.tile in pool][:size]
            pool = [t for t in pool if t not in deal[seat]]
    for seat in dealt_to:
        if seat in claims:
            deal[seat] = list(claims[seat].dealt)
        else:
            more = size - len(deal[seat])
            deal[seat] += pool[:more]
            del pool[:more]
    for p in range(bone):
        if boneyard[p] is None:
            boneyard[p] = pool.pop(0)
    full = [t for t in boneyard if t is not None]
    _start(state, deal, full, attempts, opener)
    unknown = [s for s in dealt_to if s not in claims]
    for index, (seat, action) in enumerate(moves):
        if seat in unknown and not isinstance(action, Resign):
            _fit(state, seat, action, unknown, reserved, index)
        trial = state.copy()
        try:
            apply(trial, seat, action)
        except IllegalActionError as exc:
            unheld = isinstance(action, Play) and not state.hands[seat] >> action.tile.index & 1
            check = "ownership" if unheld else "legality"
            raise WorldError(check, seat, f"move {index + 1}: {exc}") from None
        if trial.phase is not Phase.PLAY and _feed(state, trial, unknown, reserved):
            trial = state.copy()
            apply(trial, seat, action)
        if trial.phase is not Phase.PLAY:
            blocked = any(isinstance(e, HandEnded) and e.end == "blocked" for e in trial.history)
            raise WorldError("blocked" if blocked else "unfinished", None,
                             f"the hand ended at move {index + 1}, before the re-shuffle", index)
        for name in _STATE_FIELDS:
            setattr(state, name, getattr(trial, name))
    return World(state, deal, full)


def _start(state: GameState, deal: list[list[Tile]], boneyard: list[Tile], attempts: int,
           opener: int) -> None:
    """``start_hand`` with a known opener and no tile it must lead (that cannot be checked here)."""
    if state.phase is not Phase.DEAL:
        raise WorldError("unfinished", None, "the match is not waiting for a deal")
    if not 0 <= opener < state.players or not state.active[opener]:
        raise WorldError("claim", None, f"{seat_name(opener)} cannot have opened the hand")
    state.hands = [sum(t.bit for t in h) for h in deal]
    state.hand_no += attempts
    state.boneyard = list(boneyard)
    state.drawn = 0
    reserve = state.rules.boneyard_reserve
    state.drawable = max(0, len(boneyard) - reserve) if state.rules.draws else 0
    state.line = Line(state.rules.fives)
    state.hand_points = [0] * state.sides
    state.opener, state.must_lead, state.turn = opener, None, opener
    state.phase = Phase.PLAY
    state.fast = False
    state.history = [HandStarted(state.hand_no, opener, None, tuple(map(len, deal)), len(boneyard))]


def _free(state: GameState, unknown: Sequence[int], reserved: set[int]) -> list[tuple[int, int]]:
    """Placeholder places: ("hand", seat) as (0, seat), boneyard positions as (1, position)."""
    places = [(0, s) for s in unknown if state.active[s]]
    places += [(1, p) for p in range(state.drawn, len(state.boneyard)) if p not in reserved]
    return places


def _swap_in(state: GameState, seat: int, tile: Tile, out: Tile, place: tuple[int, int]) -> None:
    """Move ``tile`` from ``place`` into ``seat``'s hand and ``out`` from that hand to ``place``."""
    state.hands[seat] ^= tile.bit | out.bit
    kind, where = place
    if kind == 0:
        state.hands[where] ^= tile.bit | out.bit
    else:
        state.boneyard[where] = out


def _holder(state: GameState, tile: Tile, places: list[tuple[int, int]]) -> tuple[int, int] | None:
    for kind, where in places:
        if ((kind == 0 and state.hands[where] & tile.bit)
                or (kind == 1 and state.boneyard[where] == tile)):
            return kind, where
    return None


def _fit(state: GameState, seat: int, action: Action, unknown: Sequence[int], reserved: set[int],
         index: int) -> None:
    """Arrange an unclaimed seat's placeholders so that ``action`` is what it could have done."""
    places = [p for p in _free(state, unknown, reserved) if p != (0, seat)]
    if isinstance(action, Play):
        if state.hands[seat] & action.tile.bit:
            return
        place = _holder(state, action.tile, places)
        mine = tiles_in(state.hands[seat])
        if place is None or not mine:
            raise WorldError("ownership", seat,
                                 f"move {index + 1}: {seat_name(seat)} played {action.tile}, "
                                 "which a claimant holds or the line already shows")
        _swap_in(state, seat, action.tile, mine[0], place)
        return
    if isinstance(action, Draw) and state.rules.draw_when_playable:
        return
    if not isinstance(action, (Draw, Pass)):
        return
    fits = state.fitting_mask()
    for tile in tiles_in(state.hands[seat] & fits):
        spare = next(((t, p) for p in places for t in _tiles_at(state, p) if not t.bit & fits),
                     None)
        if spare is None:
            raise WorldError("legality", seat,
                                 f"move {index + 1}: {seat_name(seat)} could not have been stuck: "
                                 "every tile that seat could hold fits the line")
        t, p = spare
        # the spare comes into the seat's hand, the fitting tile goes where the spare was
        state.hands[seat] ^= tile.bit | t.bit
        if p[0] == 0:
            state.hands[p[1]] ^= tile.bit | t.bit
        else:
            state.boneyard[p[1]] = tile


def _tiles_at(state: GameState, place: tuple[int, int]) -> tuple[Tile, ...]:
    kind, where = place
    return tiles_in(state.hands[where]) if kind == 0 else (state.boneyard[where],)


def _feed(state: GameState, trial: GameState, unknown: Sequence[int], reserved: set[int]) -> bool:
    """The hand ended by a block that the placeholders made up: give an unclaimed seat a tile that
    fits the line as it is after the move. True when that was possible (the move is then
    retried)."""
    if not any(isinstance(e, HandEnded) and e.end == "blocked" for e in trial.history):
        return False
    fits = trial.fitting_mask()
    holders = [s for s in unknown if state.active[s] and trial.active[s] and state.hands[s]]
    spares = [p for p in range(state.drawn, len(state.boneyard)) if p not in reserved]
    for s in holders:
        for p in spares:
            t = state.boneyard[p]
            if t.bit & fits:
                out = tiles_in(state.hands[s])[0]
                _swap_in(state, s, t, out, (1, p))
                return True
    return False
