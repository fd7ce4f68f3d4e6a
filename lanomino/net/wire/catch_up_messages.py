"""The messages that catch a side up on a locked hand's log after a migration
(net/peer/catch_up.py, net/host/locked_log.py), re-exported by ``messages.py``. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from lanomino.net.wire.checks import JsonObject, listof, obj
from lanomino.net.wire.fields import Count, Hand

# the most moves of a locked hand's log a report carries, or a catch-up passes on, and the most
# messages they take (a move's update, its play or resignation, a draw's shares)
MAX_CATCH_UP = 8
MAX_ENTRIES = 6 * MAX_CATCH_UP


@dataclass(frozen=True, slots=True)
class CatchUp:
    """A locked hand's log entries that the lost host sent to some members only: each as it
    went out (an ``update`` with its head signed by that host; before a play or a resignation
    its seat's ``blind_play`` or ``blind_resign``; after a draw its holders' ``blind_draw``),
    passed on by the new host to a member behind it (net/peer/catch_up.py). No signature of its
    own: every entry has its signers'."""

    TYPE: ClassVar[str] = "catch_up"
    hand: Hand
    entries: Annotated[tuple[JsonObject, ...], listof(obj, MAX_ENTRIES)]


@dataclass(frozen=True, slots=True)
class LogWanted:
    """A new host asks a member ahead of it by more than the member's report carries for the
    hand's log entries from move ``since`` on (net/host/locked_log.py); the member answers with
    ``catch_up``s of at most ``MAX_CATCH_UP`` moves each, in order (net/peer/catch_up.py)."""

    TYPE: ClassVar[str] = "log_wanted"
    hand: Hand
    since: Count
