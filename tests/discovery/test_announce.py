"""The TXT record: round trip, unique instance names, and refusal of every bad field."""

from __future__ import annotations

import dataclasses

import pytest

from lanomino.discovery.announce import (
    MAX_TXT_VALUE_BYTES,
    SERVICE_TYPE,
    AnnouncementError,
    TableAnnouncement,
    build_txt,
    parse_txt,
)
from lanomino.net.codec import PROTOCOL_VERSION

KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"


def kitchen(**changes: object) -> TableAnnouncement:
    base = TableAnnouncement(
        name="Kitchen",
        rules="allfives target=150",
        seats_taken=1,
        seats_total=4,
        host_peer_id="3f9a0c1277deb401",
        term=0,
        has_passphrase=True,
        host_key=KEY,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def as_wire(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in txt.items()}


def test_txt_round_trip_keeps_every_field() -> None:
    table = kitchen(term=7, seats_taken=3)
    txt = build_txt(table)
    assert txt == {
        "v": str(PROTOCOL_VERSION),
        "name": "Kitchen",
        "rules": "allfives target=150",
        "seats": "3/4",
        "host": "3f9a0c1277deb401",
        "term": "7",
        "pw": "1",
        "key": KEY,
    }
    assert parse_txt(as_wire(txt)) == table


def test_same_table_name_gives_distinct_instance_names() -> None:
    first = kitchen(host_peer_id="3f9a0c1277deb401")
    second = kitchen(host_peer_id="77deb4013f9a0c12")
    assert first.instance_name == "Kitchen [3f9a0c12]"
    assert second.instance_name == "Kitchen [77deb401]"
    assert first.service_name == f"Kitchen [3f9a0c12].{SERVICE_TYPE}"


def test_dots_in_a_name_do_not_split_the_dns_label() -> None:
    table = kitchen(name="Mr. Pip's")
    assert "." not in table.instance_name
    assert parse_txt(as_wire(build_txt(table))).name == "Mr. Pip's"


def test_longest_name_fits_a_dns_label() -> None:
    table = kitchen(name="é" * 24)  # 48 bytes of UTF-8, the limit
    assert len(table.instance_name.encode()) <= 63


@pytest.mark.parametrize(
    "changes",
    [
        {"name": ""},
        {"name": "x" * 33},
        {"name": "é" * 25},
        {"name": " Kitchen"},
        {"name": "Kit\nchen"},
        {"name": "Kit\u202echen"},
        {"rules": ""},
        {"rules": "r" * 65},
        {"rules": "all\tfives"},
        {"rules": "allfivés"},
        {"seats_total": 1},
        {"seats_total": 9},
        {"seats_taken": 5},
        {"seats_taken": -1},
        {"seats_taken": True},
        {"host_peer_id": "3F9A0C1277DEB401"},
        {"host_peer_id": "3f9a"},
        {"host_peer_id": "z" * 16},
        {"term": -1},
        {"term": 2**31},
        {"has_passphrase": 1},
        {"host_key": "short"},
        {"host_key": "~" * 40},
        {"host_key": "#" * 40},  # decodes past 2**32 per block
        {"version": 0},
    ],
)
def test_bad_announcement_values_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(AnnouncementError):
        kitchen(**changes)


@pytest.mark.parametrize(
    "key, value",
    [
        ("seats", "2-4"),
        ("seats", "4/2"),
        ("seats", "10/12"),
        ("term", "-1"),
        ("term", "07"),
        ("term", " 7"),
        ("term", "1e3"),
        ("v", "one"),
        ("pw", "yes"),
        ("key", "~" * 40),
        ("key", KEY[:-1]),
        ("name", "\x00"),
        ("name", "x" * (MAX_TXT_VALUE_BYTES + 1)),
    ],
)
def test_bad_txt_values_are_refused(key: str, value: str) -> None:
    txt = build_txt(kitchen())
    txt[key] = value
    with pytest.raises(AnnouncementError):
        parse_txt(as_wire(txt))


@pytest.mark.parametrize("key", ["v", "name", "rules", "seats", "host", "term", "pw", "key"])
def test_missing_txt_field_is_refused(key: str) -> None:
    wire = as_wire(build_txt(kitchen()))
    del wire[key.encode()]
    with pytest.raises(AnnouncementError, match=repr(key)):
        parse_txt(wire)
    wire[key.encode()] = None  # a bare key without '=' in the TXT record
    with pytest.raises(AnnouncementError):
        parse_txt(wire)


def test_non_utf8_txt_value_is_refused() -> None:
    wire = as_wire(build_txt(kitchen()))
    wire[b"name"] = b"\xff\xfe"
    with pytest.raises(AnnouncementError, match="UTF-8"):
        parse_txt(wire)


def test_unknown_txt_keys_are_ignored_and_other_versions_flagged() -> None:
    wire = as_wire(build_txt(kitchen()))
    wire[b"future"] = b"whatever"
    assert parse_txt(wire) == kitchen()
    wire[b"v"] = b"2"
    newer = parse_txt(wire)
    assert newer.version == 2 and not newer.is_compatible
    assert kitchen().is_compatible


def test_full_table_is_reported_full() -> None:
    assert kitchen(seats_taken=4).is_full
    assert not kitchen(seats_taken=3).is_full


def test_an_announcer_whose_goodbye_hangs_still_closes_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A goodbye that cannot go out (here: one that never finishes) must not hold up a node's
    exit: ``close`` gives up on it after GOODBYE_S and still releases the announcer. Nothing is
    registered, so nothing is sent."""
    import asyncio
    import time

    from lanomino.discovery import zeroconf_adapter as za

    monkeypatch.setattr(za, "GOODBYE_S", 0.2)
    announcer = za.TableAnnouncer(["127.0.0.1"])
    stuck = asyncio.Event()

    async def never_done() -> None:
        await stuck.wait()

    monkeypatch.setattr(announcer, "unregister", never_done)
    began = time.monotonic()
    asyncio.run(announcer.close())
    assert time.monotonic() - began < 1.0
