"""Adopted seats: a new host takes over the host-side bots under keys it makes. Pure.

A host-side bot signs its commitments and moves with a key its host made, and that private key
never leaves the host (no other player could then sign as the bot). When the host is lost, the
new host cannot sign with the lost key, so it *adopts* the bot's seat: it makes a fresh key for
it and says so in the next hand entry it logs::

    "adopted": {"host": 1, "term": 1, "keys": [[3, "<32-byte public key, hex>"]]}

The record is part of the hand's log statement, so the new host's log signature covers it. From
then on the seat signs with the adopted key: in a hand the host changed during (the entry's
``migrated``), from move ``migrated.at`` on; in any other hand, from its first deal on; and in
every later hand, until a later host adopts it again. The chain is checked (``check``): the
record is made by the host that signs that hand's log, in the term of its migration, the terms
of a seat's adoptions rise, and no host adopts its own seat or adopts a seat twice in one record.
A player whose own seat is adopted sees it at once (``adopts``): that is a host signing for a
person, and its peer's check of the hand fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lanomino.engine.errors import seat_name

__all__ = ["Adoption", "AdoptionError", "check", "parse_adoption"]


class AdoptionError(ValueError):
    """An adoption record that is malformed or breaks the chain."""


@dataclass(frozen=True, slots=True)
class Adoption:
    host: int
    term: int
    keys: tuple[tuple[int, bytes], ...]  # (seat, new public key)

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "term": self.term,
                "keys": [[seat, key.hex()] for seat, key in self.keys]}

    def adopts(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.keys)


def parse_adoption(value: Any, where: str, players: int) -> Adoption:
    """Raises AdoptionError naming the field."""
    if not isinstance(value, dict) or set(value) != {"host", "term", "keys"}:
        raise AdoptionError(f"{where}: expected an object with host, term and keys")
    host, term, keys = value["host"], value["term"], value["keys"]
    if type(host) is not int or not 0 <= host < players:
        raise AdoptionError(f"{where}.host: expected a seat")
    if type(term) is not int or term < 1:
        raise AdoptionError(f"{where}.term: expected a term of at least 1")
    if not isinstance(keys, list) or not 1 <= len(keys) <= players:
        raise AdoptionError(f"{where}.keys: expected 1 to {players} [seat, key] pairs")
    out: list[tuple[int, bytes]] = []
    for i, pair in enumerate(keys):
        ok = isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int
        ok = ok and 0 <= pair[0] < players and isinstance(pair[1], str) and len(pair[1]) == 64
        try:
            key = bytes.fromhex(pair[1]) if ok else b""
        except ValueError:
            key = b""
        if not key or pair[1] != key.hex():
            raise AdoptionError(f"{where}.keys[{i}]: expected [seat, 32-byte key as lowercase hex]")
        out.append((pair[0], key))
    return Adoption(host, term, tuple(out))


def check(adoption: Adoption, log_host: int, migration_term: int | None,
          last_terms: Sequence[int]) -> str | None:
    """What is wrong with ``adoption`` in a hand whose log ``log_host`` signs (``migration_term``:
    the term of that hand's migration, if any), given each seat's last adoption term (0: never);
    None when it holds."""
    if adoption.host != log_host:
        return (f"{seat_name(adoption.host)} adopts seats, but {seat_name(log_host)} signs this "
                "hand's log")
    if migration_term is not None and adoption.term != migration_term:
        return f"the adoption is of term {adoption.term}, the migration of term {migration_term}"
    seats = [s for s, _ in adoption.keys]
    if len(set(seats)) != len(seats):
        return "a seat is adopted twice in one record"
    if adoption.host in seats:
        return f"the host ({seat_name(adoption.host)}) adopts the host's own seat"
    for seat in seats:
        if adoption.term <= last_terms[seat]:
            return (f"{seat_name(seat)} is adopted in term {adoption.term}, "
                    f"but that seat was adopted in term {last_terms[seat]} already")
    return None
