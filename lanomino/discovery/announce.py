"""What a table tells the network about itself: the DNS-SD TXT record. Pure.

A host registers ``<instance>._lanomino._tcp.local.`` with these TXT keys (short, so the record
stays well under one packet):

    v=1            protocol version
    name=Kitchen   table name (UTF-8, 1..32 characters, no control characters)
    rules=Draw 100 the rules as History names them (printable ASCII, 1..64 characters)
    seats=2/4      seats taken / total
    host=<hex>     the host's peer id (16..64 lowercase hex digits)
    term=0         the host's term (host migration increments it)
    pw=0|1         whether a passphrase is needed
    key=<z85>      the host's CURVE public key (40 Z85 characters)

The instance name is the table name plus the first 8 hex digits of the host's peer id, so two tables
both called "Kitchen" are two services ("Kitchen [3f9a0c12]" and "Kitchen [77deb401]") and both
stay visible. Unknown TXT keys are ignored so later versions can add fields; every known key is
validated and a record that breaks a rule is refused with ``AnnouncementError``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from lanomino.net.codec import PROTOCOL_VERSION
from lanomino.net.keys import z85_to_raw

SERVICE_TYPE = "_lanomino._tcp.local."
MAX_NAME_CHARS = 32
MAX_NAME_BYTES = 48  # keeps the instance label under DNS's 63-byte limit with its suffix
MAX_RULES_CHARS = 64
MIN_SEATS, MAX_SEATS = 2, 8
MAX_TERM = 2**31 - 1
MAX_VERSION = 9999
PEER_ID_SUFFIX = 8
MAX_TXT_VALUE_BYTES = 200  # a TXT string holds key=value in at most 255 bytes

_PEER_ID_RE = re.compile(r"[0-9a-f]{16,64}")
_RULES_RE = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")
_SEATS_RE = re.compile(r"([0-9])/([0-9])")
_UINT_RE = re.compile(r"0|[1-9][0-9]{0,9}")


class AnnouncementError(ValueError):
    """A TXT record (or announcement value) that breaks one of the rules above."""


@dataclass(frozen=True, slots=True)
class TableAnnouncement:
    """The facts a table advertises. Construction validates every field."""

    name: str
    rules: str
    seats_taken: int
    seats_total: int
    host_peer_id: str
    term: int
    has_passphrase: bool
    host_key: str  # CURVE public key, Z85
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        check_name(self.name)
        if not isinstance(self.rules, str) or len(self.rules) > MAX_RULES_CHARS:
            raise AnnouncementError(f"rules must be at most {MAX_RULES_CHARS} characters")
        if not _RULES_RE.fullmatch(self.rules):
            raise AnnouncementError(f"rules {self.rules!r} must be printable ASCII")
        _check_int("seats_total", self.seats_total, MIN_SEATS, MAX_SEATS)
        _check_int("seats_taken", self.seats_taken, 0, self.seats_total)
        if not isinstance(self.host_peer_id, str) or not _PEER_ID_RE.fullmatch(self.host_peer_id):
            raise AnnouncementError("host peer id must be 16..64 lowercase hex digits")
        _check_int("term", self.term, 0, MAX_TERM)
        _check_int("version", self.version, 1, MAX_VERSION)
        if not isinstance(self.has_passphrase, bool):
            raise AnnouncementError("has_passphrase must be a bool")
        try:
            z85_to_raw(self.host_key)
        except ValueError as exc:
            raise AnnouncementError(f"host key: {exc}") from None

    @property
    def is_compatible(self) -> bool:
        """Whether this side speaks the table's protocol version."""
        return self.version == PROTOCOL_VERSION

    @property
    def is_full(self) -> bool:
        return self.seats_taken >= self.seats_total

    @property
    def instance_name(self) -> str:
        """The DNS-SD instance label: unique per host, readable by people."""
        return instance_name(self.name, self.host_peer_id)

    @property
    def service_name(self) -> str:
        """The full service name registered with mDNS."""
        return f"{self.instance_name}.{SERVICE_TYPE}"


def _check_int(what: str, value: object, lo: int, hi: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise AnnouncementError(f"{what} must be an integer {lo}..{hi}, not {value!r}")


def check_name(name: object) -> None:
    """Refuse a table name a TXT record or a person's screen could not carry.

    Raises:
        AnnouncementError: not 1..MAX_NAME_CHARS characters, too many bytes, spaces at an end,
            or a control character (the message says which).
    """
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_CHARS:
        raise AnnouncementError(f"table name must be 1..{MAX_NAME_CHARS} characters")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise AnnouncementError(f"table name must be at most {MAX_NAME_BYTES} bytes of UTF-8")
    if name != name.strip():
        raise AnnouncementError("table name must not start or end with spaces")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise AnnouncementError("table name must not contain control characters")


def instance_name(table_name: str, host_peer_id: str) -> str:
    """The instance label for a table: name (dots replaced) plus a peer-id suffix."""
    label = table_name.replace(".", "\u00b7")  # a dot would split the DNS label
    return f"{label} [{host_peer_id[:PEER_ID_SUFFIX]}]"


def build_txt(announcement: TableAnnouncement) -> dict[str, str]:
    """The TXT record for an announcement, as key -> value strings."""
    a = announcement
    return {
        "v": str(a.version),
        "name": a.name,
        "rules": a.rules,
        "seats": f"{a.seats_taken}/{a.seats_total}",
        "host": a.host_peer_id,
        "term": str(a.term),
        "pw": "1" if a.has_passphrase else "0",
        "key": a.host_key,
    }


def _text(properties: Mapping[bytes, bytes | None], key: str) -> str:
    raw = properties.get(key.encode("ascii"))
    if raw is None:
        raise AnnouncementError(f"TXT record has no {key!r}")
    if len(raw) > MAX_TXT_VALUE_BYTES:
        raise AnnouncementError(f"TXT value {key!r} is too long")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise AnnouncementError(f"TXT value {key!r} is not UTF-8") from None


def _uint(properties: Mapping[bytes, bytes | None], key: str) -> int:
    text = _text(properties, key)
    if not _UINT_RE.fullmatch(text):
        raise AnnouncementError(f"TXT value {key!r} must be a plain decimal number, not {text!r}")
    return int(text)


def parse_txt(properties: Mapping[bytes, bytes | None]) -> TableAnnouncement:
    """Build an announcement from an untrusted TXT record (as zeroconf hands it over).

    Raises:
        AnnouncementError: a missing, oversize or invalid field.
    """
    seats = _SEATS_RE.fullmatch(_text(properties, "seats"))
    if seats is None:
        raise AnnouncementError("TXT value 'seats' must look like 2/4")
    flag = _text(properties, "pw")
    if flag not in ("0", "1"):
        raise AnnouncementError("TXT value 'pw' must be 0 or 1")
    return TableAnnouncement(
        name=_text(properties, "name"),
        rules=_text(properties, "rules"),
        seats_taken=int(seats.group(1)),
        seats_total=int(seats.group(2)),
        host_peer_id=_text(properties, "host"),
        term=_uint(properties, "term"),
        has_passphrase=flag == "1",
        host_key=_text(properties, "key"),
        version=_uint(properties, "v"),
    )
