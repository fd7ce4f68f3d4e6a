"""The message that catches a member up on a locked hand's log after a migration
(net/peer/catch_up.py), re-exported by ``messages.py``. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from lanomino.net.wire.checks import JsonObject, listof, obj
from lanomino.net.wire.fields import Hand

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
