"""`lanomino verify` on a re-shuffled hand: the real thing from an in-memory table passes, and any
change to the claims, the re-shuffle round or the moves after it fails with a named check."""

from __future__ import annotations

import copy
import random
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from lanomino.engine import parse_tile  # noqa: E402
from lanomino.fair import reshuffle as rs  # noqa: E402
from lanomino.fair.commit import DealContext, commitment, set_digest  # noqa: E402
from lanomino.fair.identity import Identity  # noqa: E402
from lanomino.fair.shuffle import deck_order  # noqa: E402
from lanomino.fair.transcript import TranscriptError  # noqa: E402
from lanomino.fair.verify import to_record, verify_transcript  # noqa: E402

Played = tuple[dict[str, Any], dict[int, Identity]]  # the transcript, and the survivors' keys


@pytest.fixture(scope="module")
def played() -> Played:
    from test_session_reshuffle import lose_host_and_a_holder

    # The secrets behind every deal (and the table's id) come from one seeded source here, so the
    # match is the same on every run: the tests below need a seat without a claim that played
    # before the re-shuffle, and a claimant with a tile it never played, which this match has.
    seeded = random.Random(20261204)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secrets, "token_bytes", seeded.randbytes)
        table, _, _ = lose_host_and_a_holder(4)
        table.run(table.over)
    host = table.by_seat(2).host
    assert host is not None and host.doc is not None
    keys = {2: host.identity, 3: table.by_seat(3).peer.identity}  # type: ignore[union-attr]
    return copy.deepcopy(host.doc), keys


def _hand(doc: dict[str, Any]) -> dict[str, Any]:
    return next(h for h in doc["hands"] if "reshuffled" in h)


def test_the_reshuffled_transcript_verifies(played: Played) -> None:
    doc, _ = played
    report = verify_transcript(doc)
    assert report.ok, report.failure
    hand = _hand(doc)
    dealt = sum(len(d["commitments"]) for d in hand["deals"])
    assert report.hands[hand["hand"] - 1].commitments == dealt + 2
    # in words, the players who shuffled the deal and the two who re-shuffled (issue 30 item 19:
    # a table of three said "shuffled by 5 players")
    players = len(hand["deals"][-1]["commitments"])
    words = report.hands[hand["hand"] - 1].describe()
    assert f"fair: shuffled by {players} players, re-shuffled by 2 after the host left" in words
    # verify names the change of host on the hand's line and in the verdict (issue 30 item 20)
    moved = hand["migrated"]
    assert (f"; the host changed: seat {moved['host'] + 1} took over from move {moved['at'] + 1}"
            f" (the match's 1st new host)" in words), words
    assert "election" not in words  # (no jargon: issue 30 item 18)
    verdict = report.lines()[-1]
    assert verdict.startswith("Verdict: fair: every check of ") and (
        "; the host changed in 1 of them" in verdict), verdict
    with pytest.raises(TranscriptError, match="re-shuffled"):
        to_record(doc)


def _flip(hextext: str) -> str:
    return ("0" if hextext[0] != "0" else "1") + hextext[1:]


def _flip_in(container: Any, key: Any) -> None:
    """Change one hex digit of ``container[key]``."""
    container[key] = _flip(container[key])


def _set_claim_tile(h: dict[str, Any]) -> None:
    h["reshuffled"]["claims"][0]["dealt"][0] = next(
        t for t in ("0-0", "1-0", "1-1", "2-0") if t not in h["reshuffled"]["claims"][0]["dealt"])


TAMPERS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a claimed tile", _set_claim_tile, "claim"),
    ("a claim's signature", lambda h: _flip_in(h["reshuffled"]["claims"][1], "signature"), "claim"),
    ("the claims' order", lambda h: h["reshuffled"]["claims"].reverse(), "claim"),
    ("the move index", lambda h: h["reshuffled"].update(at=h["reshuffled"]["at"] - 1), "reshuffle"),
    ("a dropped claim", lambda h: h["reshuffled"]["claims"].pop(), "reshuffle-commitment"),
    ("a commitment", lambda h: _flip_in(h["reshuffled"]["commitments"][0], "commitment"),
     "reshuffle-commitment"),
    ("the set signature", lambda h: _flip_in(h["reshuffled"], "set_signature"), "reshuffle-set"),
    ("the opener", lambda h: h["reshuffled"].update(opener=(h["reshuffled"]["opener"] + 1) % 4),
     "reshuffle-set"),
    ("an echo", lambda h: _flip_in(h["reshuffled"]["echoes"][1], "set"), "reshuffle-echo"),
    ("a secret", lambda h: _flip_in(h["reshuffled"]["secrets"], 1), "reshuffle-secret"),
    # (another seat's name on the last move: it always differs, whatever the two last moves were)
    ("a move after the re-shuffle",
     lambda h: h["moves"][-1].update(seat=(h["moves"][-1]["seat"] + 1) % 4), "move-signature"),
    ("the points", lambda h: h["points"].__setitem__(2, h["points"][2] + 5), "score"),
    ("the log signature", lambda h: h.update(log_signature=_flip(h["log_signature"])), "log"),
    ("a deal's echo", lambda h: _flip_in(h["deals"][0]["echoes"][0], "set"), "echo"),
]


def _new_host_signs_the_log_again(doc: dict[str, Any], keys: dict[int, Identity]) -> None:
    """A cheating new host signs the hand's log again over what it changed."""
    from lanomino.fair.checker import hand_log_statement
    from lanomino.fair.transcript import parse_transcript

    t = parse_transcript(doc)
    number = _hand(doc)["hand"]
    hand = t.hands[number - 1]
    statement = hand_log_statement(t, hand)
    _hand(doc)["log_signature"] = keys[hand.log_host].sign_statement(statement).hex()


@pytest.mark.parametrize(("what", "tamper", "check"), TAMPERS, ids=[t[0] for t in TAMPERS])
def test_tampering_with_a_reshuffled_hand_is_caught(
    played: Played, what: str, tamper: Callable[[dict[str, Any]], None], check: str
) -> None:
    doc = copy.deepcopy(played[0])
    tamper(_hand(doc))
    report = verify_transcript(doc)
    assert report.failure is not None, what
    logged = check not in ("echo", "log")  # (a deal's echo is not in the log's words)
    if logged:  # changed after the new host signed the log: nobody can be named
        assert (report.failure.check, report.failure.blame) == ("log", "whoever changed the file")
        _new_host_signs_the_log_again(doc, played[1])
        report = verify_transcript(doc)
        assert report.failure is not None, what
    assert report.failure.check == check, report.failure.describe()
    assert report.failure.hand == _hand(doc)["hand"]
    if check in ("log", "reshuffle-set"):  # a signature of the new host's that does not verify
        assert report.failure.blame == "whoever changed the file"
    elif what == "a deal's echo":  # the deal's round before the migration: its host's
        assert report.failure.blame == "the host (seat 1)", report.failure.describe()
    else:
        assert report.failure.blame == "the new host (seat 3)", report.failure.describe()


def _claim_and_bind(doc: dict[str, Any], keys: dict[int, Identity], index: int,
                    change: Callable[[dict[str, Any]], None]) -> None:
    """Claimant ``index`` signs a changed claim (``change``); the new host colludes: it binds the
    claims into its set, both survivors echo it, and it signs the hand's log again."""
    from lanomino.fair.transcript import parse_transcript

    h = _hand(doc)
    r = h["reshuffled"]
    claim = r["claims"][index]
    change(claim)
    header = parse_transcript(doc).header_digest
    statement = rs.claim_statement(header, h["hand"], r["term"], claim["seat"],
                                   [parse_tile(t) for t in claim["dealt"]],
                                   [parse_tile(t) for t in claim["drawn"]])
    claim["signature"] = keys[claim["seat"]].sign_statement(statement).hex()
    ctx = rs.ReshuffleContext(bytes.fromhex(doc["table"]), h["hand"], r["term"])
    claims = parse_transcript(doc).hands[h["hand"] - 1].reshuffled.claims  # type: ignore[union-attr]
    set_ = rs.set_statement(header, ctx, r["host"], r["at"], r["opener"], rs.claims_digest(claims),
                            [(c["seat"], bytes.fromhex(c["commitment"])) for c in r["commitments"]])
    r["set_signature"] = keys[r["host"]].sign_statement(set_).hex()
    for e in r["echoes"]:
        e["set"] = set_digest(set_).hex()
        echo = rs.echo_statement(header, ctx, e["seat"], set_digest(set_))
        e["signature"] = keys[e["seat"]].sign_statement(echo).hex()
    _new_host_signs_the_log_again(doc, keys)


def test_a_signed_claim_that_does_not_fit_the_moves_blames_its_seat(played: Played) -> None:
    """A survivor that claims a draw it never made signs a lie: its seat is blamed."""
    doc, keys = copy.deepcopy(played[0]), played[1]
    r = _hand(doc)["reshuffled"]
    held = {c for other in r["claims"] for c in other["dealt"] + other["drawn"]}
    spare = ("6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "6-0")
    _claim_and_bind(doc, keys, 1,
                    lambda claim: claim["drawn"].append(next(t for t in spare if t not in held)))
    report = verify_transcript(doc)
    assert report.failure is not None
    seat = r["claims"][1]["seat"]
    assert (report.failure.check, report.failure.blame) == ("claim", f"seat {seat + 1}")


def test_a_claim_that_another_seats_move_refutes_is_the_new_hosts(played: Played) -> None:
    """A claimant claims a tile that a seat nobody vouches for played before the re-shuffle: one
    of two seats signed a falsehood, which the file cannot tell; the new host bound both into the
    log it signed, which it must not (it checks the claims against the log): it is to blame."""
    doc, keys = copy.deepcopy(played[0]), played[1]
    h = _hand(doc)
    r = h["reshuffled"]
    claimants = {c["seat"] for c in r["claims"]}
    played_by_others = [m["play"] for m in h["moves"][:r["at"]]
                        if "play" in m and m["seat"] not in claimants]
    assert played_by_others, "the seeded match has a seat without a claim that played"
    tile = played_by_others[-1]
    choices = [(n, i) for n, claim in enumerate(r["claims"]) for i, t in enumerate(claim["dealt"])
               if t not in {m.get("play") for m in h["moves"] if m["seat"] == claim["seat"]}]
    assert choices, "the seeded match has a claimant with a tile it never played"
    n, i = choices[0]

    def claim_it(claim: dict[str, Any]) -> None:  # (a tile it never played: no lie of its own)
        claim["dealt"][i] = tile

    _claim_and_bind(doc, keys, n, claim_it)
    report = verify_transcript(doc)
    assert report.failure is not None
    assert report.failure.blame == "the new host (seat 3)", report.failure.describe()


def test_the_reshuffle_has_its_own_domain() -> None:
    table = bytes(range(16))
    secret = bytes([1]) * 32
    ctx = rs.ReshuffleContext(table, 1, 1)
    committed = rs.reshuffle_commitment(ctx, 0, secret)
    assert committed != commitment(DealContext(table, 1, 1), 0, secret)
    assert rs.reshuffle_opens(ctx, 0, secret, committed)
    assert not rs.reshuffle_opens(rs.ReshuffleContext(table, 1, 2), 0, secret, committed)
    seed = rs.reshuffle_seed(ctx, [(0, secret), (2, bytes([3]) * 32)])
    tiles = [parse_tile(t) for t in ("0-0", "3-1", "5-5", "6-2", "4-0")]
    order = deck_order(seed, tiles)
    assert sorted(order) == sorted(tiles) and order == deck_order(seed, tiles)
    with pytest.raises(ValueError):
        rs.reshuffle_seed(ctx, [(2, secret), (0, secret)])  # seat order


def test_the_play_log_keeps_a_match_with_a_reshuffled_hand(played: Played, tmp_path: Path) -> None:
    """It is logged with every hand (the re-shuffled one walked from its re-shuffle on, issue 30
    item 9) and its result, as verified."""
    from lanomino.store import PlayLog, open_store

    doc = copy.deepcopy(played[0])
    store = open_store(tmp_path)
    try:
        log = PlayLog(store)
        match_id = log.log_match(doc, uid="lan:reshuffled", me=2, table="Kitchen")
        [summary] = log.matches()
        assert summary.id == match_id and summary.verified is True
        assert summary.verification == "verified" and summary.hands == len(doc["hands"])
        assert summary.finished == doc["end"]["finished"]
        assert list(summary.scores) == doc["end"]["scores"]
    finally:
        store.close()
