"""What a seat may do now: ``legal_actions``, the single source of truth for it, with
``can_resign`` and ``fitting_ends`` (see state.py for the theory of operation). ``play.py``
applies an action against the same tables. The hot path, a play on a two-ended line, is kept flat
and table-driven (scripts/bench_engine.py measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lanomino.engine.actions import DRAW, PASS, Action, End, Play
from lanomino.engine.line import CLOSED, Line
from lanomino.engine.state import GameState, Phase
from lanomino.engine.tiles import TILES, WITH, Tile, tiles_in

_ENDS: Final = tuple(End)
# PLAYS[tile index][end index]: prebuilt actions, so the hot path allocates nothing.
PLAYS: Final[tuple[tuple[Play, ...], ...]] = tuple(tuple(Play(t, e) for e in End) for t in TILES)


# ----- legal actions -------------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> Sequence[Action]:
    """Every move ``seat`` may make now, one action per distinct place to play.

    ``Resign`` is not listed: an active seat may resign at any time (``can_resign``).
    """
    if state.fast and seat == state.turn:  # the hot path (see GameState.fast)
        hand = state.hands[seat]
        ends = state.line.ends
        left, right = ends[0], ends[1]
        plays: tuple[Action, ...]
        if _COMPILED:  # the same tables, indexed by place (see _place_bits)
            bits = _PLACE_BITS[left]
            plays = _LEFT_BY_PLACE[left][
                bits[0][hand & 127] | bits[1][hand >> 7 & 127] | bits[2][hand >> 14 & 127]
                | bits[3][hand >> 21 & 127]
            ]
            if right != left:
                bits = _PLACE_BITS[right]
                plays += _RIGHT_BY_PLACE[right][
                    bits[0][hand & 127] | bits[1][hand >> 7 & 127] | bits[2][hand >> 14 & 127]
                    | bits[3][hand >> 21 & 127]
                ]
        else:
            plays = _LEFT_PLAYS[left][hand & WITH[left]]
            if right != left:
                plays += _RIGHT_PLAYS[right][hand & WITH[right]]
        if plays:
            return plays
        return (DRAW,) if state.drawable > 0 else (PASS,)
    if state.phase is not _PLAY or seat != state.turn:
        return ()
    hand = state.hands[seat]
    line = state.line
    if line.tiles == 0:
        if state.must_lead is not None:
            return (PLAYS[state.must_lead.index][0],)
        return tuple(PLAYS[t.index][0] for t in tiles_in(hand))
    if line.fives:
        plays = _fives_plays(line, hand)
    else:
        ends = line.ends
        left, right = ends[0], ends[1]
        plays = _plays_table(0, left)[hand & WITH[left]]
        if right != left:
            plays += _plays_table(1, right)[hand & WITH[right]]
    if plays:
        if state.rules.draw_when_playable and state.can_draw():
            return (*plays, DRAW)
        return plays
    return (DRAW,) if state.can_draw() else (PASS,)


def _fives_plays(line: Line, hand: int) -> tuple[Action, ...]:
    seen: set[tuple[int, tuple[int, bool, bool, bool, bool]]] = set()
    plays: list[Action] = []
    for e in range(4):
        n = line.ends[e]
        if n == CLOSED or not hand & WITH[n]:
            continue
        key = line.end_key(e)
        for play in _plays_table(e, n)[hand & WITH[n]]:
            if (play.tile.index, key) not in seen:
                seen.add((play.tile.index, key))
                plays.append(play)
    return tuple(plays)


def _plays_at(e: int, n: int) -> dict[int, tuple[Play, ...]]:
    """For every subset of the tiles carrying ``n``: their plays at end ``e``, in tile order.
    Subsets come in increasing order, so each one's plays are its lowest tile's play followed by
    those of the rest, already made (start-up: every table here is built on import)."""
    table: dict[int, tuple[Play, ...]] = {0: ()}
    base = WITH[n]
    sub = -base & base
    while sub:
        low = sub & -sub
        table[sub] = (PLAYS[low.bit_length() - 1][e], *table[sub ^ low])
        sub = (sub - base) & base
    return table


# _PLAYS_MADE[e][n]: _plays_at(e, n), made at first use (_plays_table).
_PLAYS_MADE: Final[list[list[dict[int, tuple[Play, ...]] | None]]] = [
    [None] * len(WITH) for _ in range(4)
]


def _plays_table(e: int, n: int) -> dict[int, tuple[Play, ...]]:
    """[mask of tiles carrying ``n``]: their plays at end ``e`` (``_plays_at``), made once."""
    table = _PLAYS_MADE[e][n]
    if table is None:
        table = _PLAYS_MADE[e][n] = _plays_at(e, n)
    return table


# Compiled (setup.py), a dict lookup keyed by a hand's mask boxes the key into a new int object
# and costs more than the rest of legal_actions; interpreted, it is the cheapest step there is.
# So the compiled hot path reads the same plays from tuples: the tiles carrying n, in tile order,
# are n's seven places, and a mask of them becomes a 7-bit place index by four table lookups.
# Then only moves off the hot path (the lead aside) read the dicts, and they are made when one
# is first wanted (at start-up, the 28 of them cost about a third of importing the engine).
_COMPILED: Final = not __file__.endswith(".py")
_HOT_DICTS: Final = range(0) if _COMPILED else range(len(WITH))
_LEFT_PLAYS: Final = tuple(_plays_table(0, n) for n in _HOT_DICTS)
_RIGHT_PLAYS: Final = tuple(_plays_table(1, n) for n in _HOT_DICTS)


def _place_bits(n: int) -> tuple[tuple[int, ...], ...]:
    """[chunk][7 bits of a mask at 7 * chunk]: those tiles' place bits among the tiles with n."""
    place = {t.index: 1 << i for i, t in enumerate(tiles_in(WITH[n]))}
    chunks: list[tuple[int, ...]] = []
    for c in range(4):
        bits = [0] * 128
        for m in range(1, 128):
            low = m & -m
            bits[m] = bits[m ^ low] | place.get(7 * c + low.bit_length() - 1, 0)
        chunks.append(tuple(bits))
    return tuple(chunks)


def _by_place(e: int, n: int) -> tuple[tuple[Play, ...], ...]:
    """[place index]: the plays at end ``e`` of the tiles with ``n`` at those places."""
    plays = [PLAYS[t.index][e] for t in tiles_in(WITH[n])]
    table: list[tuple[Play, ...]] = [()] * 128
    for p in range(1, 128):
        low = p & -p
        table[p] = (plays[low.bit_length() - 1], *table[p ^ low])
    return tuple(table)


# Built only where they are read (interpreted, they would only add to start-up).
_NUMBERS: Final = range(len(WITH)) if _COMPILED else range(0)
_PLACE_BITS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _place_bits(n) for n in _NUMBERS
)
_LEFT_BY_PLACE: Final[tuple[tuple[tuple[Play, ...], ...], ...]] = tuple(
    _by_place(0, n) for n in _NUMBERS
)
_RIGHT_BY_PLACE: Final[tuple[tuple[tuple[Play, ...], ...], ...]] = tuple(
    _by_place(1, n) for n in _NUMBERS
)
_PLAY: Final = Phase.PLAY


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
