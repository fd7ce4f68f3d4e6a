"""Transcripts: round trips, and every kind of tampering caught by the right named check."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from fairkit import (
    clone,
    digest_of,
    host_signs_again,
    identities,
    make_transcript,
    resign_header,
    resign_moves,
    same,
    under_header,
)

from lanomino.fair.canonical import digest
from lanomino.fair.commit import DealContext, echo_statement
from lanomino.fair.transcript import TranscriptError, move_statement
from lanomino.fair.verify import to_record, verify_transcript

Doc = dict[str, Any]
LINE = re.compile(r"hand \d+: fair: shuffled by \d+ players( \(\d+ deals\))?, 28 tiles, "
                  r"\d+ draws?, match totals \d+(-\d+)+")


@cache
def _made(name: str) -> str:
    docs = {
        "classic": lambda: make_transcript("classic", 3, 1, target=30),
        "with-deal": lambda: make_transcript("classic", 3, 1, target=30, include_deal=True),
        "block": lambda: make_transcript("block", 3, 2, target=20),
        "void": lambda: make_transcript("classic", 2, 12, target=30, hand_size=2,
                                        no_double="reshuffle"),
        "partnership": lambda: make_transcript("partnership", 4, 3, target=30),
        "allfives": lambda: make_transcript("allfives", 2, 4, target=40, bot="greedy"),
    }
    return json.dumps(docs[name]())


def made(name: str) -> Doc:
    doc: Doc = json.loads(_made(name))
    return doc


def flip(hex_text: str) -> str:
    return ("1" if hex_text[0] != "1" else "2") + hex_text[1:]


# ----- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("name",
                         ["classic", "with-deal", "block", "void", "partnership", "allfives"])
def test_a_fair_match_verifies(name: str) -> None:
    doc = made(name)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert len(report.hands) == len(doc["hands"])
    for line in (h.describe() for h in report.hands):
        assert LINE.fullmatch(line), line
    assert list(report.hands[-1].scores) == doc["hands"][-1]["scores"]


def test_transcripts_are_reproducible_from_keys_secrets_and_bot_seeds() -> None:
    again = make_transcript("classic", 3, 1, target=30)
    assert same(again, made("classic"))


def test_void_deals_are_dealt_again_with_a_new_attempt() -> None:
    doc = made("void")
    assert max(len(h["deals"]) for h in doc["hands"]) > 1
    report = verify_transcript(doc)
    assert any(h.attempts > 1 and "deals)" in h.describe() for h in report.hands)
    # each deal was shuffled by the table's players, not by players times deals
    players = len(doc["players"])
    assert all(f"shuffled by {players} players" in h.describe() for h in report.hands)


def test_a_transcript_replays_as_a_record() -> None:
    record = pytest.importorskip("lanomino.record")
    for name in ("classic", "void", "allfives"):
        doc = made(name)
        result = record.replay(record.parse_record(to_record(doc)))
        assert list(result.scores) == doc["hands"][-1]["scores"]


def test_the_stated_deal_is_the_derived_deal() -> None:
    doc = made("with-deal")
    rec = to_record(made("classic"))
    assert [h["deal"] for h in doc["hands"]] == [h["deal"] for h in rec["hands"]]
    assert [h["boneyard"] for h in doc["hands"]] == [h["boneyard"] for h in rec["hands"]]


# ----- tampering -----------------------------------------------------------------------------

IDS = identities(4)


def _header(doc: Doc) -> str:
    return digest_of(doc)


def _first_play(doc: Doc, seat: int) -> int:
    moves = doc["hands"][0]["moves"]
    return next(i for i, m in enumerate(moves) if m["seat"] == seat and "play" in m and i > 0)


def t_secret(doc: Doc) -> None:
    doc["hands"][0]["deals"][0]["secrets"][1] = flip(doc["hands"][0]["deals"][0]["secrets"][1])


def t_swap_secrets(doc: Doc) -> None:
    s = doc["hands"][1]["deals"][0]["secrets"]
    s[0], s[2] = s[2], s[0]


def t_commitment(doc: Doc) -> None:
    c = doc["hands"][0]["deals"][0]["commitments"][1]
    c["commitment"] = flip(c["commitment"])


def t_commitment_signature(doc: Doc) -> None:
    c = doc["hands"][0]["deals"][0]["commitments"][2]
    c["signature"] = flip(c["signature"])


def t_set_signature(doc: Doc) -> None:
    d = doc["hands"][1]["deals"][0]
    d["set_signature"] = flip(d["set_signature"])


def t_echo_signature(doc: Doc) -> None:
    e = doc["hands"][0]["deals"][0]["echoes"][1]
    e["signature"] = flip(e["signature"])


def t_equivocation(doc: Doc) -> None:
    # Seat 2 honestly echoes the (different) set the host sent it.
    e = doc["hands"][0]["deals"][0]["echoes"][2]
    other = digest("another set").hex()
    e["set"] = other
    ctx = DealContext(bytes.fromhex(doc["table"]), 1, 1)
    echo = echo_statement(_header(doc), ctx, 2, bytes.fromhex(other))
    e["signature"] = IDS[2].sign_statement(echo).hex()


def t_header_signature(doc: Doc) -> None:
    doc["header_signatures"][1] = flip(doc["header_signatures"][1])


def t_move_signature(doc: Doc) -> None:
    sigs = doc["hands"][0]["move_signatures"]
    sigs[4] = flip(sigs[4])


def t_log_signature(doc: Doc) -> None:
    doc["hands"][1]["log_signature"] = flip(doc["hands"][1]["log_signature"])


def t_move_tile(doc: Doc) -> None:
    i = _first_play(doc, 0)
    move = doc["hands"][0]["moves"][i]
    move["play"] = "0-0" if move["play"] != "0-0" else "1-0"


def t_move_tile_resigned(doc: Doc) -> None:
    # Seat 0 plays a tile that the committed shuffle dealt to seat 1 and seat 1 still holds.
    i = _first_play(doc, 0)
    moves = doc["hands"][0]["moves"]
    played_before = {m.get("play") for m in moves[:i]}
    dealt = to_record(made("classic"))["hands"][0]["deal"][1]
    moves[i]["play"] = next(t for t in dealt if t not in played_before)
    resign_moves(doc, 0, IDS)


def t_illegal_pass_resigned(doc: Doc) -> None:
    i = _first_play(doc, 2)
    doc["hands"][0]["moves"][i] = {"seat": 2, "pass": True}
    resign_moves(doc, 0, IDS)


def t_drop_move(doc: Doc) -> None:
    del doc["hands"][0]["moves"][3]
    del doc["hands"][0]["move_signatures"][3]


def t_drop_move_resigned(doc: Doc) -> None:
    t_drop_move(doc)
    resign_moves(doc, 0, IDS)


def t_duplicate_move(doc: Doc) -> None:
    h = doc["hands"][0]
    h["moves"].insert(4, dict(h["moves"][3]))
    h["move_signatures"].insert(4, h["move_signatures"][3])


def t_duplicate_move_resigned(doc: Doc) -> None:
    t_duplicate_move(doc)
    resign_moves(doc, 0, IDS)


def t_truncate_moves(doc: Doc) -> None:
    h = doc["hands"][1]
    del h["moves"][-1]
    del h["move_signatures"][-1]


def t_points(doc: Doc) -> None:
    doc["hands"][0]["points"][2] += 5


def t_scores(doc: Doc) -> None:
    doc["hands"][1]["scores"][0] += 1


def t_rules(doc: Doc) -> None:
    doc["rules"]["target"] = 31


def t_unplayable_rules_resigned(doc: Doc) -> None:
    doc["rules"]["hand_size"] = 12  # 3 hands of 12 need 36 tiles
    resign_header(doc, IDS)


def t_algorithm(doc: Doc) -> None:
    doc["algorithm"] = "lanomino-fy-hmac-sha256/2"


def t_swap_keys(doc: Doc) -> None:
    doc["keys"][0], doc["keys"][1] = doc["keys"][1], doc["keys"][0]


def t_swap_players(doc: Doc) -> None:
    doc["players"][0], doc["players"][2] = doc["players"][2], doc["players"][0]


def t_host(doc: Doc) -> None:
    doc["hands"][0]["host"] = 1


def t_table(doc: Doc) -> None:
    doc["table"] = flip(doc["table"])


def t_drop_last_hand(doc: Doc) -> None:
    doc["hands"].pop()


def t_drop_last_hand_and_fix_count(doc: Doc) -> None:
    doc["hands"].pop()
    doc["end"]["hands"] -= 1


Tamper = Callable[[Doc], None]
HOST = "the host (seat 1)"
EDITED = "whoever changed the file"
CHANGED = "the file was changed after it was signed"
# (source, tampering, does the host sign again what it changed, check, blame, words)
CASES: list[tuple[str, Tamper, bool, str, str, str]] = [
    # A statement changed after its signer signed it: the file was changed, by nobody we can name.
    ("classic", t_secret, False, "log", EDITED, CHANGED),
    ("classic", t_swap_secrets, False, "log", EDITED, CHANGED),
    ("classic", t_commitment, False, "log", EDITED, CHANGED),
    ("classic", t_set_signature, False, "set", EDITED, CHANGED),
    ("classic", t_header_signature, False, "header", EDITED,
     "seat 2's signature on the match header"),
    ("classic", t_log_signature, False, "log", EDITED, CHANGED),
    ("classic", t_move_tile, False, "log", EDITED, CHANGED),
    ("classic", t_drop_move, False, "log", EDITED, CHANGED),
    ("classic", t_duplicate_move, False, "log", EDITED, CHANGED),
    ("classic", t_truncate_moves, False, "log", EDITED, CHANGED),
    ("classic", t_points, False, "log", EDITED, CHANGED),
    ("classic", t_scores, False, "log", EDITED, CHANGED),
    ("classic", t_rules, False, "header", EDITED, "rules"),
    ("classic", t_swap_keys, False, "header", EDITED, "seat 1's signature"),
    ("classic", t_swap_players, False, "header", EDITED, "players"),
    ("classic", t_host, False, "log", EDITED, CHANGED),
    ("classic", t_table, False, "header", EDITED, "table"),
    ("classic", t_drop_last_hand, False, "end", EDITED, "cut off after it was signed"),
    ("classic", t_drop_last_hand_and_fix_count, False, "end", EDITED, CHANGED),
    ("classic", t_algorithm, False, "algorithm", "the transcript", "unknown shuffle algorithm"),
    # The host signed it: what it signed as host is judged first, and it is to blame.
    ("classic", t_secret, True, "secret", HOST,
     "the host published a secret for seat 2 that does not open seat 2's signed commitment"),
    ("classic", t_swap_secrets, True, "secret", HOST, "a secret for seat 1"),
    ("classic", t_commitment, True, "commitment", HOST, "seat 2's commitment is not signed"),
    ("classic", t_commitment_signature, False, "commitment", HOST, "seat 3's commitment"),
    ("classic", t_echo_signature, False, "echo", HOST, "seat 2's echo"),
    ("classic", t_equivocation, False, "equivocation", HOST,
     "seat 3 was sent a different commitment set"),
    ("classic", t_move_signature, False, "move-signature", HOST, "move 5"),
    ("classic", t_move_tile, True, "move-signature", HOST, "not signed by seat 1"),
    ("classic", t_move_tile_resigned, True, "ownership", HOST,
     "the committed deal does not give seat 1: seat 2 holds it "
     "(the committed shuffle dealt it to seat 2)"),
    ("classic", t_illegal_pass_resigned, True, "legality", HOST, "seat 3 may not pass"),
    ("classic", t_drop_move, True, "move-signature", HOST, "move 4"),
    ("classic", t_drop_move_resigned, True, "legality", HOST, "turn"),
    ("classic", t_duplicate_move, True, "move-signature", HOST, "move 5"),
    ("classic", t_duplicate_move_resigned, True, "ownership", HOST, "it is already on the line"),
    ("classic", t_truncate_moves, True, "unfinished", HOST, "stop before the hand is over"),
    ("classic", t_points, True, "score", HOST,
     "the host's log says seat 3 scored 32 points this hand, but the rules give 27"),
    ("classic", t_scores, True, "score", HOST,
     "the host's log says seat 1's match score is 1, but the rules give 0"),
    ("classic", t_drop_last_hand_and_fix_count, True, "end", HOST, "the closing statement says"),
    ("classic", t_unplayable_rules_resigned, False, "rules",
     "every player (all signed these rules)", "36 tiles"),
]


@pytest.mark.parametrize(("source", "tamper", "resigned", "check", "blame", "words"), CASES,
                         ids=[c[1].__name__[2:] + ("+host-signed" if c[2] else "") for c in CASES])
def test_tampering_is_caught_by_the_right_check(
    source: str, tamper: Tamper, resigned: bool, check: str, blame: str, words: str
) -> None:
    doc = made(source)
    tamper(doc)
    if resigned:
        host_signs_again(doc, IDS)
    failure = verify_transcript(doc).failure
    assert failure is not None
    assert (failure.check, failure.blame) == (check, blame), failure
    assert words in failure.message, failure
    assert failure.seat == (0 if blame == HOST else None)


def test_a_written_deal_that_is_not_the_shuffle_is_named_tile_by_tile() -> None:
    """Nobody signs a hand's written deal: one that is not the committed shuffle's was changed in
    the file (or written wrongly), and no seat is blamed for it."""
    doc = made("with-deal")
    deal = doc["hands"][1]["deal"]
    got, want = deal[2][0], deal[1][0]
    deal[1][0], deal[2][0] = got, want
    failure = verify_transcript(doc).failure
    assert failure is not None and (failure.check, failure.hand) == ("deal", 2)
    assert (failure.blame, failure.seat) == ("whoever changed the file", None)
    assert failure.message == (f"the deal written in the file (signed by nobody) gives {got} to "
                               f"seat 2, but the committed shuffle gives that seat {want}")


def test_two_boneyard_tiles_out_of_order_are_caught() -> None:
    doc = made("with-deal")
    bone = doc["hands"][0]["boneyard"]
    bone[0], bone[1] = bone[1], bone[0]
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "deal"
    assert failure.blame == "whoever changed the file" and "boneyard position 1" in failure.message


def test_playing_a_void_deal_is_caught() -> None:
    doc = made("void")
    hand = next(h for h in doc["hands"] if len(h["deals"]) > 1)
    del hand["deals"][-1]
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "log"  # the host signed the other deal
    host_signs_again(doc, IDS)
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "deal" and "void" in failure.message
    assert failure.blame == "the host (seat 1)"


def test_skipping_a_void_deal_is_caught() -> None:
    doc = made("void")
    hand = next(h for h in doc["hands"] if len(h["deals"]) > 1)
    del hand["deals"][0]
    for n, deal in enumerate(hand["deals"], start=1):
        deal["attempt"] = n
    host_signs_again(doc, IDS)
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "commitment"
    assert failure.blame == "the host (seat 1)"


def test_tampering_a_later_hand_still_reports_the_hands_before_it() -> None:
    doc = made("classic")
    t_log_signature(doc)
    report = verify_transcript(doc)
    assert len(report.hands) == 1 and report.failure is not None and report.failure.hand == 2
    assert report.failure.describe().startswith("hand 2: ")


@pytest.mark.parametrize("damage", [
    lambda d: d.pop("keys"),
    lambda d: d.update(table=d["table"].upper()),
    lambda d: d["hands"][0].update(hand=True),
    lambda d: d["hands"][0].update(extra=1),
    lambda d: d["hands"][0]["moves"].append({"seat": 0, "fly": True}),
    lambda d: d["hands"][0]["moves"].append({"seat": 9, "draw": True}),
    lambda d: d["hands"][0]["deals"][0]["secrets"].pop(),
    lambda d: d.update(format="lanomino.record/1"),
    lambda d: d.update(hands={}),
])
def test_malformed_transcripts_raise_transcript_error(damage: Callable[[Doc], Any]) -> None:
    doc = made("classic")
    damage(doc)
    with pytest.raises(TranscriptError):
        verify_transcript(doc)


def test_not_an_object_is_malformed() -> None:
    for value in (None, [], "x", 3):
        with pytest.raises(TranscriptError):
            verify_transcript(value)


def test_clone_helper_is_deep() -> None:
    doc = made("classic")
    other = clone(doc)
    other["hands"][0]["moves"].clear()
    assert doc["hands"][0]["moves"]


def test_a_seat_that_resigns_mid_match_stops_committing() -> None:
    import random

    from lanomino.bots.simple import random_bot
    from lanomino.engine import RESIGN, Rules
    from lanomino.fair.fair_match import play_fair_match

    turns = {"n": 0}

    def quitter(obs: Any, rng: random.Random) -> Any:
        turns["n"] += 1
        return RESIGN if turns["n"] == 3 else random_bot(obs, rng)

    doc = play_fair_match(Rules.classic(target=40), ["a", "b", "c"],
                          [random_bot, random_bot, quitter], [random.Random(s) for s in range(3)],
                          identities=IDS[:3]).transcript
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert {"seat": 2, "resign": True} in doc["hands"][0]["moves"]
    if len(doc["hands"]) > 1:
        assert [c["seat"] for c in doc["hands"][1]["deals"][0]["commitments"]] == [0, 1]
    # A resignation may be signed by the host (a peer that vanished cannot sign it) ...
    hand = doc["hands"][0]
    i = hand["moves"].index({"seat": 2, "resign": True})
    from lanomino.fair.transcript import move_statement

    statement = move_statement(_header(doc), 1, i, hand["moves"][i])
    hand["move_signatures"][i] = IDS[0].sign_statement(statement).hex()
    assert verify_transcript(doc).ok
    # ... but no other seat may sign it.
    hand["move_signatures"][i] = IDS[1].sign_statement(statement).hex()
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "move-signature"


# ----- the stream verifier (a peer checks each new hand once) -----------------------------------


@pytest.mark.parametrize("remembers", [False, True])
@pytest.mark.parametrize("name", ["classic", "void", "partnership"])
def test_the_stream_verifier_agrees_with_the_full_one_on_every_prefix(name: str,
                                                                       remembers: bool) -> None:
    from lanomino.fair.identity import SESSION_REMEMBERS, KeyRing
    from lanomino.fair.verify import StreamVerifier

    doc = made(name)
    stream = StreamVerifier(KeyRing(SESSION_REMEMBERS) if remembers else None)
    for k in range(1, len(doc["hands"]) + 1):
        prefix = clone(doc)
        prefix["hands"] = prefix["hands"][:k]
        assert stream.check(prefix).to_json() == verify_transcript(prefix).to_json()
    assert stream.check(doc).ok


def test_the_stream_verifier_rechecks_a_hand_that_changed_after_it_was_checked() -> None:
    from lanomino.fair.verify import StreamVerifier

    doc = made("classic")
    stream = StreamVerifier()
    assert stream.check(doc).ok
    tampered = clone(doc)
    tampered["hands"][0]["points"] = [p + 1 for p in tampered["hands"][0]["points"]]
    report = stream.check(tampered)
    assert report.to_json() == verify_transcript(tampered).to_json()
    assert not report.ok and report.failure is not None and report.failure.hand == 1
    assert stream.check(doc).ok  # and back to the true log
    other = clone(doc)
    other["keys"][0] = "00" * 32  # a new header: everything is checked again
    assert stream.check(other).to_json() == verify_transcript(other).to_json()


@pytest.mark.parametrize("change", ["move", "signature", "echo", "set"])
def test_a_ring_that_remembers_the_true_log_still_catches_a_changed_one(change: str) -> None:
    """A session's ring has checked every signature of the true log (on arrival); a log changed
    after that is checked over its own bytes, and fails as the full verifier says."""
    from lanomino.fair.identity import SESSION_REMEMBERS, KeyRing
    from lanomino.fair.verify import StreamVerifier

    doc, ring = made("classic"), KeyRing(SESSION_REMEMBERS)
    assert StreamVerifier(ring).check(doc).ok
    recalled = ring.recalled
    assert StreamVerifier(ring).check(doc).ok and ring.recalled > recalled  # (from memory)
    tampered = clone(doc)
    hand = tampered["hands"][-1]
    if change == "move":  # the signature kept, the move another seat's
        hand["moves"][1]["seat"] = hand["moves"][0]["seat"]
    elif change == "signature":  # move 2 under move 1's (valid) signature
        hand["move_signatures"][1] = hand["move_signatures"][0]
    elif change == "echo":  # seat 1's echo under seat 2's signature
        echoes = hand["deals"][-1]["echoes"]
        echoes[0]["signature"] = echoes[1]["signature"]
    else:  # the set's signature, from an earlier hand's set
        hand["deals"][-1]["set_signature"] = tampered["hands"][0]["deals"][-1]["set_signature"]
    report = StreamVerifier(ring).check(tampered)
    assert not report.ok and report.to_json() == verify_transcript(tampered).to_json()


# ----- a hand whose host changed (host migration) -------------------------------------------------


def _migrate(doc: Doc, hand_index: int, new_host: int, signer: int) -> Doc:
    from lanomino.fair.transcript import log_statement

    doc = clone(doc)
    ids = identities(len(doc["players"]))
    hand = doc["hands"][hand_index]
    hand["migrated"] = {"host": new_host, "term": 1, "at": len(hand["moves"]) // 2}
    sets = [bytes.fromhex(_set_digest(doc, hand, a)) for a in hand["deals"]]
    secrets = [[(c["seat"], bytes.fromhex(s))
                for c, s in zip(a["commitments"], a["secrets"], strict=True)]
               for a in hand["deals"]]
    statement = log_statement(_header(doc), hand["hand"], new_host, sets, secrets, hand["moves"],
                              hand["points"], hand["scores"], hand["migrated"])
    hand["log_signature"] = ids[signer].sign_statement(statement).hex()
    return doc


def _set_digest(doc: Doc, hand: dict[str, Any], attempt: dict[str, Any]) -> str:
    return str(attempt["echoes"][0]["set"])


def test_a_hand_that_changed_host_verifies_with_the_new_host_signing_its_log() -> None:
    doc = _migrate(made("classic"), 0, new_host=1, signer=1)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    forged = _migrate(made("classic"), 0, new_host=1, signer=0)  # the old host may not sign it
    failure = verify_transcript(forged).failure
    assert failure is not None and failure.check == "log" and failure.hand == 1
    bad = clone(doc)
    bad["hands"][0]["migrated"]["at"] = len(bad["hands"][0]["moves"]) + 1
    with pytest.raises(TranscriptError, match="migrated"):
        verify_transcript(bad)
    unmarked = clone(doc)
    del unmarked["hands"][0]["migrated"]  # dropping the record of the migration breaks the log
    assert verify_transcript(unmarked).failure is not None


# ----- moves the host signs for a seat, and the header's move clock -----------------------------


def _host_signs_move(doc: Doc, index: int, away: bool) -> None:
    """The host (seat 0) signs hand 1's move ``index`` itself (and lists it as away)."""
    hand = doc["hands"][0]
    statement = move_statement(_header(doc), 1, index, hand["moves"][index])
    hand["move_signatures"][index] = IDS[0].sign_statement(statement).hex()
    if away:
        hand["away"] = [index]
    host_signs_again(doc, IDS)


def _a_seat_move(doc: Doc) -> int:
    return next(i for i, m in enumerate(doc["hands"][0]["moves"]) if m["seat"] != 0)


@pytest.mark.parametrize("away", [False, True])
def test_at_a_table_without_a_move_clock_a_move_the_host_signed_for_a_seat_fails(
        away: bool) -> None:
    doc = under_header(made("classic"), IDS, move_clock=None)
    report = verify_transcript(doc)
    assert report.ok and report.clock == ("Move clock: none: every move must be signed by its "
                                          "own seat.")
    i = _a_seat_move(doc)
    _host_signs_move(doc, i, away)
    failure = verify_transcript(doc).failure
    assert failure is not None and (failure.check, failure.blame) == ("move-signature", HOST)
    who = f"seat {doc['hands'][0]['moves'][i]['seat'] + 1}"
    assert f"is signed by the host, not by {who}: at a table without a move clock" in \
        failure.message


def test_with_a_move_clock_the_tables_moves_for_a_seat_out_of_time_are_listed() -> None:
    doc = under_header(made("classic"), IDS, move_clock=30_000)
    i = _a_seat_move(doc)
    _host_signs_move(doc, i, away=True)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    seat = doc["hands"][0]["moves"][i]["seat"]
    assert [(h.index, h.seat) for h in report.hands[0].host_signed] == [(i, seat)]
    assert (f"signed by the host, not by the seat: move {i + 1} (seat {seat + 1}: "
            in report.hands[0].describe())
    assert "the table's move for a seat out of time" in report.hands[0].describe()
    assert report.clock.startswith("Move clock: 30 s a move")
    assert report.to_json()["hands"][0]["host_signed"] == [{"index": i, "seat": seat,
                                                             "disputed": False}]
    assert "; 1 move signed by the host for a seat (listed above)." in report.verdict()
    _host_signs_move(doc, _a_seat_move(doc), away=False)  # not listed as away: no excuse
    doc["hands"][0].pop("away")
    host_signs_again(doc, IDS)
    failure = verify_transcript(doc).failure
    assert failure is not None and (failure.check, failure.blame) == ("move-signature", HOST)


def test_an_older_transcript_keeps_its_meaning_and_says_so() -> None:
    from pathlib import Path

    path = Path(__file__).parent / "data" / "transcript-before-move-clock.json"
    doc = json.loads(path.read_text())  # written before the header carried a move clock
    assert "move_clock" not in doc and verify_transcript(doc).ok
    i = _a_seat_move(doc)
    _host_signs_move(doc, i, away=True)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert report.clock.startswith("Move clock: not in the header (an older transcript)")
    assert i in [h.index for h in report.hands[0].host_signed]


@pytest.mark.parametrize("clock", [0, -5, "30", True, 1.5])
def test_a_move_clock_that_is_not_a_number_of_milliseconds_is_malformed(clock: Any) -> None:
    doc = made("classic")
    doc["move_clock"] = clock
    with pytest.raises(TranscriptError, match="move_clock"):
        verify_transcript(doc)


def _dispute(doc: Doc, index: int, seat: int) -> None:
    """Seat ``seat`` signs a dispute of hand 1's move ``index`` into its copy of the transcript
    (outside the host's log signature: no host signs it again)."""
    from lanomino.fair.statements import dispute_statement

    hand = doc["hands"][0]
    statement = dispute_statement(_header(doc), 1, index, seat, hand["moves"][index])
    hand.setdefault("disputes", []).append(
        {"seat": seat, "index": index, "signature": IDS[seat].sign_statement(statement).hex()})


def test_a_disputed_move_the_host_made_for_a_seat_is_listed_as_disputed() -> None:
    doc = under_header(made("classic"), IDS, move_clock=30_000)
    i = _a_seat_move(doc)
    seat = doc["hands"][0]["moves"][i]["seat"]
    _host_signs_move(doc, i, away=True)
    _dispute(doc, i, seat)
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert f"DISPUTED by seat {seat + 1}, who says it was there in time" in \
        report.hands[0].describe()
    assert report.verdict().endswith("; 1 move signed by the host for a seat (listed above); "
                                     "1 of them disputed by their seat.")
    assert report.to_json()["hands"][0]["host_signed"][0]["disputed"] is True


def test_a_dispute_must_be_its_seats_and_of_a_move_the_host_made_for_it() -> None:
    doc = under_header(made("classic"), IDS, move_clock=30_000)
    i = _a_seat_move(doc)
    seat = doc["hands"][0]["moves"][i]["seat"]
    _host_signs_move(doc, i, away=True)
    forged = clone(doc)
    _dispute(forged, i, seat)
    forged["hands"][0]["disputes"][0]["signature"] = flip(
        forged["hands"][0]["disputes"][0]["signature"])
    failure = verify_transcript(forged).failure
    assert failure is not None and (failure.check, failure.blame) == ("dispute", EDITED)
    own = clone(doc)  # the seat disputes a move it signed itself: its own two words disagree
    j = next(k for k, m in enumerate(own["hands"][0]["moves"]) if m["seat"] == seat and k != i)
    _dispute(own, j, seat)
    failure = verify_transcript(own).failure
    assert failure is not None and (failure.check, failure.blame) == ("dispute", f"seat {seat + 1}")
    assert failure.message.endswith(f"which seat {seat + 1} signed itself: its own signature on "
                                    "the move refutes the dispute")
    for bad in ([{"seat": seat, "index": 10_000, "signature": "00" * 64}],
                [{"seat": seat, "index": i}], {"seat": seat}):
        malformed = clone(doc)
        malformed["hands"][0]["disputes"] = bad
        with pytest.raises(TranscriptError, match="disputes"):
            verify_transcript(malformed)


# ----- proof against a host, kept by the seats that caught it ------------------------------------


def _fork_proof(doc: Doc) -> dict[str, Any]:
    """Two heads of hand 1's log at move 3, both signed by the host (seat 0): the real one and
    another."""
    from lanomino.fair.chain import head_statement, heads

    hand = doc["hands"][0]
    sigs = [bytes.fromhex(s) for s in hand["move_signatures"]]
    real = heads(_header(doc), 1, hand["moves"], sigs)[2]
    moves = [*hand["moves"][:2], {"seat": hand["moves"][2]["seat"], "pass": True}]
    other = heads(_header(doc), 1, moves, sigs[:3])[2]
    signed = [[h.hex(), IDS[0].sign_statement(head_statement(_header(doc), 1, 2, h)).hex()]
              for h in (real, other)]
    return {"kind": "fork", "host": 0, "hand": 1, "index": 2, "heads": signed}


def _move_proof(doc: Doc) -> dict[str, Any]:
    """The host (seat 0) signed a seat's move at a table without a move clock."""
    i = _a_seat_move(doc)
    move = doc["hands"][0]["moves"][i]
    signature = IDS[0].sign_statement(move_statement(_header(doc), 1, i, move)).hex()
    return {"kind": "move", "host": 0, "hand": 1, "index": i, "move": move,
            "signature": signature}


@pytest.mark.parametrize("proof", [_fork_proof, _move_proof])
def test_proof_against_a_host_in_the_transcript_names_it(proof: Callable[[Doc], Any]) -> None:
    doc = made("classic")  # (a table without a move clock)
    doc["evidence"] = [proof(doc)]
    report = verify_transcript(doc)
    assert report.ok, report.failure
    [caught] = report.caught
    assert caught.startswith("the host (seat 1) signed ") and caught.endswith(": proof in the file")
    assert report.lines()[-2] == f"Caught: {caught}."
    assert report.verdict().endswith("; a host was caught cheating (proof above).")


@pytest.mark.parametrize("spoil", [
    lambda p: p.update(host=1),  # another seat's key did not sign it
    lambda p: p["heads"][1].__setitem__(0, p["heads"][0][0]) if "heads" in p else p.update(
        move={**p["move"], "resign": True}, signature=p["signature"]),  # the same head; a resign
    lambda p: p.update(index=p["index"] + 1),
])
@pytest.mark.parametrize("proof", [_fork_proof, _move_proof])
def test_a_proof_that_does_not_hold_names_no_seat(proof: Callable[[Doc], Any],
                                                 spoil: Callable[[Any], Any]) -> None:
    doc = made("classic")
    doc["evidence"] = [proof(doc)]
    spoil(doc["evidence"][0])
    failure = verify_transcript(doc).failure
    assert failure is not None and (failure.check, failure.blame) == ("evidence", EDITED)
    assert "does not hold" in failure.message


def test_a_move_proof_needs_a_table_that_declares_no_move_clock() -> None:
    doc = under_header(made("classic"), IDS, move_clock=30_000)
    doc["evidence"] = [_move_proof(doc)]
    failure = verify_transcript(doc).failure
    assert failure is not None and failure.check == "evidence"


@pytest.mark.parametrize("bad", [{}, [{"kind": "fork"}], [{"kind": "lie", "host": 0}],
                                 [{"kind": "move", "host": 9, "hand": 1, "index": 0, "move": {},
                                   "signature": "00" * 64}]])
def test_malformed_evidence_is_malformed(bad: Any) -> None:
    doc = made("classic")
    doc["evidence"] = bad
    with pytest.raises(TranscriptError, match="evidence"):
        verify_transcript(doc)
