"""How a hand ends and how a match ends: the only two places outcomes are decided."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from lanomino.engine.events import HandEnd, HandEnded, HandTally, MatchEnd, MatchEnded
from lanomino.engine.tiles import Tile, pips_of, tiles_in

if TYPE_CHECKING:
    from lanomino.engine.rules import Rules
    from lanomino.engine.state import GameState


# tuple.__new__ builds a named tuple without its interpreted __new__ (the same value, every field
# given): a hand's end makes three of them.
_new_tuple: Final = tuple.__new__
# Held here: compiled, a module constant is a native load, an Enum member a lookup by name.
_DOMINO: Final = HandEnd.DOMINO
_TARGET: Final = HandEnd.TARGET
_BLOCKED: Final = HandEnd.BLOCKED
_BY_TARGET: Final = MatchEnd.TARGET
_ONE_HAND: Final = MatchEnd.ONE_HAND
_RESIGNED: Final = MatchEnd.RESIGNED


def round_to_5(points: int) -> int:
    """Nearest multiple of five: 12 -> 10, 13 -> 15."""
    return (points + 2) // 5 * 5


def end_of_hand(
    state: GameState, end: HandEnd, mover: int | None, forced_winner: int | None
) -> tuple[HandEnded, int | None]:
    """The HandEnded event for a hand that ended as ``end`` says, and the seat that won it (if
    any)."""
    rules = state.rules
    hands = state.hands
    pips: list[int | None] = [pips_of(h) for h in hands]
    if state.departed:
        for seat in state.departed:
            pips[seat] = None
        live_sides = _live_sides(state)
    else:
        live_sides = list(range(state.sides))
    if rules.partnership:
        side_pips = [0, 0]
        for seat, p in enumerate(pips):
            if p is not None:
                side_pips[seat % 2] += p
    else:
        side_pips = [p or 0 for p in pips]
    winner: int | None = None
    winner_seat: int | None = None
    # Each tally is built once, with its points already rounded (NamedTuple._replace is slow).
    if end is _DOMINO or end is _TARGET:
        assert mover is not None
        winner, winner_seat = state.side_of(mover), mover
        others = _others(side_pips, live_sides, winner)
        counted = others if end is _DOMINO else 0
        earned = _earned(rules, counted)
        tally = _new_tuple(HandTally, (mover, others, side_pips[winner], counted, earned, (), None))
    elif end is _BLOCKED:
        winner, tied, lightest = _blocked_winner(state, side_pips, live_sides)
        low = min(side_pips[x] for x in live_sides)
        others = counted = 0
        if winner is not None:
            winner_seat = lightest_member(state.active, rules.partnership, winner, pips)
            others = _others(side_pips, live_sides, winner)
            counted = others - low if rules.blocked_scoring == "difference" else others
        earned = _earned(rules, counted)
        tally = _new_tuple(HandTally, (None, others, low, counted, earned, tied, lightest))
    else:  # resigned: the seat that left last is the one whose resignation ended the hand
        winner = forced_winner
        tally = HandTally(state.departed[-1], 0, 0, 0, 0)
    points = list(state.hand_points)
    if winner is not None:
        points[winner] += tally.earned
    # Not map(): compiled, each call is then native, and the tuple is filled directly.
    shown = tuple(tiles_in(h) for h in hands)
    ended = _new_tuple(
        HandEnded, (state.hand_no, end, winner, tuple(points), tuple(pips), shown, tally)
    )
    return ended, winner_seat


def _others(side_pips: list[int], live_sides: list[int], winner: int) -> int:
    """The pips left on the live sides other than ``winner``'s (a loop, not sum() over a
    generator: compiled, the generator is an object and each step a call)."""
    total = 0
    for x in live_sides:
        if x != winner:
            total += side_pips[x]
    return total


def _earned(rules: Rules, counted: int) -> int:
    """The points a hand's count earns: rounded to five when the rules say so."""
    return round_to_5(counted) if counted and rules.round_to_5 else counted


def _blocked_winner(
    state: GameState, side_pips: list[int], live: list[int]
) -> tuple[int | None, tuple[int, ...], Tile | None]:
    """The winning side of a blocked hand (None: a tie nobody wins), the tied sides, and the
    lightest tile that broke a tie."""
    low = min(side_pips[x] for x in live)
    tied = [x for x in live if side_pips[x] == low]
    if len(tied) == 1:
        return tied[0], (), None
    if state.rules.blocked_tie == "nobody":
        return None, tuple(tied), None
    tile, side = min(
        ((_lightest_tile(state, x), x) for x in tied), key=lambda item: (item[0].pips, item[0].high)
    )
    return side, tuple(tied), tile


def _lightest_tile(state: GameState, side: int) -> Tile:
    tiles = [
        t
        for s in range(state.players)
        if state.active[s] and state.side_of(s) == side
        for t in tiles_in(state.hands[s])
    ]
    return min(tiles, key=lambda t: (t.pips, t.high))


def lightest_member(
    active: Sequence[bool], partnership: bool, side: int, pips: Sequence[int | None]
) -> int | None:
    """The seat that won a blocked hand for ``side``: its active member with the fewest pips left,
    the lower seat on a tie (None when the side has no active member). Public facts only, so a
    peer's view names the same seat as the engine."""
    members = [s for s in range(len(active))
               if active[s] and (s % 2 if partnership else s) == side]
    return min(members, key=lambda s: (pips[s] or 0, s)) if members else None


def end_of_match(state: GameState, forced_winner: int | None) -> MatchEnded | None:
    """The MatchEnded event if the match is over now, else None."""
    rules = state.rules
    last = state.results[-1] if state.results else None
    if forced_winner is None and rules.target and max(state.scores) < rules.target:
        return None  # the common case, decided before anything is built
    live = _live_sides(state)
    why = _BY_TARGET
    if forced_winner is not None:
        winner: int | None = forced_winner
        why = _RESIGNED
    elif rules.target == 0:
        winner = last.winner if last is not None else None
        why = _ONE_HAND
    else:
        best = max(state.scores[x] for x in live)
        if best < rules.target:
            return None
        leaders = [x for x in live if state.scores[x] == best]
        winner = (
            leaders[0]
            if len(leaders) == 1 or last is None or last.winner not in leaders
            else last.winner
        )
    standings = _standings(state, winner, live)
    return _new_tuple(MatchEnded, (winner, tuple(state.scores), standings, why))


def _live_sides(state: GameState) -> list[int]:
    """The sides with a seat still in the match, in order."""
    live: list[int] = []
    for seat in range(state.players):
        if state.active[seat]:
            side = state.side_of(seat)
            if side not in live:
                live.append(side)
    live.sort()
    return live


def _standings(state: GameState, winner: int | None, live: list[int]) -> tuple[int, ...]:
    # The winner first, then by score, then by number: sorted keys rather than a key function
    # (compiled, each call of a lambda goes through the interpreter's calling convention).
    scores = state.scores
    ranked = [x for _, _, x in sorted([(x != winner, -scores[x], x) for x in live])]
    gone: list[int] = []
    for seat in reversed(state.departed):
        side = state.side_of(seat)
        if side not in ranked and side not in gone:
            gone.append(side)
    return tuple(ranked + gone)
