"""The locked deck's messages on the wire (net/wire/blind_messages.py): each round-trips through the
real codec, every field is checked at the edge with a reason naming it, sizes are bounded, and
the signed statement covers every field but the signature."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lanomino.blind.gate import Refusal
from lanomino.fair.identity import Identity
from lanomino.net.codec import decode_json, encode_json
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire.schemas import envelope, parse_message

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "blind"))

from blindkit import run_keys_and_shuffles  # noqa: E402

SIG = bytes(range(64))


@pytest.fixture(scope="module")
def bodies() -> list[b.BlindBody]:
    deal, holders = run_keys_and_shuffles(2)  # (the locked deck's own kit: keys, shuffles)
    shares = holders[0].deal_shares("host")
    assert not isinstance(shares, Refusal)
    own = holders[0].play(deal.layout.dealt[0][0])
    assert not isinstance(own, Refusal)
    commitments, sealed = holders[0].escrow(bytes(32))
    return [
        b.BlindDeal(1, 1, 0, 28, (0, 1), (0, 1), SIG),
        b.BlindKey(1, 1, 1, holders[1].announce(), SIG),
        b.BlindShuffle(1, 1, 0, deal.turns[0], SIG),
        b.BlindShares(1, 1, 0, shares, SIG),
        b.BlindNotMe(1, 1, 1, "6-6", SIG),
        b.BlindAsk(1, 1, 0, 4, 15, 1, SIG),
        b.BlindEnd(1, 1, 0, (0, 12), (0, 40), SIG, SIG),
        b.BlindOver(1, 1, 0, (0, 40), SIG),
        b.BlindDraw(1, 1, 0, 4, shares[0], SIG),
        b.BlindPlay(1, 1, 0, 3, "6-6", "up", own, SIG),
        b.BlindReveal(1, 1, 0, holders[0].reveal(), SIG),
        b.BlindResign(1, 1, 1, 1, 7, "seat", SIG),
        replace(b.BlindEscrow.of(1, 1, 0, commitments, sealed), signature=SIG),
        b.BlindRebuild(1, 1, 1, 0, bytes(range(31)) + b"\x00", SIG),
        b.BlindDeal(1, 1, 0, 28, (0, 1, 2), (0, 1, 2), SIG, True),
        b.BlindUnheld(1, 1, 1, 1, "shuffle", deal.turns[1].to_bytes(), SIG),
    ]


def _wire(body: b.BlindBody) -> dict[str, Any]:
    return decode_json(encode_json(envelope(body, 0, 5)))


def _refusal(body: b.BlindBody, **changes: Any) -> str:
    wire = _wire(body)
    wire["body"].update(changes)
    with pytest.raises(RemoteProtocolError) as caught:
        parse_message(wire)
    return str(caught.value)


def test_every_blind_message_round_trips_through_the_codec(bodies: list[b.BlindBody]) -> None:
    assert {body.TYPE for body in bodies} == {cls.TYPE for cls in b.BLIND_MESSAGES}
    for body in bodies:
        assert parse_message(_wire(body)).body == body


def test_a_shuffle_fits_one_message_even_for_the_largest_set() -> None:
    assert b.shuffle_bytes(28) == 6593  # the 6.7 kB of docs/fair-deal.md
    assert 2 * b.shuffle_bytes(91) + 1000 < 256 * 1024  # the codec's limit, as hex


@pytest.mark.parametrize(("kind", "field", "value", "words"), [
    ("blind_deal", "tiles", 29, "a domino set's size"),
    ("blind_deal", "tiles", True, "a domino set's size"),
    ("blind_deal", "holders", [0, 1, 2, 3, 0], "at most 4 items"),
    ("blind_deal", "openers", [0, 7], "'openers[1]'"),
    ("blind_key", "key", "00" * 97, "'key'"),  # no point
    ("blind_key", "key", "ab" * 96, "97 bytes"),
    ("blind_key", "key", "AB" * 97, "lowercase hex"),
    ("blind_shuffle", "turn", "00" * 6592, "is for no domino set"),
    ("blind_shuffle", "turn", "00" * (b.shuffle_bytes(91) + 1), "at most"),
    ("blind_shares", "shares", "00" * 129, "whole number of 130-byte shares"),
    ("blind_shares", "shares", "00" * (130 * 92), "at most"),
    ("blind_not_me", "tile", "6-66-6", "'tile'"),
    ("blind_draw", "share", "00" * 130, "'share'"),
    ("blind_ask", "position", 256, "'position'"),  # (a re-shuffle's slots follow the deal's)
    ("blind_unheld", "step", "reveal", "'step'"),
    ("blind_unheld", "number", 0, "'number'"),
    ("blind_unheld", "value", "", "not empty"),
    ("blind_unheld", "value", "00" * (b.shuffle_bytes(91) + 1), "at most"),
    ("blind_end", "points", [1, 2, 3, 4, 5], "'points'"),
    ("blind_draw", "index", -1, "'index'"),
    ("blind_play", "seat", 4, "'seat'"),
    ("blind_play", "tile", "7-7", "no tile"),
    ("blind_play", "end", "middle", "'end'"),
    ("blind_reveal", "reveal", "00" * 40, "33 or 65 bytes"),
    ("blind_reveal", "signature", "00" * 63, "'signature'"),
    ("blind_reveal", "hand", 0, "'hand'"),
    ("blind_escrow", "commitments", "00" * 32, "'commitments'"),  # no point
    ("blind_escrow", "commitments", "ab" * 31, "32 bytes each"),
    ("blind_escrow", "commitments", "00" * (32 * 5), "at most"),
    ("blind_escrow", "sealed", "00" * 63, "64 bytes each"),
    ("blind_rebuild", "sub_share", "ff" * 32, "'sub_share'"),  # not below the group's order
    ("blind_rebuild", "owner", 4, "'owner'"),
    ("blind_deal", "escrow", "yes", "'escrow'"),
])
def test_each_field_is_refused_with_its_name_and_reason(bodies: list[b.BlindBody], kind: str,
                                                        field: str, value: Any,
                                                        words: str) -> None:
    body = next(x for x in bodies if x.TYPE == kind)
    refused = _refusal(body, **{field: value})
    assert words in refused
    assert field in refused


def test_a_missing_or_extra_field_is_refused(bodies: list[b.BlindBody]) -> None:
    wire = _wire(bodies[1])
    del wire["body"]["signature"]
    with pytest.raises(RemoteProtocolError, match="missing field 'signature'"):
        parse_message(wire)
    wire = _wire(bodies[1])
    wire["body"]["secret"] = "00"
    with pytest.raises(RemoteProtocolError, match="unknown field 'secret'"):
        parse_message(wire)


def test_the_signature_covers_every_field_but_itself(bodies: list[b.BlindBody]) -> None:
    identity = Identity.generate()
    header = "ab" * 32
    for body in bodies:
        for statement_of in (b.blind_statement, b.signed_statement):
            statement = statement_of(header, body)
            signature = identity.sign_statement(statement)
            signed = replace(body, signature=signature)
            assert statement_of(header, signed) == statement  # (the signature is not in it)
            assert statement_of(header, replace(body, hand=2)) != statement
            if b.names_its_sender(replace(body, seat=3)):  # (else refused before the statement)
                assert statement_of(header, replace(body, seat=3)) != statement
            assert statement_of("cd" * 32, body) != statement
        attempt = replace(body, attempt=2)  # (a move is the hand's: its attempt is settled)
        assert b.blind_statement(header, attempt) != b.blind_statement(header, body)
    share = next(x for x in bodies if isinstance(x, b.BlindDraw))
    assert (b.blind_statement(header, replace(share, index=5))
            != b.blind_statement(header, share))
    escrowed = next(x for x in bodies if isinstance(x, b.BlindDeal) and x.escrow)
    assert (b.blind_statement(header, replace(escrowed, escrow=False))
            != b.blind_statement(header, escrowed))
    sealed = next(x for x in bodies if isinstance(x, b.BlindEscrow))
    assert (b.blind_statement(header, replace(sealed, sealed=bytes(64)))
            != b.blind_statement(header, sealed))
    not_me = next(x for x in bodies if isinstance(x, b.BlindNotMe))
    assert (b.signed_statement(header, replace(not_me, tile="5-5"))
            != b.signed_statement(header, not_me))
    play = next(x for x in bodies if isinstance(x, b.BlindPlay))
    for other in (replace(play, end="down"), replace(play, tile="5-5"), replace(play, index=4)):
        assert b.signed_statement(header, other) != b.signed_statement(header, play)


def test_a_value_passed_off_as_another_seats_is_refused(bodies: list[b.BlindBody]) -> None:
    kinds = {"blind_key", "blind_shuffle", "blind_draw", "blind_reveal", "blind_resign"}
    for body in bodies:
        assert b.names_its_sender(body)
        assert b.names_its_sender(replace(body, seat=3)) is (body.TYPE not in kinds)
    resign = b.BlindResign(1, 1, 0, 1, 7, "left", SIG)  # the host's, for a seat that left
    assert b.names_its_sender(resign) and not b.names_its_sender(replace(resign, by="seat"))
    assert not b.names_its_sender(replace(resign, resigned=0))  # "left" is never one's own


def test_what_the_transcript_keeps_is_signed_as_its_statement(bodies: list[b.BlindBody]) -> None:
    kinds = {body.TYPE: b.signed_statement("ab" * 32, body)["type"] for body in bodies}
    assert kinds["blind_key"] == "lanomino.blind-key/1"
    assert kinds["blind_shuffle"] == "lanomino.blind-shuffle/1"
    assert kinds["blind_not_me"] == "lanomino.not-me/1"
    assert kinds["blind_play"] == "lanomino.move/1"
    assert kinds["blind_reveal"] == "lanomino.blind-reveal/1"
    assert kinds["blind_resign"] == "lanomino.resign/1"
    assert kinds["blind_deal"] == kinds["blind_ask"] == "lanomino.blind/1"
