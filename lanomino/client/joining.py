"""The client's join-and-trust dialogue: which LAN table to sit at, and whether to trust its host.

A table picked from the lobby's list is joined at once (the lobby saw its key announced); one
given by its address is asked who it is first (``find.who_is``: its name and identity key, or a
sentence saying why nobody answers there). A host not met before, or one whose key changed, is a
question to the player (``address.consent_question``): yes (``ConfirmJoin``, or the same join
asked again) joins it and remembers the host as trusted (``find.HostBook``). A joiner waiting for
a rematch asks its host's address again until the table opens anew. A table that refuses the seat
is said why, and a passphrase it needs is asked for.

``Joining`` keeps the one question in the air; the controller does the sitting (``sit_at``) and
the leaving, as it does for every table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from lanomino import command
from lanomino.client import ClientError
from lanomino.ui.lan import JoinTable, LobbyView, ask_passphrase
from lanomino.ui.state import Screen, UiState

if TYPE_CHECKING:
    from lanomino.client.address import Resolved
    from lanomino.client.find import HostBook
    from lanomino.store.known_hosts import HostCheck

REMATCH_WAIT_S = 60.0  # how long a joiner waits for its host to open the table again


class Joining:
    """Which table to join and whether to trust its host. ``sit_at`` joins a table settled on;
    ``seated`` says whether the player sits at a table now."""

    def __init__(self, ui: UiState, hosts: HostBook,
                 spawn: Callable[[Awaitable[object]], object],
                 sit_at: Callable[[JoinTable], None], seated: Callable[[], bool],
                 redraw: Callable[[], None]) -> None:
        self.ui, self.hosts, self.spawn = ui, hosts, spawn
        self.sit_at, self.seated, self.redraw = sit_at, seated, redraw
        self.unsure: tuple[Resolved, JoinTable, JoinTable] | None = None  # (found, join, asked)

    def join(self, intent: JoinTable) -> None:
        """A table seen in the lobby is joined at once; one given by address is asked who it is
        first (its name, its key; a clear sentence when nobody answers there)."""
        from lanomino.client.address import parse_target

        asking = self.ui.lobby.entry == "trust" and self.unsure is not None
        if asking and self.unsure is not None and self.unsure[2] == intent:  # asked again: yes
            self.confirm()
            return
        if intent.name and "/" in intent.address:
            self.sit_at(intent)
            return
        try:
            target = parse_target(intent.address)
        except ValueError as exc:
            self.ui.lobby.message = str(exc)
            return
        self.ui.lobby.message = f"asking {target.host}:{target.port} who it is…"
        self.spawn(self._ask(intent))

    def confirm(self) -> None:
        """Yes to the question about a host not trusted yet (nothing when none is asked)."""
        if self.unsure is None:
            return
        found, join, _ = self.unsure
        self.ui.lobby.entry = ""
        self._trusted(found, join)

    def forget(self) -> None:
        """The player left the lobby: nothing it asked stays in the air (a passphrase, a host)."""
        self.unsure = None
        lobby = self.ui.lobby
        lobby.entry, lobby.text, lobby.target = "", "", None

    async def _ask(self, intent: JoinTable) -> None:
        from lanomino.client.find import who_is

        try:
            found = await who_is(intent.address, self.hosts.check)
        except ClientError as exc:
            self.ui.lobby.message = str(exc)
            self.redraw()
            return
        if self.ui.screen is not Screen.LOBBY:
            return  # the player went elsewhere meanwhile
        self._answered(found, intent)

    def _answered(self, found: Resolved, intent: JoinTable) -> None:
        """The table at ``intent``'s address said who it is: join, or ask about a new host."""
        from lanomino.client.address import consent_question

        lobby = self.ui.lobby
        join = JoinTable(str(found.address), intent.passphrase, found.name or intent.name,
                         intent.watch)
        if found.needs_consent:
            self.unsure = (found, join, intent)
            lobby.entry, lobby.message = "trust", consent_question(found)
        else:
            self._trusted(found, join)
        self.redraw()

    def _trusted(self, found: Resolved, join: JoinTable) -> None:
        """Join ``found``'s table, remembering its host as trusted from now on."""
        self.unsure = None
        self.hosts.remember(found)
        self.sit_at(join)

    async def ask_again(self, join: JoinTable, old_key: str, played_with: bytes) -> None:
        """Ask the host's address until it opens the table again (for up to REMATCH_WAIT_S); a
        host whose identity key this player's last match was played with needs no question (it
        signed that match)."""
        from lanomino.client.find import who_is
        from lanomino.store.known_hosts import HostCheck

        async def check(host: str, identity: bytes) -> HostCheck:
            if played_with and identity == played_with:
                return HostCheck(True)
            return await self.hosts.check(host, identity)

        loop = asyncio.get_running_loop()
        deadline = loop.time() + REMATCH_WAIT_S
        while self.ui.screen is Screen.LOBBY and not self.seated():
            try:
                found = await who_is(join.address, check, timeout_s=1.0)
                if found.address.server_key == old_key:
                    raise ClientError("the host has not opened the table again")
            except ClientError as exc:  # (the last match's table is no rematch)
                if loop.time() > deadline:
                    self.ui.lobby.message = f"no rematch: {exc}"
                    self.redraw()
                    return
                await asyncio.sleep(0.5)
                continue
            if self.ui.screen is Screen.LOBBY and not self.seated():
                self._answered(found, join)  # (a host remembered or played with: no question)
            return


def say_refused(lobby: LobbyView, join: JoinTable, code: str, reason: str) -> None:
    """The table ``join`` asked for refused the seat: ask for its passphrase, or say why."""
    if code == "passphrase":
        why = ("wrong passphrase: try again" if join.passphrase
               else "this table needs a passphrase")
        ask_passphrase(lobby, JoinTable(join.address, None, join.name, join.watch), why)
    elif code == "full" and not join.watch:  # (people may still follow the match)
        lobby.message = (f"Refused: {reason}; you can watch it: "
                         f"{command('watch')} {join.address}")
    else:
        lobby.message = f"Refused: {reason}"
