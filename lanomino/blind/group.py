"""The group: ristretto255 through libsodium (the ``rbcl`` binding), nothing hand-written.

Points are their canonical 32-byte encodings (``Point``); scalars are Python integers modulo the
group order ``ORDER`` (little-endian 32 bytes on the wire and for libsodium). Every point that
comes from outside goes through ``parse_point`` first: libsodium's point addition does not report
a bad encoding, so an unchecked one would turn silently into the identity.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
from collections.abc import Iterable
from typing import NewType

import rbcl


def _drop_library_copy() -> None:
    """``rbcl`` writes the libsodium it bundles to a temporary file when it is imported, loads it
    from there and leaves the file behind: 2.7 MB in the temporary folder for every process that
    ever used the locked deck (a long test run filled a disk). Loaded, the library needs no file
    (the mapping keeps it): remove it. Where a loaded library cannot be removed (Windows), it
    stays, as before."""
    path = getattr(importlib.import_module("rbcl._sodium"), "lib_path", None)
    if isinstance(path, str) and os.path.basename(path).startswith("tmp"):
        with contextlib.suppress(OSError):
            os.unlink(path)


_drop_library_copy()

ORDER = 2**252 + 27742317777372353535851937790883648493  # the prime order of ristretto255
POINT_BYTES = 32
SCALAR_BYTES = 32

Point = NewType("Point", bytes)


class BlindError(ValueError):
    """A value of the locked deck is malformed, or a proof or argument does not check."""


def scalar_bytes(k: int) -> bytes:
    """A scalar's 32-byte little-endian encoding (reduced modulo the order first)."""
    return (k % ORDER).to_bytes(SCALAR_BYTES, "little")


def parse_scalar(data: bytes) -> int:
    """A scalar from its canonical encoding. Raises: BlindError if not below the order."""
    if len(data) != SCALAR_BYTES:
        raise BlindError(f"a scalar is {SCALAR_BYTES} bytes, not {len(data)}")
    value = int.from_bytes(data, "little")
    if value >= ORDER:
        raise BlindError("a scalar must be below the group order")
    return value


def parse_point(data: bytes, *, identity_ok: bool = False) -> Point:
    """A point from its canonical encoding.

    Raises: BlindError if the bytes encode no ristretto255 point, or the identity where it is not
    allowed (a key, a share or a ciphertext's first half is never the identity).
    """
    if len(data) != POINT_BYTES:
        raise BlindError(f"a point is {POINT_BYTES} bytes, not {len(data)}")
    if not rbcl.crypto_core_ristretto255_is_valid_point(data):
        raise BlindError("not a ristretto255 point: " + data.hex())
    if not identity_ok and data == IDENTITY:
        raise BlindError("the identity is not allowed here")
    return Point(bytes(data))


IDENTITY = Point(bytes(POINT_BYTES))
BASE = Point(rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(SCALAR_BYTES, "little")))


def base_mul(k: int) -> Point:
    """k·B."""
    return Point(rbcl.crypto_scalarmult_ristretto255_base_allow_scalar_zero(scalar_bytes(k)))


def mul(k: int, point: Point) -> Point:
    """k·P (the identity when k is 0 or P is the identity)."""
    if point == IDENTITY:
        return IDENTITY
    return Point(rbcl.crypto_scalarmult_ristretto255_allow_scalar_zero(scalar_bytes(k), point))


def add(p: Point, q: Point) -> Point:
    """P + Q."""
    return Point(rbcl.crypto_core_ristretto255_add(p, q))


def sub(p: Point, q: Point) -> Point:
    """P − Q."""
    return Point(rbcl.crypto_core_ristretto255_sub(p, q))


def total(points: Iterable[Point]) -> Point:
    """The sum of ``points`` (the identity for none)."""
    result = IDENTITY
    for point in points:
        result = add(result, point)
    return result


def combination(scalars: Iterable[int], points: Iterable[Point]) -> Point:
    """Σ kᵢ·Pᵢ, the additive form of a multi-exponentiation ∏ Pᵢ^kᵢ."""
    return total(mul(k, p) for k, p in zip(scalars, points, strict=True))


def hash_to_point(tag: bytes, data: bytes) -> Point:
    """A point nobody knows the logarithm of: libsodium's ristretto255 from 64 bytes of SHA-512."""
    digest = hashlib.sha512(_framed(tag) + data).digest()
    return Point(rbcl.crypto_core_ristretto255_from_hash(digest))


def _framed(part: bytes) -> bytes:
    return len(part).to_bytes(4, "big") + part
