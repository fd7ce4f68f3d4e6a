"""The values of the locked deck's messages (``blind_messages.py``) as the wire carries them: each
one the lowercase hex of its own bytes (``blind/rounds.py``, ``blind/key_escrow.py``), parsed at
the edge with a reason naming the field, its size bounded by the largest set. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from lanomino.blind.group import SCALAR_BYTES, BlindError, parse_point, parse_scalar
from lanomino.blind.key_escrow import SEALED_BYTES
from lanomino.blind.rounds import KeyAnnouncement, Reveal, Share, ShuffleTurn, shares_from_bytes
from lanomino.engine import parse_tile
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire.checks import MAX_SEATS, TILE_TEXT, Check, integer, listof

SET_SIZES = (28, 55, 91)  # double-six, double-nine, double-twelve
MAX_TILES = max(SET_SIZES)


def shuffle_bytes(tiles: int) -> int:
    """A shuffle turn's length for a set of ``tiles``: seat, source digest, the output deck
    (two points a tile) and the argument (3N+5 points, 2N+4 scalars)."""
    return 1 + 32 + 64 * tiles + 32 * (3 * tiles + 5) + 32 * (2 * tiles + 4)


_SHUFFLE_TILES = {shuffle_bytes(n): n for n in SET_SIZES}
T = TypeVar("T")


def _hex_value(parse: Callable[[bytes], T], max_bytes: int, what: str) -> Check:
    """A value sent as the lowercase hex of its bytes, at most ``max_bytes``, parsed by ``parse``
    (which raises BlindError)."""

    def check(value: Any, where: str) -> T:
        if not isinstance(value, str) or len(value) > 2 * max_bytes or len(value) % 2:
            raise RemoteProtocolError(f"field {where!r}: expected {what} as lowercase hex "
                                      f"(at most {max_bytes} bytes)")
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            raw = None
        if raw is None or raw.hex() != value:
            raise RemoteProtocolError(f"field {where!r}: expected {what} as lowercase hex")
        try:
            return parse(raw)
        except BlindError as exc:
            raise RemoteProtocolError(f"field {where!r}: {exc}") from None

    return check


def _shuffle(data: bytes) -> ShuffleTurn:
    tiles = _SHUFFLE_TILES.get(len(data))
    if tiles is None:
        raise BlindError(f"a shuffle turn of {len(data)} bytes is for no domino set")
    return ShuffleTurn.from_bytes(data, tiles)


def _set_size(value: Any, where: str) -> int:
    if value not in SET_SIZES or isinstance(value, bool):
        raise RemoteProtocolError(f"field {where!r}: expected a domino set's size "
                                  f"({', '.join(map(str, SET_SIZES))}), got {value!r}")
    return int(value)


Tiles = Annotated[int, _set_size]
Position = Annotated[int, integer(0, 255)]  # (a blind re-shuffle's slots follow the deal's)
Index = Annotated[int, integer(0, 10_000)]  # a move's number in the hand
def _tile(value: Any, where: str) -> str:
    text_ = TILE_TEXT(value, where)
    try:
        parse_tile(text_)
    except ValueError:
        raise RemoteProtocolError(f"field {where!r}: {text_!r} is no tile") from None
    return str(text_)


Tile = Annotated[str, _tile]
Key = Annotated[KeyAnnouncement, _hex_value(KeyAnnouncement.from_bytes, 97, "a key announcement")]
Turn = Annotated[ShuffleTurn, _hex_value(_shuffle, shuffle_bytes(MAX_TILES), "a shuffle turn")]
OneShare = Annotated[Share, _hex_value(Share.from_bytes, 130, "a share")]
Shares = Annotated[tuple[Share, ...], _hex_value(shares_from_bytes, 130 * MAX_TILES,
                                                 "a batch of shares")]
Secret = Annotated[Reveal, _hex_value(Reveal.from_bytes, 65, "a reveal")]
def pieces(data: bytes, size: int, what: str) -> tuple[bytes, ...]:
    if not data or len(data) % size:
        raise BlindError(f"{what} are {size} bytes each")
    return tuple(data[i:i + size] for i in range(0, len(data), size))


def _points(data: bytes) -> bytes:
    for piece in pieces(data, 32, "escrow commitments"):
        parse_point(piece)
    return data


def _sealed(data: bytes) -> bytes:
    pieces(data, SEALED_BYTES, "sealed sub-shares")
    return data


def _scalar(data: bytes) -> bytes:
    parse_scalar(data)
    return data


# (sent as the hex of their bytes, each piece checked here; ``BlindEscrow`` splits them)
Commitments = Annotated[bytes, _hex_value(_points, 32 * MAX_SEATS, "escrow commitments")]
Sealed = Annotated[bytes, _hex_value(_sealed, SEALED_BYTES * MAX_SEATS, "sealed sub-shares")]
SubShare = Annotated[bytes, _hex_value(_scalar, SCALAR_BYTES, "a sub-share")]
SeatList = Annotated[tuple[int, ...], listof(integer(0, MAX_SEATS - 1), MAX_SEATS)]


def _unheld(data: bytes) -> bytes:
    if not data:
        raise BlindError("a re-shuffle value is not empty")
    return data  # (its step's parser reads it: blind/unheld_round.py, naming its signer)


# a blind re-shuffle's value: a hand vector, a shuffle turn, a blinding or an opening
UnheldValue = Annotated[bytes, _hex_value(_unheld, shuffle_bytes(MAX_TILES), "a re-shuffle value")]


def u32s(*values: int) -> bytes:
    return b"".join(v.to_bytes(4, "big") for v in values)
