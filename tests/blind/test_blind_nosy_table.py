"""The issue's instrumented host at a real locked table (the sessions in memory through the real
codec, tests/net/sessionkit.py): after every message delivered, the host tries to open every
position of the deck with everything its session holds (every deal share, every draw's shares,
every play's share, its own key). Until the keys are revealed at the hand's end it reads nothing
but its own tiles, its host-side bots' and the played ones, never another person's; each person's
session, tried the same way with its own key, reads only its own and the played ones, and a
watcher's (no key) only the played ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from sessionkit import Table  # noqa: E402

from lanomino.blind.deal_round import Step  # noqa: E402
from lanomino.blind.deck import opened, share_of, tile_of  # noqa: E402
from lanomino.blind.group import BlindError, Point  # noqa: E402
from lanomino.blind.table_hand import TableHand  # noqa: E402
from lanomino.engine import Rules  # noqa: E402


def readable(hand: TableHand) -> set[int]:
    """The positions whose tile comes out of every share this side holds and its own key."""
    deal = hand.deal
    if deal.step is not Step.DONE:
        return set()
    seen: dict[int, dict[int, Point]] = {}
    shares = [s for batch in deal.shares.values() for s in batch]
    shares += [s for batch in hand.drawn.values() for s in batch]
    shares += list(hand.proofs.values())
    if hand.draw is not None:
        shares += list(hand.draw.shares.values())
    for s in shares:
        seen.setdefault(s.position, {})[s.seat] = s.point
    out = set()
    for position, c in enumerate(deal.deck):
        points = dict(seen.get(position, {}))
        if hand.holder is not None:  # (a watcher holds no key)
            points.setdefault(hand.holder.seat, share_of(hand.holder.reveal().secret, c))
        try:
            tile_of(opened(c, points.values()), len(deal.deck))
        except BlindError:
            continue
        out.add(position)
    return out


def allowed(hand: TableHand) -> set[int]:
    """What this side may read: the positions it opens now (its own, its bots'), the played."""
    me, openers = None if hand.holder is None else hand.holder.seat, hand.layout.openers
    return ({p for p, s in hand.owner.items() if openers[s] == me}
            | {s.position for s in hand.proofs.values()})


@pytest.mark.parametrize(("players", "bots"), [(2, 0), (3, 0), (4, 0), (3, 1), (4, 2)])
def test_a_host_that_tries_every_position_reads_only_its_own_its_bots_and_the_played(
        players: int, bots: int) -> None:
    table = Table(Rules.preset("classic"), players, bots=bots, blind=True)
    table.add_watcher("watcher")
    checked: list[int] = []  # (per side and message: how many positions it could read)
    watched: list[int] = []  # (the watcher's)

    def nosy() -> bool:
        blind = table.host.blind
        assert blind is not None
        sides = [blind.hand, *(s.session.blind.hand for s in table.slots if s.connected)]
        for hand in sides:
            if hand is None or hand.reveals:
                continue  # (once a key is revealed, the hand is over: every tile opens)
            got, may = readable(hand), allowed(hand)
            assert got <= may, (hand.holder and hand.holder.seat, sorted(got - may))
            if hand.holder is None:
                watched.append(len(got))
            checked.append(len(got))
        return len(blind.records) >= 2 or table.over()

    table.run(nosy)
    assert table.host.blind is not None and len(table.host.blind.records) >= 1
    assert max(checked) >= 5 and len(checked) > 50  # it did read its own tiles, many times over
    assert watched and max(watched) >= 1  # the watcher followed, and read the played tiles
