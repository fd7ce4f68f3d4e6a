"""A seat at a networked table (a ``client.seam.Table``): node events in, the player's moves out.

Everything runs as tasks on the UI's asyncio loop and never blocks it. The node calls back with
session events, which only update the ``UiState`` and ask for a redraw.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from lanomino.client.rematch import HOLD_S, Offer
from lanomino.client.seam import Frontend, TableNode
from lanomino.engine import RESIGN, Action, IllegalActionError, MatchEnd, MatchEnded, Observation
from lanomino.narrate import refusal_for
from lanomino.net import session as s
from lanomino.ui.lan import HostTable, JoinTable, LanView, SeatInfo, dispute_line
from lanomino.ui.state import Screen, UiState, on_new_observation, out_of_time

log = logging.getLogger("lanomino.client")
Spawn = Callable[[Awaitable[object]], "asyncio.Future[object]"]
NO_HELP = "hints and undo are for games against the computer: at a LAN table every move stands"
BACK = "You are back: your next turn is yours again."


class LanTable:
    """This terminal's seat at a LAN table, hosted here (``role`` "host") or joined ("peer")."""

    def __init__(self, ui: UiState, frontend: Frontend, make_node: Callable[[], TableNode],
                 role: str, name: str, on_refused: Callable[[str, str], None]) -> None:
        self.ui, self.frontend = ui, frontend
        self.make_node, self.role, self.on_refused = make_node, role, on_refused
        self.node: TableNode | None = None
        self.seen_results = 0
        self.new_host: int | None = None  # an election's candidate, until play goes on under it
        self.host_seat = 0  # who hosts the table (another seat after a migration)
        self.task: asyncio.Future[object] | None = None
        self.logged_as = ""  # the play log's id for this match, once a hand of it is logged
        self.again: JoinTable | HostTable | None = None  # how to sit at this table again
        self.port = 0  # (a host) the port it serves on: a rematch opens there again
        self.serves_on = ""  # (a host after a migration) the one address it served on
        self.key = ""  # (a peer) the host's key for this match: a rematch waits for a new one
        self.host_identity = b""  # (a peer, after a migration) the new host's identity key
        self.on_abandon: Callable[[str], None] | None = None  # leaving mid-match: mark it so
        self.kept_names: dict[int, str] = {}  # (a rematch's host) seats kept for their players
        self.kept_until = 0.0
        self.offer = Offer()  # (a peer) the host's offer to play again: looked for, declined
        self.spawn: Spawn | None = None
        self.grace_s = 30.0  # how long a seat that lost touch is kept (the table's timings)
        status = "opening the table…" if role == "host" else f"joining {name}…"
        ui.lan = LanView(role, name, status=status)
        ui.obs, ui.hand_result, ui.match_result = None, None, None
        ui.resigned = ui.finishing = ui.confirm_quit = False
        ui.screen, ui.message = Screen.WAITING, ""

    def watch(self) -> None:
        """This terminal follows the table without a seat (net/watchers.py)."""
        assert self.ui.lan is not None
        self.ui.lan.watching = True
        self.ui.lan.status = f"watching {self.ui.lan.table}…"

    def start(self, spawn: Spawn) -> None:
        self.spawn = spawn
        self.task = spawn(self._run())

    async def _run(self) -> None:
        lan = self.ui.lan
        assert lan is not None
        from lanomino.client.headless import run_node, start_node

        try:
            node = self.make_node()
            node.subscribe(self._on_event)
            await start_node(node)
        except (OSError, ValueError) as exc:
            verb = "open the table" if self.role == "host" else "join"
            self._closed(f"Could not {verb}: {exc}")
            return
        self.node = node
        self._opened(node)
        self.frontend.redraw()
        ticker = asyncio.ensure_future(self._tick())
        try:
            outcome = await run_node(node, on_start=self._follow)
        finally:
            ticker.cancel()
        if not outcome.finished:
            self._closed(outcome.reason)

    def _opened(self, node: TableNode) -> None:
        """A hosted table is open: show where others join it."""
        lan, where = self.ui.lan, node.serving()
        if lan is not None and where is not None:
            self.port = where.port
            lan.address, lan.fingerprint = where.address, where.fingerprint
            lan.short_address = where.short_address  # HOST:PORT/CODE works too
            lan.seats, lan.kept = node.players(), dict(self.kept_names)
            self.kept_until = time.monotonic() + HOLD_S  # then a kept seat is anyone's
            self._roster()

    def _hosting_here(self) -> None:
        """This member took the table over: show where others join it now, as a host's screen
        does (its own port, its fingerprint, the short form while its key service answers)."""
        node, lan = self.node, self.ui.lan
        where = None if node is None else node.serving()
        if where is None or lan is None:
            return
        self.port = where.port  # (a rematch opens the table again here, on this IP)
        self.serves_on = where.ip
        self.role = lan.role = "host"
        lan.address, lan.fingerprint = where.address, where.fingerprint
        lan.short_address = where.short_address

    def _follow(self, peer: TableNode) -> None:
        """The node this table now goes through: a peer of the new host (this seat watches)."""
        self.node, self.role = peer, "peer"
        peer.subscribe(self._on_event)

    async def _tick(self) -> None:
        """Turn the waiting screen's indicator while nobody moves."""
        while True:
            await asyncio.sleep(0.25)
            lan = self.ui.lan
            if lan is not None and lan.kept and time.monotonic() > self.kept_until:
                lan.kept = {}  # the rematch's hold is over: those seats are free for anyone
            if self.ui.screen is Screen.WAITING:
                self.ui.lobby.tick += 1
                self._roster()  # (a peer's session says nothing when the roster changes)
                self.frontend.redraw()
            elif lan is not None and self.node is not None and not lan.over:
                before = (lan.watchers, len(lan.departures), len(lan.dropped), lan.away())
                self._roster()  # (nor when a watcher comes or goes, a seat loses touch or time)
                after = (lan.watchers, len(lan.departures), len(lan.dropped), lan.away())
                if lan.dropped or before != after:
                    self.frontend.redraw()  # (a dropped seat's seconds count down)

    # ----- the Table protocol -----------------------------------------------------------------

    def submit(self, action: Action) -> None:
        if self.node is None:
            return
        try:
            self.node.submit(action)
            self.ui.message = ""
        except (IllegalActionError, ValueError) as exc:
            seat = self.ui.obs.seat if self.ui.obs is not None else -1
            self.ui.message = refusal_for(seat, str(exc))
        self.frontend.redraw()

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

    def finish(self) -> None:
        """Nothing to hurry: the table plays on at its own pace."""

    def hint(self) -> None:
        self.ui.message = NO_HELP

    def undo(self) -> None:
        self.ui.message = NO_HELP

    def come_back(self) -> None:
        """The player is back after their time ran out: the host (at a locked table this seat's
        own client) stops playing the seat; their screen says so at once."""
        if self.node is None or self.ui.lan is None or not out_of_time(self.ui):
            return
        self.node.back()
        self.ui.lan.back_said = True  # (until the roster says the host took the seat back)
        self.ui.message = BACK

    def leave(self) -> str:
        """A peer says goodbye (its seat resigns); a host closes the table."""
        lan = self.ui.lan
        notice = ""
        if lan is not None and not lan.over and not lan.closed:
            notice = "You closed the table." if self.role == "host" else "You left the table."
            if lan.hands_over(self.ui.obs, self.ui.match_result is not None):
                notice = "You left the table: the others play on under a new host."
            notice = "You stopped watching." if lan.watching else notice
            if self.logged_as and self.on_abandon is not None:
                self.on_abandon(self.logged_as)
        self._quit()
        saying_no = self.offer.stop(self.again)
        if saying_no is not None and self.spawn is not None:
            self.spawn(saying_no)
            notice = f"You declined {self._name(self.host_seat)}'s rematch: they are told."
        self.ui.lan = None
        return notice

    async def shutdown(self, timeout_s: float = 1.0) -> None:
        self._quit()
        saying_no = self.offer.stop(self.again)
        if saying_no is not None:
            await asyncio.wait([asyncio.ensure_future(saying_no)], timeout=3.0)
        if self.task is not None:
            await asyncio.wait([self.task], timeout=timeout_s)

    def _quit(self) -> None:
        lan = self.ui.lan
        if self.node is not None and lan is not None and not lan.over:
            try:
                self.node.quit()
            except RuntimeError:  # no running loop: the app is gone already
                pass

    # ----- the node's events ----------------------------------------------------------------

    def _on_event(self, event: s.SessionEvent) -> None:
        try:
            self._handle(event)
        except Exception:  # never let the UI break the node's loop
            log.exception("client could not show %r", event)
        self.frontend.redraw()

    def _handle(self, event: s.SessionEvent) -> None:
        ui, lan = self.ui, self.ui.lan
        if lan is None:
            return
        if isinstance(event, s.Joined):
            lan.seats = event.seats
        if isinstance(event, s.SeatDeclined):  # (a rematch's host) the seat is anyone's now
            lan.kept.pop(event.seat, None)
            lan.declined.append(event.name)
        if isinstance(event, (s.Joined, s.SeatTaken, s.SeatLeft, s.SeatDisconnected,
                              s.SeatDeclined, s.SeatAway)):
            self._roster()
        elif isinstance(event, s.ObservationChanged):
            self._observe(event.observation)
        elif isinstance(event, s.YourTurn) and ui.settings.sound:
            self.frontend.bell()
        elif isinstance(event, s.TranscriptUpdated):
            self.logged_as = f"lan:{event.table}"  # (the node logs it under this id)
        elif isinstance(event, s.HandVerified):
            lan.verified[event.hand] = (event.ok, event.detail)
        elif isinstance(event, s.MoveDisputed):
            me = ui.obs.seat if ui.obs is not None and not lan.watching else -1
            line = dispute_line(ui.names, event.seat, me, event.hand, event.index, event.resign)
            lan.disputes.append(line)
            ui.message = line
        elif isinstance(event, s.MatchOver):
            lan.over, lan.status = True, "the match is over"
            self._decided(event)
            self._after_the_match()
        elif isinstance(event, s.JoinRefused):
            lan.over = True  # nothing to say goodbye to
            self.on_refused(event.code, event.reason)
        elif not lan.over:
            self._table_news(event)

    def _table_news(self, event: s.SessionEvent) -> None:
        """Lines about the table itself: closing, a silent host, a change of host."""
        ui = self.ui
        if isinstance(event, s.Closed):
            self._closed(f"The table closed: {event.reason}")
        elif isinstance(event, s.HostSilent) and ui.lan is not None:
            if ui.screen is Screen.TABLE:
                self._say(self._quiet())
            ui.lan.status = "no answer from the host yet…"
        elif isinstance(event, s.HostChanged):
            self.new_host = event.seat
            who = "you take" if event.mine else f"{self._who(event.seat)} takes"
            self._say(f"the host is gone: {who} the table over…")
        elif isinstance(event, s.MigrationPaused):
            are = "is" if event.joined == 1 else "are"
            self._say(f"waiting for a majority: {event.joined} of the {event.needed} players "
                      f"needed {are} here; play resumes when enough are back")
        elif isinstance(event, s.MigrationDone) and ui.lan is not None:
            self.new_host = None
            ui.lan.host_note = "you host"
            self._hosting_here()
            where = ui.lan.short_address or ui.lan.address
            at = (f": others join or watch at {where} (fingerprint {ui.lan.fingerprint}; "
                  "? shows it again)") if where else ""
            self._say(f"you host the table now; play goes on{at}")
        elif isinstance(event, s.SteppedDown):
            self.role = "peer"  # (this member hosted; the newer host offers any rematch)
            if ui.lan is not None:
                ui.lan.role = "peer"
            self._say(f"{self._who(event.host)} hosts the table now: this machine lost touch "
                      "with the others and no longer hosts")

    def _quiet(self) -> str:
        """What a silent host means here: at a table of two people its player wins once the
        grace period is over (nobody is left to elect); else the others elect a new host."""
        lan = self.ui.lan
        assert lan is not None
        people = [r for r in lan.roster if r.kind in ("host", "human")]
        if lan.watching or len(people) > 2:
            return "the host has gone quiet…"
        return (f"the host has gone quiet: if it is not back within {self.grace_s:g} s, it has "
                "left the table and the match is yours")

    def _decided(self, event: s.MatchOver) -> None:
        """The match ended without the host's last word (it left a table of two, silent past the
        grace period): this seat's node decided it, so the screen shows that outcome."""
        ui = self.ui
        if ui.match_result is not None or ui.obs is None or not event.reason or ui.lan is None:
            return
        winner, scores = event.winner, event.scores
        if winner is not None:
            order = sorted(range(len(scores)), key=lambda side: (side != winner, -scores[side]))
            ui.match_result = MatchEnded(winner, scores, tuple(order), MatchEnd.RESIGNED)
            ui.match_at = time.monotonic()
        ui.lan.ended = event.reason
        # (the host's seat is out of the match: ranked without a place, saying how it left)
        ui.lan.departures.setdefault(self.host_seat, "did not come back")
        self.again = None  # (nobody is there to play again with)
        ui.hand_result, ui.resigned, ui.confirm_quit, ui.places = None, False, False, ()
        ui.screen = Screen.TABLE

    def _after_the_match(self) -> None:
        """A member that hosts the table now may offer a rematch as a first host does; a joiner
        watches the host's address for that offer (client/rematch.py)."""
        from lanomino.client.rematch import hosted_again

        hosting = hosted_again(self.node)
        if self.ui.lan is not None and self.ui.lan.ended:
            return
        if hosting is not None:
            self.again = hosting
            return
        lan, again, ui = self.ui.lan, self.again, self.ui
        if self.role == "peer" and lan is not None and isinstance(again, JoinTable):
            self.offer.look(lan, lambda: ui.lan is lan, again, self.key,
                            self._name(self.host_seat), self.frontend.redraw)

    def _follow_new_host(self, seat: int) -> None:
        """Play goes on under the member at ``seat``: a rematch is its to offer, at its address."""
        from lanomino.client.rematch import new_host_at

        self.host_seat = seat
        where = new_host_at(self.node, seat)
        if where is not None and isinstance(self.again, JoinTable):
            self.again = replace(self.again, address=where[0])
            self.key, self.host_identity = where[1], where[2]

    def _name(self, seat: int) -> str:
        names = self.ui.names
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    def _who(self, seat: int) -> str:
        names = self.ui.names
        return f"{names[seat]} (seat {seat + 1})" if 0 <= seat < len(names) else f"seat {seat + 1}"

    def _say(self, text: str) -> None:
        """A line about the table itself: on the table screen and as the waiting screen's status.
        The table screen keeps it for the rest of the hand (a message goes when the turn comes)."""
        lan = self.ui.lan
        assert lan is not None
        lan.status = lan.news = text
        lan.news_hand = self.ui.obs.hand_no if self.ui.obs is not None else -1
        self.ui.message = text

    def _roster(self) -> None:
        lan, node = self.ui.lan, self.node
        if lan is None or node is None:
            return
        rows = node.seats()
        lan.roster = [SeatInfo(r.seat, r.name, r.kind, r.connected, r.away) for r in rows]
        if self.ui.obs is not None:  # (before the match a seat that goes is simply free again)
            lan.seats_seen(((r.seat, r.connected, r.left) for r in rows), time.monotonic(),
                           self.grace_s)
        lan.watchers, lan.move_clock_s, lan.locked = node.watching(), node.move_clock(), \
            node.locked()
        names = {r.seat: r.name for r in lan.roster}
        self.ui.names = tuple(names.get(n, f"seat {n + 1}") for n in range(lan.seats))
        kinds = {r.seat: r.kind for r in lan.roster}
        away = lan.away()  # the move clock ran out: a bot plays those seats
        if self.ui.obs is not None and self.ui.obs.seat not in away:
            lan.back_said = False  # (the host took this seat back, or never had it)
        self.ui.seat_levels = tuple("bot" if kinds.get(n) == "bot" else "away" if n in away else ""
                                    for n in range(lan.seats))
        if self.ui.screen is Screen.WAITING:
            lan.status = lan.waiting_line()

    def _observe(self, obs: Observation) -> None:
        ui = self.ui
        if ui.screen is Screen.WAITING:
            ui.screen = Screen.TABLE
        self._roster()  # whoever sat down since (a peer hears of them only in the roster)
        if ui.lan is not None and ui.lan.arrived_after is None:
            ui.lan.arrived_after = len(obs.results)  # (their logs went by before this terminal)
        on_new_observation(ui, obs)
        if ui.lan is not None and ui.lan.news.startswith("the host has gone quiet"):
            ui.lan.news = ""  # (the host speaks again)
        if self.new_host is not None and self.role == "peer":  # its snapshot: play goes on
            self._follow_new_host(self.new_host)
            self._say(f"{self._who(self.new_host)} hosts the table now; play goes on")
            if self.ui.lan is not None:
                self.ui.lan.host_note = f"hosted by {self._name(self.new_host)}"
            self.new_host = None
        if len(obs.results) > self.seen_results:
            self.seen_results = len(obs.results)
            ui.hand_result = obs.results[-1]
            if ui.settings.sound:
                self.frontend.bell()
        if obs.outcome is not None:
            if ui.match_result is None:
                ui.match_at = time.monotonic()
            ui.match_result = obs.outcome
            ui.resigned = False

    def _closed(self, why: str) -> None:
        lan = self.ui.lan
        if lan is None or lan.over:
            return
        lan.closed = why
        if self.ui.screen not in (Screen.TABLE, Screen.HELP):
            self.ui.screen = Screen.WAITING
        self.frontend.redraw()
