"""The messages that bring a seat or a watcher up to date (a snapshot, in parts when it is large),
declared as ``messages.py`` declares the rest, which re-exports them. Pure.

  P->H resync         "I missed something"
  H->P snapshot       everything this seat may know now: the roster, the rules, the signed
                      match so far, the hand in play as the viewer may see it, and at a locked
                      table the deal attempt in play as the host relayed it (``locked``:
                      ``net/host/blind_snapshot.py``)
  H->P snapshot_part  a snapshot too large for one message, in order (``net/chunks.py``)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from lanomino.net.chunks import MAX_PARTS, PART_BYTES
from lanomino.net.wire.checks import JsonObject, integer, obj, optional, text
from lanomino.net.wire.fields import Object, SeatsAtTable, Viewer, nested
from lanomino.net.wire.parts import LockedPlay, RosterList, SnapshotPlay


@dataclass(frozen=True, slots=True)
class Resync:
    TYPE: ClassVar[str] = "resync"


@dataclass(frozen=True, slots=True)
class Snapshot:
    TYPE: ClassVar[str] = "snapshot"
    seat: Viewer
    roster: RosterList
    seats: SeatsAtTable
    rules: Object
    transcript: Annotated[JsonObject | None, optional(obj)]  # the signed match so far
    play: Annotated[SnapshotPlay | None, optional(nested(SnapshotPlay))]
    locked: Annotated[LockedPlay | None, optional(nested(LockedPlay))] = None


@dataclass(frozen=True, slots=True)
class SnapshotPart:
    """A snapshot too large for one message, in order (net/chunks.py)."""

    TYPE: ClassVar[str] = "snapshot_part"
    part: Annotated[int, integer(0, MAX_PARTS - 1)]
    parts: Annotated[int, integer(1, MAX_PARTS)]
    # its length only: net/chunks.py decodes it (validate=True); a regex here cost 235 us a part
    data: Annotated[str, text(PART_BYTES * 4 // 3 + 4)]
