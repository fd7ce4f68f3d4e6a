"""The client's plain state: screens, selection, dialogs and the intents keys produce.

No prompt_toolkit here and no globals. Key handlers change a ``UiState`` or queue an intent; the
client (``lanomino.client``) turns intents into engine actions and puts a fresh
observation back into the state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from lanomino.engine import (
    Action,
    Draw,
    End,
    HandEnded,
    MatchEnded,
    Observation,
    Pass,
    Play,
    Rules,
    Tile,
)
from lanomino.narrate import seat_label
from lanomino.ui.history import HistoryView, ReplayView
from lanomino.ui.lan import (
    CloseLobby,
    ComeBack,
    ConfirmJoin,
    HostForm,
    HostTable,
    JoinTable,
    LanView,
    LobbyView,
    OpenLobby,
)
from lanomino.ui.settings import Settings
from lanomino.ui.setup import SetupForm
from lanomino.ui.tableview import TableView

PAUSES_S = (0.0, 0.3, 0.6, 1.0, 1.5, 2.5)


class Screen(enum.Enum):
    MENU = "menu"
    SETUP = "setup"
    TABLE = "table"
    HELP = "help"
    SETTINGS = "settings"
    HISTORY = "history"
    REPLAY = "replay"
    LOBBY = "lobby"  # tables on the LAN
    HOST = "host"  # the form that opens a table
    WAITING = "waiting"  # at a LAN table before its first deal (or after it closed)


# ----- intents: what the keys ask the driver to do ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Submit:
    """Make this move for the human seat."""

    action: Action


@dataclass(frozen=True, slots=True)
class NextHand:
    """Deal the next hand (after the end-of-hand summary)."""


@dataclass(frozen=True, slots=True)
class StartLocal:
    """Start a new local match from the setup form."""

    rules: Rules
    players: int
    levels: tuple[str, ...]  # one per computer seat
    replace_saved: bool = False  # the player said yes to giving the saved game up


@dataclass(frozen=True, slots=True)
class ConfirmStart:
    """Yes to the question about a saved game: the new match waiting for it starts, and the saved
    one is given up (History shows it as abandoned)."""


@dataclass(frozen=True, slots=True)
class AskHint:
    """What would Expert play here? (local games against the computer only)"""


@dataclass(frozen=True, slots=True)
class UndoMove:
    """Take back the player's last move (local games against the computer only)."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """After a LAN match: the host opens the table again at the same address; a joiner sits
    down at it again as soon as it is open."""


@dataclass(frozen=True, slots=True)
class ContinueSaved:
    """Resume the saved local match."""


@dataclass(frozen=True, slots=True)
class LeaveTable:
    """Back to the menu; the local game stays saved."""


@dataclass(frozen=True, slots=True)
class ResignMatch:
    """The human seat resigns."""


@dataclass(frozen=True, slots=True)
class FinishMatch:
    """After resigning: let the computer players finish the match at once."""


@dataclass(frozen=True, slots=True)
class SaveSettings:
    settings: Settings


@dataclass(frozen=True, slots=True)
class QuitApp:
    pass


@dataclass(frozen=True, slots=True)
class OpenHistory:
    """Show History and stats (the driver fills ``UiState.history`` from the play log)."""


@dataclass(frozen=True, slots=True)
class OpenReplay:
    """Step through logged match ``match_id`` (the driver fills ``UiState.replay``)."""

    match_id: int


Intent = (Submit | NextHand | StartLocal | ContinueSaved | LeaveTable | ResignMatch | FinishMatch
          | SaveSettings | QuitApp | OpenHistory | OpenReplay | OpenLobby | CloseLobby | JoinTable
          | HostTable | ConfirmJoin | ConfirmStart | AskHint | UndoMove | Rematch | ComeBack)


# ----- the whole client --------------------------------------------------------------------------


@dataclass
class UiState:
    """Everything the screens show. Only the human seat's observation is ever held."""

    settings: Settings = field(default_factory=Settings)
    levels: list[str] = field(default_factory=list)  # bot levels known to the registry
    screen: Screen = Screen.MENU
    back: Screen = Screen.MENU  # where Esc from Help/Settings returns
    menu_index: int = 0
    has_saved_game: bool = False
    setup: SetupForm = field(default_factory=SetupForm)
    settings_row: int = 0
    first_start: bool = False  # no name was ever saved: asked for at the first LAN table
    name_then: str = ""  # the menu action (host, join) waiting while the name is asked for
    help_scroll: int = 0
    help_preset: str = ""  # the rules Help shows away from a table ("" : the new-game form's)
    # the table
    obs: Observation | None = None
    names: tuple[str, ...] = ()
    seat_levels: tuple[str, ...] = ()  # per seat; "" for the human
    selected: int = 0  # index into obs.hand
    places: tuple[Play, ...] = ()  # when the selected tile fits two places: the choices
    place_index: int = 0
    thinking: int | None = None  # the computer seat that is choosing a move
    message: str = ""
    confirm_quit: bool = False
    hand_result: HandEnded | None = None  # shown until Enter deals the next hand
    match_result: MatchEnded | None = None
    match_at: float = 0.0  # monotonic time the match result arrived (an Enter just before it waits)
    resigned: bool = False  # the human seat resigned and watches the others finish
    finishing: bool = False  # the rest of the match is being played out at once
    notice: str = ""  # one line shown on the menu (e.g. "you resigned")
    pending_start: StartLocal | None = None  # a new game waiting for a yes: a game is saved
    # History and stats, and the replay of a logged match
    history: HistoryView = field(default_factory=HistoryView)
    replay: ReplayView | None = None
    # LAN play: the lobby, the host form, and the networked table (None at a local table)
    lobby: LobbyView = field(default_factory=LobbyView)
    host_form: HostForm = field(default_factory=HostForm)
    addresses: tuple[str, ...] = ()  # this machine's addresses the host form may serve on
    lan: LanView | None = None
    view: TableView = field(default_factory=TableView)  # the log, score sheet, last hand's board


# ----- menu --------------------------------------------------------------------------------------


def menu_items(ui: UiState) -> list[tuple[str, str, str]]:
    """(key letter, label, action name) for the main menu."""
    items = [("p", "Play against the computer", "play")]
    if ui.has_saved_game:
        items.append(("c", "Continue the saved game", "continue"))
    items += [("t", "Host a table on the LAN", "host"), ("j", "Join a table on the LAN", "join")]
    items += [("h", "History and stats", "history"), ("r", "Rules and keys", "rules")]
    items += [("s", "Settings", "settings"), ("q", "Quit", "quit")]
    return items


# ----- the table: choosing a move ----------------------------------------------------------------


def plays_for(obs: Observation, tile: Tile) -> list[Play]:
    return [a for a in obs.legal if isinstance(a, Play) and a.tile == tile]


def playable(obs: Observation) -> set[Tile]:
    return {a.tile for a in obs.legal if isinstance(a, Play)}


def first_playable_index(obs: Observation) -> int:
    fits = playable(obs)
    for i, tile in enumerate(obs.hand):
        if tile in fits:
            return i
    return 0


def out_of_time(ui: UiState) -> bool:
    """The move clock ran out for this terminal's seat at a LAN table: the table's bot plays it
    until the player comes back (``ComeBack``), and they have not said so yet."""
    lan, obs = ui.lan, ui.obs
    if lan is None or obs is None or lan.watching or lan.back_said or ui.resigned:
        return False
    return obs.outcome is None and any(r.seat == obs.seat and r.away for r in lan.roster)


def seat_name(ui: UiState, seat: int) -> str:
    """The player at ``seat`` by name ("seat N", from 1, when it has none)."""
    return seat_label(seat, ui.names)


def move_selection(ui: UiState, delta: int) -> None:
    """←/→: the next tile in the hand, or the other place when choosing where to play."""
    if ui.places:
        ui.place_index = (ui.place_index + delta) % len(ui.places)
        return
    if ui.obs is not None and ui.obs.hand:
        ui.selected = (ui.selected + delta) % len(ui.obs.hand)
        ui.message = ""


def point_at(ui: UiState, action: Action) -> None:
    """A hint's move: its tile is selected, so that Enter plays it (or asks where)."""
    tile = getattr(action, "tile", None)
    if ui.obs is not None and tile in ui.obs.hand:
        ui.selected, ui.places, ui.place_index = ui.obs.hand.index(tile), (), 0


def pick_number(ui: UiState, number: int) -> Action | None:
    """A digit: a place (1/2...) while choosing, else the tile with that number (then play it)."""
    if ui.places:
        if 1 <= number <= len(ui.places):
            ui.place_index = number - 1
            return confirm(ui)
        return None
    if ui.obs is None:
        return None
    index = (number - 1) if number > 0 else 9
    if 0 <= index < len(ui.obs.hand):
        ui.selected = index
        return confirm(ui)
    return None


def confirm(ui: UiState) -> Action | None:
    """Enter: the move to make, or None after explaining why there is none (or asking where)."""
    obs = ui.obs
    if obs is None or obs.phase != "play":
        return None
    if ui.places:
        action = ui.places[ui.place_index]
        ui.places, ui.place_index = (), 0
        ui.message = ""  # (the question is answered)
        return action
    if not obs.is_my_turn:
        ui.message = f"wait: it is {seat_name(ui, obs.turn)}'s turn"
        return None
    if not obs.hand:
        return None
    tile = obs.hand[min(ui.selected, len(obs.hand) - 1)]
    plays = plays_for(obs, tile)
    if not plays:
        ui.message = why_not(obs, tile)
        return None
    if len(plays) == 1:
        ui.message = ""
        return plays[0]
    ui.places, ui.place_index = tuple(plays), 0
    choose = f"←/→ or 1-{len(plays)} to choose"
    ui.message = f"{tile} fits {len(plays)} places: {choose}, Enter to play, Esc to cancel"
    return None


def cancel(ui: UiState) -> None:
    ui.places, ui.place_index = (), 0
    ui.message = ""


def draw_or_pass(ui: UiState, want: type[Draw] | type[Pass]) -> Action | None:
    """`d` or `p`: the draw/pass when allowed, else a message saying what to do instead."""
    obs = ui.obs
    if obs is None or obs.phase != "play":
        return None
    if not obs.is_my_turn:
        ui.message = f"wait: it is {seat_name(ui, obs.turn)}'s turn"
        return None
    for action in obs.legal:
        if isinstance(action, want):
            ui.message = ""
            return action
    fits = [a.tile for a in obs.legal if isinstance(a, Play)]
    verb = "draw" if want is Draw else "pass"
    if fits:
        ui.message = f"you may not {verb}: you must play: {fits[0]} fits"
    elif any(isinstance(a, Draw) for a in obs.legal):
        ui.message = "you may not pass while the boneyard has tiles: press d to draw"
    elif any(isinstance(a, Pass) for a in obs.legal):
        ui.message = "nothing may be drawn now: press p to pass"
    return None


def why_not(obs: Observation, tile: Tile) -> str:
    """Why ``tile`` cannot be played now, naming a tile that can (if any)."""
    fits = [a.tile for a in obs.legal if isinstance(a, Play)]
    if obs.line.is_empty and fits:
        return f"this hand opens with {fits[0]}"
    showing = " or ".join(str(n) for n in obs.line.open_numbers())
    text = f"{tile} does not fit the {showing}"
    if fits:
        return f"{text}; you must play: {fits[0]} fits"
    if any(isinstance(a, Draw) for a in obs.legal):
        return f"{text}; nothing fits: press d to draw"
    return f"{text}; nothing fits: press p to pass"


def place_label(obs: Observation, play: Play) -> str:
    """'left (5)' for a place to play."""
    assert play.end is not None
    return f"{play.end} ({obs.line.ends[play.end.value]})"


def on_new_observation(ui: UiState, obs: Observation) -> None:
    """Put a fresh observation in; keep the selection on a sensible tile."""
    was_my_turn = ui.obs is not None and ui.obs.is_my_turn
    away = out_of_time(ui)  # (before the news: a move that ends the match was still the bot's)
    ui.obs = obs
    ui.view.note(obs, away)
    ui.places, ui.place_index = (), 0
    if obs.is_my_turn and not was_my_turn:
        ui.selected = first_playable_index(obs)
        ui.message = ""  # whatever was said while waiting is stale now
    ui.selected = max(0, min(ui.selected, len(obs.hand) - 1))
    if obs.is_my_turn and obs.hand and obs.hand[ui.selected] not in playable(obs):
        ui.selected = first_playable_index(obs)  # e.g. a drawn tile fits now: go to it


END_NAMES = {End.LEFT: "left", End.RIGHT: "right", End.UP: "up", End.DOWN: "down"}
