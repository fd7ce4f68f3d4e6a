"""A locked deal among in-memory holders with fixed seeds, driven through the round every seat
follows (``LockedDeal``); draws, plays and the hand's end on top."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from publickit import false_claim

from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.deck import Deck
from lanomino.blind.gate import DealLayout, Refusal
from lanomino.blind.hand_record import BlindHand, BlindMove, NotMe, Resignation, ShuffleEntry
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.lead_rounds import LeadRounds, needs_rounds
from lanomino.blind.rounds import Share, check_play, open_all
from lanomino.blind.settle import Settlement, settle
from lanomino.engine import (
    RESIGN,
    DealVoided,
    Draw,
    GameState,
    HandEnded,
    Play,
    Rules,
    Tile,
    apply,
    legal_actions,
    new_game,
    start_hand,
)
from lanomino.engine import (
    TILES as ENGINE_TILES,
)
from lanomino.engine.dealing import split_deck
from lanomino.engine.public import PublicHand

TABLE = bytes(range(16))
TILES = 28


def seed(tag: str, seat: int) -> bytes:
    return hashlib.sha256(f"{tag} {seat}".encode()).digest()


def context(n: int, hand: int = 1, attempt: int = 1) -> Context:
    return Context(TABLE, hand, attempt, TILES, tuple(range(n)))


def layout(n: int, rules: Rules | None = None) -> DealLayout:
    return DealLayout.for_deal(TILES, [True] * n, (rules or Rules.classic()).hand_size_for(n))


def holders(n: int, ctx: Context | None = None, tag: str = "",
            rules: Rules | None = None) -> list[Holder]:
    ctx = ctx or context(n)
    return [Holder(ctx, s, layout(n, rules), seed(f"key{tag}", s), seed(f"shuffle{tag}", s))
            for s in range(n)]


@dataclass
class Dealt:
    round: LockedDeal
    holders: list[Holder]
    hands: list[list[int]]  # tile indices per seat, as each seat opened them
    drawn: dict[int, list[Share]] = field(default_factory=dict)  # public shares of draws

    @property
    def deck(self) -> Deck:
        return self.round.deck

    @property
    def ctx(self) -> Context:
        return self.round.ctx


def run_keys_and_shuffles(n: int, hs: list[Holder] | None = None
                          ) -> tuple[LockedDeal, list[Holder]]:
    hs = hs or holders(n)
    deal = LockedDeal.started(hs[0].ctx, hs[0].gate.layout, 0.0, 5.0)  # (before the keys)
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
    dealt.drawn[position] = shares
    return position, dealt.holders[seat].open(position, shares)


def public_shares(dealt: Dealt, position: int) -> list[Share]:
    """Every share of ``position`` that went out: at the deal or at its draw."""
    return [*dealt.round.shares_of(position), *dealt.drawn.get(position, [])]


def play_hand(n: int, rng_seed: int = 1, tag: str = "", rules: Rules | None = None,
              resign: Resignation | None = None, hand: int = 1,
              before: GameState | None = None, attempt: int = 1) -> tuple[BlindHand, GameState]:
    """A whole locked hand in memory: the deal through the round, the opening's "not me"
    answers, random legal moves (a referee engine that knows every tile picks them, as only a
    test can), each draw opened through the holders' gates and each play checked with its
    shares, and ``resign`` when its moves have been made (if the hand lasts so long); then the
    reveals. ``hand`` of a match ``before`` it (default: its first hand). (the record, the
    match state before the hand)."""
    before = before or new_game(rules or Rules.classic(), n)
    rules = before.rules
    dealt = run_deal(n, holders(n, context(n, hand, attempt), tag=tag, rules=rules))
    secrets = {h.seat: h.reveal().secret for h in dealt.holders}
    tiles = open_all(dealt.ctx, dealt.deck, secrets)
    state = before.copy()
    hands, boneyard = split_deck([ENGINE_TILES[t] for t in tiles], state.active,
                                 rules.hand_size_for(n))
    start_hand(state, hands, boneyard)
    opening = _not_me_answers(state, n) if needs_rounds(before) else []
    rng = random.Random(rng_seed)
    owner = {p: s for s, ps in enumerate(dealt.round.layout.dealt) for p in ps}
    moves: list[BlindMove] = []
    points: tuple[int, ...] = ()
    resigned: list[Resignation] = []
    while not points:
        if resign is not None and not resigned and len(moves) == resign.at:
            resigned.append(resign)
            points = _points(apply(state, resign.seat, RESIGN)) or points
            continue
        seat = state.turn
        action = rng.choice(list(legal_actions(state, seat)))
        position = None
        if isinstance(action, Draw):
            position, _tile = draw(dealt, seat)
            owner[position] = seat
        elif isinstance(action, Play):
            position = next(p for p, s in owner.items() if s == seat
                            and tiles[p] == action.tile.index)
            own = dealt.holders[seat].play(position)
            assert isinstance(own, Share)
            check_play(dealt.ctx, dealt.deck, seat, position, action.tile.index, own,
                       public_shares(dealt, position), seat)
            del owner[position]
        moves.append(BlindMove(seat, action, position))
        points = _points(apply(state, seat, action))
    record = BlindHand(
        TABLE, hand, attempt, TILES, 0, dealt.ctx.holders,
        tuple(h.announce() for h in dealt.holders),
        tuple(ShuffleEntry.of(t) for t in dealt.round.turns),
        tuple(opening), tuple(moves), tuple(h.reveal() for h in dealt.holders), points,
        tuple(resigned))
    return record, before


def _points(events: Sequence[object]) -> tuple[int, ...]:
    return next((tuple(e.points) for e in events if isinstance(e, HandEnded)), ())


def _not_me_answers(state: GameState, n: int) -> list[NotMe]:
    """The opening's public rounds (``LeadRounds``), every seat answering from its own hand."""
    lead = LeadRounds(state.rules, tuple(range(n)))
    while (tile := lead.question()) is not None:
        holder = next((s for s in range(n) if state.hands[s] & tile.bit), None)
        for seat in range(n):
            if seat == holder:
                lead.lead(seat, tile)
                break
            lead.not_me(seat)
    return [NotMe(seat, tile) for seat, tile in lead.claims]


def locked_hand(n: int, seed: int, lie: bool = False, rules: Rules | None = None
                ) -> tuple[BlindHand, GameState, Settlement, int | None]:
    """The blind core deals; the host runs only the public view; each seat keeps its own tiles,
    answers the opening's rounds from them and proves each play, which the host checks; each
    draw opens through the holders' gates for the drawer alone. At the end the keys are
    revealed, the hand settled and its record written. (record, before, settlement, lie's
    move)."""
    rules = rules or Rules.classic()
    dealt = run_deal(n)
    before = new_game(rules, n)
    layout = dealt.round.layout
    own: list[dict[int, int]] = [dict(zip(layout.dealt[s], dealt.hands[s], strict=True))
                                 for s in range(n)]  # each seat's positions -> tile index

    def tiles_held(seat: int) -> list[Tile]:
        return [ENGINE_TILES[t] for t in own[seat].values()]

    lead = LeadRounds(rules, tuple(range(n)))
    while lead.leader is None and (asked := lead.question()) is not None:
        for seat in range(n):
            if asked.index in own[seat].values():
                lead.lead(seat, asked)
                break
            lead.not_me(seat)
    assert lead.leader is not None  # the classic rules lead the heaviest tile with no double
    view = PublicHand(before, *lead.leader)
    moves: list[BlindMove] = []
    rng = random.Random(seed)
    lie_at = None
    while view.outcome is None:
        seat = view.turn
        legal = list(view.legal_for(seat, tiles_held(seat)))
        action = rng.choice(legal)
        if lie and lie_at is None and (false := false_claim(view, seat, legal)) is not None:
            action, lie_at = false, view.moves  # "I cannot play", holding a tile that fits
        position = None
        if isinstance(action, Play):
            position = next(p for p, t in own[seat].items() if t == action.tile.index)
            share = dealt.holders[seat].play(position)
            assert isinstance(share, Share)
            check_play(dealt.ctx, dealt.deck, seat, position, action.tile.index, share,
                       public_shares(dealt, position), seat)  # the host checks the proof
            view.apply(seat, action)
            del own[seat][position]
        elif isinstance(action, Draw):
            view.apply(seat, action)
            position, tile = draw(dealt, seat)  # the holders read the log, the drawer opens
            own[seat][position] = tile
        else:
            view.apply(seat, action)
        moves.append(BlindMove(seat, action, position))
    reveals = tuple(h.reveal() for h in dealt.holders)
    tiles = open_all(dealt.ctx, dealt.deck, {r.seat: r.secret for r in reveals})
    settled = settle(view, before, layout, tiles, moves, 0)
    points = settled.points if settled.ended is not None else (0,) * n
    record = BlindHand(
        TABLE, 1, 1, TILES, 0, dealt.ctx.holders,
        tuple(h.announce() for h in dealt.holders),
        tuple(ShuffleEntry.of(t) for t in dealt.round.turns),
        tuple(NotMe(s, t) for s, t in lead.claims), tuple(moves), reveals, points)
    return record, before, settled, lie_at


def void_deal(n: int, before: GameState, hand: int = 1, attempt: int = 1, tag: str = ""
              ) -> BlindHand | None:
    """A deal attempt under ``before``'s rules; its record when the engine finds it void (under
    ``no_double=reshuffle``, nobody holds a double: every seat says "not me" to every question,
    and the keys are revealed at once), else None."""
    dealt = run_deal(n, holders(n, context(n, hand, attempt), tag=tag, rules=before.rules))
    reveals = tuple(h.reveal() for h in dealt.holders)
    tiles = open_all(dealt.ctx, dealt.deck, {r.seat: r.secret for r in reveals})
    state = before.copy()
    hands, boneyard = split_deck([ENGINE_TILES[t] for t in tiles], state.active,
                                 before.rules.hand_size_for(n))
    if not isinstance(start_hand(state, hands, boneyard)[0], DealVoided):
        return None
    lead = LeadRounds(before.rules, tuple(range(n)))
    while lead.question() is not None:
        for seat in range(n):
            lead.not_me(seat)
    return BlindHand(TABLE, hand, attempt, TILES, 0, dealt.ctx.holders,
                     tuple(h.announce() for h in dealt.holders),
                     tuple(ShuffleEntry.of(t) for t in dealt.round.turns),
                     tuple(NotMe(s, t) for s, t in lead.claims), (), reveals, ())
