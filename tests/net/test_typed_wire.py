"""The typed wire: one frozen dataclass per message type is the only statement of its fields; a
parsed body is that class, with keys and signatures as bytes; encoding is the inverse of parsing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire import messages as m
from lanomino.net.wire.schemas import SCHEMAS, envelope, parse_message, to_body

KEY = "cd" * 32
SIG = "ab" * 64
ESCROW = {"hand": 2, "attempt": 1, "seats": [0, 1, 2], "holders": [1, 2], "digests": [KEY, KEY],
          "share": "ef" * 32}

ATTEMPT = {"attempt": 2, "commitments": [{"seat": 0, "commitment": KEY, "signature": SIG}],
           "set_signature": SIG, "echoes": [{"seat": 0, "set": KEY, "signature": SIG}]}

BODIES: dict[str, dict[str, Any]] = {
    "deal": {"hand": 2, "tiles": ["6-4"], "events": [{"e": "resigned", "seat": 0}], "turn": 1,
             "attempts": [ATTEMPT], "abandoned": [{"attempt": 1, "step": "echo",
                                                   "unanswered": [2]}]},
    "move": {"hand": 3, "index": 17, "move": {"seat": 1, "play": "6-4", "end": "left"},
             "signature": SIG, "seen": KEY, "seen_host": SIG, "seen_signature": SIG,
             "away": False},
    "update": {"hand": 3, "index": 17, "move": {"seat": 1, "play": "6-4", "end": "left"},
               "signature": SIG, "events": [{"e": "resigned", "seat": 1}], "turn": 2,
               "head": SIG, "away": True, "seen": KEY, "seen_host": None,
               "seen_signature": SIG},
    "commit_set": {"hand": 1, "attempt": 2, "commitments": [[0, KEY], [1, KEY]], "signature": SIG},
    "hello": {"name": "ana", "identity": KEY, "curve": "x" * 40, "addr": None},
    "report": {"hand": 2, "moves": [{"seat": 0, "play": "6-6", "end": "left"}],
               "signatures": [SIG], "escrow": ESCROW, "claim": None, "last": None,
               "refused": [{"hand": 2, "seat": 1, "what": "move", "why": "not signed by seat 2",
                            "signature": SIG}]},
    "snapshot": {"seat": 1, "roster": [], "seats": 2, "rules": {}, "transcript": None,
                 "play": {"hand": 1, "tiles": ["6-4"], "events": [{"e": "resigned", "seat": 0}],
                          "moves": [], "signatures": [SIG], "turn": 0, "attempts": [],
                          "abandoned": [], "dealer": 0, "disputes": []},
                 "locked": None},
    "roster": {"roster": [{"seat": 0, "name": "ana", "identity": KEY, "curve": None,
                           "kind": "host", "connected": True, "left": False, "addr": None,
                           "away": False}],
               "seats": 2, "watching": 0, "watch_cap": 8, "move_clock_ms": None,
               "away_level": None},
    "ping": {},
}


def message(type_: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"v": 1, "type": type_, "term": 4, "seq": 9, "body": body}


def test_every_schema_is_read_from_its_dataclass() -> None:
    assert set(SCHEMAS) == set(m.MESSAGES)
    for type_, cls in m.MESSAGES.items():
        assert cls.TYPE == type_ and cls.__dataclass_params__.frozen  # type: ignore[union-attr]
        assert list(SCHEMAS[type_]) == [f.name for f in dataclasses.fields(cls)]
        assert all(callable(check) for check in SCHEMAS[type_].values())


@pytest.mark.parametrize("type_", sorted(BODIES))
def test_a_parsed_body_is_its_class_and_encodes_back_to_the_same_json(type_: str) -> None:
    msg = parse_message(message(type_, BODIES[type_]))
    assert type(msg.body) is m.MESSAGES[type_]
    assert to_body(msg.body) == BODIES[type_]
    assert envelope(msg.body, 4, 9) == message(type_, BODIES[type_])


def test_keys_signatures_and_lists_are_bytes_and_tuples_inside() -> None:
    body = parse_message(message("commit_set", BODIES["commit_set"])).body
    assert isinstance(body, m.CommitSet)
    assert body.signature == bytes.fromhex(SIG)
    assert body.commitments == ((0, bytes.fromhex(KEY)), (1, bytes.fromhex(KEY)))


def test_a_reports_escrow_share_is_a_typed_escrow_checked_like_the_message() -> None:
    body = parse_message(message("report", BODIES["report"])).body
    assert isinstance(body, m.Report) and isinstance(body.escrow, m.Escrow)
    assert body.escrow.digests == (bytes.fromhex(KEY), bytes.fromhex(KEY))
    assert body.signatures == (bytes.fromhex(SIG),)
    bad = {**BODIES["report"], "escrow": {**ESCROW, "digests": ["zz"]}}
    with pytest.raises(RemoteProtocolError, match=r"escrow\.digests"):
        parse_message(message("report", bad))


def test_a_snapshots_hand_in_play_is_typed_and_checked_field_by_field() -> None:
    body = parse_message(message("snapshot", BODIES["snapshot"])).body
    assert isinstance(body, m.Snapshot) and isinstance(body.play, m.SnapshotPlay)
    assert body.play.signatures == (bytes.fromhex(SIG),) and body.play.tiles == ("6-4",)
    bad = {**BODIES["snapshot"], "play": {**BODIES["snapshot"]["play"], "turn": 9}}
    with pytest.raises(RemoteProtocolError, match=r"play\.turn"):
        parse_message(message("snapshot", bad))


def test_a_roster_entry_is_typed_with_its_identity_key_as_bytes() -> None:
    body = parse_message(message("roster", BODIES["roster"])).body
    assert isinstance(body, m.Roster) and isinstance(body.roster[0], m.RosterEntry)
    assert body.roster[0].identity == bytes.fromhex(KEY) and body.roster[0].kind == "host"
    bad = {**BODIES["roster"], "roster": [{**BODIES["roster"]["roster"][0], "kind": "boss"}]}
    with pytest.raises(RemoteProtocolError, match=r"roster\[0\]\.kind"):
        parse_message(message("roster", bad))


def test_a_body_we_build_encodes_as_the_wire_expects() -> None:
    body = m.Commit(hand=1, attempt=1, commitment=bytes(32), signature=bytes(64))
    wire = envelope(body, 0, 5)
    assert wire["type"] == "commit" and wire["body"]["commitment"] == "00" * 32
    assert parse_message(wire).body == body


def test_a_deal_attempt_is_parsed_into_bytes_and_a_malformed_one_is_refused_by_name() -> None:
    body = parse_message(message("deal", BODIES["deal"])).body
    assert isinstance(body, m.Deal)
    attempt = body.attempts[0]
    assert attempt.commitments[0].commitment == bytes.fromhex(KEY)
    assert attempt.echoes[0].set_digest == bytes.fromhex(KEY) and attempt.secrets == ()
    for broken, named in (({**ATTEMPT, "set_signature": "AB" * 64}, "set_signature"),
                          ({**ATTEMPT, "echoes": [{"seat": 0, "set": KEY}]}, "echoes[0]"),
                          ({**ATTEMPT, "secrets": []}, "secrets"),
                          ({**ATTEMPT, "commitments": [{"seat": 9, "commitment": KEY,
                                                        "signature": SIG}]}, "seat")):
        with pytest.raises(RemoteProtocolError, match=named.replace("[", r"\[")):
            parse_message(message("deal", {**BODIES["deal"], "attempts": [broken]}))


def test_a_hosts_handover_is_a_field_of_its_bye_not_words_in_its_reason() -> None:
    leaving = m.Bye("the host is leaving", handover=True)
    wire = envelope(leaving, 3, 9)
    assert wire["body"] == {"reason": "the host is leaving", "handover": True}
    assert parse_message(wire).body == leaving
    assert m.Bye("you left the table").handover is False
    with pytest.raises(RemoteProtocolError, match="handover"):
        parse_message(message("bye", {"reason": "handover: quit", "handover": "yes"}))


HEADER = {"format": "lanomino.transcript/1", "algorithm": "lanomino-fy-hmac-sha256/1",
          "table": "0f" * 16, "rules": {"preset": "classic"}, "players": ["ana", "bo"],
          "keys": [KEY, "ef" * 32], "move_clock": None}


def test_a_match_header_is_typed_on_arrival_and_a_malformed_one_is_refused_by_name() -> None:
    body = parse_message(message("match", {"header": HEADER})).body
    assert isinstance(body, m.Match)
    header = body.header
    assert header.table == bytes.fromhex("0f" * 16) and header.keys[1] == bytes.fromhex("ef" * 32)
    assert header.players == ("ana", "bo") and header.rules == {"preset": "classic"}
    assert header.to_json() == HEADER  # what the seats sign is exactly what came
    timed = parse_message(message("match", {"header": {**HEADER, "move_clock": 2500}})).body
    assert isinstance(timed, m.Match) and timed.header.move_clock == 2500
    assert timed.header.to_json() == {**HEADER, "move_clock": 2500}
    assert envelope(body, 0, 1)["body"] == {"header": HEADER}
    # (before, a watcher read header["table"] itself: a header without one raised a KeyError)
    for broken, named in (({k: v for k, v in HEADER.items() if k != "table"}, "table"),
                          ({**HEADER, "table": "0f" * 8}, "header.table"),
                          ({**HEADER, "format": "lanomino.transcript/9"}, "header.format"),
                          ({**HEADER, "keys": [KEY]}, "header.keys"),
                          ({**HEADER, "move_clock": 0}, "header.move_clock"),
                          ({k: v for k, v in HEADER.items() if k != "move_clock"}, "move_clock"),
                          ({**HEADER, "keys": [KEY, "EF" * 32]}, r"header.keys\[1\]")):
        with pytest.raises(RemoteProtocolError, match=named):
            parse_message(message("match", {"header": broken}))


def test_a_reports_claim_is_typed_on_arrival_its_tiles_parsed_and_each_listed_once() -> None:
    claim = {"seat": 2, "dealt": ["6-4", "0-0"], "drawn": ["3-1"], "signature": SIG}
    body = parse_message(message("report", {**BODIES["report"], "claim": claim})).body
    assert isinstance(body, m.Report) and body.claim is not None
    assert body.claim.seat == 2 and [str(t) for t in body.claim.dealt] == ["6-4", "0-0"]
    assert body.claim.signature == bytes.fromhex(SIG)
    assert envelope(body, 1, 4)["body"]["claim"] == claim  # the inverse
    for broken, named in (({**claim, "drawn": ["6-4", "6-4"]}, "listed twice"),
                          ({**claim, "dealt": ["6-x"]}, r"claim.dealt"),
                          ({**claim, "opener": 0}, "unknown field 'opener'")):
        with pytest.raises(RemoteProtocolError, match=named):
            parse_message(message("report", {**BODIES["report"], "claim": broken}))
