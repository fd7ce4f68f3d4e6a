"""Scores after the reveal: a hand the host ran on public state, judged once every tile is known.

During a locked hand the host runs only the public view (``engine/public.py``): it never knows
whether a pass or a draw told the truth, nor what the hands are worth. At the hand's end every
holder reveals its key and every position opens (``rounds.open_all``): the deck by position.
``settle`` hands that to the full engine, through the verifier's own step
(``hand_check.replay_moves``, the ``moves`` check of ``check_blind_hand``): the log is replayed
with every hand known, so each claim is judged when its move comes (a false "I cannot play"
names its signer, and the claim is returned), and the hand's end gives the points. Whatever
``settle`` decides, ``check_blind_hand`` decides the same of the hand's record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.blind.gate import DealLayout
from lanomino.blind.group import BlindError
from lanomino.blind.hand_check import HandVerdict, replay_moves
from lanomino.blind.hand_record import BlindMove, Resignation
from lanomino.engine import GameState, HandEnded
from lanomino.engine.public import Claim, PublicHand


@dataclass(frozen=True, slots=True)
class Settlement:
    """The verdict on the hand's moves; its end and the match after it when they hold; the
    false claim the verdict names, if a claim is what failed."""

    verdict: HandVerdict
    ended: HandEnded | None
    state: GameState  # the match as far as the replay went (the next hand starts from it)
    false_claim: Claim | None = None
    # a hand blocked before a holder left it, unseen: it cannot be counted, and is dealt again
    # (``unheld_check.Unscorable``: why, for the people at the table)
    given_up: str | None = None

    @property
    def points(self) -> tuple[int, ...]:
        """The hand's points per side: what the host signs. Raises BlindError when unsettled."""
        if self.ended is None:
            raise BlindError(f"the hand has no points: {self.verdict.describe()}")
        return tuple(self.ended.points)


def settle(view: PublicHand, before: GameState, layout: DealLayout, tiles: tuple[int, ...],
           moves: Sequence[BlindMove], host: int, resignations: Sequence[Resignation] = (),
           clock: bool = False) -> Settlement:
    """Judge the hand ``view`` ran, from the match ``before`` it and the revealed deck ``tiles``
    (by position); ``moves`` is the host's log of it, one per move the view counted, and
    ``resignations`` the log's resignations, each after ``at`` of those moves (``clock``: the
    header declares a move clock).

    Raises BlindError when the hand is not over or the log is not the view's."""
    return settled(view, moves, host, *replay_moves(before, layout, tiles, moves, host,
                                                    resignations, clock))


def settled(view: PublicHand, moves: Sequence[BlindMove], host: int, verdict: HandVerdict,
            state: GameState, ended: HandEnded | None) -> Settlement:
    """The settlement of a replay's verdict, state and end (``replay_moves``, or
    ``replay_reshuffled`` after a blind re-shuffle). Raises BlindError when the hand is not
    over or the log is not the view's."""
    if view.outcome is None:
        raise BlindError("the hand is not over: nothing to settle")
    if len(moves) != view.moves:
        raise BlindError(f"the log has {len(moves)} moves, the hand {view.moves}")
    if not verdict.ok:
        claim = next((c for c in view.claims if c.move == verdict.move), None)
        return Settlement(verdict, None, state, claim)
    if ended is None:
        return Settlement(HandVerdict("score", host, "the hand did not end", verdict.tiles),
                          None, state)
    # Every claim held, so the table saw the end the engine decided: a blocked hand once every
    # seat passed, any other the moment it came (tests/blind/test_blind_public_hand.py).
    assert ended.end == view.outcome.end, (ended.end, view.outcome)
    return Settlement(verdict, ended, state)
