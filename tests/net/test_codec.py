"""The envelope codec: strict on everything a peer could get wrong."""

from __future__ import annotations

import json

import pytest

from lanomino.net.codec import (
    MAX_COUNTER,
    MAX_DEPTH,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Envelope,
    decode,
    decode_json,
    encode,
    encode_json,
)
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError

TYPES = frozenset({"move", "hello"})


def wire(**fields: object) -> bytes:
    message: dict[str, object] = {"v": PROTOCOL_VERSION, "type": "move", "term": 2, "seq": 9}
    message["body"] = {"tile": "6-4", "end": "left"}
    message.update(fields)
    return json.dumps(message).encode()


def test_envelope_round_trip() -> None:
    envelope = Envelope("move", term=3, seq=17, body={"tile": "6-4", "end": "left"})
    data = encode(envelope)
    assert json.loads(data) == {
        "v": PROTOCOL_VERSION,
        "type": "move",
        "term": 3,
        "seq": 17,
        "body": {"tile": "6-4", "end": "left"},
    }
    assert decode(data, TYPES) == envelope


def test_unicode_survives_and_stays_compact() -> None:
    envelope = Envelope("hello", 0, 0, {"name": "Zoë 🁫"})
    data = encode(envelope)
    assert b", " not in data and b": " not in data and "Zoë 🁫".encode() in data
    assert decode(data, TYPES).body["name"] == "Zoë 🁫"


@pytest.mark.parametrize(
    "data, why",
    [
        (b"", "not JSON"),
        (b"{", "not JSON"),
        (b"\xff", "UTF-8"),
        (b"[]", "object"),
        (b"42", "object"),
        (b'"move"', "object"),
        (b'{"a": NaN}', "NaN"),
        (b'{"a": Infinity}', "Infinity"),
        (b'{"a": 1, "a": 2}', "duplicate"),
        (b"[" * 100_000, "deep|JSON"),
    ],
)
def test_malformed_json_is_a_remote_error(data: bytes, why: str) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        decode_json(data)


def test_deep_but_parseable_nesting_is_refused() -> None:
    nested: object = 1
    for _ in range(MAX_DEPTH + 1):
        nested = {"x": nested}
    with pytest.raises(RemoteProtocolError, match="deeper"):
        decode_json(json.dumps(nested).encode())
    shallow: object = 1
    for _ in range(MAX_DEPTH - 1):
        shallow = [shallow]
    assert decode_json(json.dumps({"x": shallow}).encode())


def test_oversize_is_refused_before_parsing() -> None:
    data = wire(body={"pad": "x" * MAX_MESSAGE_BYTES})
    with pytest.raises(RemoteProtocolError, match="exceeds"):
        decode(data)
    with pytest.raises(RemoteProtocolError, match="exceeds"):
        decode(wire(), max_bytes=10)


@pytest.mark.parametrize(
    "fields, why",
    [
        ({"type": "shuffle"}, "unknown message type"),
        ({"type": "Move"}, "bad message type"),
        ({"type": "x" * 40}, "bad message type"),
        ({"type": 7}, "bad message type"),
        ({"term": "2"}, "term"),
        ({"term": -1}, "term"),
        ({"term": True}, "term"),
        ({"term": 2.0}, "term"),
        ({"term": MAX_COUNTER + 1}, "term"),
        ({"seq": None}, "seq"),
        ({"seq": False}, "seq"),
        ({"body": []}, "body"),
        ({"body": "x"}, "body"),
        ({"v": PROTOCOL_VERSION + 1}, "version"),
        ({"v": "1"}, "version"),
        ({"extra": 1}, "unexpected"),
    ],
)
def test_bad_envelopes_are_remote_errors(fields: dict[str, object], why: str) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        decode(wire(**fields), TYPES)


@pytest.mark.parametrize("missing", ["v", "type", "term", "seq", "body"])
def test_missing_envelope_field_is_a_remote_error(missing: str) -> None:
    message = json.loads(wire())
    del message[missing]
    with pytest.raises(RemoteProtocolError, match="missing"):
        decode(json.dumps(message).encode(), TYPES)


def test_any_well_formed_type_passes_without_a_type_list() -> None:
    assert decode(wire(type="shuffle")).type == "shuffle"


def test_building_a_bad_envelope_is_a_local_error() -> None:
    with pytest.raises(LocalProtocolError):
        Envelope("move", term=-1, seq=0)
    with pytest.raises(LocalProtocolError):
        Envelope("no spaces", term=0, seq=0)
    with pytest.raises(LocalProtocolError, match="cannot encode"):
        encode(Envelope("move", 0, 0, {"tile": object()}))
    with pytest.raises(LocalProtocolError, match="cannot encode"):
        encode_json({"x": float("nan")})
    with pytest.raises(LocalProtocolError, match="exceeds"):
        encode(Envelope("move", 0, 0, {"pad": "x" * 100}), max_bytes=50)


def test_an_envelope_put_around_an_encoded_body_is_the_same_bytes_as_encoding_it_whole() -> None:
    from lanomino.net.codec import encode_around

    bodies = [{}, {"name": "Zoë", "moves": [{"seat": 1, "play": "6-4"}], "sig": "ab" * 64},
              {"nested": {"a": [1, [2, {"b": None}]], "t": True}}]
    for body in bodies:
        for term, seq in ((0, 1), (3, MAX_COUNTER)):
            message = {"v": PROTOCOL_VERSION, "type": "hand_log", "term": term, "seq": seq,
                       "body": body}
            assert encode_around(message, encode_json(body)) == encode_json(message)
    body = {"x": 1}
    for other in ({"v": 1, "type": "update", "term": 0, "seq": True, "body": body},
                  {"type": "update", "v": 1, "term": 0, "seq": 1, "body": body},
                  {"v": 1, "type": "Update", "term": 0, "seq": 1, "body": body},
                  {"v": 1, "type": "update", "term": 0, "seq": 1, "body": body, "extra": 1}):
        assert encode_around(other, encode_json(body)) is None  # (encoded whole instead)
    big = {"v": 1, "type": "update", "term": 0, "seq": 1, "body": body}
    with pytest.raises(LocalProtocolError):
        encode_around(big, encode_json(body), max_bytes=20)
