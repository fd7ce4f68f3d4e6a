"""A blind re-shuffle at a locked table without escrow where a survivor cheats: every value is
checked on arrival (a bad shuffle, a bad blinding, a bad opening share: refused, and the
survivor is named), and a hand vector that lies about the survivor's hand while keeping the
count lets the hand go on until its end, where the survivor is named."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table, in_play, leave  # noqa: E402
from test_blind_refusals import Tampering  # noqa: E402

from lanomino.blind.deck import deck_bytes  # noqa: E402
from lanomino.blind.hand_check import check_blind_hand  # noqa: E402
from lanomino.blind.rounds import ShuffleTurn  # noqa: E402
from lanomino.blind.unheld import combine, hand_vector  # noqa: E402
from lanomino.blind.unheld_round import PROOF_BYTES, statement_digest, unheld_seed  # noqa: E402
from lanomino.engine import Rules, new_game  # noqa: E402
from lanomino.net.session import MatchOver, ProtocolProblem  # noqa: E402
from lanomino.net.wire import blind_messages as b  # noqa: E402

CHEAT, LEAVER = 0, 2  # (slots: seats 2 and 4 at a table of four with the host at seat 1)
POINT = 64  # a ciphertext's bytes


def _step(step: str, change: Callable[[bytes], bytes]) -> Callable[[b.BlindUnheld],
                                                                  b.BlindUnheld | None]:
    def tamper(body: b.BlindUnheld) -> b.BlindUnheld | None:
        return replace(body, value=change(body.value)) if body.step == step else None
    return tamper


def _swapped_shuffle(value: bytes) -> bytes:
    turn = ShuffleTurn.from_bytes(value, 28)
    deck = turn.deck
    return replace(turn, deck=(deck[1], deck[0], *deck[2:])).to_bytes()


def _swapped_blinding(value: bytes) -> bytes:
    return value[POINT:2 * POINT] + value[:POINT] + value[2 * POINT:]


def _bad_share(value: bytes) -> bytes:
    proof_end = 32 + PROOF_BYTES  # the first slot's share, then its proof: s is its last 32
    last = value[proof_end - 1] ^ 1
    return value[:proof_end - 1] + bytes([last]) + value[proof_end:]


def _played_to_the_loss(table: Table) -> None:
    blind = table.host.blind
    assert blind is not None

    due = in_play(blind, 3)
    table.run(due, max_time=60)
    assert due()
    leave(table, table.slots[LEAVER], quits=True)
    table.run(table.over, max_time=300)


@pytest.mark.parametrize(("step", "change", "why"), [
    ("shuffle", _swapped_shuffle, "its shuffle argument does not hold"),
    ("blinding", _swapped_blinding, "its blinding of slot 0 does not hold"),
    ("opening", _bad_share, "its share of blinded slot 0 does not hold")])
def test_a_bad_value_in_the_blind_re_shuffle_is_refused_and_names_its_survivor(
        step: str, change: Callable[[bytes], bytes], why: str) -> None:
    table = Tampering(4, "blind_unheld", _step(step, change), slot=CHEAT)
    table.host.escrow = False
    _played_to_the_loss(table)
    cheat = table.slots[CHEAT].session.seat
    faults = [e for e in table.host_events if isinstance(e, ProtocolProblem)
              and e.code == "blind_fault" and e.seat == cheat]
    assert faults and why in faults[0].detail, faults
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert not over.verified and f"seat {cheat + 1}" in over.reason
    blind = table.host.blind
    assert blind is not None and not blind.records  # the hand never settled


def test_a_hand_vector_that_swaps_a_tile_is_named_at_the_hands_end() -> None:
    """The survivor claims a tile it does not hold instead of one it does: the count is right,
    so the hand goes on; at its end every side makes the survivor's vector again from its key,
    its seed and the hand it really held, and names it."""
    table: Tampering

    def lie(body: b.BlindUnheld) -> b.BlindUnheld | None:
        if body.step != "vector":
            return None
        hand = table.slots[CHEAT].session.blind.hand
        assert hand is not None and hand.unheld is not None and hand.holder is not None
        mine = {t for p, t in hand.opened.items() if p in hand.owner}
        others = [table.host.blind.hand, *(s.session.blind.hand for s in table.slots)]
        held = {t for h in others if h is not None for p, t in h.opened.items() if p in h.owner}
        # (a tile nobody holds, which only the test, reading every side, can tell)
        other = min(t for t in range(28) if t not in held and t not in hand.unheld.on_line)
        told = (mine - {min(mine)}) | {other}
        seed = hand.holder.reveal().seed
        assert seed is not None
        u = hand.unheld
        vector = hand_vector(u.ctx, told, unheld_seed(seed, 1))
        # (a cheat keeps its own round as it told it: its next checks agree with the others')
        u.vectors[body.seat] = vector
        u.sent[("vector", body.seat)] = statement_digest(1, "vector", deck_bytes(vector))
        if len(u.vectors) == len(u.ctx.holders):
            u.combined = combine(u.ctx, [u.vectors[s] for s in u.ctx.holders], u.on_line)
        return replace(body, value=deck_bytes(vector))

    table = Tampering(4, "blind_unheld", lie, slot=CHEAT)
    table.host.escrow = False
    _played_to_the_loss(table)
    cheat = table.slots[CHEAT].session.seat
    named = [e for e in table.host_events if isinstance(e, ProtocolProblem)
             and e.code == "blind_claim"]
    assert named and named[0].seat == cheat and "unheld" in named[0].detail, named
    assert "its hand vector" in named[0].detail
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert not over.verified and f"seat {cheat + 1}" in over.reason


def test_the_record_of_a_re_shuffled_hand_names_whoever_its_lie_is() -> None:
    """``check_blind_hand`` of the record (the same judge as ``lanomino verify``): a survivor's
    signed vector digest that its key, seed and hand do not make names that survivor; a kept
    share of the lost holder dropped or moved names the host, which kept them."""
    table = Table(Rules.preset("classic"), 4, blind=True, seed=2)
    table.host.escrow = False
    _played_to_the_loss(table)
    blind = table.host.blind
    assert blind is not None
    record = blind.records[0]
    u = record.unheld
    assert u is not None
    before = new_game(Rules.preset("classic"), 4)
    assert check_blind_hand(record, before).ok
    survivors = [s for s in record.holders if s not in u.lost]
    for i, seat in enumerate(survivors):
        vectors = list(u.sent[0])
        vectors[i] = bytes(32)
        lied = replace(record, unheld=replace(u, sent=(tuple(vectors), *u.sent[1:])))
        verdict = check_blind_hand(lied, before)
        assert (verdict.check, verdict.culprit) == ("unheld", seat), verdict.describe()
        assert "hand vector" in verdict.reason
    for shares in (u.shares[1:], (replace(u.shares[0], position=u.shares[1].position),
                                  *u.shares[1:])):
        verdict = check_blind_hand(replace(record, unheld=replace(u, shares=shares)), before)
        assert (verdict.check, verdict.culprit) == ("unheld", record.host), verdict.describe()


def test_a_hand_vector_that_changes_the_count_ends_the_match_in_words() -> None:
    """A survivor that says it holds one tile more than it does: the tiles found are not the
    public number, so the new deck cannot be the boneyard; who lied cannot be told then (the
    hands are shut), and the match ends saying why."""
    table: Tampering

    def more(body: b.BlindUnheld) -> b.BlindUnheld | None:
        if body.step != "vector":
            return None
        hand = table.slots[CHEAT].session.blind.hand
        assert hand is not None and hand.unheld is not None and hand.holder is not None
        u = hand.unheld
        mine = {t for p, t in hand.opened.items() if p in hand.owner}
        told = mine | {min(t for t in range(28) if t not in mine and t not in u.on_line)}
        seed = hand.holder.reveal().seed
        assert seed is not None
        vector = hand_vector(u.ctx, told, unheld_seed(seed, 1))
        u.vectors[body.seat] = vector  # (the cheat keeps its round as it told it)
        u.sent[("vector", body.seat)] = statement_digest(1, "vector", deck_bytes(vector))
        if len(u.vectors) == len(u.ctx.holders):
            u.combined = combine(u.ctx, [u.vectors[s] for s in u.ctx.holders], u.on_line)
        return replace(body, value=deck_bytes(vector))

    table = Tampering(4, "blind_unheld", more, slot=CHEAT)
    table.host.escrow = False
    _played_to_the_loss(table)
    over = next(e for e in table.host_events if isinstance(e, MatchOver))
    assert not over.verified and "a hand vector was false" in over.reason, over.reason
    blind = table.host.blind
    assert blind is not None and not blind.records
