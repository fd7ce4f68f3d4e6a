"""Locked matches in memory written as ``lanomino.transcript/2`` through the writer the sessions
call (``fair/transcript2.py``): fixed identities, every statement signed by its seat as the
table would sign it, the host's points signature after each hand, its closing statement."""

from __future__ import annotations

import copy
import hashlib
from dataclasses import replace
from typing import Any

from blindkit import TABLE, play_hand, void_deal

from lanomino.blind.hand_check import judge_blind_hand
from lanomino.blind.hand_record import BlindHand, Resignation, format_blind_hand
from lanomino.engine import GameState, Rules, new_game
from lanomino.engine.state import Phase
from lanomino.fair.header import MatchHeader
from lanomino.fair.identity import Identity
from lanomino.fair.statements import end_statement, header_statement
from lanomino.fair.statements2 import SIGNED, points_statement, signers, statements
from lanomino.fair.transcript2 import (
    BLIND_ALGORITHM,
    VOID_SIGNED,
    HandSignatures,
    SignedHand,
    VoidDeal,
    parse_transcript2,
    write_transcript2,
)
from lanomino.fair.transcript_model import MatchEnd


def identities(n: int) -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(f"blind seat {s}".encode()).digest())
            for s in range(n)]


def header(n: int, move_clock: int | None = None,
           rules: dict[str, Any] | None = None) -> MatchHeader:
    return MatchHeader(TABLE, BLIND_ALGORITHM, rules or {"preset": "classic"},
                       tuple(f"p{s}" for s in range(n)),
                       tuple(i.public_key for i in identities(n)), move_clock)


def sign_hand(h: str, record: BlindHand, scores: tuple[int, ...],
              ids: list[Identity]) -> SignedHand:
    """Every statement of the record signed by its signer; the host's points signature."""
    said, by = statements(h, record), signers(record)
    signatures = HandSignatures(*(
        tuple(ids[seat].sign_statement(st) for st, seat in zip(said[k], by[k], strict=True))
        for k in SIGNED))
    points = ids[record.host].sign_statement(points_statement(h, format_blind_hand(record),
                                                              scores))
    return SignedHand(record, signatures, scores, points)


def play_match(n: int, hands: int = 3, seed: int = 1, resign: Resignation | None = None,
               move_clock: int | None = None) -> dict[str, Any]:
    """A locked match of up to ``hands`` hands (fewer if it ends), ``resign`` in its last hand,
    as the transcript/2 the writer makes."""
    state: GameState = new_game(Rules.classic(), n)
    records: list[BlindHand] = []
    for number in range(1, hands + 1):
        if state.phase is Phase.OVER:
            break
        last = number == hands
        record, before = play_hand(n, rng_seed=seed * 10 + number, tag=f"m{seed}", hand=number,
                                   before=state, resign=resign if last else None)
        records.append(record)
        state = judge_blind_hand(record, before, clock=move_clock is not None)[1]
    return write_match(n, records, move_clock)


def write_match(n: int, records: list[BlindHand], move_clock: int | None = None,
                rules: dict[str, Any] | None = None,
                voided: dict[int, list[BlindHand]] | None = None) -> dict[str, Any]:
    """The transcript/2 of a match of these hands (under the ``rules`` spec, with the ``voided``
    deals before hand n's), each signed by its signers, the host seat 0 (each record must check
    out: the match score after it is the engine's)."""
    ids = identities(n)
    head = header(n, move_clock, rules)
    h = head.digest()
    state: GameState = new_game(Rules.from_spec(head.rules), n)
    signed: list[SignedHand] = []
    for record in records:
        voids = tuple(sign_void(h, v, ids) for v in (voided or {}).get(record.hand, []))
        verdict, state = judge_blind_hand(record, state, clock=move_clock is not None)
        assert verdict.ok, verdict.describe()
        hand = replace(sign_hand(h, record, tuple(state.scores), ids), voided=voids)
        signed.append(replace(hand, points_signature=ids[0].sign_statement(hand.points(h))))
    over = state.phase is Phase.OVER
    winner = state.outcome.winner if state.outcome is not None else None
    statement = end_statement(h, 0, len(signed), over, winner, state.scores)
    end = MatchEnd(0, len(signed), over, winner, tuple(state.scores),
                   ids[0].sign_statement(statement))
    sigs = [ids[s].sign_statement(header_statement(h, s)) for s in range(n)]
    return write_transcript2(head, sigs, signed, end)


def sign_void(h: str, record: BlindHand, ids: list[Identity]) -> VoidDeal:
    """A void deal's statements signed by their signers."""
    said, by = statements(h, record), signers(record)
    return VoidDeal(record, HandSignatures(**{
        k: tuple(ids[seat].sign_statement(st) for st, seat in zip(said[k], by[k], strict=True))
        for k in VOID_SIGNED}))


def host_signs_again(doc: dict[str, Any], host: Identity) -> dict[str, Any]:
    """A cheating host signs what it changed again with its own key: each hand's points
    statement (over the record as now written) and its closing statement."""
    doc = copy.deepcopy(doc)
    head, hands = parse_transcript2(doc)
    for raw, hand in zip(doc["hands"], hands, strict=True):
        raw["points_signature"] = host.sign_statement(hand.points(head.header_digest)).hex()
    e = head.end
    end = end_statement(head.header_digest, e.host, e.hands, e.finished, e.winner, e.scores,
                        [d.statement_json() for d in e.departures])
    doc["end"]["signature"] = host.sign_statement(end).hex()
    return doc


def seat_signs_again(doc: dict[str, Any], hand: int, ids: list[Identity]) -> dict[str, Any]:
    """Every seat signs its statements of hand ``hand`` (from 1) again as the record now says
    them, and the host its own: a lie its signer made itself, rather than an edit of the file."""
    doc = copy.deepcopy(doc)
    head, hands = parse_transcript2(doc)
    h = hands[hand - 1]
    again = sign_hand(head.header_digest, h.record, h.scores, ids)
    raw = doc["hands"][hand - 1]
    raw.update({k: v for k, v in replace(again, raw=h.raw).to_json().items()
                if k.endswith("_signatures")})
    return host_signs_again(doc, ids[h.record.host])


VOIDING = {"preset": "classic", "target": 30, "hand_size": 2, "no_double": "reshuffle"}


def voided_hand() -> tuple[BlindHand, BlindHand]:
    """A void deal (``VOIDING`` rules, two seats: nobody was dealt a double) and the playable
    deal of the same hand after it, played out."""
    before = new_game(Rules.from_spec(VOIDING), 2)
    for t in range(80):
        void = void_deal(2, before, attempt=1, tag=f"t{t}a1")
        if void is not None and void_deal(2, before, attempt=2, tag=f"t{t}a2") is None:
            return void, play_hand(2, rng_seed=1, tag=f"t{t}a2", before=before, attempt=2)[0]
    raise AssertionError("no void deal followed by a playable one among the tags")


def away_hand() -> BlindHand:
    """A 3-seat locked hand where seat 2's moves after its first were made by its own client's
    bot while it was out of time: each marked ``away``."""
    record, _ = play_hand(3, rng_seed=7, tag="away", before=new_game(Rules.classic(), 3))
    mine = [i for i, m in enumerate(record.moves) if m.seat == 1]
    return replace(record, moves=tuple(replace(m, away=True) if i in mine[1:] else m
                                       for i, m in enumerate(record.moves)))


def away_match() -> dict[str, Any]:
    """``away_hand`` as a match at a table with a move clock (1 s): seat 2 signs each mark with
    its move."""
    return write_match(3, [away_hand()], 1000)
