"""``lanomino.transcript/2``: locked matches written by the writer the sessions call verify, by
``verify_transcript`` and by ``lanomino verify``; each kind of lie names its signer, in
transcript/1's words; transcript/1 files verify as before; a broken file exits 2, never with a
traceback."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from blind_match import (
    VOIDING,
    header,
    host_signs_again,
    identities,
    play_match,
    seat_signs_again,
    voided_hand,
    write_match,
)
from blindkit import play_hand, run_deal

from lanomino.blind.hand_record import Resignation, ShuffleEntry, argument_digest
from lanomino.cli import main
from lanomino.engine import Rules
from lanomino.fair.transcript2 import parse_transcript2, write_transcript2
from lanomino.fair.verify import verify_transcript

OLD = Path(__file__).parents[1] / "fair" / "data" / "transcript-before-move-clock.json"


@pytest.fixture(scope="module")
def match() -> dict[str, Any]:
    return play_match(3, hands=3, seed=1)


def changed(doc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(doc)


def failure(doc: dict[str, Any]) -> tuple[str, int | None, str, str]:
    report = verify_transcript(doc)
    assert report.failure is not None, "the change went unnoticed"
    f = report.failure
    return f.check, f.hand, f.blame, f.message


def test_a_locked_match_verifies_hand_by_hand(match: dict[str, Any]) -> None:
    assert match["format"] == "lanomino.transcript/2"
    assert match["algorithm"] == "lanomino-blind-ristretto255/1"
    report = verify_transcript(match)
    assert report.ok, report.failure
    lines = report.lines()
    assert len(report.hands) == len(match["hands"]) == 3
    assert lines[0].startswith("hand 1: fair: locked by 3 holders, 28 tiles, ")
    assert lines[-1] == "Verdict: fair: every check of 3 hands holds."
    assert report.state is not None
    assert list(report.state.scores) == match["end"]["scores"] == match["hands"][-1]["scores"]
    # the deal the revealed keys open is the report's, as for transcript/1
    deal = report.deals[0][0]
    opened = [t.index for h in deal.hands for t in h] + [t.index for t in deal.boneyard]
    assert sorted(opened) == list(range(28)) and [len(h) for h in deal.hands] == [5, 5, 5]


def test_the_writer_and_the_parser_agree(match: dict[str, Any]) -> None:
    head, hands = parse_transcript2(match)
    again = write_transcript2(header(3), head.header_signatures, hands, head.end)
    assert again == match
    with pytest.raises(ValueError, match="lanomino-blind-ristretto255/1"):
        write_transcript2(replace(header(3), algorithm="lanomino-fy-hmac-sha256/1"),
                          head.header_signatures, hands, head.end)


def test_every_kind_of_hand_checks_out_two_to_four_people_with_a_resignation() -> None:
    for n, seed in ((2, 2), (4, 3)):
        report = verify_transcript(play_match(n, hands=2, seed=seed))
        assert report.ok, report.failure
    doc = play_match(3, hands=1, seed=5, resign=Resignation(2, 3))
    assert doc["hands"][0]["record"]["resignations"] == [{"seat": 2, "at": 3, "by": "seat"}]
    assert verify_transcript(doc).ok


def test_a_resignation_the_host_signed_for_a_seat_that_left_is_listed_and_may_be_disputed(
) -> None:
    doc = play_match(3, hands=1, seed=5, resign=Resignation(2, 3, "left"))
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert "seat 3 resigns: the host says seat 3 had left, which could not be checked" in \
        report.lines()[0]
    assert "1 move signed by the host for a seat" in report.verdict()
    from lanomino.fair.statements import dispute_statement

    ids = identities(3)
    statement = dispute_statement(parse_transcript2(doc)[0].header_digest, 1, 3, 2,
                                  {"seat": 2, "resign": True})
    disputed = changed(doc)
    disputed["hands"][0]["disputes"] = [
        {"seat": 2, "resignation": 0, "signature": ids[2].sign_statement(statement).hex()}]
    report = verify_transcript(disputed)
    assert report.ok and "DISPUTED by seat 3" in report.lines()[0]
    disputed["hands"][0]["disputes"][0]["signature"] = ids[1].sign_statement(statement).hex()
    assert failure(disputed)[:3] == ("dispute", 1, "whoever changed the file")


def test_a_resignation_an_earlier_host_of_the_hand_signed_names_it_and_is_checked_by_its_key(
) -> None:
    """The host that signed a seat's ``left`` was lost later in the hand: the record (its host
    the one that carried the hand on) names that earlier host on the resignation, whose key
    must have signed it; naming another seat, or the record's own host, is refused."""
    doc = play_match(4, hands=1, seed=5, resign=Resignation(3, 3, "left", host=1))
    assert doc["hands"][0]["record"]["resignations"] == [
        {"seat": 3, "at": 3, "by": "left", "host": 1}]
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert "seat 4 resigns" in report.lines()[0]
    ids = identities(4)
    other = changed(doc)
    other["hands"][0]["record"]["resignations"][0]["host"] = 0  # the record's own host
    with pytest.raises(Exception, match="only when it is not the record's"):
        parse_transcript2(other)
    other["hands"][0]["record"]["resignations"][0]["host"] = 2  # seat 3 signed nothing of it
    other["hands"][0]["record"]["resignations"][0]["host"] = 3  # nor does seat 4 sign its own
    with pytest.raises(Exception, match="its own seat"):
        parse_transcript2(other)
    other["hands"][0]["record"]["resignations"][0]["host"] = 2
    check, hand, blame, message = failure(host_signs_again(other, ids[0]))
    assert (check, hand, blame) == ("signature", 1, "the host (seat 1)"), message
    assert "not signed by seat 3, an earlier host of the hand" in message
    gone = changed(doc)
    del gone["hands"][0]["record"]["resignations"][0]["host"]  # as if the last host signed it
    check, _, blame, message = failure(host_signs_again(gone, ids[0]))
    assert (check, blame) == ("signature", "the host (seat 1)"), message


def test_a_lost_seed_is_made_good_by_the_stored_argument_and_a_forged_one_names_its_shuffler(
) -> None:
    """A holder's shuffle seed was lost: its reveal carries its key alone, and the record keeps
    its whole turn, argument and all (6.7 kB): verify checks the argument instead."""
    record, _ = play_hand(3, rng_seed=5)
    turn = run_deal(3).round.turns[2]  # the same seeds: the record's own turns
    lost = replace(record, reveals=(*record.reveals[:2], replace(record.reveals[2], seed=None)),
                   shuffles=(*record.shuffles[:2], ShuffleEntry.of(turn, keep=True)))
    doc = write_match(3, [lost])
    assert "turn" in doc["hands"][0]["record"]["shuffles"][2]
    report = verify_transcript(doc)
    assert report.ok, report.failure
    forged = replace(turn, argument=replace(turn.argument, s2=turn.argument.s2 + 1))
    bad = replace(lost, shuffles=(*lost.shuffles[:2], ShuffleEntry.of(forged, keep=True)))
    with pytest.raises(AssertionError, match="argument does not hold"):
        write_match(3, [bad])  # (the kit checks each hand before it writes it)
    kept = doc["hands"][0]["record"]["shuffles"][2]
    kept["turn"] = forged.to_bytes().hex()  # the host keeps another argument than seat 3's
    check, _, blame, message = failure(host_signs_again(doc, identities(3)[0]))
    assert (check, blame) == ("shuffle", "the host (seat 1)"), message
    assert "not the one it signed" in message
    kept["argument"] = argument_digest(forged.argument).hex()  # seat 3 signed a bad argument
    check, _, blame, message = failure(seat_signs_again(doc, 1, identities(3)))
    assert (check, blame) == ("shuffle", "seat 3") and "argument does not hold" in message


def test_the_host_signing_a_seat_s_resignation_as_its_own_is_named() -> None:
    doc = play_match(3, hands=1, seed=5, resign=Resignation(2, 3))
    ids = identities(3)
    forged = changed(doc)
    forged["hands"][0]["record"]["resignations"][0]["by"] = "away"  # no move clock here
    forged = seat_signs_again(forged, 1, ids)
    check, hand, blame, message = failure(forged)
    assert (check, hand, blame) == ("moves", 1, "the host (seat 1)"), message
    assert "without a move clock" in message
    # the host's own signature on a resignation that says the seat signed it: the host's
    forged = changed(doc)
    h = parse_transcript2(doc)[0].header_digest
    from lanomino.fair.statements2 import resign_statement

    forged["hands"][0]["resign_signatures"] = [
        ids[0].sign_statement(resign_statement(h, 1, Resignation(2, 3))).hex()]
    check, hand, blame, message = failure(host_signs_again(forged, ids[0]))
    assert (check, blame) == ("signature", "the host (seat 1)"), message
    assert "resignation 1 (seat 3's) is not signed by seat 3" in message


def test_a_seat_s_lie_names_the_seat_and_an_edit_names_nobody(match: dict[str, Any]) -> None:
    ids = identities(3)
    record = match["hands"][1]["record"]
    lie = changed(match)
    reveal = lie["hands"][1]["record"]["reveals"][1]
    lie["hands"][1]["record"]["reveals"][1] = reveal[:2] + ("0" if reveal[2] != "0" else "1") \
        + reveal[3:]
    assert failure(lie)[:3] == ("log", 2, "whoever changed the file")
    assert failure(host_signs_again(lie, ids[record["host"]]))[:3] == (
        "signature", 2, "the host (seat 1)")
    check, hand, blame, message = failure(seat_signs_again(lie, 2, ids))
    assert (check, hand, blame) == ("reveal", 2, "seat 2"), message
    assert message == "seat 2: revealed a secret that is not its key"


def test_false_points_or_scores_name_the_host(match: dict[str, Any]) -> None:
    host = identities(3)[0]
    doc = changed(match)
    doc["hands"][0]["record"]["points"][1] += 5
    assert failure(host_signs_again(doc, host))[:3] == ("score", 1, "the host (seat 1)")
    doc = changed(match)
    doc["hands"][0]["scores"][0] += 5
    assert failure(host_signs_again(doc, host))[:3] == ("score", 1, "the host (seat 1)")
    doc = changed(match)
    doc["end"]["scores"][0] += 5
    assert failure(host_signs_again(doc, host))[:3] == ("end", None, "the host (seat 1)")


def test_a_cut_or_reordered_file_is_caught(match: dict[str, Any]) -> None:
    host = identities(3)[0]
    doc = changed(match)
    del doc["hands"][-1]
    assert failure(doc)[:3] == ("end", None, "whoever changed the file")
    doc = changed(match)
    doc["hands"][0]["record"]["table"] = "ff" * 16
    assert failure(host_signs_again(doc, host))[:3] == ("record", 1, "the host (seat 1)")


def write(tmp_path: Path, doc: Any) -> str:
    path = tmp_path / "t.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def test_lanomino_verify_reads_a_transcript2(
        tmp_path: Path, match: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", write(tmp_path, match)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["Move clock: none: every move must be signed by its own seat.",
                        "Verdict: fair: every check of 3 hands holds."]
    doc = changed(match)
    doc["hands"][0]["scores"][0] += 5
    assert main(["verify", write(tmp_path, host_signs_again(doc, identities(3)[0]))]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == ("Verdict: NOT FAIR: the score check failed in hand 1; to blame: the host "
                       "(seat 1).")
    assert main(["verify", write(tmp_path, match), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and result["hands"][0]["locked"] is True


@pytest.mark.parametrize("content", [
    '{"format": "lanomino.transcript/2"}', '{"format": "lanomino.transcript/3"}',
    '{"format": "lanomino.transcript/2", "hands": 5}', "[" * 50_000, "\u0000"])
def test_a_broken_or_unknown_file_exits_2_without_a_traceback(
        tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", write(tmp_path, content)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lanomino verify: ") and "Traceback" not in err
    if "/3" in content:
        assert "'lanomino.transcript/3' is not a transcript format this verifier knows" in err


def test_a_truncated_transcript2_exits_2(
        tmp_path: Path, match: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(match)
    for cut in (len(text) // 3, len(text) - 1):
        assert main(["verify", write(tmp_path, text[:cut])]) == 2
        assert "is not valid JSON" in capsys.readouterr().err


def test_a_transcript1_file_still_verifies_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(OLD)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == ("Verdict: fair: every check of 4 hands holds; 1 move signed by the "
                         "host for a seat (listed above).")
    assert "locked" not in json.dumps(verify_transcript(json.loads(OLD.read_text())).to_json())


def test_replay_and_hint_read_a_transcript2_as_the_record_its_keys_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lanomino.fair.verify import to_record
    from lanomino.record import parse_record

    doc = play_match(3, hands=1, seed=5, resign=Resignation(2, 3))
    record = to_record(doc)
    assert record["format"] == "lanomino.record/1" and len(record["hands"]) == 1
    moves = record["hands"][0]["moves"]
    assert moves[3] == {"seat": 2, "resign": True}  # in its place in the log
    assert len(moves) == len(doc["hands"][0]["record"]["moves"]) + 1
    parse_record(record)  # a record the replayer reads (it raises on a broken one)
    path = write(tmp_path, doc)
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "resign" in out and "Hand 1 is over" in out
    doc["hands"][0]["scores"][0] += 1
    with pytest.raises(ValueError, match="does not verify"):
        to_record(doc)


def test_a_hand_dealt_again_after_a_void_deal_says_the_void_one_could_not_be_checked() -> None:
    """(under rules that call a deal void: under others, a hand dealt twice that keeps no void
    deal and no departure is the host's, as test_dealt_again_without_a_reason_names_the_host)"""
    spec = {**Rules.classic().to_spec(), "no_double": "reshuffle"}
    record, _ = play_hand(3, rng_seed=5, attempt=2, rules=Rules.from_spec(spec))
    report = verify_transcript(write_match(3, [record], rules=spec))
    assert report.ok, report.failure
    line = report.lines()[0]
    assert line.startswith("hand 1: fair: locked by 3 holders (2 deals), 28 tiles")
    assert line.endswith("could not check the void deal before it (not in the file)")
    assert report.verdict().endswith("1 could not be checked in full (said above).")


def test_dealt_again_without_a_reason_names_the_host() -> None:
    record, _ = play_hand(3, rng_seed=5, attempt=2)  # (classic: no deal is ever void)
    report = verify_transcript(write_match(3, [record]))
    assert report.failure is not None and report.failure.check == "record"
    assert report.failure.seat == 0 and "keeps no departure" in report.failure.message


def test_the_play_log_keeps_a_transcript2_verified_with_its_hands(match: dict[str, Any]) -> None:
    from lanomino.store.facts import derive

    facts = derive(match)
    assert (facts.verified, facts.verification) == (True, "verified")
    assert len(facts.hands) == 3 and facts.scores == tuple(match["end"]["scores"])
    assert facts.keys == tuple(match["keys"]) and facts.names == ("p0", "p1", "p2")
    assert sum(len(h.played) for h in facts.hands) == sum(
        "play" in m for h in match["hands"] for m in h["record"]["moves"])
    doc = changed(match)
    doc["hands"][0]["scores"][0] += 1
    broken = derive(doc)
    assert broken.verified is False and "does not verify" in broken.verification


def test_void_deals_kept_before_a_hand_are_checked_and_one_cut_short_names_the_host() -> None:
    """Under no_double=reshuffle a deal where nobody holds a double is void: every seat says
    "not me" to every double, the keys are revealed, and the table deals again. The file keeps
    the void deal with its signatures; verify checks it as a deal, and that it really was void."""
    spec = VOIDING
    void, record = voided_hand()
    doc = write_match(2, [record], rules=spec, voided={1: [void]})
    assert len(doc["hands"][0]["voided"]) == 1
    report = verify_transcript(doc)
    assert report.ok, report.failure
    assert report.lines()[0].startswith("hand 1: fair: locked by 2 holders (2 deals), 28 tiles")
    assert "could not check" not in report.lines()[0]
    short = replace(void, opening=void.opening[:-1])  # dealt again before the last answer
    check, _, blame, message = failure(write_match_unchecked(spec, record, short))
    assert (check, blame) == ("void", "the host (seat 1)") and "every question" in message
    doc["hands"][0]["record"]["attempt"] = 3  # a void deal the file does not keep
    assert failure(host_signs_again(doc, identities(2)[0]))[:3] == (
        "record", 1, "the host (seat 1)")


def write_match_unchecked(spec: dict[str, Any], record: Any, void: Any) -> dict[str, Any]:
    """The match written with a void deal as given, every statement signed by its signer."""
    from blind_match import sign_void

    doc = write_match(2, [record], rules=spec)
    head, hands = parse_transcript2(doc)
    voided = (sign_void(head.header_digest, void, identities(2)),)
    doc["hands"][0]["voided"] = [v.to_json() for v in voided]
    return host_signs_again(doc, identities(2)[0])


def test_replay_shows_a_void_deal_the_hand_keeps_as_transcript1_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The game record of a transcript/2 keeps each void deal as a hand with no moves before the
    deal played, as transcript/1's does, so replay says the deal was void."""
    from lanomino.fair import to_record

    void, record = voided_hand()
    doc = write_match(2, [record], rules=VOIDING, voided={1: [void]})
    hands = to_record(doc)["hands"]
    assert [len(h["moves"]) for h in hands] == [0, len(record.moves)]
    assert hands[0]["deal"] != hands[1]["deal"]
    path = tmp_path / "void.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "Hand 1: nobody was dealt a double, so the tiles are shuffled and dealt again."
