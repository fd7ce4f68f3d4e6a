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
from lanomino.blind.group import BASE, IDENTITY, BlindError, Point  # noqa: E402
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
    for position, c in enumerate(hand.deck):  # (after a blind re-shuffle: its new deck too)
        points = dict(seen.get(position, {}))
        if hand.holder is not None:  # (a watcher holds no key)
            points.setdefault(hand.holder.seat, share_of(hand.holder.reveal().secret, c))
        try:
            tile_of(opened(c, points.values()), len(deal.deck))  # (a set's size)
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


def vector_read(hand: TableHand, by: TableHand) -> bool:
    """Whether ``by``'s key alone tells of any slot of ``hand``'s survivors' hand vectors
    whether that survivor holds the tile (it would open to B or to the identity)."""
    u = hand.unheld
    if u is None or by.holder is None:
        return False
    secret = by.holder.reveal().secret
    return any(opened(c, [share_of(secret, c)]) in (BASE, IDENTITY)
               for seat, vector in u.vectors.items() if seat != by.holder.seat for c in vector)


@pytest.mark.parametrize(("players", "bots"), [(3, 0), (4, 0), (4, 1)])
def test_through_a_blind_re_shuffle_the_host_reads_no_more(players: int, bots: int) -> None:
    """A person leaves the first hand (no escrow): through the survivors' re-shuffle and every
    draw from the new deck, the host and every seat, trying every position of both decks with
    everything their sessions hold, read only their own, their bots' and the played tiles; and no
    side's key alone reads another survivor's hand vector."""
    table = Table(Rules.preset("classic"), players, bots=bots, blind=True, seed=2)
    table.host.escrow = False
    blind = table.host.blind
    assert blind is not None
    checked: list[int] = []

    def nosy() -> bool:
        sides = [blind.hand, *(s.session.blind.hand for s in table.slots if s.connected)]
        for hand in sides:
            if hand is None or hand.reveals:
                continue
            got, may = readable(hand), allowed(hand)
            assert got <= may, (hand.holder and hand.holder.seat, sorted(got - may))
            assert not vector_read(hand, hand)
            checked.append(len(got))
        return len(blind.records) >= 1 or table.over()

    def in_play() -> bool:
        hand = blind.hand
        return (nosy() or hand is not None and hand.view is not None and hand.draw is None
                and hand.view.outcome is None and len(hand.moves) >= 3)

    table.run(in_play)
    gone = table.slots[-1]
    gone.session.quit(table.now)
    table.step()
    gone.connected = False
    table.run(nosy)
    assert blind.records and blind.records[0].unheld is not None
    assert max(checked) >= 5 and len(checked) > 50

