"""Reproducible transcripts for the fair-deal tests (fixed keys, counter secrets, seeded bots)."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable
from typing import Any

from lanomino.bots.simple import greedy_bot, random_bot
from lanomino.engine import Rules
from lanomino.fair.canonical import canonical_json
from lanomino.fair.fair_match import play_fair_match
from lanomino.fair.header import HEADER_FIELDS as HEADER_FIELDS  # (the tests import it here)
from lanomino.fair.identity import Identity
from lanomino.fair.transcript import header_digest, header_statement, move_statement

TABLE = bytes(range(16))


def identities(n: int, tag: str = "seat") -> list[Identity]:
    return [Identity.from_seed(hashlib.sha256(f"{tag} {s}".encode()).digest()) for s in range(n)]


def counter_secrets(tag: str) -> Callable[[], bytes]:
    count = 0

    def source() -> bytes:
        nonlocal count
        count += 1
        return hashlib.sha256(f"{tag} {count}".encode()).digest()

    return source


def make_transcript(preset: str = "classic", players: int = 3, seed: int = 1, *,
                    include_deal: bool = False, bot: str = "random",
                    **overrides: Any) -> dict[str, Any]:
    rules = Rules.preset(preset, **overrides)
    chosen = {"random": random_bot, "greedy": greedy_bot}[bot]
    return play_fair_match(
        rules, [f"p{s}" for s in range(players)], [chosen] * players,
        [random.Random(seed * 10 + s) for s in range(players)],
        identities=identities(players), secret_source=counter_secrets(f"{preset} {seed}"),
        table_id=TABLE, include_deal=include_deal, rules_spec={"preset": preset, **overrides},
    ).transcript


def digest_of(doc: dict[str, Any]) -> str:
    """The header digest ``H`` of a transcript's JSON (its move clock too, when it has one)."""
    return header_digest({k: doc[k] for k in (*HEADER_FIELDS, "move_clock") if k in doc})


def resign_moves(doc: dict[str, Any], hand_index: int, ids: list[Identity]) -> None:
    """Sign every move of a hand again with its seat's key (to reach the checks behind the
    move signatures)."""
    header = digest_of(doc)
    hand = doc["hands"][hand_index]
    hand["move_signatures"] = [
        ids[m["seat"]].sign_statement(move_statement(header, hand["hand"], i, m)).hex()
        for i, m in enumerate(hand["moves"])
    ]


def resign_header(doc: dict[str, Any], ids: list[Identity]) -> None:
    header = digest_of(doc)
    doc["header_signatures"] = [ids[s].sign_statement(header_statement(header, s)).hex()
                                for s in range(len(doc["players"]))]


def host_signs_again(doc: dict[str, Any], ids: list[Identity]) -> None:
    """A cheating host signs what it changed again with its own key: every deal set, every hand's
    log and the closing statement (it cannot sign as another seat)."""
    from lanomino.fair.checker import hand_log_statement
    from lanomino.fair.commit import DealContext, set_statement
    from lanomino.fair.statements import end_statement
    from lanomino.fair.transcript import parse_transcript

    t = parse_transcript(doc)
    for raw, hand in zip(doc["hands"], t.hands, strict=True):
        for raw_attempt, attempt in zip(raw["deals"], hand.deals, strict=True):
            ctx = DealContext(t.table, hand.hand, attempt.attempt)
            statement = set_statement(t.header_digest, ctx, hand.host,
                                      [(c.seat, c.commitment) for c in attempt.commitments])
            raw_attempt["set_signature"] = ids[hand.host].sign_statement(statement).hex()
        statement = hand_log_statement(t, hand)
        raw["log_signature"] = ids[hand.log_host].sign_statement(statement).hex()
    e = t.end
    end = end_statement(t.header_digest, e.host, e.hands, e.finished, e.winner, e.scores)
    doc["end"]["signature"] = ids[e.host].sign_statement(end).hex()


def under_header(doc: dict[str, Any], keys: Any, **fields: Any) -> dict[str, Any]:
    """The same match under a header with ``fields`` changed (``move_clock=None``: a table that
    declares no move clock): every seat signs its own statements again under the new header, as
    it did when the match was played, and the host its own. ``keys[seat]``: each seat's key."""
    from lanomino.fair.commit import DealContext, commit_statement, echo_statement, set_digest
    from lanomino.fair.commit import set_statement as set_of
    from lanomino.fair.transcript import parse_transcript

    doc = copy.deepcopy(doc)
    doc.update(fields)
    t = parse_transcript(doc)
    h = t.header_digest
    doc["header_signatures"] = [keys[s].sign_statement(header_statement(h, s)).hex()
                                for s in range(len(doc["players"]))]
    for raw, hand in zip(doc["hands"], t.hands, strict=True):
        for raw_a, a in zip(raw["deals"], hand.deals, strict=True):
            ctx = DealContext(t.table, hand.hand, a.attempt)
            for raw_c, c in zip(raw_a["commitments"], a.commitments, strict=True):
                raw_c["signature"] = keys[c.seat].sign_statement(
                    commit_statement(h, ctx, c.seat, c.commitment)).hex()
            set_ = set_digest(set_of(h, ctx, hand.host, [(c.seat, c.commitment)
                                                        for c in a.commitments]))
            for raw_e, e in zip(raw_a["echoes"], a.echoes, strict=True):
                raw_e["set"] = set_.hex()
                raw_e["signature"] = keys[e.seat].sign_statement(
                    echo_statement(h, ctx, e.seat, set_)).hex()
        raw["move_signatures"] = [
            keys[m["seat"]].sign_statement(move_statement(h, hand.hand, i, m)).hex()
            for i, m in enumerate(raw["moves"])]
    host_signs_again(doc, [keys[s] for s in range(len(doc["players"]))])
    return doc


def clone(doc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(doc)


def same(a: Any, b: Any) -> bool:
    return canonical_json(a) == canonical_json(b)
