"""What a person's screen shows after a blind re-shuffle (issue 29), in memory through the real
codec. The resignation of a seat that left starts the re-shuffle, and a seat holds its screen
while the re-shuffle runs; once the new deck is the boneyard the screen must show the move that
came meanwhile, even when no later move follows (the person whose turn it is has not moved yet).
Found at a real table: Zed's screen showed Bea still at the table, tiles and all, for as long as
Zed thought about the move."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import SHORT, Table  # noqa: E402

from lanomino.engine.events import Resigned  # noqa: E402
from lanomino.net.session import ObservationChanged  # noqa: E402


@pytest.mark.parametrize("seed", [5, 6, 8])
def test_the_screen_shows_the_seat_that_left_once_the_re_shuffle_is_done(seed: int) -> None:
    table = Table(SHORT, 3, blind=True, seed=seed)
    blind = table.host.blind
    assert blind is not None
    zed, bea = table.slots
    zed.bot = None  # a person thinking about a move, for as long as the test runs

    def zeds_turn() -> bool:
        hand = blind.hand
        return hand is not None and hand.ready and len(hand.moves) > 0 and hand.view is not None \
            and hand.view.turn == zed.session.seat

    table.run(zeds_turn)
    hand = blind.hand
    assert zeds_turn() and hand is not None, "pick a seed where Zed does not lead"
    bea.connected = False  # (its process is gone: no goodbye)
    held = zed.session.blind.hand
    assert held is not None
    table.run(lambda: held.unheld is not None)  # (Bea's resignation is in Zed's view now)
    seen = len([e for e in zed.events if isinstance(e, ObservationChanged)])
    table.run(max_time=60)

    u = hand.unheld
    assert u is not None and u.deck is not None, "the re-shuffle did not finish"
    assert hand.view is not None and hand.view.turn == zed.session.seat, (
        "pick a seed where the person to play after the loss is Zed")
    later = [e for e in zed.events if isinstance(e, ObservationChanged)][seen:]
    assert later, "Zed's screen was not told of the change: it still shows Bea at the table"
    shown = later[-1].observation
    gone = bea.session.seat
    assert not shown.active[gone], "Zed's screen still shows Bea at the table"
    assert Resigned(gone) in shown.history
