"""A verified transcript played through the engine step by step, every hand of it, for a replay
and the play log (``client/replay.py``, ``store/facts.py``). Pure.

A hand dealt from its secrets is walked from its deal, as a record would be. A hand re-shuffled
after a host migration has no such deal (its secrets left with the lost host): it is walked from
its re-shuffle on, from what the transcript holds: the moves before it (the board), each
survivor's signed claim of its tiles, and the re-shuffle's revealed secrets, which deal the tiles
nobody could vouch for again (``fair/reshuffle.py``). Only a transcript that verified is walked.
"""

from __future__ import annotations

from collections.abc import Callable

from lanomino.engine import Event, GameState, Rules, apply, new_game, start_hand
from lanomino.fair import reshuffle as rs
from lanomino.fair.commit import DealContext
from lanomino.fair.shuffle import derive_deal
from lanomino.fair.transcript_model import Transcript

# (hand from 1, counting every deal as a record does; moves made in it so far; the state; what
# happened): move 0 is a deal; a re-shuffle is a step of its own, with no events, at the number of
# moves made before it (``state.history`` holds them: the tiles they played are the board)
Step = Callable[[int, int, GameState, list[Event]], None]


def walk(transcript: Transcript, rules: Rules, step: Step) -> GameState:
    """Call ``step`` after each deal, re-shuffle and move of ``transcript``; the final state.

    Raises ValueError (a ReshuffleError, or an engine error) when a step cannot be taken: only
    for a transcript that does not verify."""
    state = new_game(rules, len(transcript.players))
    h = 0
    for hand in transcript.hands:
        r = hand.reshuffled
        first = 0
        if r is None:
            for attempt in hand.deals:
                ctx = DealContext(transcript.table, hand.hand, attempt.attempt)
                opened = list(zip([c.seat for c in attempt.commitments], attempt.secrets,
                                  strict=True))
                _, hands, boneyard = derive_deal(ctx, opened, rules, state.active)
                h += 1
                step(h, 0, state, start_hand(state, hands, boneyard))
        else:
            claims = {c.seat: c for c in r.claims}
            before = [(move.seat, move.action) for move in hand.moves[: r.at]]
            rs.world_at(state, len(hand.deals), r.opener, claims, before)
            secrets = [(c.seat, s) for c, s in zip(r.commitments, r.secrets, strict=True)]
            seed = rs.reshuffle_seed(rs.ReshuffleContext(transcript.table, hand.hand, r.term),
                                     secrets)
            rs.reshuffle(state, sorted(claims), seed)
            h, first = h + 1, r.at
            step(h, first, state, [])
        for m, move in enumerate(hand.moves[first:], start=first + 1):
            step(h, m, state, apply(state, move.seat, move.action))
    return state

