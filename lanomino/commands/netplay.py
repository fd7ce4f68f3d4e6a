"""The client's LAN driver: the lobby's discovery and a seat at a networked table.

Everything runs as tasks on the UI's asyncio loop and never blocks it: zeroconf and ZeroMQ are
asynchronous, and the node calls back into ``LanTable`` with session events, which only update
the ``UiState`` and ask for a redraw. ``NetDriver`` turns the UI's LAN intents into a ``Lobby``
(a ``TableBrowser`` feeding ``ui.lobby``) or a ``LanTable`` (a ``HostNode`` or ``PeerNode`` with
this terminal playing its seat).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lanomino.engine import RESIGN, Action, IllegalActionError, Observation, Rules
from lanomino.ui.lan import (
    CloseLobby,
    HostTable,
    JoinTable,
    LanView,
    OpenLobby,
    SeatInfo,
    TableInfo,
    ask_passphrase,
)
from lanomino.ui.state import Screen, UiState, on_new_observation

log = logging.getLogger("lanomino.client")
LOBBY_TICK_S = 0.15  # how often the lobby redraws (the searching indicator turns)


@dataclass
class NetOptions:
    """Where the client's LAN play happens (from the command line; defaults as for real users)."""

    data_dir: Path
    interfaces: list[str] | None = None  # browse/announce here; None: the machine's LAN interfaces
    bind: str | None = None  # serve a hosted table here; None: every interface
    port: int = 0
    announce: bool = True
    timings: Any = None  # lanomino.net.session.Timings; None: the defaults
    browser_factory: Callable[[list[str]], Any] | None = None  # tests pass a fake TableBrowser
    tasks: set[asyncio.Future[Any]] = field(default_factory=set)

    def spawn(self, coro: Any) -> asyncio.Future[Any]:
        task: asyncio.Future[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Future[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("client task failed: %r", task.exception())


def table_info(seen: Any) -> TableInfo:
    """A lobby row from a discovery ``SeenTable``."""
    from lanomino.net.codec import DirectAddress

    a = seen.announcement
    ip = seen.addresses[0] if seen.addresses else ""
    address = str(DirectAddress(ip, seen.port, a.host_key)) if ip else ""
    return TableInfo(seen.service_name, a.name, a.rules, a.seats_taken, a.seats_total, a.has_passphrase,
                     address, a.is_compatible)


def _table_browser(interfaces: list[str]) -> Any:
    from lanomino.discovery.zeroconf_adapter import TableBrowser

    return TableBrowser(interfaces)


class Lobby:
    """Looks for tables while the lobby is open and keeps ``ui.lobby`` up to date."""

    def __init__(self, ui: UiState, redraw: Callable[[], None], options: NetOptions) -> None:
        self.ui, self.redraw, self.options = ui, redraw, options
        self.task: asyncio.Future[Any] | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = self.options.spawn(self._run())

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self.ui.lobby.searching = False

    async def _run(self) -> None:
        lobby = self.ui.lobby
        lobby.error, lobby.searching = "", True
        interfaces = self.options.interfaces
        if not interfaces:
            from lanomino.node import lan_addresses

            interfaces = await asyncio.to_thread(lan_addresses)
        if not interfaces:
            lobby.error = "No LAN interface found: press a to join by address (or start with --interface IP)."
            lobby.searching = False
            self.redraw()
            return
        factory = self.options.browser_factory or _table_browser
        try:
            browser = factory(interfaces)
            await browser.start()
        except (ValueError, OSError) as exc:
            lobby.error, lobby.searching = f"Cannot look for tables: {exc}", False
            self.redraw()
            return
        try:
            while True:
                lobby.set_tables([table_info(t) for t in browser.tables.values()])
                lobby.tick += 1
                self.redraw()
                await browser.next_event(LOBBY_TICK_S)
        finally:
            await browser.close()


class LanTable:
    """This terminal's seat at a networked table: a node's events in, the player's moves out."""

    def __init__(self, ui: UiState, redraw: Callable[[], None], bell: Callable[[], None],
                 make_node: Callable[[], Any], role: str, name: str,
                 on_refused: Callable[[str, str], None]) -> None:
        self.ui, self.redraw, self.bell = ui, redraw, bell
        self.make_node, self.role, self.on_refused = make_node, role, on_refused
        self.node: Any = None
        self.seen_results = 0
        self.new_host: int | None = None  # an election's candidate, until play goes on under it
        self.task: asyncio.Future[Any] | None = None
        ui.lan = LanView(role, name, status="opening the table…" if role == "host" else f"joining {name}…")
        ui.obs, ui.hand_result, ui.match_result = None, None, None
        ui.resigned = ui.finishing = ui.confirm_quit = False
        ui.screen, ui.message = Screen.WAITING, ""

    def start(self, spawn: Callable[[Any], asyncio.Future[Any]]) -> None:
        self.task = spawn(self._run())

    async def _run(self) -> None:
        lan = self.ui.lan
        assert lan is not None
        try:
            node = self.make_node()
            node.subscribe(self._on_event)
            await node.start()
        except (OSError, ValueError) as exc:
            self._closed(f"Could not open the table: {exc}" if self.role == "host" else f"Could not join: {exc}")
            return
        self.node = node
        if self.role == "host":
            from lanomino.node import host_fingerprint

            lan.address, lan.fingerprint = node.address, host_fingerprint(node)
            lan.seats = node.session.players
            self._roster()
        self.redraw()
        ticker = asyncio.ensure_future(self._tick())
        try:
            try:
                outcome = await node.run()
            finally:
                await node.close()
            if outcome.rejoin is not None:  # this host stepped down: watch the match end as a peer
                from lanomino.node import follow_to_end

                outcome = await follow_to_end(node, outcome, on_start=self._follow)
        finally:
            ticker.cancel()
        if not outcome.finished:
            self._closed(outcome.reason)

    def _follow(self, peer: Any) -> None:
        """The node this table now goes through: a peer of the new host (this seat watches)."""
        self.node, self.role = peer, "peer"
        peer.subscribe(self._on_event)

    async def _tick(self) -> None:
        """Turn the waiting screen's indicator while nobody moves."""
        while True:
            await asyncio.sleep(0.25)
            if self.ui.screen is Screen.WAITING:
                self.ui.lobby.tick += 1
                self.redraw()

    # ----- the player's intents -------------------------------------------------------------

    def submit(self, action: Action) -> None:
        if self.node is None:
            return
        try:
            self.node.submit(action)
            self.ui.message = ""
        except (IllegalActionError, ValueError) as exc:
            self.ui.message = str(exc)
        self.redraw()

    def next_hand(self) -> None:
        """Enter after a hand: back to the table (the host deals the next hand by itself)."""
        self.ui.hand_result = None

    def resign(self) -> bool:
        """Resign the seat and watch; False when that means leaving (between hands, as a peer)."""
        obs = self.ui.obs
        if self.node is None or obs is None or (self.role == "peer" and obs.phase != "play"):
            return False
        try:
            self.node.submit(RESIGN)
        except (IllegalActionError, ValueError):
            return False
        self.ui.resigned = True
        return True

    def stop(self) -> None:
        """Leave: a peer says goodbye (its seat resigns); a host closes the table."""
        if self.node is not None and self.ui.lan is not None and not self.ui.lan.over:
            try:
                self.node.quit()
            except RuntimeError:  # no running loop: the app is gone already
                pass

    async def shutdown(self, timeout_s: float = 1.0) -> None:
        self.stop()
        if self.task is not None:
            await asyncio.wait([self.task], timeout=timeout_s)

    # ----- the node's events ----------------------------------------------------------------

    def _on_event(self, event: Any) -> None:
        try:
            self._handle(event)
        except Exception:  # never let the UI break the node's loop
            log.exception("client could not show %r", event)
        self.redraw()

    def _handle(self, event: Any) -> None:
        from lanomino.net import session as s

        ui, lan = self.ui, self.ui.lan
        if lan is None:
            return
        if isinstance(event, s.Joined):
            lan.seats = event.seats
        if isinstance(event, (s.Joined, s.SeatTaken, s.SeatLeft, s.SeatDisconnected)):
            self._roster()
        elif isinstance(event, s.ObservationChanged):
            self._observe(event.observation)
        elif isinstance(event, s.YourTurn) and ui.settings.sound:
            self.bell()
        elif isinstance(event, s.HandVerified):
            lan.verified[event.hand] = (event.ok, event.detail)
        elif isinstance(event, s.MatchOver):
            lan.over, lan.status = True, "the match is over"
        elif isinstance(event, s.JoinRefused):
            lan.over = True  # nothing to say goodbye to
            self.on_refused(event.code, event.reason)
        elif isinstance(event, s.Closed) and not lan.over:
            self._closed(f"The table closed: {event.reason}")
        elif isinstance(event, s.HostSilent) and not lan.over:
            lan.status = "no answer from the host yet…"
            ui.message = "the host has gone quiet…" if ui.screen is Screen.TABLE else ui.message
        elif isinstance(event, s.HostChanged) and not lan.over:
            self.new_host = event.seat
            who = "this seat" if event.mine else self._who(event.seat)
            self._say(f"the host is gone: {who} takes the table over (term {event.term})…")
        elif isinstance(event, s.MigrationPaused) and not lan.over:
            self._say(f"waiting for a majority: {event.joined} of the {event.needed} players needed are here; "
                      "play resumes when enough are back")
        elif isinstance(event, s.MigrationDone):
            self.new_host = None
            lan.host_note = "you host"
            self._say(f"you host the table now (term {event.term}); play goes on")
        elif isinstance(event, s.SteppedDown):
            self._say(f"{self._who(event.host)} hosts the table now (term {event.term}): "
                      "this machine lost touch with the others and no longer hosts")

    def _name(self, seat: int) -> str:
        names = self.ui.names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    def _who(self, seat: int) -> str:
        names = self.ui.names
        return f"{names[seat]} (seat {seat + 1})" if 0 <= seat < len(names) else f"seat {seat + 1}"

    def _say(self, text: str) -> None:
        """A line about the table itself: on the table screen, and as the waiting screen's status."""
        assert self.ui.lan is not None
        self.ui.lan.status = text
        self.ui.message = text

    def _roster(self) -> None:
        lan, node = self.ui.lan, self.node
        if lan is None or node is None:
            return
        session = node.host if getattr(node, "host", None) is not None else node.session  # (a peer that hosts now)
        roster = session.roster
        rows = roster() if callable(roster) else roster
        lan.roster = [SeatInfo(int(r["seat"]), str(r["name"]), str(r["kind"]), bool(r.get("connected", True)))
                      for r in rows]
        names = {r.seat: r.name for r in lan.roster}
        self.ui.names = tuple(names.get(n, f"seat {n + 1}") for n in range(lan.seats))
        kinds = {r.seat: r.kind for r in lan.roster}
        self.ui.seat_levels = tuple("bot" if kinds.get(n) == "bot" else "" for n in range(lan.seats))
        if self.ui.screen is Screen.WAITING:
            lan.status = lan.waiting_line()

    def _observe(self, obs: Observation) -> None:
        ui = self.ui
        if ui.screen is Screen.WAITING:
            ui.screen = Screen.TABLE
        if len(ui.names) < obs.players:
            self._roster()
        on_new_observation(ui, obs)
        if self.new_host is not None and self.role == "peer":  # the new host's snapshot: play goes on
            self._say(f"{self._who(self.new_host)} hosts the table now; play goes on")
            if self.ui.lan is not None:
                self.ui.lan.host_note = f"hosted by {self._name(self.new_host)}"
            self.new_host = None
        if len(obs.results) > self.seen_results:
            self.seen_results = len(obs.results)
            ui.hand_result = obs.results[-1]
            if ui.settings.sound:
                self.bell()
        if obs.outcome is not None:
            ui.match_result = obs.outcome
            ui.resigned = False

    def _closed(self, why: str) -> None:
        lan = self.ui.lan
        if lan is None or lan.over:
            return
        lan.closed = why
        if self.ui.screen not in (Screen.TABLE, Screen.HELP):
            self.ui.screen = Screen.WAITING
        self.redraw()


class NetDriver:
    """The LAN half of the client's controller."""

    def __init__(self, ui: UiState, redraw: Callable[[], None], bell: Callable[[], None],
                 options: NetOptions) -> None:
        self.ui, self.redraw, self.bell, self.options = ui, redraw, bell, options
        self.lobby = Lobby(ui, redraw, options)
        self.table: LanTable | None = None

    def handle(self, intent: Any) -> bool:
        """Act on a LAN intent; False when it is not one."""
        if isinstance(intent, OpenLobby):
            self.ui.screen, self.ui.lobby.message = Screen.LOBBY, ""
            self.lobby.start()
        elif isinstance(intent, CloseLobby):
            self.options.spawn(self.lobby.stop())
            self.ui.screen = Screen.MENU
        elif isinstance(intent, JoinTable):
            self._join(intent)
        elif isinstance(intent, HostTable):
            self._host(intent)
        else:
            return False
        return True

    def _join(self, intent: JoinTable) -> None:
        from lanomino.net.codec import parse_direct_address

        try:
            address = parse_direct_address(intent.address)
            if address.server_key is None:
                raise ValueError("the address needs the host's key: HOST:PORT/KEY, as the host shows it")
        except ValueError as exc:
            self.ui.screen, self.ui.lobby.message = Screen.LOBBY, str(exc)
            return
        self.options.spawn(self.lobby.stop())

        def make() -> Any:
            from lanomino.node import PeerNode

            return PeerNode(data_dir=self.options.data_dir, address=address, player=self.player_name(),
                            passphrase=intent.passphrase, timings=self._timings(), level=None)

        def refused(code: str, reason: str) -> None:
            self.table = None
            self.ui.lan = None
            self.handle(OpenLobby())
            if code == "passphrase":
                why = "wrong passphrase: try again" if intent.passphrase else "this table needs a passphrase"
                ask_passphrase(self.ui.lobby, JoinTable(intent.address, None, intent.name), why)
            else:
                self.ui.lobby.message = f"Refused: {reason}"

        self._sit(LanTable(self.ui, self.redraw, self.bell, make, "peer", intent.name or str(address.host),
                           refused))

    def _host(self, intent: HostTable) -> None:
        from lanomino.discovery.announce import _check_name

        o = self.options
        rules = intent.rules or Rules.preset(intent.preset)
        try:
            _check_name(intent.name)
            rules.check_players(intent.seats)
        except ValueError as exc:
            self.ui.host_form.message = str(exc)
            return

        def make() -> Any:
            from lanomino.node import HostNode

            return HostNode(data_dir=o.data_dir, rules=rules, rules_name=intent.preset[:64],
                            seats=intent.seats, bots=intent.bots, level=intent.level, name=intent.name,
                            player=self.player_name(), passphrase=intent.passphrase, bind=o.bind,
                            port=o.port, timings=self._timings(), interfaces=o.interfaces, headless=False,
                            announce=o.announce)

        self._sit(LanTable(self.ui, self.redraw, self.bell, make, "host", intent.name, lambda c, r: None))

    def _sit(self, table: LanTable) -> None:
        if self.table is not None:
            self.table.stop()
        self.table = table
        table.start(self.options.spawn)

    def player_name(self) -> str:
        """The name others see: Settings' name, or the login name while that is still "You"."""
        name = self.ui.settings.name
        if name != "You":
            return name
        import getpass

        try:
            login = "".join(ch for ch in getpass.getuser() if ch.isprintable())[:16]
        except (OSError, KeyError):
            login = ""
        return login.capitalize() if login and login != "root" else "Player"

    def _timings(self) -> Any:
        from lanomino.net.session import Timings

        return self.options.timings or Timings()

    def leave(self) -> None:
        if self.table is not None:
            self.table.stop()
            self.table = None
        self.ui.lan = None

    async def shutdown(self) -> None:
        """Say goodbye at the table and stop looking for tables (before the app exits)."""
        if self.table is not None:
            await self.table.shutdown()
        await self.lobby.stop()
