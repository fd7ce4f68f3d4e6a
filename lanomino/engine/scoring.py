"""How a hand ends and how a match ends: the only two places outcomes are decided."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.engine.events import HandEnded, MatchEnded
from lanomino.engine.tiles import Tile, pips_of, tiles_in

if TYPE_CHECKING:
    from lanomino.engine.state import GameState


def round_to_5(points: int) -> int:
    """Nearest multiple of five: 12 -> 10, 13 -> 15."""
    return (points + 2) // 5 * 5


def side_name(state: GameState, side: int) -> str:
    return f"team {side}" if state.rules.partnership else f"seat {side}"


def end_of_hand(
    state: GameState, how: str, mover: int | None, forced_winner: int | None
) -> tuple[HandEnded, int | None]:
    """The HandEnded event for a hand that ended ``how``, and the seat that won it (if any)."""
    rules = state.rules
    active = state.active
    pips: list[int | None] = [pips_of(h) for h in state.hands]
    if state.departed:
        for seat in state.departed:
            pips[seat] = None
        live_sides = sorted({state.side_of(s) for s in range(state.players) if active[s]})
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
    earned = 0
    if how in ("domino", "target"):
        assert mover is not None
        winner, winner_seat = state.side_of(mover), mover
        others = sum(side_pips[x] for x in live_sides if x != winner)
        if how == "domino":
            earned = others
            reason = f"{side_name(state, winner)} went out and scores the {others} pips left in the other hands"
        else:
            reason = f"{side_name(state, winner)} reached the target of {rules.target} during play"
    elif how == "blocked":
        winner, reason = _blocked_winner(state, side_pips, live_sides)
        if winner is not None:
            winner_seat = _lightest_member(state, winner, pips)
            others = sum(side_pips[x] for x in live_sides if x != winner)
            if rules.blocked_scoring == "difference":
                earned = others - side_pips[winner]
                reason += f" and scores the others' {others} pips minus its own {side_pips[winner]} = {earned}"
            else:
                earned = others
                reason += f" and scores the others' {others} pips"
    else:  # resigned
        winner = forced_winner
        reason = "the match ended when the other side resigned"
    if earned and rules.round_to_5:
        rounded = round_to_5(earned)
        if rounded != earned:
            reason += f", rounded to {rounded}"
        earned = rounded
    points = list(state.hand_points)
    if winner is not None:
        points[winner] += earned
    ended = HandEnded(
        state.hand_no, how, winner, tuple(points), tuple(pips), tuple(map(tiles_in, state.hands)), reason
    )
    return ended, winner_seat


def _blocked_winner(state: GameState, side_pips: list[int], live: list[int]) -> tuple[int | None, str]:
    low = min(side_pips[x] for x in live)
    tied = [x for x in live if side_pips[x] == low]
    if len(tied) == 1:
        return tied[0], f"blocked: {side_name(state, tied[0])} has the fewest pips ({low})"
    names = " and ".join(side_name(state, x) for x in tied)
    if state.rules.blocked_tie == "nobody":
        return None, f"blocked: {names} tie on {low} pips, so nobody scores"
    lightest = min(
        ((_lightest_tile(state, x), x) for x in tied), key=lambda item: (item[0].pips, item[0].high)
    )
    tile, side = lightest
    return side, (
        f"blocked: {names} tie on {low} pips; {side_name(state, side)} holds the lightest tile ({tile}) and wins"
    )


def _lightest_tile(state: GameState, side: int) -> Tile:
    tiles = [
        t
        for s in range(state.players)
        if state.active[s] and state.side_of(s) == side
        for t in tiles_in(state.hands[s])
    ]
    return min(tiles, key=lambda t: (t.pips, t.high))


def _lightest_member(state: GameState, side: int, pips: list[int | None]) -> int:
    members = [s for s in range(state.players) if state.active[s] and state.side_of(s) == side]
    return min(members, key=lambda s: (pips[s] or 0, s))


def end_of_match(state: GameState, forced_winner: int | None) -> MatchEnded | None:
    """The MatchEnded event if the match is over now, else None."""
    rules = state.rules
    last = state.results[-1] if state.results else None
    if forced_winner is None and rules.target and max(state.scores) < rules.target:
        return None  # the common case, decided before anything is built
    live = sorted({state.side_of(s) for s in range(state.players) if state.active[s]})
    if forced_winner is not None:
        winner: int | None = forced_winner
    elif rules.target == 0:
        winner = last.winner if last is not None else None
    else:
        best = max(state.scores[x] for x in live)
        if best < rules.target:
            return None
        leaders = [x for x in live if state.scores[x] == best]
        winner = leaders[0] if len(leaders) == 1 or last is None or last.winner not in leaders else last.winner
    return MatchEnded(winner, tuple(state.scores), _standings(state, winner, live))


def _standings(state: GameState, winner: int | None, live: list[int]) -> tuple[int, ...]:
    ranked = sorted(live, key=lambda x: (x != winner, -state.scores[x], x))
    gone: list[int] = []
    for seat in reversed(state.departed):
        side = state.side_of(seat)
        if side not in ranked and side not in gone:
            gone.append(side)
    return tuple(ranked + gone)
