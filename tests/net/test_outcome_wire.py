"""Hand and match outcomes cross the wire as their facts (enums and counts), never as English."""

from __future__ import annotations

import json

import pytest

from lanomino.engine import HandEnd, HandEnded, HandTally, MatchEnd, MatchEnded, parse_tile
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire.values import event_from_json, event_to_json


def test_hand_and_match_outcomes_round_trip_as_facts() -> None:
    left = ((parse_tile("4-5"),), (parse_tile("0-1"),))
    hand = HandEnded(2, HandEnd.BLOCKED, 1, (0, 11), (9, 9), left,
                     HandTally(None, 9, 9, 9, 10, (0, 1), parse_tile("0-1")))
    match = MatchEnded(1, (40, 101), (1, 0), MatchEnd.TARGET)
    for event in (hand, match):
        wire = json.loads(json.dumps(event_to_json(event)))
        assert "reason" not in wire
        back = event_from_json(wire)
        assert back == event and type(back.end if isinstance(back, HandEnded) else back.why) in (
            HandEnd, MatchEnd)


def test_an_unknown_outcome_from_a_peer_is_refused_naming_the_field() -> None:
    wire = event_to_json(MatchEnded(0, (1, 0), (0, 1), MatchEnd.RESIGNED))
    with pytest.raises(RemoteProtocolError, match="why"):
        event_from_json({**wire, "why": "the host said so"})
    hand = event_to_json(HandEnded(1, HandEnd.DOMINO, 0, (3, 0), (0, 3), ((), ()),
                                   HandTally(0, 3, 0, 3, 3)))
    with pytest.raises(RemoteProtocolError, match="tally"):
        event_from_json({**hand, "tally": {**hand["tally"], "earned": -4}})
