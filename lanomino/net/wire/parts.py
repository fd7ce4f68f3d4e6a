"""The values that travel inside message bodies as objects of their own: a roster entry and a
snapshot's hand in play. Frozen dataclasses like the messages (``messages.py``), checked field by
field from the same ``Annotated`` metadata when the body that holds them is parsed. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from lanomino.fair.transcript_model import MAX_DISPUTES, Abandoned
from lanomino.net.wire.checks import (
    ADDR,
    CURVE,
    MAX_MOVES,
    MAX_SEATS,
    SIG,
    TILE_TEXT,
    JsonObject,
    boolean,
    integer,
    listof,
    obj,
    optional,
    text,
)
from lanomino.net.wire.fields import Attempts, Hand, Key, Name, Seat, abandoned_entry, nested


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One seat of the replicated roster: who sits there, what kind of seat, where it would host
    after a migration (its standby address and CURVE key)."""

    seat: Seat
    name: Name
    identity: Key
    curve: Annotated[str | None, optional(CURVE)]
    kind: Annotated[str, text(5, r"host|human|bot")]
    connected: Annotated[bool, boolean]
    left: Annotated[bool, boolean]
    addr: Annotated[str | None, optional(ADDR)]
    away: Annotated[bool, boolean]


RosterList = Annotated[tuple[RosterEntry, ...], listof(nested(RosterEntry), MAX_SEATS)]


@dataclass(frozen=True, slots=True)
class SnapshotPlay:
    """The hand in play in a snapshot, as the viewer may see it (no tiles for a watcher)."""

    hand: Hand
    tiles: Annotated[tuple[str, ...], listof(TILE_TEXT, 28)]
    events: Annotated[tuple[JsonObject, ...], listof(obj, 4 * MAX_MOVES)]  # the hand so far
    moves: Annotated[tuple[JsonObject, ...], listof(obj, MAX_MOVES)]
    signatures: Annotated[tuple[bytes, ...], listof(SIG, MAX_MOVES)]
    turn: Seat
    attempts: Attempts
    abandoned: Annotated[tuple[Abandoned, ...], listof(abandoned_entry, MAX_SEATS)]
    dealer: Seat  # the host that dealt the hand (it signed the commitment sets)
    # the hand's disputes, {"seat", "index", "signature", "link"}: those the host passed on, in
    # that order, each counting toward head(link) of the log (fair/chain.py), then those it
    # adopted as a new host (link null)
    disputes: Annotated[tuple[JsonObject, ...], listof(obj, MAX_DISPUTES)]


MAX_SAID = 4096  # the statements of one deal attempt: far more than any hand makes


@dataclass(frozen=True, slots=True)
class LockedPlay:
    """A locked table's part of a snapshot (net/host/blind_snapshot.py): the match's
    transcript/2 so far and the deal attempt in play as the host relayed it, each statement
    with its sender's signature and the moves logged before it. Public: no tile of anyone."""

    transcript: Annotated[JsonObject | None, optional(obj)]  # None: no hand has ended yet
    said: Annotated[tuple[JsonObject, ...], listof(obj, MAX_SAID)]  # {"type", "body"} in order
    at: Annotated[tuple[int, ...], listof(integer(0, MAX_MOVES), MAX_SAID)]


PARTS: tuple[type[RosterEntry | SnapshotPlay | LockedPlay], ...] = (
    RosterEntry, SnapshotPlay, LockedPlay)
