"""The client's two seams, as typed protocols.

``Table`` is what the controller drives: a seat at a local match (``client.local.LocalTable``)
or at a networked one (``client.lan.LanTable``). The controller never asks which.

``TableNode`` is what a LAN table needs from the node that runs the protocol (``node.HostNode``
or ``node.PeerNode``): start it, run it to its outcome, see its session events, move, quit, and
read who sits where as typed rows.

``Frontend`` is what the controller needs from whatever shows the state: the full-screen app or a
line mode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from lanomino.engine import Action

if TYPE_CHECKING:
    from lanomino.discovery.zeroconf_adapter import SeenTable
    from lanomino.net.session import SessionEvent
    from lanomino.node import Hosting, Outcome, SeatRow, Serving


class Table(Protocol):
    """A seat at a table, local or LAN: the controller's table intents land here."""

    def submit(self, action: Action) -> None:
        """The player's move; an illegal one only sets ``ui.message``."""

    def next_hand(self) -> None:
        """Enter after a hand's summary."""

    def resign(self) -> bool:
        """Resign the seat and watch; False when resigning means leaving the table."""

    def finish(self) -> None:
        """After resigning: let the others play the match out at once (where that is possible)."""

    def hint(self) -> None:
        """Show what Expert would play (``ui.message``); only against the computer."""

    def undo(self) -> None:
        """Take back the player's last move; only against the computer."""

    def come_back(self) -> None:
        """The player is back after the move clock ran out (a LAN table with a move clock): the
        table's bot stops playing their seat."""

    def leave(self) -> str:
        """Stop playing here; the line the menu shows afterwards ("" for none)."""

    async def shutdown(self) -> None:
        """Before the client exits: say goodbye (within about a second)."""


class TableNode(Protocol):
    """A LAN node as a client sees it."""

    def subscribe(self, listener: Callable[[SessionEvent], None]) -> None: ...

    async def start(self) -> None: ...

    async def run(self) -> Outcome: ...

    async def close(self) -> None: ...

    def submit(self, action: Action) -> None:
        """Raises IllegalActionError (or ValueError) for a move the table refuses."""

    def quit(self) -> None: ...

    def back(self) -> None:
        """The player is back at a seat the move clock ran out for: the table's bot stops."""

    def seats(self) -> tuple[SeatRow, ...]: ...

    def watching(self) -> int:
        """How many people watch the table (net/watchers.py)."""

    def move_clock(self) -> float | None:
        """The host's move clock in seconds a move (None: no clock)."""

    def locked(self) -> bool | None:
        """Whether the table deals the locked deck (None: not known yet, before the match)."""

    def players(self) -> int:
        """How many seats the table has."""

    def hosting(self) -> Hosting | None:
        """The table as this node hosts it (None while it is a peer)."""

    def member_address(self, seat: int) -> tuple[str, str, bytes] | None:
        """Where the member at ``seat`` would host the table: ("HOST:PORT", its CURVE key, its
        identity key), from the roster (None: not known, or this node is the host)."""

    def serving(self) -> Serving | None:
        """Where others join the table while this node hosts it (None while it is a peer)."""

    async def follow_on(self, outcome: Outcome,
                        on_start: Callable[[TableNode], None] | None = None) -> Outcome:
        """After ``run``: a host that stepped down follows the match to its end as a peer of the
        new host (``on_start`` sees that node first). Returns the match's outcome."""


class Browser(Protocol):
    """What the lobby needs from a table browser (``discovery.zeroconf_adapter.TableBrowser``)."""

    @property
    def tables(self) -> Mapping[str, SeenTable]: ...

    async def start(self) -> None: ...

    async def next_event(self, timeout_s: float | None = None) -> object: ...

    async def close(self) -> None: ...


class Frontend(Protocol):
    """What shows the client's state."""

    def redraw(self) -> None: ...

    def bell(self) -> None: ...

    def exit(self) -> None:
        """End the client (calling it twice is harmless)."""


class Headless:
    """A frontend that shows nothing (tests, and before the app exists)."""

    def redraw(self) -> None:
        pass

    def bell(self) -> None:
        pass

    def exit(self) -> None:
        pass
