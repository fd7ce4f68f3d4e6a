"""Test vectors: fixed seeds give fixed bytes, and docs/fair-deal.md publishes the same ones.

The deal: table id 00 01 .. 0f, hand 1, attempt 1, 28 tiles, holders 0, 1, 2 (classic rules,
hands of 5); seat s's key seed is SHA-256("key s") and its shuffle seed SHA-256("shuffle s")."""

from __future__ import annotations

import hashlib
from pathlib import Path

from blindkit import run_deal

from lanomino.blind import ALGORITHM
from lanomino.blind.deck import deck_digest
from lanomino.blind.hashing import generators, generators_digest
from lanomino.engine import TILES

DOC = Path(__file__).resolve().parents[2] / "docs" / "fair-deal.md"

H0 = "06fc8c7c31f55caaf931da4aa1241fb932c0fa54c948874c1668c64133cf0103"
H1 = "1616624ef899b681605fc3768bc7e4252f8e7a4d3b9e88dd5207021c2234860c"
GENERATORS = "be0dd2ca7641579c16439085525c7d32a30175293008f2989ffaa080c051baed"
KEY_0 = "be146ca08cc2c88e4cdcea9d5cd0d6a9ceff20bd0d4f456b04afc04130308743"
KEY_PROOF_0 = ("0234f1df3873d9ed69bba111f800b92e10337aafcc294ef7ef30848869e9694a"
               "a87c19cc5a53b585414ed5f5c2c9558d4675eec3c961422cb1d48a5e79b3be0c")
DECKS = ("902a9dd6cc9f394518962a328dd7be4523f6639b0d66f76a0f600caa4adff896",
         "547996e02423a0204f078870e52ccf8ee2536ea77f27b403f422e71ffed2f97b",
         "0497ffeec527182867d4c0d270f371edd23c61cbec095536cac1756bfb27dd49")
ARGUMENTS = ("ef72825970e35e398af226ed87beee0ebcf4ef2c9a98b821c742c05d3c62e927",
             "64c80c46b31db7a4adae29044938e12edc15149011493281111326f1e1c6cedc",
             "cb8b4c84e711430d48f1bb4dc48badeb8b741560c6c7fc155228c0593a1f973f")
SHARE_0_AT_5 = "78f1ace913bea570287d939ae25ee1aa57ab5842bcecae3ed33cea1883c1431e"
HANDS = ("6-0 1-0 3-1 3-0 5-4", "1-1 5-2 4-4 0-0 6-4", "5-5 6-5 6-3 3-3 3-2")


def test_generators_and_keys() -> None:
    assert generators(28)[0].hex() == H0
    assert generators(28)[1].hex() == H1
    assert generators_digest(28).hex() == GENERATORS


def test_a_whole_deal_gives_the_published_bytes() -> None:
    dealt = run_deal(3)
    announcement = dealt.holders[0].announce()
    assert announcement.key.hex() == KEY_0
    assert announcement.proof.to_bytes().hex() == KEY_PROOF_0
    assert tuple(deck_digest(t.deck).hex() for t in dealt.round.turns) == DECKS
    assert tuple(hashlib.sha256(t.argument.to_bytes()).hexdigest()
                 for t in dealt.round.turns) == ARGUMENTS
    share = next(s for s in dealt.round.shares_of(5) if s.seat == 0)
    assert share.point.hex() == SHARE_0_AT_5
    assert tuple(" ".join(str(TILES[t]) for t in hand) for hand in dealt.hands) == HANDS


def test_published_document_carries_the_same_vectors() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert ALGORITHM in text
    for value in (H0, H1, GENERATORS, KEY_0, KEY_PROOF_0[:64], KEY_PROOF_0[64:], *DECKS,
                  *ARGUMENTS, SHARE_0_AT_5, *HANDS):
        assert value in text, value
