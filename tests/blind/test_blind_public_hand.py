"""The host on public state (``engine/public.py``) and the scores after the reveal
(``blind/settle.py``): random hands of every preset where the public view, fed the public part of
a full-information game, agrees with the full engine move by move and then, after the reveal, on
the hand's end and the points; a seat that lies in a claim is named, by ``settle`` and by
``check_blind_hand`` alike; and locked hands driven end to end with the host on the public view
only. (The view against the engine alone, resignations included: tests/engine/
test_engine_public.py.)"""

from __future__ import annotations

import random

import pytest
from blindkit import locked_hand
from publickit import Table, deal, play_hand, playouts

from lanomino.blind.gate import DealLayout
from lanomino.blind.hand_check import check_blind_hand
from lanomino.blind.hand_record import BlindMove
from lanomino.blind.settle import Settlement, settle
from lanomino.engine import (
    PASS,
    TILES,
    Draw,
    GameState,
    HandEnd,
    Phase,
    Rules,
)


def settle_table(table: Table, before: GameState) -> Settlement:
    """The hand settled from the deck as the reveal opens it and the host's log."""
    layout = DealLayout.for_deal(len(TILES), before.active,
                                 before.rules.hand_size_for(before.players))
    return settle(table.view, before, layout, tuple(t.index for t in table.deck),
                  [BlindMove(*m) for m in table.moves], 0)


def check_end(table: Table, full: GameState, settled: Settlement) -> None:
    """The end the table saw is the engine's, and the scores after the reveal are its scores."""
    ended = full.results[-1]
    assert table.view.outcome is not None and table.view.outcome.end is ended.end
    if ended.end in (HandEnd.DOMINO, HandEnd.TARGET):
        assert table.view.outcome.seat == ended.tally.seat
    assert settled.verdict.ok, settled.verdict.describe()
    assert settled.ended == ended
    assert settled.points == tuple(ended.points)
    assert settled.state.scores == full.scores and settled.state.phase is full.phase


@playouts(120)
def test_the_public_view_agrees_with_the_full_engine_move_by_move(
    match: GameState, rng: random.Random
) -> None:
    before = match
    for _ in range(3):  # a few hands: later hands open by the public rules
        table, full = deal(before, rng)
        if table is None:
            before = full  # as the void deal left it
            continue
        play_hand(table, rng)
        settled = settle_table(table, before)
        check_end(table, full, settled)
        if full.phase is Phase.OVER:
            break
        before = settled.state


@playouts(60)
def test_a_seat_that_lies_in_a_claim_is_named(match: GameState, rng: random.Random) -> None:
    before = match
    table, _full = deal(before, rng)
    if table is None:
        return
    play_hand(table, rng, lie=True)
    settled = settle_table(table, before)
    if table.lie_at is None:  # nobody ever held a tile that fits at a moment to claim
        assert settled.verdict.ok
        return
    liar = table.moves[table.lie_at][0]
    verdict = settled.verdict
    assert (verdict.check, verdict.culprit, verdict.move) == ("moves", liar, table.lie_at)
    assert "fits" in verdict.reason
    assert settled.false_claim is not None
    assert (settled.false_claim.seat, settled.false_claim.move) == (liar, table.lie_at)
    assert settled.ended is None


# ----- a locked hand, end to end (blindkit.locked_hand) ---------------------------------------


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 1), (4, 2)])
def test_a_locked_hand_runs_on_the_public_view_and_verifies(n: int, seed: int) -> None:
    record, before, settled, _ = locked_hand(n, seed)
    assert settled.verdict.ok, settled.verdict.describe()
    verdict = check_blind_hand(record, before)
    assert verdict.ok, verdict.describe()
    assert settled.verdict.tiles == verdict.tiles
    assert sum(settled.points) > 0 or settled.ended.end is HandEnd.BLOCKED  # type: ignore[union-attr]


def test_a_locked_hand_blocked_by_passes_verifies() -> None:
    record, before, settled, _ = locked_hand(2, 7, rules=Rules.block())
    assert settled.ended is not None and settled.ended.end is HandEnd.BLOCKED
    # The table learnt it as both seats passed in turn, after the engine had ended it.
    assert [(m.seat, m.action) for m in record.moves[-2:]] in (
        [(0, PASS), (1, PASS)], [(1, PASS), (0, PASS)])
    assert check_blind_hand(record, before).ok


@pytest.mark.parametrize(("n", "seed"), [(3, 4), (4, 5)])
def test_a_false_i_cannot_play_in_a_locked_hand_is_named_alike(n: int, seed: int) -> None:
    record, before, settled, lie_at = locked_hand(n, seed, lie=True)
    assert lie_at is not None
    liar = record.moves[lie_at].seat
    verdict = check_blind_hand(record, before)
    assert (verdict.check, verdict.culprit) == ("moves", liar)
    assert (settled.verdict.check, settled.verdict.culprit, settled.verdict.reason) == (
        verdict.check, verdict.culprit, verdict.reason)
    assert settled.false_claim is not None and settled.false_claim.seat == liar
    did = "draw" if isinstance(record.moves[lie_at].action, Draw) else "pass"
    assert f"may not {did}" in verdict.reason and "fits" in verdict.reason
