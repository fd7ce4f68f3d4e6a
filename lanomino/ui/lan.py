"""The client's plain state for LAN play: the lobby, the host form, a networked table's status.

No prompt_toolkit and no network here: the client (``lanomino.client``) fills these from
discovery and the node's session events; key handlers edit them or queue the intents below.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lanomino.engine import PRESETS, Observation, Rules
from lanomino.narrate import listed

SEATS_MIN, SEATS_MAX = 2, 4


# ----- intents -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenLobby:
    """Show the lobby and start looking for tables."""


@dataclass(frozen=True, slots=True)
class CloseLobby:
    """Back to the menu; stop looking for tables."""


@dataclass(frozen=True, slots=True)
class JoinTable:
    """Sit at the table at ``address`` (HOST:PORT/KEY); ``watch``: follow it without a seat."""

    address: str
    passphrase: str | None = None
    name: str = ""  # the table's name, when it was seen in the lobby
    watch: bool = False


@dataclass(frozen=True, slots=True)
class ConfirmJoin:
    """Yes to the question about a host not trusted yet (its fingerprint was shown)."""


@dataclass(frozen=True, slots=True)
class HostTable:
    """Open a table on the LAN with the host form's choices."""

    name: str
    preset: str
    seats: int
    bots: int
    level: str
    passphrase: str | None
    rules: Rules | None = None  # set when the command line gave --set options (the form cannot)
    escrow: bool = False  # deal with escrow (the README's trust model says what it costs)
    bind: str | None = None  # the one address to serve and announce on (None: every interface)
    # deal the locked deck (the default): nobody, the host included, sees another's tiles (a
    # table where the host is the only person deals fair all the same: client/hosting.py)
    blind: bool = True


@dataclass(frozen=True, slots=True)
class ComeBack:
    """The player is back at their seat after the move clock ran out: the table's bot, which
    played it meanwhile, stops (any key that acts at the table says it, or b; ``back`` typed)."""


# ----- the lobby ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table seen on the LAN, as the lobby lists it."""

    key: str  # the service's instance name (unique per host)
    name: str
    rules: str
    seats_taken: int
    seats_total: int
    locked: bool  # a passphrase is needed
    address: str  # HOST:PORT/KEY ("" while its address is unknown)
    compatible: bool = True

    @property
    def full(self) -> bool:
        return self.seats_taken >= self.seats_total


@dataclass
class LobbyView:
    """The lobby: the tables seen so far and what is being typed (an address or a passphrase)."""

    tables: list[TableInfo] = field(default_factory=list)
    index: int = 0  # the selected row; len(tables) is the "join by address" row
    searching: bool = False
    error: str = ""  # why there is no discovery (no LAN interface, ...)
    message: str = ""
    entry: str = ""  # "address" or "passphrase" while typing one; "trust" asking about a host
    text: str = ""
    target: JoinTable | None = None  # the join that waits for a passphrase
    watch: bool = False  # the address being typed is for watching, not for a seat
    tick: int = 0  # advances while searching (the indicator turns)

    def selected(self) -> TableInfo | None:
        return self.tables[self.index] if 0 <= self.index < len(self.tables) else None

    def set_tables(self, tables: list[TableInfo]) -> None:
        """Replace the list (sorted by name), keeping the same table selected where possible."""
        chosen = self.selected()
        self.tables = sorted(tables, key=lambda t: (t.name.lower(), t.key))
        keys = [t.key for t in self.tables]
        if chosen is not None and chosen.key in keys:
            self.index = keys.index(chosen.key)
        else:
            self.index = min(self.index, len(self.tables))


def join_selected(lobby: LobbyView, watch: bool = False) -> JoinTable | None:
    """Enter (or, ``watch``, w) on a lobby row: the join to make now, or None (asking for an
    address or passphrase, or saying why the table cannot be joined)."""
    table = lobby.selected()
    lobby.message = ""
    if table is None:
        lobby.entry, lobby.text, lobby.watch = "address", "", watch
        return None
    why = cannot_join(table, watch)
    if why:
        full = table.compatible and table.full and not watch  # (the reason given is that)
        lobby.message = f"{why}: w watches it" if full else why
        return None
    join = JoinTable(table.address, None, table.name, watch)
    if table.locked:
        ask_passphrase(lobby, join, f"{table.name} needs a passphrase")
        return None
    return join


def cannot_join(table: TableInfo, watch: bool = False) -> str:
    """Why a table seen in the lobby cannot be joined (``watch``: watched) now; "" when it can."""
    if not table.compatible:
        return f"{table.name} runs another version of lanomino"
    if table.full and not watch:  # (a full table may still be watched)
        return f"{table.name} is full"
    if not table.address:
        return f"{table.name}: its address is not known yet; try again soon"
    return ""


def ask_passphrase(lobby: LobbyView, join: JoinTable, why: str) -> None:
    lobby.entry, lobby.text, lobby.target, lobby.message = "passphrase", "", join, why


def finish_entry(lobby: LobbyView) -> JoinTable | None:
    """Enter while typing: the join to make, or None (with a message) when the text is no good."""
    text = lobby.text.strip()
    if lobby.entry == "address":
        if not looks_like_address(text):
            lobby.message = ("type the address as the host's screen shows it: HOST:PORT or "
                             "HOST:PORT/CODE")
            return None
        lobby.entry, lobby.text = "", ""
        return JoinTable(text, watch=lobby.watch)
    if lobby.entry == "passphrase" and lobby.target is not None:
        if not lobby.text:
            lobby.message = "type the passphrase (Esc to cancel)"
            return None
        join = JoinTable(lobby.target.address, lobby.text, lobby.target.name, lobby.target.watch)
        lobby.entry, lobby.text, lobby.target, lobby.message = "", "", None, ""
        return join
    return None


def looks_like_address(text: str) -> bool:
    """HOST:PORT, HOST:PORT/CODE or HOST:PORT/KEY in outline (the client parses it for real)."""
    address, slash, key = text.partition("/")
    host, colon, port = address.rpartition(":")
    return bool(host and colon and port.isdigit() and (key or not slash))


# ----- the host form -----------------------------------------------------------------------------

HOST_ROWS = ("name", "preset", "seats", "bots", "level", "passphrase", "deal", "address",
             "escrow", "open")
LOOPBACK = "127.0.0.1"  # (a table for this machine only)
TEXT_ROWS = ("name", "passphrase")


@dataclass
class HostForm:
    """What a table is opened with. ``row`` is the highlighted row."""

    name: str = "Lanomino"
    preset: str = "classic"
    seats: int = 2
    bots: int = 0
    level: str = "normal"
    passphrase: str = ""
    escrow: bool = False
    blind: bool = True  # the locked deck (the default; False: the fair deal)
    address: str = ""  # the one address to serve on ("": every interface, as host without --bind)
    choices: tuple[str, ...] = ()  # this machine's addresses, to choose from
    row: int = len(HOST_ROWS) - 1
    message: str = ""

    def change(self, delta: int, levels: list[str]) -> None:
        """Step the highlighted row's value by ``delta`` (wrapping)."""
        key = HOST_ROWS[self.row]
        if key == "preset":
            names = list(PRESETS)
            self.preset = names[(names.index(self.preset) + delta) % len(names)]
            if Rules.preset(self.preset).partnership:
                self.seats = 4
        elif key == "seats":
            span = SEATS_MAX - SEATS_MIN + 1
            self.seats = SEATS_MIN + (self.seats - SEATS_MIN + delta) % span
            if Rules.preset(self.preset).partnership and self.seats != 4:
                self.preset = "classic"
        elif key == "bots":
            self.bots = (self.bots + delta) % self.seats
        elif key == "level" and levels:
            i = levels.index(self.level) if self.level in levels else 0
            self.level = levels[(i + delta) % len(levels)]
        elif key == "escrow":
            self.escrow = not self.escrow
        elif key == "deal":
            self.blind = not self.blind
        elif key == "address":
            options = ["", *self.choices]
            i = options.index(self.address) if self.address in options else 0
            self.address = options[(i + delta) % len(options)]
        self.bots = min(self.bots, self.seats - 1)

    def type(self, text: str) -> None:
        key = HOST_ROWS[self.row]
        if key == "name":
            self.name = "".join(ch for ch in self.name + text if ch.isprintable())[:32]
        elif key == "passphrase":
            self.passphrase = (self.passphrase + text)[:64]

    def backspace(self) -> None:
        key = HOST_ROWS[self.row]
        if key == "name":
            self.name = self.name[:-1]
        elif key == "passphrase":
            self.passphrase = self.passphrase[:-1]

    def intent(self) -> HostTable | None:
        """The table to open, or None with ``message`` saying what is wrong."""
        name = self.name.strip()
        if not name:
            self.message = "give the table a name"
            return None
        try:
            Rules.preset(self.preset).check_players(self.seats)
        except ValueError as exc:
            self.message = str(exc)
            return None
        self.message = ""
        return HostTable(name, self.preset, self.seats, self.bots, self.level,
                         self.passphrase or None, escrow=self.escrow, bind=self.address or None,
                         blind=self.blind)


# ----- a networked table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    kind: str  # host, human, bot
    connected: bool = True
    away: bool = False  # out of time on the move clock: the table's bot plays the seat


@dataclass
class LanView:
    """What the client knows about the networked table it sits at (besides the observation)."""

    role: str  # "host" or "peer"
    table: str  # the table's name
    seats: int = 0
    address: str = ""  # HOST:PORT/KEY, for others to join by
    short_address: str = ""  # HOST:PORT/CODE (the code: the fingerprint's start), when offered
    fingerprint: str = ""
    roster: list[SeatInfo] = field(default_factory=list)
    status: str = "connecting…"
    verified: dict[int, tuple[bool, str]] = field(default_factory=dict)  # hand -> (ok, detail)
    arrived_after: int | None = None  # hands already over when this terminal first saw the table
    closed: str = ""  # why the table went away (empty while it is there)
    over: bool = False
    ended: str = ""  # how the match ended when no closing statement came ("the host left …")
    host_note: str = ""  # after a host migration, who hosts now (shown in the table's header)
    # the latest line about the table itself ("you host the table now: others join at …") and
    # the hand it was said in: it stays under the hand for that hand, when nothing else is said
    news: str = ""
    news_hand: int = -1
    rematch: str = ""  # (a joiner, after the match) the host who offers to play again
    kept: dict[int, str] = field(default_factory=dict)  # (a rematch's host) seat -> kept for
    declined: list[str] = field(default_factory=list)  # (a rematch's host) who said no
    watching: bool = False  # this terminal watches the table: it has no seat (net/watchers.py)
    watchers: int = 0  # how many people watch the table
    dropped: dict[int, float] = field(default_factory=dict)  # seat -> when its grace ends
    departures: dict[int, str] = field(default_factory=dict)  # seat -> how it left ("did not…")
    move_clock_s: float | None = None  # the host's move clock (None: a player may take all day)
    locked: bool | None = None  # the table deals the locked deck (None: not known yet)
    disputes: list[str] = field(default_factory=list)  # each seat's dispute, as said (below)
    back_said: bool = False  # this seat said it is back (until a roster takes it back)

    @property
    def taken(self) -> int:
        return len(self.roster)

    def away(self) -> frozenset[int]:
        """The seats the move clock ran out for: the table's bot plays them."""
        return frozenset(r.seat for r in self.roster if r.away)

    def seats_seen(self, rows: Iterable[tuple[int, bool, bool]], now: float,
                   grace_s: float) -> None:
        """The roster's (seat, connected, left) during the match: who lost touch (their seat is
        kept until ``now`` + ``grace_s``), and how each seat left: out of touch past its grace it
        "did not come back"; gone with a goodbye it "left the table"; still here it "resigned"."""
        for seat, connected, left in rows:
            if left and seat not in self.departures:
                self.departures[seat] = ("did not come back" if seat in self.dropped
                                         else "resigned" if connected else "left the table")
            if left or connected:
                self.dropped.pop(seat, None)
            elif seat not in self.dropped:
                self.dropped[seat] = now + grace_s

    def hands_over(self, obs: Observation | None, over: bool) -> bool:
        """This terminal hosts a running match with two or more other people still in it: its
        leaving hands the table over (the others elect a new host) instead of closing it."""
        if self.role != "host" or obs is None or over:
            return False
        people = [r.seat for r in self.roster if r.kind in ("host", "human")
                  and r.seat != obs.seat and r.seat < len(obs.active) and obs.active[r.seat]]
        return len(people) >= 2

    def waiting_line(self) -> str:
        seated = {r.seat for r in self.roster}
        kept = [name for seat, name in sorted(self.kept.items()) if seat not in seated]
        watching = f" · {self.watchers} watching" if self.watchers else ""
        if self.declined:
            watching += f" · {listed(self.declined)} declined the rematch"
        if kept:  # a rematch's host
            return (f"rematch offered: waiting for {listed(kept)} ({self.taken}/{self.seats})"
                    f"{watching}")
        if self.seats and self.taken >= self.seats:
            return f"every seat is taken ({self.taken}/{self.seats}): the match starts{watching}"
        return f"waiting for players ({self.taken}/{self.seats}){watching}"


def deal_line(lan: LanView) -> str:
    """How the table deals, for the help screen ("" while not known)."""
    if lan.locked is None:
        return ""
    bots = any(r.kind == "bot" for r in lan.roster)
    host = lan.role == "host" and not lan.watching
    if not lan.locked:
        whose = "your program" if host else "the host's program"
        return ("The deal is fair: every player helps shuffle and checks each hand when it ends, "
                f"but {whose} works out every hand.")
    if host:
        return ("The deal is locked: nobody, you included, sees another person's tiles until "
                "they are played; every hand is checked when it ends."
                + (" You do see your computer players' tiles." if bots else ""))
    whose = "a player's tiles until they are" if lan.watching else "your tiles until they are"
    return (f"The deal is locked: nobody, the host included, sees {whose} played; every hand "
            "is checked when it ends."
            + (" The host does see its computer players' tiles." if bots else ""))


def dispute_line(names: Sequence[str], seat: int, me: int, hand: int, index: int,
                 resign: bool) -> str:
    """A seat's dispute of a move the host made for it, in the words every screen uses (``me``:
    this terminal's seat, -1 for a watcher; ``index`` counts from 0)."""
    what = f"move {index + 1} of hand {hand}"
    if seat == me:
        done = "resigned for you" if resign else "played it for you"
        return f"You dispute {what}: the host {done} while you were at the table."
    name = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
    done = "resigned for them" if resign else "played it for them"
    return f"{name} disputes {what}: the host {done} while they were at the table."
