"""A holder lost mid-hand at an ``--escrow`` table: the others stand in for its key with their
escrow sub-shares (sealed to each of them at the deal) and the SAME deck plays on. Every later
draw opens for its drawer alone under the standing context; at the hand's end the lost key is
rebuilt from the sub-shares, and the hand's record (its resignation, the rebuilt reveal, its
shuffle kept with the argument) passes ``check_blind_hand`` with the engine's points."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from blindkit import TABLE, TILES, Dealt, _not_me_answers, public_shares, run_deal, seed

from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.hand_check import check_blind_hand
from lanomino.blind.hand_record import BlindHand, BlindMove, Resignation, ShuffleEntry
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.key_escrow import rebuilt_reveal
from lanomino.blind.lead_rounds import needs_rounds
from lanomino.blind.rounds import BlindFault, Share, check_play, open_all
from lanomino.engine import (
    RESIGN,
    Draw,
    HandEnded,
    Play,
    Rules,
    apply,
    legal_actions,
    new_game,
    start_hand,
)
from lanomino.engine import (
    TILES as ENGINE_TILES,
)
from lanomino.engine.dealing import split_deck


def escrowed(n: int) -> Dealt:
    """A deal of ``n`` holders, each key escrowed with all the others, sealed to each."""
    dealt = run_deal(n)
    for h in dealt.holders:
        commitments, sealed = h.escrow(seed("escrow", h.seat))
        for j, blob in sealed.items():
            dealt.holders[j].keep_escrow(h.seat, commitments, blob)
    return dealt


def play_with_a_loss(n: int, lost: int, at: int, rng_seed: int
                     ) -> tuple[BlindHand, tuple[int, ...], int]:
    """A whole hand where ``lost`` leaves after ``at`` moves (the host signs its resignation:
    the roster showed it gone); then the survivors stand in for its key. (the record, the
    engine's points, the draws after the loss)."""
    dealt = escrowed(n)
    before = new_game(Rules.classic(), n)
    truth = open_all(dealt.ctx, dealt.deck, {h.seat: h.reveal().secret for h in dealt.holders})
    state = before.copy()  # the referee: only a test knows every tile
    start_hand(state, *split_deck([ENGINE_TILES[t] for t in truth], state.active,
                                  before.rules.hand_size_for(n)))
    opening = _not_me_answers(state, n) if needs_rounds(before) else []
    owner = {p: s for s, ps in enumerate(dealt.round.layout.dealt) for p in ps}
    ctx_of: dict[int, Context] = {}  # position -> the context its draw shares are under
    rng = random.Random(rng_seed)
    moves: list[BlindMove] = []
    holders: list[Holder] = list(dealt.holders)
    resigned: list[Resignation] = []
    late_draws = 0
    points: tuple[int, ...] = ()
    while not points:
        if not resigned and len(moves) == at:
            resigned.append(Resignation(lost, at, "left"))
            holders = [h for h in holders if h.seat != lost]
            standing = {h.stand_in(lost) for h in holders}
            assert len(standing) == 1  # every survivor computes the same context
            points = _points(apply(state, lost, RESIGN))
            continue
        seat = state.turn
        action = rng.choice(list(legal_actions(state, seat)))
        position = None
        if isinstance(action, Draw):
            position = {h.drew(seat) for h in holders}.pop()
            drawer = next(h for h in holders if h.seat == seat)
            shares = [h.draw_share("host", position, seat) for h in holders if h is not drawer]
            assert not any(isinstance(s, Refusal) for s in shares)
            dealt.drawn[position] = [s for s in shares if isinstance(s, Share)]
            ctx_of[position] = drawer.keyed(position)[0]
            assert drawer.open(position, dealt.drawn[position]) == truth[position]
            late_draws += bool(resigned)
            owner[position] = seat
        elif isinstance(action, Play):
            position = next(p for p, s in owner.items()
                            if s == seat and truth[p] == action.tile.index)
            own = next(h for h in holders if h.seat == seat).play(position)
            assert isinstance(own, Share)
            check_play(ctx_of.get(position, dealt.ctx), dealt.deck, seat, position,
                       action.tile.index, own, public_shares(dealt, position), seat)
            del owner[position]
        moves.append(BlindMove(seat, action, position))
        points = _points(apply(state, seat, action))
    reveals = [h.reveal() for h in holders]
    commitments = holders[0].escrowed[lost][0]
    reveals.append(rebuilt_reveal(dealt.ctx, lost, commitments,
                                  {h.seat: h.escrow_reveal(lost) for h in holders}))
    record = BlindHand(
        TABLE, 1, 1, TILES, 0, dealt.ctx.holders, tuple(h.announce() for h in dealt.holders),
        tuple(ShuffleEntry.of(t, keep=t.seat == lost) for t in dealt.round.turns),
        tuple(opening), tuple(moves), tuple(sorted(reveals, key=lambda r: r.seat)), points,
        tuple(resigned))
    return record, points, late_draws


def _points(events: list[object]) -> tuple[int, ...]:
    return next((tuple(e.points) for e in events if isinstance(e, HandEnded)), ())


@pytest.mark.parametrize(("n", "lost", "at", "rng_seed"),
                         [(3, 2, 1, 1), (3, 1, 2, 4), (4, 3, 1, 2), (4, 0, 3, 3)])
def test_the_same_deck_plays_on_and_the_hand_checks_out(n: int, lost: int, at: int,
                                                        rng_seed: int) -> None:
    record, points, _late = play_with_a_loss(n, lost, at, rng_seed)
    verdict = check_blind_hand(record, new_game(Rules.classic(), n))
    assert verdict.ok, verdict.describe()
    assert record.points == points and record.resignations[0].seat == lost


def test_draws_after_the_loss_open_for_the_drawer_under_the_standing_keys() -> None:
    late = sum(play_with_a_loss(3, 2, 1, s)[2] for s in range(1, 6))
    assert late > 0  # (each draw's tile was asserted inside against the referee's)


def test_a_hand_without_the_lost_seats_key_does_not_check_out() -> None:
    record, _points, _late = play_with_a_loss(3, 2, 1, 1)
    withheld = replace(record, reveals=record.reveals[:2])
    verdict = check_blind_hand(withheld, new_game(Rules.classic(), 3))
    assert not verdict.ok and verdict.culprit == 2


def test_the_survivors_alone_cannot_open_a_position_dealt_to_the_lost_seat() -> None:
    dealt = escrowed(3)
    survivors = dealt.holders[:2]
    for h in survivors:
        h.stand_in(2)
    position = dealt.round.layout.dealt[2][0]
    refused = survivors[0].draw_share("host", position, 0)
    assert isinstance(refused, Refusal)  # the gate: the log gave it to no draw


def test_a_sealed_sub_share_opens_only_for_its_receiver_and_names_its_owner() -> None:
    dealt = run_deal(3)
    commitments, sealed = dealt.holders[0].escrow(seed("escrow", 0))
    with pytest.raises(BlindFault) as caught:
        dealt.holders[2].keep_escrow(0, commitments, sealed[1])  # seat 1's, opened by seat 2
    assert caught.value.seat == 0
    bent = sealed[2][:40] + bytes([sealed[2][40] ^ 1]) + sealed[2][41:]
    with pytest.raises(BlindFault) as caught:
        dealt.holders[2].keep_escrow(0, commitments, bent)
    assert caught.value.seat == 0
    dealt.holders[2].keep_escrow(0, commitments, sealed[2])
    with pytest.raises(BlindError):
        dealt.holders[2].keep_escrow(0, commitments, sealed[2])  # never twice


def test_a_wrong_sub_share_at_the_hands_end_names_its_seat() -> None:
    dealt = escrowed(3)
    commitments = dealt.holders[0].escrowed[2][0]
    subs = {h.seat: h.escrow_reveal(2) for h in dealt.holders[:2]}
    assert rebuilt_reveal(dealt.ctx, 2, commitments, subs).secret == \
        dealt.holders[2].reveal().secret
    with pytest.raises(BlindFault) as caught:
        rebuilt_reveal(dealt.ctx, 2, commitments, {**subs, 1: subs[1] + 1})
    assert caught.value.seat == 1
    with pytest.raises(BlindError):
        rebuilt_reveal(dealt.ctx, 2, commitments, {0: subs[0]})
