"""CURVE key text, fingerprints and direct addresses."""

from __future__ import annotations

import re

import pytest

from lanomino.net.keys import (
    DirectAddress,
    key_fingerprint,
    key_from_text,
    key_to_text,
    parse_direct_address,
)

KEY = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"


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
