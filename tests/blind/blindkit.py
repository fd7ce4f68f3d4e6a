"""A locked deal among in-memory holders with fixed seeds, driven through the round every seat
follows (``LockedDeal``); draws, plays and the hand's end on top."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.deck import Deck
from lanomino.blind.gate import DealLayout, Refusal
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.rounds import Share
from lanomino.engine import Rules

TABLE = bytes(range(16))
TILES = 28


def seed(tag: str, seat: int) -> bytes:
    return hashlib.sha256(f"{tag} {seat}".encode()).digest()


def context(n: int, hand: int = 1, attempt: int = 1) -> Context:
    return Context(TABLE, hand, attempt, TILES, tuple(range(n)))


def layout(n: int) -> DealLayout:
    return DealLayout.for_deal(TILES, [True] * n, Rules.classic().hand_size_for(n))


def holders(n: int, ctx: Context | None = None, tag: str = "") -> list[Holder]:
    ctx = ctx or context(n)
    return [Holder(ctx, s, layout(n), seed(f"key{tag}", s), seed(f"shuffle{tag}", s))
            for s in range(n)]


@dataclass
class Dealt:
    round: LockedDeal
    holders: list[Holder]
    hands: list[list[int]]  # tile indices per seat, as each seat opened them

    @property
    def deck(self) -> Deck:
        return self.round.deck

    @property
    def ctx(self) -> Context:
        return self.round.ctx


def run_keys_and_shuffles(n: int, hs: list[Holder] | None = None
                          ) -> tuple[LockedDeal, list[Holder]]:
    hs = hs or holders(n)
    deal = LockedDeal.started(context(n), layout(n), 0.0, 5.0)
    for h in hs:
        deal.receive_key(h.announce(), 0.0)
    for h in hs:
        h.keys_agreed(deal.ctx)
    for h in hs:
        deal.receive_shuffle(h.shuffle(deal.deck), 0.0)
    for h in hs:
        h.deck_agreed(deal.deck)
    return deal, hs


def run_deal(n: int, hs: list[Holder] | None = None) -> Dealt:
    """Keys, shuffles, shares; then every seat opens its own hand."""
    deal, hs = run_keys_and_shuffles(n, hs)
    for h in hs:
        shares = h.deal_shares("host")
        assert not isinstance(shares, Refusal)
        deal.receive_shares(h.seat, shares, 0.0)
    assert deal.step is Step.DONE
    hands = [[h.open(p, deal.shares_of(p)) for p in deal.layout.dealt[h.seat]] for h in hs]
    return Dealt(deal, hs, hands)


def draw(dealt: Dealt, seat: int) -> tuple[int, int]:
    """``seat`` draws: every holder reads the log, the others release their shares, the drawer
    opens the tile. (position, tile index)."""
    positions = {h.drew(seat) for h in dealt.holders}
    assert len(positions) == 1
    position = positions.pop()
    shares: list[Share] = []
    for h in dealt.holders:
        if h.seat != seat:
            share = h.draw_share("host", position, seat)
            assert not isinstance(share, Refusal), str(share)
            shares.append(share)
    return position, dealt.holders[seat].open(position, shares)


def public_shares(dealt: Dealt, position: int, drawn: list[Share] | None = None) -> list[Share]:
    return [*dealt.round.shares_of(position), *(drawn or [])]
