"""Hard: keeps the ends open for itself, blocks numbers an opponent has shown it lacks, lightens
its hand when a block is coming, and now and then (a small, seeded chance) takes its second-best
move. It knows only what the table has shown (``knowledge``), never anyone's hand.
"""

from __future__ import annotations

import random

from lanomino.bots.knowledge import Knowledge, read_knowledge, with_numbers
from lanomino.engine import TILES, Action, End, Observation, Play

SLIP = 0.08  # chance of playing the second-best move instead of the best

W_DOUBLE = 6.0  # a double is hard to get rid of later
W_MINE = 1.5  # per tile of mine that will still fit the ends
W_STUCK = 8.0  # no tile of mine will fit: I draw or pass next time
W_BLOCK = 10.0  # an opponent has nothing for any number showing
W_PARTIAL = 3.0  # per number showing that an opponent lacks
W_PARTNER = 3.0  # my partner has nothing for any number showing
W_POINTS = 1.2  # per All Fives point scored by the play
W_LOCK = 8.0  # the play locks the hand up and I hold the fewest pips (or the most)

_PIPS = tuple(t.pips for t in TILES)


def ends_after(obs: Observation, play: Play) -> tuple[tuple[int, ...], int]:
    """The numbers showing after ``play`` and the All Fives count it scores (0 if none)."""
    line = obs.line.copy()
    if line.is_empty:
        line.place_first(play.tile, play.end or End.LEFT)
    else:
        end = play.end if play.end is not None else next(
            End(e) for e in line.open_ends() if play.tile.has(line.ends[e])
        )
        line.place(play.tile, end.value)
    count = line.fives_count() if obs.rules.fives else 0
    return line.open_numbers(), (count if count % 5 == 0 else 0)


def block_coming(obs: Observation, know: Knowledge) -> bool:
    """Nobody can draw, and few tiles for the numbers showing are left."""
    if obs.drawable > 0:
        return False
    return sum(know.unseen_with(n) for n in obs.line.open_numbers()) <= 3


def score_play(obs: Observation, know: Knowledge, play: Play) -> float:
    """How much Hard likes ``play``: bigger is better."""
    ends, points = ends_after(obs, play)
    rest = know.mine & ~(1 << play.tile.index)
    fits = rest & with_numbers(ends)
    coming = block_coming(obs, know)
    score = play.tile.pips * (2.5 if coming else 1.0)
    score += W_DOUBLE if play.tile.is_double else 0.0
    score += W_MINE * min(fits.bit_count(), 3) - (W_STUCK if not fits and rest else 0.0)
    score += W_POINTS * points
    me_side = obs.side_of(obs.seat)
    for seat in range(obs.players):
        if seat == obs.seat or not obs.active[seat] or obs.hand_sizes[seat] == 0:
            continue
        lacked = sum(1 for n in ends if know.lacks(seat, n))
        if obs.side_of(seat) == me_side:
            score -= W_PARTNER if lacked == len(ends) else 0.0
        else:
            score += W_BLOCK if lacked == len(ends) else W_PARTIAL * lacked
    if obs.drawable == 0 and not fits and not know.unseen & with_numbers(ends):
        score += W_LOCK if locks_in_my_favour(obs, know, rest) else -W_LOCK
    return score


def locks_in_my_favour(obs: Observation, know: Knowledge, rest: int) -> bool:
    """After a play that blocks the hand: do I expect to hold fewer pips than every opponent?"""
    mine = sum(_PIPS[t.index] for t in TILES if rest >> t.index & 1)
    unseen = [t for t in TILES if know.unseen >> t.index & 1]
    per_tile = sum(t.pips for t in unseen) / max(1, len(unseen))
    me_side = obs.side_of(obs.seat)
    for seat in range(obs.players):
        if seat != obs.seat and obs.active[seat] and obs.side_of(seat) != me_side:
            if per_tile * obs.hand_sizes[seat] <= mine:
                return False
    return True


def ranked_plays(obs: Observation, know: Knowledge | None = None) -> list[tuple[float, Play]]:
    """Every legal play with Hard's score, best first (ties in the engine's order)."""
    know = know or read_knowledge(obs)
    plays = [a for a in obs.legal if isinstance(a, Play)]
    scored = [(score_play(obs, know, p), p) for p in plays]
    scored.sort(key=lambda item: -item[0])
    return scored


def hard_bot(obs: Observation, rng: random.Random) -> Action:
    """Hard's move: the best-scoring play, now and then the second best; draw or pass when stuck."""
    ranked = ranked_plays(obs)
    if not ranked:
        return obs.legal[0]
    if len(ranked) > 1 and rng.random() < SLIP:
        return ranked[1][1]
    return ranked[0][1]

