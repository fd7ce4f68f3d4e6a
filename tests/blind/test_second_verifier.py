"""The second verifier (blind_checker.py) agrees with lanomino.blind on honest proofs and
refuses the same forgeries."""

from __future__ import annotations

from dataclasses import replace

import blind_checker as second
import pytest
from blindkit import run_deal, seed

from lanomino.blind.deck import deck_bytes
from lanomino.blind.group import add, base_mul
from lanomino.blind.hashing import Context
from lanomino.blind.key_escrow import escrow_part, split_key
from lanomino.blind.unheld import blind


@pytest.fixture(scope="module")
def dealt():  # type: ignore[no-untyped-def]
    return run_deal(3)


def table(ctx: Context) -> second.Table:
    return second.Table(ctx.table, ctx.hand, ctx.attempt, ctx.tiles, list(ctx.holders),
                        list(ctx.keys))


def test_it_accepts_every_key_shuffle_and_share_of_a_deal(dealt) -> None:  # type: ignore[no-untyped-def]
    t = table(dealt.ctx)
    unkeyed = second.Table(t.table, t.hand, t.attempt, t.tiles, t.holders, [])
    for h in dealt.holders:
        a = h.announce()
        assert second.key_ok(unkeyed, a.seat, a.key, a.proof.to_bytes())
    before = second.open_deck_bytes(t)
    for turn in dealt.round.turns:
        after = deck_bytes(turn.deck)
        assert second.shuffle_ok(t, turn.seat, before, after, turn.argument.to_bytes())
        before = after
    for batch in dealt.round.shares.values():
        for s in batch:
            c1 = dealt.deck[s.position].c1
            assert second.share_ok(t, s.seat, s.position, c1, s.point, s.proof.to_bytes())
    secrets = [h.reveal().secret for h in dealt.holders]
    tiles = second.tiles_of(t, before, secrets)
    assert sorted(tiles) == list(range(28))
    for seat, hand in enumerate(dealt.hands):
        assert hand == [tiles[p] for p in dealt.round.layout.dealt[seat]]


def test_it_refuses_what_the_first_verifier_refuses(dealt) -> None:  # type: ignore[no-untyped-def]
    t = table(dealt.ctx)
    turn = dealt.round.turns[1]
    before, after = deck_bytes(dealt.round.turns[0].deck), deck_bytes(turn.deck)
    arg = turn.argument.to_bytes()
    swapped = after[64:128] + after[:64] + after[128:]
    assert not second.shuffle_ok(t, 1, before, swapped, arg)
    assert not second.shuffle_ok(t, 2, before, after, arg)  # claimed by another seat
    other = second.Table(t.table, t.hand + 1, t.attempt, t.tiles, t.holders, t.keys)
    assert not second.shuffle_ok(other, 1, before, after, arg)
    bumped = replace(turn.argument, s3=turn.argument.s3 + 1).to_bytes()
    assert not second.shuffle_ok(t, 1, before, after, bumped)
    s = dealt.round.shares[0][0]
    c1 = dealt.deck[s.position].c1
    wrong = add(s.point, base_mul(1))
    assert not second.share_ok(t, 0, s.position, c1, wrong, s.proof.to_bytes())
    assert not second.share_ok(t, 0, s.position + 1, c1, s.point, s.proof.to_bytes())


def test_it_accepts_the_blinding_and_escrow_proofs_and_refuses_forgeries(dealt) -> None:  # type: ignore[no-untyped-def]
    t = table(dealt.ctx)
    deck = dealt.deck
    after, proofs = blind(dealt.ctx, 1, deck[:4], seed("blind", 1))
    for i in range(4):
        label = i.to_bytes(4, "big")
        args = (t, b"unheld-blinding", 1, label, deck[i].c1, after[i].c1, deck[i].c2)
        assert second.equal_logs_ok(*args, after[i].c2, proofs[i].to_bytes())
        assert not second.equal_logs_ok(*args, after[(i + 1) % 4].c2, proofs[i].to_bytes())
    escrow = split_key(2, dealt.holders[2].reveal().secret, [0, 1], seed("escrow", 2))
    c1 = deck[20].c1
    part, proof = escrow_part(dealt.ctx, 0, 2, escrow.sub_shares[0], 20, c1)
    key = second.feldman_key(list(escrow.commitments), 0)
    label = (2).to_bytes(4, "big") + (20).to_bytes(4, "big")
    assert second.equal_logs_ok(t, b"escrow", 0, label, second.g(1), key, c1, part,
                                proof.to_bytes())
    assert not second.equal_logs_ok(t, b"escrow", 1, label, second.g(1), key, c1, part,
                                    proof.to_bytes())


def test_it_judges_resignations_as_the_first_verifier_does() -> None:
    """Each change to a hand's resignation: the second verifier and check_blind_hand both refuse
    it and name the same seat, or both accept it."""
    import json

    from blindkit import play_hand

    from lanomino.blind.hand_check import check_blind_hand
    from lanomino.blind.hand_record import Resignation, format_blind_hand, parse_blind_hand

    record, before = play_hand(3, rng_seed=5, resign=Resignation(2, 3))
    doc = format_blind_hand(record)
    last = max(i for i, m in enumerate(record.moves) if m.seat == 2)  # its last move, before 3
    cases: list[tuple[list[dict[str, object]], bool]] = [
        ([{"seat": 2, "at": 3, "by": "seat"}], False),
        ([{"seat": 2, "at": 3, "by": "left"}], False),
        ([{"seat": 2, "at": 3, "by": "away"}], True),
        ([{"seat": 2, "at": 3, "by": "away"}], False),
        ([{"seat": 2, "at": 3, "by": "seat"}, {"seat": 2, "at": 3, "by": "seat"}], False),
        ([{"seat": 2, "at": 3, "by": "seat"}, {"seat": 2, "at": 4, "by": "left"}], False),
        ([{"seat": 2, "at": last, "by": "seat"}], False),  # seat 3 moved after it left: the
        # host's order (the seat signed both)
    ]
    verdicts = []
    for resignations, clock in cases:
        changed = json.loads(json.dumps({**doc, "resignations": resignations}))
        mine = check_blind_hand(parse_blind_hand(changed), before, clock=clock)
        theirs = second.resignation_fault(changed, list(before.active), clock)
        assert (None if mine.ok else mine.culprit) == theirs, (resignations, mine.describe())
        verdicts.append(theirs)
    assert verdicts == [None, None, None, 0, 2, 0, 0]
