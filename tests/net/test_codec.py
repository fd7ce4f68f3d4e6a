"""The envelope codec: strict on everything a peer could get wrong."""

from __future__ import annotations

import json
import re

import pytest

from lanomino.net.codec import (
    MAX_COUNTER,
    MAX_DEPTH,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    DirectAddress,
    Envelope,
    decode,
    decode_json,
    encode,
    encode_json,
    field_bool,
    field_int,
    field_list,
    field_object,
    field_str,
    key_fingerprint,
    key_from_text,
    key_to_text,
    parse_direct_address,
)
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError

TYPES = frozenset({"move", "hello"})
KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"


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


def test_field_helpers_name_the_bad_field() -> None:
    body = {"seat": 2, "flag": True, "name": "Ann", "tiles": ["6-4"], "opts": {}, "b": True}
    assert field_int(body, "seat", lo=0, hi=3) == 2
    assert field_bool(body, "flag") is True
    assert field_str(body, "name", max_len=8, pattern=re.compile(r"[A-Za-z]+")) == "Ann"
    assert field_list(body, "tiles", max_items=7) == ["6-4"]
    assert field_object(body, "opts") == {}
    for call in (
        lambda: field_int(body, "seat", lo=0, hi=1),
        lambda: field_int(body, "b", lo=0, hi=1),
        lambda: field_int(body, "absent", lo=0, hi=1),
        lambda: field_bool(body, "seat"),
        lambda: field_str(body, "name", max_len=2),
        lambda: field_str(body, "name", max_len=8, pattern=re.compile(r"[0-9]+")),
        lambda: field_list(body, "tiles", max_items=0),
        lambda: field_object(body, "tiles"),
    ):
        with pytest.raises(RemoteProtocolError, match="field"):
            call()


def test_direct_address_round_trip_with_shell_safe_key() -> None:
    address = DirectAddress("10.1.2.3", 5555, KEY)
    text = str(address)
    assert re.fullmatch(r"10\.1\.2\.3:5555/[a-z2-7]{52}", text)
    assert parse_direct_address(text) == address
    assert parse_direct_address("10.1.2.3:5555") == DirectAddress("10.1.2.3", 5555)
    assert parse_direct_address(f"host.lan:1/{KEY}").server_key == KEY
    v6 = DirectAddress("fe80::1", 7000, KEY)
    assert str(v6).startswith("[fe80::1]:7000/")
    assert parse_direct_address(str(v6)) == v6
    assert key_from_text(key_to_text(KEY).upper()) == KEY


@pytest.mark.parametrize(
    "text",
    [
        "",
        "10.1.2.3",
        "10.1.2.3:",
        ":5555",
        "10.1.2.3:0",
        "10.1.2.3:65536",
        "10.1.2.3:http",
        "a b:5555",
        "10.1.2.3:5555/",
        "10.1.2.3:5555/tooshort",
        "10.1.2.3:5555/" + "1" * 52,
    ],
)
def test_bad_direct_addresses_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_direct_address(text)


def test_fingerprint_is_short_stable_and_key_specific() -> None:
    other = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
    assert re.fullmatch(r"[0-9a-f]{4}(-[0-9a-f]{4}){3}", key_fingerprint(KEY))
    assert key_fingerprint(KEY) == key_fingerprint(KEY)
    assert key_fingerprint(KEY) != key_fingerprint(other)


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
