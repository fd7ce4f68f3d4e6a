"""Reading records: every malformed part is named by its JSON path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from lanomino.engine import End, Play, Rules, parse_tile
from lanomino.record import FORMAT, MalformedRecordError, parse_record, record_to_json


def good_record() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": {"preset": "block", "hand_size": 2},
        "players": ["Ana", "Ben"],
        "hands": [
            {
                "deal": [["6-6", "3-1"], ["5-5", "4-1"]],
                "boneyard": [
                    "0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0", "3-2", "3-3", "4-0", "4-2",
                    "4-3", "4-4", "5-0", "5-1", "5-2", "5-3", "5-4", "6-0", "6-1", "6-2", "6-3",
                    "6-4", "6-5",
                ],
                "moves": [{"seat": 0, "play": "6-6"}],
            }
        ],
    }


def test_a_good_record_parses() -> None:
    record = parse_record(good_record())
    assert record.rules == Rules.preset("block", hand_size=2)
    assert record.players == ("Ana", "Ben")
    move = record.hands[0].moves[0]
    assert (move.seat, move.action) == (0, Play(parse_tile("6-6"), None))


def test_a_record_survives_writing_and_reading_again() -> None:
    doc = good_record()
    doc["hands"][0]["moves"] = [
        {"seat": 0, "play": "3-6"},
        {"seat": 1, "play": "6-4", "end": "right"},
        {"seat": 0, "draw": True},
        {"seat": 1, "pass": True},
        {"seat": 0, "resign": True},
    ]
    record = parse_record(doc)
    again = record_to_json(record)
    assert again["hands"][0]["moves"] == doc["hands"][0]["moves"]
    assert parse_record(again) == record


def test_tiles_may_be_written_either_way_round() -> None:
    doc = good_record()
    doc["hands"][0]["deal"][0] = ["6-6", "1-3"]
    doc["hands"][0]["moves"] = [{"seat": 0, "play": "1-3", "end": "LEFT"}]
    moves = parse_record(doc).hands[0].moves
    assert moves[0].action == Play(parse_tile("3-1"), End.LEFT)
    assert moves[0].high_first is False


def _broken(path: list[Any], value: Any, delete: bool = False) -> dict[str, Any]:
    doc = copy.deepcopy(good_record())
    node: Any = doc
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ([], "$"),
        (_broken(["format"], "lanomino.record/0"), "$.format"),
        (_broken(["rules"], None, delete=True), "$.rules"),
        (_broken(["rules"], {"preset": "classic", "target": "lots"}), "$.rules"),
        (_broken(["rules"], {"preset": "poker"}), "$.rules"),
        (_broken(["players"], ["Ana"]), "$.players"),
        (_broken(["players"], ["Ana", 7]), "$.players"),
        (_broken(["hands"], {}), "$.hands"),
        (_broken(["hands", 0, "deal"], [["6-6", "3-1"]]), "$.hands[0].deal"),
        (_broken(["hands", 0, "deal", 1, 1], "7-1"), "$.hands[0].deal[1][1]"),
        (_broken(["hands", 0, "deal", 1], "5-5 4-1"), "$.hands[0].deal[1]"),
        (_broken(["hands", 0, "boneyard", 3], 21), "$.hands[0].boneyard[3]"),
        (_broken(["hands", 0, "moves"], "all of them"), "$.hands[0].moves"),
        (_broken(["hands", 0, "moves", 0, "seat"], 2), "$.hands[0].moves[0].seat"),
        (_broken(["hands", 0, "moves", 0, "seat"], True), "$.hands[0].moves[0].seat"),
        (_broken(["hands", 0, "moves", 0, "play"], "six-six"), "$.hands[0].moves[0].play"),
        (_broken(["hands", 0, "moves", 0, "end"], "middle"), "$.hands[0].moves[0].end"),
        (_broken(["hands", 0, "moves", 0, "draw"], True), "$.hands[0].moves[0]"),
        (_broken(["hands", 0, "moves", 0, "colour"], "red"), "$.hands[0].moves[0].colour"),
        (_broken(["hands", 0, "moves", 0], {"seat": 0, "pass": "yes"}), "$.hands[0].moves[0].pass"),
        (_broken(["hands", 0, "moves", 0], {"seat": 0, "pass": True, "end": "left"}),
         "$.hands[0].moves[0].end"),
    ],
)
def test_a_malformed_record_names_the_json_path(doc: Any, where: str) -> None:
    with pytest.raises(MalformedRecordError) as raised:
        parse_record(doc)
    assert raised.value.path == where
    assert str(raised.value).startswith(f"{where}: ")
