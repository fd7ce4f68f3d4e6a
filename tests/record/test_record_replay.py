"""Replaying records through the engine, and records written during self-play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanomino.botmatch import play_match
from lanomino.bots import get_bot
from lanomino.engine import TILES, Rules
from lanomino.record import FORMAT, IllegalMoveError, parse_record, replay


def _rest(*used: str) -> list[str]:
    taken = set(used)
    return [str(t) for t in TILES if str(t) not in taken and f"{t.low}-{t.high}" not in taken]


def _doc(rules: dict[str, Any], players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "rules": rules, "players": players, "hands": hands}


def _hand(deal: list[list[str]], moves: list[dict[str, Any]],
          front: tuple[str, ...] = ()) -> dict[str, Any]:
    used = [t for hand in deal for t in hand] + list(front)
    return {"deal": deal, "boneyard": [*front, *_rest(*used)], "moves": moves}


BLOCKED = _hand([["6-6", "3-1"], ["5-5", "4-1"]], [{"seat": 0, "play": "6-6"}])


def test_replay_gives_the_hand_result_and_scores() -> None:
    doc = _doc({"preset": "block", "hand_size": 2}, ["Ana", "Ben"], [BLOCKED])
    result = replay(parse_record(doc))
    assert result.to_json() == {
        "hands": [{"end": "blocked", "winner": 0, "points": [11, 0], "pips_left": [4, 15]}],
        "scores": [11, 0],
        "winner": None,
        "finished": False,
    }


def test_a_move_after_the_end_of_a_hand_is_an_error() -> None:
    hand = dict(BLOCKED, moves=[{"seat": 0, "play": "6-6"}, {"seat": 1, "pass": True}])
    with pytest.raises(IllegalMoveError, match=r"^hand 1, move 2: the hand is already over$"):
        replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))


def test_an_illegal_move_names_hand_move_and_reason() -> None:
    first = _hand([["6-6", "1-1"], ["1-0", "2-2"]], [{"seat": 0, "play": "6-6"}])
    second = _hand(
        [["5-5", "5-1"], ["5-3", "2-0"]],
        [{"seat": 0, "play": "5-5"}, {"seat": 1, "pass": True}],
    )
    doc = _doc({"preset": "block", "hand_size": 2}, ["A", "B"], [first, second])
    # hand 1 blocks at once: 2 pips against 5, seat 0 wins and opens hand 2 with any tile
    with pytest.raises(IllegalMoveError) as raised:
        replay(parse_record(doc))
    assert str(raised.value) == "hand 2, move 2: seat 2 may not pass: 5-3 fits the 5"
    assert (raised.value.hand, raised.value.move) == (2, 2)


def test_an_unfinished_last_hand_is_reported_as_unfinished() -> None:
    hand = _hand([["5-5", "5-1"], ["5-3", "2-0"]], [{"seat": 0, "play": "5-5"}])
    result = replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))
    unfinished = {"end": "unfinished", "winner": None, "points": [0, 0], "pips_left": [6, 10]}
    assert result.to_json()["hands"] == [unfinished]
    assert result.finished is False


def test_an_unfinished_hand_followed_by_another_is_an_error() -> None:
    hand = _hand([["5-5", "5-1"], ["5-3", "2-0"]], [{"seat": 0, "play": "5-5"}])
    with pytest.raises(IllegalMoveError, match="^hand 1: the hand did not finish"):
        replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand, hand])))


def test_a_bad_deal_is_an_illegal_move_error_naming_the_hand() -> None:
    hand = {"deal": [["6-6", "3-1"], ["5-5", "4-1"]], "boneyard": _rest("6-6", "3-1", "5-5")[:-1],
            "moves": []}
    with pytest.raises(IllegalMoveError, match="^hand 1: bad deal: "):
        replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))


def test_the_first_tile_is_oriented_as_written() -> None:
    doc = _doc({"preset": "block", "hand_size": 2}, ["A", "B"],
               [_hand([["5-2", "1-0"], ["5-1", "3-0"]], [{"seat": 0, "play": "2-5"}])])
    state = replay(parse_record(doc)).state
    assert state.line.ends[:2] == [2, 5]


def test_a_void_deal_is_replayed_and_moves_after_it_are_refused() -> None:
    no_doubles = [["5-4", "1-0"], ["6-3", "2-1"]]
    doc = _doc({"preset": "classic", "hand_size": 2, "no_double": "reshuffle"}, ["A", "B"],
               [_hand(no_doubles, []), _hand([["6-6", "1-0"], ["6-3", "2-1"]], [])])
    result = replay(parse_record(doc))
    assert [h.end for h in result.hands] == ["void", "unfinished"]
    doc["hands"][0]["moves"] = [{"seat": 1, "play": "6-3"}]
    with pytest.raises(IllegalMoveError, match="^hand 1, move 1: the deal was void"):
        replay(parse_record(doc))


# ----- records written by self-play ---------------------------------------------------------------

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *[(p, n, {}) for p in ("classic", "block", "allfives") for n in (2, 3, 4)],
    ("partnership", 4, {}),
    ("partnership", 4, {"game": "allfives"}),
    ("classic", 3, {"no_double": "reshuffle", "next_opener": "highest-double",
                    "blocked_tie": "lightest-tile"}),
    ("classic", 2, {"next_opener": "alternate", "boneyard_reserve": 2,
                    "draw_when_playable": True}),
    ("classic", 4, {"no_winner_opener": "next-seat", "blocked_scoring": "total"}),
    ("allfives", 2, {"round_to_5": False, "next_opener": "alternate"}),
]


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), bots=st.sampled_from(["random", "greedy"]),
       seed=st.integers(0, 2**32 - 1))
def test_every_self_play_record_replays_to_the_same_result(
    config: tuple[str, int, dict[str, Any]], bots: str, seed: int
) -> None:
    preset, players, overrides = config
    rules = Rules.preset(preset, **{"target": 30, **overrides})
    played = play_match(rules, [get_bot(bots)] * players, random.Random(seed), keep_record=True)
    assert played.record is not None
    doc = json.loads(json.dumps(played.record))  # as it would be read back from a file
    result = replay(parse_record(doc))
    assert result.finished
    assert result.winner == played.outcome.winner
    assert result.scores == played.outcome.scores
    assert sum(1 for h in result.hands if h.end != "void") == played.hands
    assert result.state.outcome == played.outcome


def test_a_first_tile_with_an_end_is_refused() -> None:
    hand = _hand([["6-6", "3-1"], ["5-5", "4-1"]], [{"seat": 0, "play": "6-6", "end": "left"}])
    with pytest.raises(IllegalMoveError,
                       match=r"^hand 1, move 1: the first tile of a hand takes no end"):
        replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))


def test_a_resignation_between_hands_is_written_after_the_hand_and_ends_a_two_seat_match() -> None:
    hand = dict(BLOCKED, moves=[{"seat": 0, "play": "6-6"}, {"seat": 1, "resign": True}])
    result = replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))
    assert result.hands[0].end == "blocked"
    assert (result.finished, result.winner) == (True, 0)


def test_only_a_resignation_may_follow_the_end_of_a_hand() -> None:
    hand = dict(BLOCKED, moves=[{"seat": 0, "play": "6-6"}, {"seat": 1, "resign": True},
                                {"seat": 0, "pass": True}])
    with pytest.raises(IllegalMoveError, match=r"^hand 1, move 3: the hand is already over$"):
        replay(parse_record(_doc({"preset": "block", "hand_size": 2}, ["A", "B"], [hand])))
