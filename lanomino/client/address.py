"""Joining by address like a person: ``HOST:PORT``, ``HOST:PORT/CODE`` or ``HOST:PORT/KEY``.

The host's key service (``discovery.key_service``) says who answers at the address; this module
decides whether to believe it. A full key is proof by itself (CURVE checks it); a code from the
host's screen must be the start of the host's fingerprint; with neither, a host joined before is
trusted by its identity key, and a new one (or an address that answered with another identity
before) needs the person to compare the fingerprint both screens show.
"""

from __future__ import annotations

import enum
import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from lanomino.discovery.key_service import KeyServiceError, fetch_table_key
from lanomino.discovery.table_key import TableKey, identity_fingerprint, is_code, matches_code
from lanomino.net.keys import DirectAddress, parse_direct_address
from lanomino.store.known_hosts import HostCheck


class Trust(enum.Enum):
    KEY = "key"  # the full key was given: CURVE proves it
    CODE = "code"  # the code from the host's screen matched
    KNOWN = "known"  # joined before with this identity
    NEW = "new"  # never seen: ask the person
    CHANGED = "changed"  # this address had another identity before: warn, then ask


@dataclass(frozen=True, slots=True)
class Target:
    """What the person typed: where, and the key or code if they gave one."""

    host: str
    port: int
    key: str | None = None  # Z85
    code: str | None = None

    def __str__(self) -> str:
        return str(DirectAddress(self.host, self.port)) + (f"/{self.code}" if self.code else "")


@dataclass(frozen=True, slots=True)
class Resolved:
    """A table to connect to, and how far its host is to be trusted."""

    address: DirectAddress  # with the host's CURVE key
    name: str  # the table's name ("" when the host did not say)
    trust: Trust
    identity: bytes | None = None  # the host's identity key (None: no key service answered)
    previous: bytes | None = None  # (CHANGED) the identity this address had before

    @property
    def fingerprint(self) -> str:
        return identity_fingerprint(self.identity) if self.identity is not None else ""

    @property
    def previous_fingerprint(self) -> str:
        return identity_fingerprint(self.previous) if self.previous is not None else ""

    @property
    def needs_consent(self) -> bool:
        return self.trust in (Trust.NEW, Trust.CHANGED)


def is_bare_host(text: str) -> bool:
    """An IP address with no port at all (``lanomino bot 127.0.0.1``), not a table's name."""
    try:
        ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return False
    return True


def parse_target(text: str) -> Target:
    """Parse an address a person typed. Raises ValueError saying what is wrong (a missing port
    gets its own sentence)."""
    text = text.strip()
    where, slash, rest = text.partition("/")
    if is_bare_host(where) or where.endswith(":"):
        host, tail = where.rstrip(":"), f"/{rest}" if slash else ""
        raise ValueError(f"{host} needs the table's port too: HOST:PORT{tail}, as the host's "
                         f"screen shows it (e.g. {host}:47311{tail})")
    if slash and is_code(rest):
        address = parse_direct_address(where)
        return Target(address.host, address.port, code=rest)
    address = parse_direct_address(text)
    return Target(address.host, address.port, key=address.server_key)


CheckHost = Callable[[str, bytes], Awaitable[HostCheck]]


async def resolve(target: Target, check_host: CheckHost, timeout_s: float = 3.0) -> Resolved:
    """Ask the table at ``target`` who it is and weigh the answer.

    Raises:
        KeyServiceError: nobody listening, no answer, not a lanomino table (its own message).
        ValueError: the answer contradicts the code: not the table on the host's screen.
    """
    try:
        answer: TableKey | None = await fetch_table_key(target.host, target.port, timeout_s)
    except KeyServiceError as exc:
        if target.key is None or exc.code == "refused":
            raise  # (refused: nothing listens at the game port either)
        answer = None  # no key service to be had: the full key is enough, the name is unknown
    if target.key is not None:
        return _with_key(target, target.key, answer)
    assert answer is not None
    address = DirectAddress(target.host, target.port, answer.curve)
    if target.code is not None:
        if not matches_code(answer, target.code):
            raise ValueError(
                f"WARNING: the host at {target.host}:{target.port} has the fingerprint "
                f"{answer.fingerprint}, which does not start with {target.code}: this is not the "
                "table on that screen (or the code was mistyped). Not joining.")
        return Resolved(address, answer.name, Trust.CODE, answer.identity)
    seen = await check_host(target.host, answer.identity)
    if seen.known:
        return Resolved(address, answer.name, Trust.KNOWN, answer.identity)
    trust = Trust.CHANGED if seen.previous is not None else Trust.NEW
    return Resolved(address, answer.name, trust, answer.identity, seen.previous)


def _with_key(target: Target, key: str, answer: TableKey | None) -> Resolved:
    address = DirectAddress(target.host, target.port, key)
    if answer is None or answer.curve != key:
        return Resolved(address, "", Trust.KEY)  # the name comes only with the key's own answer
    return Resolved(address, answer.name, Trust.KEY, answer.identity)


def consent_question(found: Resolved) -> str:
    """What to ask before joining a host not trusted yet (loud when the address changed hands)."""
    where = f"{found.address.host}:{found.address.port}"
    table = f"table {found.name!r}" if found.name else "a table"
    if found.trust is Trust.CHANGED:
        return (f"WARNING: {where} answered with another host key before (fingerprint "
                f"{found.previous_fingerprint}); now {table} there has the fingerprint "
                f"{found.fingerprint}. Someone else may be answering. Join only if the host's "
                "screen shows this new fingerprint.")
    return (f"{where} is {table} with the host fingerprint {found.fingerprint}. "
            "Join if the host's screen shows the same fingerprint.")
