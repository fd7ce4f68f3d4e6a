"""The issue's "instrumented host": a party that tries to open every position of the deck with
everything it has seen (every public share of the deal, of each draw and of each play), every
share it can get by asking each holder for every position on behalf of every seat, and the keys
it holds. Before a tile is played the host learns its own tiles and its host-side bots' and
nothing else; once tiles are played, those too. A watcher learns the played tiles only; any
group of people short of the whole table (no escrow) learns the union of their own tiles (with
the host's bots' when the host is among them) and the played ones; the whole table reads all.
Tables of 2 to 4 people, and of people with host-side bots (not holders: the host opens their
tiles)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

import pytest
from blindkit import TABLE, seed

from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.deck import opened, share_of, tile_of
from lanomino.blind.gate import DealLayout, Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.rounds import Share
from lanomino.engine import Rules

HOST = 0
# (seats at the table, the people among them: the holders; the other seats are the host's bots)
TABLES = [(2, (0, 1)), (3, (0, 1, 2)), (4, (0, 1, 2, 3)), (4, (0, 1)), (4, (0, 2, 3)),
          (3, (0, 2))]


@dataclass
class Table:
    """A locked deal among the people, the host opening its bots' tiles; everything that went
    out in public so far (``seen``: shares by position), and what each seat holds."""

    deal: LockedDeal
    holders: dict[int, Holder]
    layout: DealLayout
    seen: dict[int, list[Share]] = field(default_factory=dict)
    owned: dict[int, set[int]] = field(default_factory=dict)  # seat -> its positions
    played: set[int] = field(default_factory=set)

    def opener(self, seat: int) -> Holder:
        return self.holders[self.layout.openers[seat]]

    def draw(self, seat: int) -> None:
        """The log gives ``seat`` the boneyard's next position; the gates release it to it."""
        position = {h.drew(seat) for h in self.holders.values()}.pop()
        shares = [s for h in self.holders.values() if h is not self.opener(seat)
                  if isinstance(s := h.draw_share("host", position, seat), Share)]
        self.seen.setdefault(position, []).extend(shares)
        self.opener(seat).open(position, shares)
        self.owned[seat].add(position)

    def play(self, seat: int) -> None:
        """``seat`` plays its first dealt tile: its opener shows its own share with it."""
        position = self.layout.dealt[seat][0]
        own = self.opener(seat).play(position)
        assert isinstance(own, Share)
        self.seen.setdefault(position, []).append(own)
        self.owned[seat].discard(position)
        self.played.add(position)


def locked_table(seats: int, people: tuple[int, ...]) -> Table:
    openers = tuple(s if s in people else HOST for s in range(seats))
    layout = DealLayout.for_deal(28, [True] * seats, Rules.classic().hand_size_for(seats),
                                 openers)
    ctx = Context(TABLE, 1, 1, 28, people)
    holders = {s: Holder(ctx, s, layout, seed("key", s), seed("shuffle", s)) for s in people}
    deal = LockedDeal.started(ctx, layout, 0.0, 5.0)
    for h in holders.values():
        deal.receive_key(h.announce(), 0.0)
    for h in holders.values():
        h.keys_agreed(deal.ctx)
        deal.receive_shuffle(h.shuffle(deal.deck), 0.0)
    for h in holders.values():
        h.deck_agreed(deal.deck)
        batch = h.deal_shares("host")
        assert not isinstance(batch, Refusal)
        deal.receive_shares(h.seat, batch, 0.0)
    assert deal.step is Step.DONE
    table = Table(deal, holders, layout, owned={s: set(layout.dealt[s]) for s in range(seats)})
    for p in range(28):
        table.seen[p] = list(deal.shares_of(p))
    for s in range(seats):  # each seat's opener opens its hand
        for p in layout.dealt[s]:
            table.opener(s).open(p, deal.shares_of(p))
    return table


def nosy_asks(table: Table) -> int:
    """The host asks every other holder for its share of every position, on behalf of every seat:
    each grant joins what it has seen. The number of shares it got."""
    got = 0
    for h in table.holders.values():
        if h.seat == HOST:
            continue
        for position in range(28):
            for seat in range(len(table.layout.dealt)):
                share = h.draw_share("host", position, seat)
                if isinstance(share, Share):
                    table.seen.setdefault(position, []).append(share)
                    got += 1
    return got


def readable(table: Table, group: Iterable[int]) -> set[int]:
    """Every position whose tile comes out of the shares seen plus the ``group``'s own keys."""
    secrets = {s: table.holders[s].reveal().secret for s in group}
    out = set()
    for position, c in enumerate(table.deal.deck):
        points = {s.seat: s.point for s in table.seen.get(position, [])}
        for seat, secret in secrets.items():
            points.setdefault(seat, share_of(secret, c))
        try:
            tile_of(opened(c, points.values()), 28)
        except BlindError:
            continue
        out.add(position)
    return out


def theirs(table: Table, group: Iterable[int]) -> set[int]:
    """The positions the ``group`` holds or opens: its own and, with the host, its bots'."""
    group = set(group)
    return {p for s, ps in table.owned.items() if table.layout.openers[s] in group for p in ps}


def midhand(table: Table) -> None:
    """Every seat but the host draws once (a bot's draw opens for the host)."""
    for seat in range(1, len(table.layout.dealt)):
        table.draw(seat)


@pytest.mark.parametrize(("seats", "people"), TABLES)
def test_the_host_reads_only_its_own_and_its_bots_tiles_until_one_is_played(
        seats: int, people: tuple[int, ...]) -> None:
    table = locked_table(seats, people)
    bots = set().union(*(table.layout.dealt[s] for s in range(seats) if s not in people))
    assert readable(table, [HOST]) == set(table.layout.dealt[HOST]) | bots
    midhand(table)  # the other seats draw: the host learns none of those tiles
    assert nosy_asks(table) == 0
    assert readable(table, [HOST]) == theirs(table, [HOST])
    for seat in range(seats):
        table.play(seat)
    assert nosy_asks(table) == 0
    assert readable(table, [HOST]) == theirs(table, [HOST]) | table.played


@pytest.mark.parametrize(("seats", "people"), TABLES)
def test_a_watcher_reads_the_played_tiles_only(seats: int, people: tuple[int, ...]) -> None:
    table = locked_table(seats, people)
    midhand(table)
    assert readable(table, []) == set()
    for seat in range(seats):
        table.play(seat)
    assert readable(table, []) == table.played


@pytest.mark.parametrize(("seats", "people"), TABLES)
def test_any_group_short_of_the_table_reads_only_its_own_and_the_played(
        seats: int, people: tuple[int, ...]) -> None:
    table = locked_table(seats, people)
    midhand(table)
    for seat in range(seats):
        table.play(seat)
    for size in range(1, len(people)):
        for group in combinations(people, size):
            assert readable(table, group) == theirs(table, group) | table.played, group
    assert readable(table, people) == set(range(28))  # the whole table reads every position
