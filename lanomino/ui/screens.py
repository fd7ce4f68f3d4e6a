"""Whole screens as pure functions of ``UiState`` and the terminal size."""

from __future__ import annotations

import re
import textwrap

from lanomino.engine import (
    DealVoided,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    Observation,
    Passed,
    PointsScored,
    Resigned,
    Rules,
    TileDrawn,
    TilePlayed,
)
from lanomino.ui.helptext import KEYS_TEXT, describe_game, rules_text
from lanomino.ui.history import draw_history, draw_replay
from lanomino.ui.lobby import draw_host_form, draw_lobby, draw_waiting, verification_line
from lanomino.ui.render import Canvas, Fragments, draw_hand, draw_line, line_view, tile_fragments
from lanomino.ui.state import (
    Screen,
    SetupForm,
    UiState,
    menu_items,
    place_label,
    playable,
    seat_name,
)

MIN_W, MIN_H = 40, 16


def render_screen(ui: UiState, width: int, height: int) -> Fragments:
    """The full screen for ``ui`` at this terminal size."""
    canvas = Canvas(width, height)
    if width < MIN_W or height < MIN_H:
        ask = f"Please make the terminal at least {MIN_W}x{MIN_H}."
        for y, line in enumerate(textwrap.wrap(ask, max(1, width))):
            canvas.put(0, y, line, "class:warn")
        return canvas.fragments()
    {
        Screen.MENU: draw_menu,
        Screen.SETUP: draw_setup,
        Screen.TABLE: draw_table,
        Screen.HELP: draw_help,
        Screen.SETTINGS: draw_settings,
        Screen.HISTORY: lambda ui, canvas: draw_history(ui.history, canvas),
        Screen.REPLAY: _draw_replay,
        Screen.LOBBY: lambda ui, canvas: draw_lobby(ui.lobby, canvas),
        Screen.HOST: lambda ui, canvas: draw_host_form(ui.host_form, canvas),
        Screen.WAITING: _draw_waiting,
    }[ui.screen](ui, canvas)
    return canvas.fragments()


def _draw_waiting(ui: UiState, canvas: Canvas) -> None:
    if ui.lan is not None:
        draw_waiting(ui.lan, canvas, ui.lobby.tick)


def _draw_replay(ui: UiState, canvas: Canvas) -> None:
    if ui.replay is not None:
        draw_replay(ui.replay, canvas, ui.settings.colour)


def _header(canvas: Canvas, left: str, right: str = "? help") -> None:
    canvas.put(0, 0, " " * canvas.width, "class:header")
    canvas.put(1, 0, left[: canvas.width - len(right) - 3], "class:header")
    canvas.put(canvas.width - len(right) - 1, 0, right, "class:header")


def _footer(canvas: Canvas, text: str) -> None:
    canvas.put(1, canvas.height - 1, text[: canvas.width - 2], "class:dim")


# ----- menu, setup, settings, help ---------------------------------------------------------------

MENU_TOP = 4  # the row of the first menu item (mouse clicks map rows to items)


def draw_menu(ui: UiState, canvas: Canvas) -> None:
    _header(canvas, "lanomino · dominoes in the terminal")
    canvas.put(2, 2, "What would you like to do?", "class:title")
    for i, (key, label, _) in enumerate(menu_items(ui)):
        style = "class:menu.selected" if i == ui.menu_index else ""
        canvas.put(4, MENU_TOP + i, f" {key}  {label} ".ljust(34), style)
    if ui.notice:
        canvas.put(2, MENU_TOP + len(menu_items(ui)) + 1, ui.notice, "class:ok")
    _footer(canvas, "↑/↓ and Enter, or the letter · ? help · q quit")


SETUP_LABELS = {
    "players": "Players", "preset": "Rules", "target": "Play to (points)",
    "boneyard_reserve": "Leave in the boneyard", "draw_when_playable": "Draw even when a tile fits",
    "bigger_hands": "Seven tiles each", "next_opener": "Later hands opened by",
    "start": "",
}


OPENER_NAMES = {
    "winner": "last winner, any tile", "highest-double": "highest double",
    "alternate": "next player, any tile", "left-of-last": "next player, any tile",
}


def setup_value(form: SetupForm, key: str) -> str:
    if key == "players":
        return str(form.players)
    if key.startswith("level"):
        return form.levels[int(key[5:])].capitalize()
    if key == "preset":
        return form.preset
    if key == "target":
        target = form.target if form.target is not None else Rules.preset(form.preset).target
        return str(target) if target else "one hand"
    if key == "boneyard_reserve":
        return f"{form.boneyard_reserve} tiles"
    if key == "start":
        return ""
    if key == "next_opener":
        return OPENER_NAMES[form.next_opener or Rules.preset(form.preset).next_opener]
    return "yes" if getattr(form, key) else "no"


def draw_setup(ui: UiState, canvas: Canvas) -> None:
    form = ui.setup
    _header(canvas, "New game against the computer")
    y = 2
    for i, key in enumerate(form.rows()):
        label = f"Computer {int(key[5:]) + 1} level" if key.startswith("level") else SETUP_LABELS[key]
        selected = i == form.row
        if key == "start":
            canvas.put(4, y + 1, "  Start the game  ", "class:menu.selected" if selected else "class:key")
            continue
        style = "class:menu.selected" if selected else ""
        canvas.put(2, y, f"{label:>28}  ", "")
        canvas.put(32, y, f"‹ {setup_value(form, key)} ›", style)
        y += 1
    try:
        canvas.put(2, y + 3, describe_game(form.rules()), "class:dim")
    except ValueError as exc:
        canvas.put(2, y + 3, str(exc)[: canvas.width - 4], "class:warn")
    if ui.message:
        canvas.put(2, y + 4, ui.message[: canvas.width - 4], "class:warn")
    _footer(canvas, "↑/↓ choose · ←/→ change · Enter start · Esc back · ? rules")


SETTINGS_ROWS = ("name", "colour", "sound", "auto_draw", "level", "preset", "pause_s")
SETTINGS_LABELS = {
    "name": "Your name", "colour": "Coloured pips", "sound": "Sound (terminal bell)",
    "auto_draw": "Auto-draw", "level": "Default computer level", "preset": "Default rules",
    "pause_s": "Computer move pause",
}


def settings_value(ui: UiState, key: str) -> str:
    value = getattr(ui.settings, key)
    if isinstance(value, bool):
        return "on" if value else "off"
    if key == "pause_s":
        return f"{value:.1f} s"
    if key == "level":
        return (value or "(best available)").capitalize()
    return str(value)


def draw_settings(ui: UiState, canvas: Canvas) -> None:
    _header(canvas, "Settings")
    for i, key in enumerate(SETTINGS_ROWS):
        style = "class:menu.selected" if i == ui.settings_row else ""
        canvas.put(2, 2 + i, f"{SETTINGS_LABELS[key]:>24}  ")
        text = settings_value(ui, key)
        canvas.put(28, 2 + i, f"{text}_" if key == "name" and i == ui.settings_row else f"‹ {text} ›", style)
    canvas.put(2, 11, "Type to change your name; Backspace deletes.", "class:dim")
    _footer(canvas, "↑/↓ choose · ←/→ change · Esc or Enter save and go back")


def help_rules(ui: UiState) -> tuple[Rules, int]:
    if ui.obs is not None and ui.back is Screen.TABLE:
        return ui.obs.rules, ui.obs.players
    try:
        return ui.setup.rules(), ui.setup.players
    except ValueError:
        return Rules.preset("classic"), 2


def draw_help(ui: UiState, canvas: Canvas) -> None:
    rules, players = help_rules(ui)
    _header(canvas, f"Help · {describe_game(rules)} · {players} players", "Esc back")
    lines: list[tuple[str, str]] = []
    for para in rules_text(rules, players):
        for i, line in enumerate(textwrap.wrap(para, canvas.width - 6)):
            lines.append(("", ("• " if i == 0 else "  ") + line))
    lines.append(("", ""))
    lines.append(("class:title", "Keys at the table"))
    lines += [("", f"  {key:8} {what}") for key, what in KEYS_TEXT]
    room = canvas.height - 3
    top = max(0, min(ui.help_scroll, len(lines) - room))
    for y, (style, text) in enumerate(lines[top : top + room]):
        canvas.put(2, 2 + y, text, style)
    more = " · ↑/↓ scroll" if len(lines) > room else ""
    _footer(canvas, f"Esc, Enter or ? to go back{more}")


# ----- the table ---------------------------------------------------------------------------------


def side_label(ui: UiState, obs: Observation, side: int) -> str:
    if obs.rules.partnership:
        return " & ".join(seat_name(ui, s) for s in range(obs.players) if s % 2 == side)
    return seat_name(ui, side)


def named(ui: UiState, obs: Observation, text: str) -> str:
    """The engine's sentence with 'seat 1' / 'team 0' replaced by the players' names."""
    def name(m: re.Match[str]) -> str:
        n = int(m.group(2))
        return side_label(ui, obs, n) if m.group(1) == "team" else seat_name(ui, n)

    return re.sub(r"\b(seat|team) (\d)\b", name, text)


def last_action(obs: Observation, seat: int) -> str:
    """What ``seat`` did last this hand: 'played 6-4', 'drew 3', 'drew 2, played 5-1', 'passed'."""
    mine = [e for e in obs.history if getattr(e, "seat", None) == seat]
    if not mine:
        return ""
    last = mine[-1]
    drew = 0
    for event in reversed(mine[:-1] if not isinstance(last, TileDrawn) else mine):
        if not isinstance(event, TileDrawn):
            break
        drew += 1
    if isinstance(last, TileDrawn):
        return f"drew {drew}"
    if isinstance(last, TilePlayed):
        return (f"drew {drew}, " if drew else "") + f"played {last.tile}"
    if isinstance(last, Passed):
        return (f"drew {drew}, " if drew else "") + "passed"
    if isinstance(last, Resigned):
        return "resigned"
    return ""


WHERE = (" on the left", " on the right", " above the spinner", " below the spinner")


def event_text(ui: UiState, obs: Observation, event: Event) -> str | None:
    """One log line for ``event`` from the human seat's point of view."""
    if isinstance(event, HandStarted):
        lead = f" with {event.must_lead}" if event.must_lead is not None else ""
        return f"Hand {event.hand}: {seat_name(ui, event.opener)} to open{lead}."
    if isinstance(event, TilePlayed):
        where = "" if event.first else WHERE[event.end.value]
        return f"{seat_name(ui, event.seat)} played {event.tile}{where}" + (" (spinner)" if event.spinner else "")
    if isinstance(event, TileDrawn):
        what = str(event.tile) if event.tile is not None else "a tile"
        return f"{seat_name(ui, event.seat)} drew {what} ({event.boneyard} left)"
    if isinstance(event, Passed):
        return f"{seat_name(ui, event.seat)} passed"
    if isinstance(event, PointsScored):
        return f"{side_label(ui, obs, event.side)} scored {event.points} ({event.reason})"
    if isinstance(event, Resigned):
        return f"{seat_name(ui, event.seat)} resigned"
    if isinstance(event, HandEnded):
        return f"Hand over: {named(ui, obs, event.reason)}."
    if isinstance(event, DealVoided):
        return "No doubles were dealt: dealing again."
    return None


def draw_table(ui: UiState, canvas: Canvas) -> None:
    obs = ui.obs
    if obs is None:
        canvas.put(2, 2, "Dealing…", "class:dim")
        return
    w, h = canvas.width, canvas.height
    where = f"{ui.lan.table} · " if ui.lan is not None else ""
    if ui.lan is not None and ui.lan.host_note:
        where += f"{ui.lan.host_note} · "
    _header(canvas, f"{where}{describe_game(obs.rules)} · hand {obs.dealt_hands + (obs.phase == 'play')}"
            f" · boneyard {obs.boneyard}", "? help  q leave")
    y = 1
    for seat in range(obs.players):
        if seat == obs.seat:
            continue
        y = _draw_opponent(ui, obs, canvas, seat, y)
    canvas.put(0, y, "─" * w, "class:dim")
    hand_rows = 2 * max(1, -(-len(obs.hand) // max(1, (w + 1) // 6)))
    log_rows = max(1, min(4, h - y - hand_rows - 12))
    bottom = h - 1 - log_rows - 1 - hand_rows - 1  # key bar, log, message, hand, hand title
    if ui.hand_result is not None or ui.match_result is not None:
        _draw_hand_end(ui, obs, canvas, y + 1, h - 2)
        if ui.resigned and ui.match_result is None:
            _footer(canvas, "the next hand starts by itself · " + ("q leave" if ui.lan else "f finish the match now · q menu"))
        elif ui.lan is not None and ui.match_result is None:
            _footer(canvas, "Enter: back to the table (the next hand is being dealt) · ? help")
        else:
            _footer(canvas, "Enter: " + ("back to the menu" if ui.match_result else "deal the next hand")
                    + " · ? help")
        return
    line = draw_line(line_view(obs.history), w, bottom - y - 2, ui.settings.colour)
    canvas.blit(line, 0, y + 1)
    canvas.put(0, bottom - 1, "─" * w, "class:dim")
    _draw_own(ui, obs, canvas, bottom)
    hand = draw_hand(obs.hand, playable(obs), ui.selected if obs.is_my_turn else None, w,
                     ui.settings.colour)
    canvas.blit(hand, 0, bottom + 1)
    msg_y = bottom + 1 + hand_rows
    _draw_message(ui, obs, canvas, msg_y)
    log = [t for e in obs.history if (t := event_text(ui, obs, e))]
    for i, text in enumerate(log[-log_rows:]):
        canvas.put(1, msg_y + 1 + i, text[: w - 2], "class:dim")
    _footer(canvas, _keys_hint(ui, obs))


def _draw_opponent(ui: UiState, obs: Observation, canvas: Canvas, seat: int, y: int) -> int:
    turn = obs.phase == "play" and obs.turn == seat
    level = ui.seat_levels[seat] if seat < len(ui.seat_levels) else ""
    name = seat_name(ui, seat) + (f" ({level})" if level else "")
    canvas.put(0, y, "▶" if turn else " ", "class:turn")
    canvas.put(2, y, name[:22], "class:turn" if turn else "")
    if not obs.active[seat]:
        canvas.put(26, y, "has left the table", "class:dim")
        return y + 1
    count = obs.hand_sizes[seat]
    canvas.put(26, y, f"{count:2} tile{'s' if count != 1 else ' '}")
    canvas.put(36, y, f"{obs.scores[obs.side_of(seat)]:4} pts")
    doing = "thinking…" if ui.thinking == seat else last_action(obs, seat)
    canvas.put(46, y, doing[: canvas.width - 47], "class:dim")
    return y + 1


def _draw_own(ui: UiState, obs: Observation, canvas: Canvas, y: int) -> None:
    score = obs.scores[obs.side_of(obs.seat)]
    x = canvas.put(1, y, f"Your hand · {seat_name(ui, obs.seat)} · {score} pts", "class:title")
    target = f" (to {obs.rules.target})" if obs.rules.target else ""
    x = canvas.put(x, y, target, "class:dim")
    if obs.is_my_turn:
        canvas.put(x + 3, y, "▶ your turn", "class:turn")
    elif obs.phase == "play":
        canvas.put(x + 3, y, f"{seat_name(ui, obs.turn)} to play", "class:dim")


def _draw_message(ui: UiState, obs: Observation, canvas: Canvas, y: int) -> None:
    if ui.confirm_quit:
        canvas.put(1, y, _leave_question(ui)[: canvas.width - 2], "class:warn")
    elif ui.lan is not None and ui.lan.closed:
        canvas.put(1, y, f"{ui.lan.closed} · q: leave"[: canvas.width - 2], "class:warn")
    elif ui.finishing:
        canvas.put(1, y, "The others are playing the match out…", "class:dim")
    elif ui.resigned:
        text = ("You resigned: the others play on. q: leave" if ui.lan is not None
                else "You resigned: the others play on. f: finish now · q: menu (stays saved)")
        canvas.put(1, y, text[: canvas.width - 2], "class:warn")
    elif ui.places:
        x = canvas.put(1, y, "Play where? ", "class:turn")
        for i, play in enumerate(ui.places):
            style = "class:menu.selected" if i == ui.place_index else ""
            x = canvas.put(x, y, f" {i + 1}: {place_label(obs, play)} ", style) + 1
    elif ui.message:
        canvas.put(1, y, ui.message[: canvas.width - 2], "class:warn")


def _leave_question(ui: UiState) -> str:
    if ui.lan is None:
        return "Leave the table? y: leave (the game is saved) · r: resign the match · n: stay"
    if ui.lan.role == "host":
        return "Close the table for everyone? y: close · r: resign and watch · n: stay"
    return "Leave the table? y: leave (you resign) · r: resign and watch · n: stay"


def _keys_hint(ui: UiState, obs: Observation) -> str:
    if ui.resigned:
        if ui.lan is not None:
            return "you resigned: watching the others · q leave · ? help"
        return "f finish the match now · q back to the menu · ? help"
    if ui.places:
        return "←/→ or number: choose the end · Enter play · Esc cancel"
    if obs.is_my_turn:
        extra = []
        if any(type(a).__name__ == "Draw" for a in obs.legal):
            extra.append("d draw")
        if any(type(a).__name__ == "Pass" for a in obs.legal):
            extra.append("p pass")
        return " · ".join(["←/→ pick", "Enter play", *extra, "? help", "q leave"])
    return "waiting for the others · ? help · q leave"


def _draw_hand_end(ui: UiState, obs: Observation, canvas: Canvas, top: int, bottom: int) -> None:
    result = ui.hand_result
    y = top
    if result is not None:
        canvas.put(1, y, f"Hand {result.hand} is over", "class:title")
        reason = named(ui, obs, result.reason)
        for line in textwrap.wrap(reason[0].upper() + reason[1:] + ".", canvas.width - 4):
            y += 1
            canvas.put(3, y, line)
        y += 2
        canvas.put(1, y, "Tiles left in each hand:", "class:title")
        for seat, tiles in enumerate(result.hands):
            y += 1
            canvas.put(3, y, seat_name(ui, seat)[:14])
            x = 19
            for t in tiles:
                x = canvas.put_fragments(x, y, tile_fragments(t.high, t.low, ui.settings.colour)) + 1
            pips = result.pips_left[seat]
            canvas.put(x + 1, y, "left the table" if pips is None else f"{pips} pips", "class:dim")
        y += 2
        points = " · ".join(f"{side_label(ui, obs, s)} {p}" for s, p in enumerate(result.points))
        canvas.put(1, y, f"Points this hand: {points}")
        y += 1
        if ui.lan is not None:
            text, style = verification_line(ui.lan, result.hand)
            canvas.put(1, y, text[: canvas.width - 2], style)
            y += 1
    scores = " · ".join(f"{side_label(ui, obs, s)} {p}" for s, p in enumerate(obs.scores))
    target = f" (playing to {obs.rules.target})" if obs.rules.target else ""
    canvas.put(1, y, f"Match score: {scores}{target}")
    y += 2
    if ui.match_result is not None:
        _draw_match_end(ui, obs, ui.match_result, canvas, y)


def _draw_match_end(ui: UiState, obs: Observation, ended: MatchEnded, canvas: Canvas, y: int) -> None:
    if ended.winner is None:
        canvas.put(1, y, "The match is over: nobody won.", "class:winner")
    else:
        canvas.put(1, y, f"The match is over: {side_label(ui, obs, ended.winner)} won!", "class:winner")
    for place, side in enumerate(ended.standings, start=1):
        canvas.put(3, y + place, f"{place}. {side_label(ui, obs, side):24} {ended.scores[side]:4} pts")
