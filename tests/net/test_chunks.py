"""No size cliff: message limits at the edge, snapshots in parts, a 200-hand match resyncs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessionkit import Table  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.chunks import (  # noqa: E402
    INLINE_BYTES,
    MAX_PARTS,
    PART_BYTES,
    Reassembler,
    split_body,
)
from lanomino.net.codec import MAX_MESSAGE_BYTES, decode_json, encode_json  # noqa: E402
from lanomino.net.errors import LocalProtocolError, RemoteProtocolError  # noqa: E402
from lanomino.net.session import MatchOver, SecretMade  # noqa: E402
from lanomino.net.wire.messages import SnapshotPart  # noqa: E402
from lanomino.net.wire.schemas import build, parse_message, to_body  # noqa: E402


def _object_of(size: int) -> dict[str, str]:
    """A JSON object whose compact encoding is exactly ``size`` bytes."""
    return {"x": "a" * (size - len('{"x":""}'))}


def test_the_message_limit_holds_at_the_byte() -> None:
    at = _object_of(MAX_MESSAGE_BYTES)
    assert len(encode_json(at)) == MAX_MESSAGE_BYTES
    assert decode_json(encode_json(at)) == at
    over = _object_of(MAX_MESSAGE_BYTES + 1)
    with pytest.raises(LocalProtocolError):
        encode_json(over)
    with pytest.raises(RemoteProtocolError):
        decode_json(encode_json(over, max_bytes=MAX_MESSAGE_BYTES + 1))


def test_a_body_that_fits_goes_whole_and_one_that_does_not_goes_in_parts() -> None:
    assert split_body(_object_of(INLINE_BYTES)) == []
    parts = split_body(_object_of(INLINE_BYTES + 1))
    assert [p["part"] for p in parts] == [0, 1] and {p["parts"] for p in parts} == {2}


def test_the_largest_part_fits_in_one_message() -> None:
    body = {"x": "\u00e9" * (2 * PART_BYTES)}  # 2-byte UTF-8 text: base64 does not care
    parts = split_body(body)
    assert len(parts) >= 2
    for part in parts:
        message = build(SnapshotPart(part["part"], part["parts"], part["data"]), 0, 1)
        assert len(encode_json(message)) < MAX_MESSAGE_BYTES
        assert to_body(parse_message(decode_json(encode_json(message))).body) == part
    joined = Reassembler()
    results = [joined.add(p["part"], p["parts"], p["data"]) for p in parts]
    assert results[:-1] == [None] * (len(parts) - 1) and results[-1] == body


def test_parts_out_of_order_or_forged_are_refused_and_forgotten() -> None:
    parts = split_body(_object_of(3 * PART_BYTES))
    r = Reassembler()
    r.add(parts[0]["part"], parts[0]["parts"], parts[0]["data"])
    with pytest.raises(RemoteProtocolError, match="out of order"):
        r.add(parts[2]["part"], parts[2]["parts"], parts[2]["data"])
    assert r.pending == 0
    with pytest.raises(RemoteProtocolError, match="out of order"):
        r.add(1, parts[1]["parts"], parts[1]["data"])  # no first part: refused
    with pytest.raises(RemoteProtocolError, match="not base64"):
        r.add(0, 2, "not base64!")
    with pytest.raises(RemoteProtocolError):
        r.add(0, MAX_PARTS + 1, "")
    with pytest.raises(RemoteProtocolError, match="not JSON"):
        r.add(0, 1, "bm90IGpzb24=")  # "not json"


def test_a_restarted_peer_resyncs_after_200_hands() -> None:
    """The snapshot of a 200-hand match is over a megabyte: it arrives in parts, the peer that
    restarted rebuilds the match from it and plays on, and every hand verifies."""
    table = Table(Rules.preset("classic", target=100_000), 2, seed=3)
    old = table.slots[0]
    table.run(
        lambda: table.host.doc is not None and len(table.host.doc["hands"]) >= 200, max_time=1e6
    )
    assert len(encode_json(table.host.doc, max_bytes=10**8)) > 4 * MAX_MESSAGE_BYTES
    old.connected = False
    saved = {
        (e.table, e.hand, e.attempt): e.secret for e in old.events if isinstance(e, SecretMade)
    }
    table.run(lambda: False, max_time=2)
    new = table.add_peer("peer1", identity=old.session.identity, curve_n=42, secrets=saved)
    hands = len(table.host.doc["hands"])
    table.run(
        lambda: len(new.session.doc["hands"]) >= hands + 2 if new.session.doc else False,
        max_time=600,
    )
    assert sum(m["type"] == "snapshot_part" for m in new.inbox) >= 5
    assert not any(m["type"] == "snapshot" for m in new.inbox)
    assert new.session.seat == old.session.seat and new.session.verified_all
    assert verify_transcript(new.session.doc).ok
    assert not [e for e in new.events if isinstance(e, MatchOver)]  # it plays on
