"""A locked hand blocked while nobody could see it, and a holder lost during the round of passes
that tells the table so (issue 29: the chaos soak's rare end without escrow).

Nobody holds the hands at a locked table, so a block (no tile fits, nothing to draw) shows only
as every seat passes in turn. A holder lost during those passes takes its key, and so its tiles'
pips, with it, and a blocked hand's points need them: without escrow the hand cannot be counted,
so it is given up and dealt again among the people left, as a hand a holder leaves at its end
(``blind/leave_rule.py``). The survivors find it out once their keys are out, after the blind
re-shuffle (``unheld_check.Unscorable``), or at once when the leaver's resignation would itself
end the hand blocked (every other seat has passed). With escrow the others stand in for the key:
the hand is counted from the block, and a resignation after a block that ended the match is moot.
Before, each of these ended the match unscored ("hand 1 does not check out: ... before the
re-shuffle: the hand ended at move 27", "the locked deal waited in vain for seat 1", "seat 1 may
not resign: the match is over").

In memory on a fake clock (``migrationkit``), every message through the real codec; each seed's
first hand is blocked at the move named, found by walking the seed's whole match.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_blind_migration import check_finished, locked_table, mid_hand  # noqa: E402

from lanomino.client.replay import document_view, has_reshuffle  # noqa: E402
from lanomino.engine import Pass  # noqa: E402

# (seed, moves made when the holder is lost, the seat lost); each seed's hand 1 is blocked by
# the play at move 27 (seeds 11, 31) or 31 (seed 22), and the seats then pass in turn
UNSEEN = [(11, 28, 0), (22, 32, 0), (22, 32, 2)]
# the leaver is the last seat still to pass: its resignation would end the hand blocked
LAST_TO_PASS = [(11, 29, 0)]


def lose_in_the_passes(seed: int, moves: int, lost: int, escrow: bool) -> dict[str, object]:
    """Seat ``lost`` is cut off once hand 1 has ``moves`` moves, the last of them a pass; the
    match is played to its end: every survivor's transcript, the same and verified."""
    table = locked_table(3, seed, escrow=escrow)
    due = mid_hand(table, moves, False)
    table.run(due, max_time=300)
    assert due(), "no such moment in the first hand"
    hand = table.by_seat(0).host.blind.hand  # type: ignore[union-attr]
    assert isinstance(hand.moves[-1].action, Pass)  # (the round of passes has begun)
    table.crash(lost)
    table.run(table.over, max_time=300)
    assert table.over()
    return check_finished(table, lost)


@pytest.mark.parametrize(("seed", "moves", "lost"), UNSEEN + LAST_TO_PASS)
def test_a_holder_lost_after_an_unseen_block_has_the_hand_dealt_again(
        seed: int, moves: int, lost: int) -> None:
    """Without escrow: the first attempt is given up, the leaver's resignation a departure before
    the second, and hand 1 is played again among the people left; the match finishes."""
    doc = lose_in_the_passes(seed, moves, lost, escrow=False)
    first = doc["hands"][0]  # type: ignore[index]
    assert first["record"]["attempt"] == 2
    assert [(d["attempt"], d["seat"], d["by"]) for d in first["departures"]] \
        == [(2, lost, "left")]
    assert lost not in first["record"]["holders"]
    # read back: no record can keep a departure before hand 1 (it keeps one as a move of the
    # hand before), so the replay walks the transcript itself, as the verifier does
    assert has_reshuffle(doc)
    document_view(doc, "Match")  # (raised "a record has no hand before it" before)


@pytest.mark.parametrize(("seed", "moves", "lost"), [(31, 28, 0), *LAST_TO_PASS])
def test_with_escrow_the_block_is_counted(seed: int, moves: int, lost: int) -> None:
    """With escrow the others stand in for the lost key: hand 1 is counted from its block, at
    its first attempt (seed 31's block ends the match: the resignation after it is moot)."""
    doc = lose_in_the_passes(seed, moves, lost, escrow=True)
    first = doc["hands"][0]  # type: ignore[index]
    assert first["record"]["attempt"] == 1 and not first.get("departures")
    assert sum(first["record"]["points"]) > 0
