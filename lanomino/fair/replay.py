"""The engine state after a transcript's finished hands (a peer's view, a new host's). Pure."""

from __future__ import annotations

from lanomino.engine import GameState, Rules, apply, new_game, start_hand
from lanomino.fair.commit import DealContext
from lanomino.fair.shuffle import derive_deal
from lanomino.fair.transcript import Transcript
from lanomino.fair.verify import Report


def state_after(transcript: Transcript, rules: Rules, report: Report) -> GameState:
    """The engine state after a transcript's finished hands: the one its verifier ``report`` left
    (the only way through a re-shuffled hand), or, when a check failed, the deals and moves
    replayed as they stand. Raises ValueError for a re-shuffled hand that does not verify."""
    if report.state is not None:
        state: GameState = report.state.copy()
        return state
    state = new_game(rules, len(transcript.players))
    for hand in transcript.hands:
        if hand.reshuffled is not None:
            raise ValueError(f"hand {hand.hand} was re-shuffled and does not verify: "
                             "it cannot be replayed")
        for attempt in hand.deals:
            ctx = DealContext(transcript.table, hand.hand, attempt.attempt)
            opened = list(zip([c.seat for c in attempt.commitments], attempt.secrets, strict=True))
            _, hands, boneyard = derive_deal(ctx, opened, rules, state.active)
            start_hand(state, hands, boneyard)
        for move in hand.moves:
            apply(state, move.seat, move.action)
    return state
