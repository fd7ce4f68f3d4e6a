"""The validation fast paths refuse exactly what the full checks refuse, naming the field."""

from __future__ import annotations

import re
from typing import Any

import pytest

from lanomino.engine import End, Play, TilePlayed, parse_tile
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire import messages as m
from lanomino.net.wire.schemas import parse_message
from lanomino.net.wire.values import events_from_json, parse_move

SIG = "ab" * 64


def update(**changes: Any) -> dict[str, Any]:
    played = {"e": "played", "seat": 1, "tile": "6-4", "end": "left", "first": True, "exposed": 10,
              "spinner": False}
    body = {"hand": 1, "index": 0, "move": {"seat": 1, "play": "6-4", "end": "left"},
            "signature": SIG, "events": [played], "turn": 2, "head": SIG, "away": False,
            "seen": None, "seen_host": None, "seen_signature": None}
    body.update(changes)
    return {"v": 1, "type": "update", "term": 0, "seq": 3, "body": body}


def refused(message: dict[str, Any]) -> str:
    with pytest.raises(RemoteProtocolError) as caught:
        parse_message(message)
    return str(caught.value)


def test_a_good_update_parses() -> None:
    msg = parse_message(update())
    assert isinstance(msg.body, m.Update)
    assert (msg.type, msg.term, msg.seq, msg.body.turn) == ("update", 0, 3, 2)
    assert msg.body.signature == bytes.fromhex(SIG)


@pytest.mark.parametrize(("message", "words"), [
    ({**update(), "seq": True}, "bad seq"),
    ({**update(), "term": -1}, "bad term"),
    ({**update(), "v": 2}, "protocol version"),
    ({**update(), "type": "nonsense"}, "unknown message type"),
    ({**update(), "extra": 1}, "unexpected ['extra']"),
    ({k: v for k, v in update().items() if k != "seq"}, "missing ['seq']"),
    ({**update(), "body": []}, "body must be a JSON object"),
    (update(turn=7), "'turn'"),
    (update(signature="AB" * 64), "'signature'"),
    (update(events="x"), "'events'"),
    (update(events=[{}, 3]), "'events[1]'"),
    (update(bonus=1), "unknown field 'bonus'"),
])
def test_bad_updates_are_refused_naming_the_problem(message: dict[str, Any], words: str) -> None:
    assert words in refused(message)


def test_a_missing_field_is_named() -> None:
    message = update()
    del message["body"]["turn"]
    assert "missing field 'turn'" in refused(message)


def test_begin_names_the_bad_signature_in_the_list() -> None:
    message = {"v": 1, "type": "begin", "term": 0, "seq": 1, "body": {"signatures": [SIG, "zz"]}}
    assert "signatures[1]" in refused(message)


def test_events_name_the_bad_field_of_the_bad_event() -> None:
    good = update()["body"]["events"][0]
    assert events_from_json([good]) == [TilePlayed(1, parse_tile("6-4"), End.LEFT, True, 10, False)]
    for bad, words in [({**good, "tile": "4-6"}, "events[1].tile"),
                       ({**good, "tile": "7-7"}, "events[1].tile"),
                       ({**good, "seat": 9}, "events[1].seat"),
                       ({**good, "end": "middle"}, "events[1].end"),
                       ({**good, "more": 1}, "unknown field 'more'"),
                       ({"e": "nope"}, "unknown event")]:
        with pytest.raises(RemoteProtocolError, match=re.escape(words)):
            events_from_json([good, bad])


def test_moves_take_only_canonical_tiles_but_any_case_of_an_end() -> None:
    right = Play(parse_tile("6-4"), End.RIGHT)
    assert parse_move({"seat": 2, "play": "6-4", "end": "right"}, 2) == right
    assert parse_move({"seat": 2, "play": "6-4", "end": "RIGHT"}, 2) == right
    for move in ({"seat": 2, "play": "4-6"}, {"seat": 2, "play": 64},
                 {"seat": 2, "play": "6-4", "end": 1}, {"seat": 1, "play": "6-4"},
                 {"seat": 2, "draw": True, "end": "left"}):
        with pytest.raises(RemoteProtocolError):
            parse_move(move, 2)
