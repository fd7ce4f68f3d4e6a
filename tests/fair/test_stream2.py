"""``TranscriptStream``: a match's transcript checked as it grows, each hand once, with the same
report as ``verify_transcript`` on every prefix (a locked match's transcript/2, and
transcript/1); a hand changed after it was checked is checked again, and a new header starts
over. ``MatchLog``: a node that logs its match after every hand checks each hand once, and an
older log still waiting is skipped."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "blind"))

from blind_match import play_match, write_match  # noqa: E402

from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402
from lanomino.fair import verify2  # noqa: E402
from lanomino.fair.report import Report  # noqa: E402
from lanomino.fair.stream2 import TranscriptStream  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session_base import TranscriptUpdated  # noqa: E402
from lanomino.runtime.match_log import MatchLog  # noqa: E402
from lanomino.store import PlayLog, open_store  # noqa: E402

FAIR = Path(__file__).parent / "data" / "transcript-before-move-clock.json"


@pytest.fixture(scope="module")
def growing() -> list[dict[str, Any]]:
    """A locked match of 3 people as its transcript stood after each of its 4 hands."""
    full = play_match(3, hands=4, seed=2)
    records = [parse_blind_hand(h["record"]) for h in full["hands"]]
    assert len(records) == 4
    return [write_match(3, records[:n]) for n in range(1, len(records) + 1)]


def same(a: Report, b: Report) -> None:
    assert a.lines() == b.lines()
    assert (a.failure, a.deals, a.clock, a.caught) == (b.failure, b.deals, b.clock, b.caught)
    assert (a.state is None) == (b.state is None)
    if a.state is not None and b.state is not None:
        assert (a.state.scores, a.state.phase) == (b.state.scores, b.state.phase)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hands the locked verifier checks, in order."""
    calls: list[int] = []
    check_hand = verify2.BlindChecker.check_hand

    def counted(self: verify2.BlindChecker, state: Any, hand: Any) -> Any:
        calls.append(hand.record.hand)
        return check_hand(self, state, hand)

    monkeypatch.setattr(verify2.BlindChecker, "check_hand", counted)
    return calls


def test_a_growing_locked_transcript_is_checked_hand_by_hand_with_verifys_report(
        growing: list[dict[str, Any]], checked: list[int]) -> None:
    stream = TranscriptStream()
    for doc in growing:
        report = stream.check(doc)
        assert report.ok, report.failure
        checked.clear()
        same(report, verify_transcript(doc))
    checked.clear()
    stream = TranscriptStream()
    for doc in growing:
        stream.check(doc)
    assert checked == [1, 2, 3, 4]  # each hand once (a fresh check each time: 1, 1, 2, 1, 2, 3...)
    stream.check(growing[-1])
    assert checked == [1, 2, 3, 4]  # the same file again: nothing new to check


def test_a_hand_changed_after_it_was_checked_is_checked_again(
        growing: list[dict[str, Any]], checked: list[int]) -> None:
    stream = TranscriptStream()
    stream.check(growing[2])
    changed = copy.deepcopy(growing[3])
    changed["hands"][1]["scores"][0] += 1  # hand 2's match score, after the host signed it
    checked.clear()
    report = stream.check(changed)
    assert checked == [2]  # hand 1 unchanged; hand 2 fails
    assert report.failure is not None and report.failure.hand == 2
    same(report, verify_transcript(changed))
    checked.clear()
    assert stream.check(growing[3]).ok  # back to the true file: hands 2 to 4 checked
    assert checked == [2, 3, 4]


def test_a_new_header_is_a_new_match_and_transcript1_is_streamed_too(
        growing: list[dict[str, Any]], checked: list[int]) -> None:
    stream = TranscriptStream()
    stream.check(growing[1])
    other = play_match(4, hands=1, seed=3)  # another table: every hand checked anew
    checked.clear()
    report = stream.check(other)
    assert checked == [1]
    same(report, verify_transcript(other))
    fair = json.loads(FAIR.read_text())
    report = stream.check(fair)
    assert report.ok
    same(report, verify_transcript(fair))
    with pytest.raises(Exception, match="format"):
        stream.check({**fair, "format": "lanomino.transcript/9"})


def test_a_node_that_logs_its_match_after_every_hand_checks_each_hand_once(
        tmp_path: Path, growing: list[dict[str, Any]], checked: list[int]) -> None:
    log = MatchLog(tmp_path)
    table = growing[0]["table"]
    for doc in growing:
        event = TranscriptUpdated(table, doc)
        log.write(event)
        log.log_play(event, me=1, table="Porch", verified=True)
    assert checked == [1, 2, 3, 4]  # before: every hand again at each hand's end, twice
    store = open_store(tmp_path)
    try:
        [match] = PlayLog(store).matches()
    finally:
        store.close()
    assert (match.hands, match.verified, match.me, match.table) == (4, True, 1, "Porch")
    assert json.loads((tmp_path / "transcripts" / f"{table}.json").read_text()) == growing[-1]


def test_an_older_play_log_write_still_waiting_is_skipped(
        tmp_path: Path, growing: list[dict[str, Any]], checked: list[int]) -> None:
    log = MatchLog(tmp_path)
    table = growing[0]["table"]
    older, newer = TranscriptUpdated(table, growing[0]), TranscriptUpdated(table, growing[1])
    log.write(older)
    log.write(newer)
    log.log_play(newer, me=0, table="Porch", verified=True)
    log.log_play(older, me=0, table="Porch", verified=True)  # (its thread ran last)
    store = open_store(tmp_path)
    try:
        [match] = PlayLog(store).matches()
    finally:
        store.close()
    assert match.hands == 2 and checked == [1, 2]
