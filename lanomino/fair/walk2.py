"""A verified transcript/2 (the locked deck's) played through the engine step by step, every hand
of it, for a replay and the play log (``client/replay.py``, ``store/facts.py``): the twin of
``fair/walk.py``. Pure.

A hand is walked from its deal as the revealed keys open it (the verifier's ``Report.deals``, a
void deal it keeps before it first), then its moves and resignations in the order of its log
(``log_order``). A hand re-shuffled blind after a holder left has no single deal: the lost
holder's key went with it, so its tiles and the boneyard's order before the loss never open. It
is walked from its re-shuffle on, as the verifier walked it (``unheld_check.reshuffled_world``):
the moves before the loss on the board, the survivors' tiles as they opened, the lost holder's
gone with its resignation, and the new deck as the boneyard. A seat that left between two hands
resigns after the hand before. Only a transcript that verified is walked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from lanomino.engine import RESIGN, Action, GameState, Pass, Phase, Rules, apply, new_game
from lanomino.engine import start_hand as deal_hand
from lanomino.fair.walk import Step

if TYPE_CHECKING:
    from lanomino.blind.hand_record import BlindHand
    from lanomino.fair.report import Report


def log_order(record: BlindHand, start: int = 0, after: int = -1
              ) -> Iterator[tuple[int, int, Action]]:
    """(move index, seat, action) of a locked hand's log from move ``start`` on: each
    resignation before the move its ``at`` names (those ``at`` or before ``after`` left out:
    already walked), then that move."""
    for i in range(start, len(record.moves) + 1):
        for r in record.resignations:
            if r.at == i and r.at > after:
                yield i, r.seat, RESIGN
        if i < len(record.moves):
            yield i, record.moves[i].seat, record.moves[i].action


def logged(state: GameState, action: Action) -> bool:
    """Whether a logged move is one the engine takes: the table learns of a block as every seat
    passes, while the engine, which sees every hand, ended it at once (those passes are left
    out)."""
    return state.phase is Phase.PLAY or not isinstance(action, Pass)


def walk_locked(doc: Any, step: Step, report: Report | None = None) -> GameState:
    """Call ``step`` after each deal, re-shuffle, move and resignation of the transcript/2
    ``doc`` (``report``: its own, when the caller has just checked it); the final state.

    Raises TranscriptError: it does not verify (or a step cannot be taken, which only a
    transcript that does not verify could cause)."""
    from lanomino.blind.group import BlindError
    from lanomino.blind.hand_check import dealer_of
    from lanomino.blind.unheld_check import reshuffled_world
    from lanomino.engine.errors import EngineError
    from lanomino.fair.transcript2 import parse_transcript2
    from lanomino.fair.transcript_model import TranscriptError
    from lanomino.fair.verify2 import verify_transcript2

    report = verify_transcript2(doc) if report is None else report
    if report.failure is not None:
        raise TranscriptError(f"the transcript does not verify: {report.failure.describe()}")
    head, signed = parse_transcript2(doc)
    state = new_game(Rules.from_spec(head.rules_spec), len(head.players))
    h = m = host_before = 0  # (the host that dealt a re-shuffled hand: ``dealer_of``)

    def take(seat: int, action: Action) -> None:
        nonlocal m
        m += 1
        events = apply(state, seat, action)
        if h:  # (a seat that left before the first deal: no hand shows it)
            step(h, m, state, events)

    try:
        for hand, deals in zip(signed, report.deals, strict=True):
            for departure in hand.departures:
                take(departure.resignation.seat, RESIGN)
            record, first, after = hand.record, 0, -1
            for deal in deals if record.unheld is None else deals[:-1]:  # (void ones first)
                h, m = h + 1, 0
                step(h, 0, state, deal_hand(state, [list(t) for t in deal.hands],
                                            list(deal.boneyard)))
            if record.unheld is not None:
                state, first = reshuffled_world(record, state, dealer_of(record, host_before))
                h, m, after = h + 1, first, record.unheld.at
                step(h, first, state, [])
            for _, seat, action in log_order(record, first, after):  # (from ``state`` on)
                if logged(state, action):
                    take(seat, action)
            host_before = record.host
        for departure in head.end.departures:
            take(departure.resignation.seat, RESIGN)
    except (BlindError, EngineError) as exc:
        raise TranscriptError(f"the transcript does not replay: {exc}") from None
    return state
