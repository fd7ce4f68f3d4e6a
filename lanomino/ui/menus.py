"""The screens around the table: the menu, the new-game form, Settings and Help."""

from __future__ import annotations

from lanomino.engine import PRESETS, Rules
from lanomino.ui.chrome import fit, footer, header, put_wrapped, wrap
from lanomino.ui.helptext import KEYS_TEXT, SETTINGS_TEXT, describe_game, rules_text
from lanomino.ui.lan import deal_line
from lanomino.ui.render import Canvas
from lanomino.ui.settings import default_level
from lanomino.ui.setup import SetupForm
from lanomino.ui.state import Screen, StartLocal, UiState, menu_items

MENU_TOP = 4  # the row of the first menu item (mouse clicks map rows to items)


def draw_menu(ui: UiState, canvas: Canvas) -> None:
    header(canvas, "lanomino · dominoes in the terminal")
    canvas.put(2, 2, "What would you like to do?", "class:title")
    for i, (key, label, _) in enumerate(menu_items(ui)):
        style = "class:menu.selected" if i == ui.menu_index else ""
        canvas.put(4, MENU_TOP + i, f" {key}  {label} ".ljust(34), style)
    if ui.notice:
        put_wrapped(canvas, 2, MENU_TOP + len(menu_items(ui)) + 1, ui.notice, "class:ok")
    footer(canvas, "↑/↓ and Enter, or the letter · ? help · q quit")


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


def form_start(form: SetupForm) -> StartLocal:
    """The new match the form asks for. Raises RulesError."""
    rules = form.rules()
    rules.check_players(form.players)
    return StartLocal(rules, form.players, tuple(form.levels[: form.players - 1]))


def from_the_form(ui: UiState) -> bool:
    """Is the start waiting for a yes the one the form shows (not one from the command line)?"""
    try:
        return form_start(ui.setup) == ui.pending_start
    except ValueError:
        return False


def draw_setup(ui: UiState, canvas: Canvas) -> None:
    if ui.pending_start is not None and not from_the_form(ui):
        draw_pending_start(ui, ui.pending_start, canvas)
        return
    form = ui.setup
    header(canvas, "New game against the computer")
    y = 2
    # labels right-aligned in a column that shrinks on a narrow terminal
    col = min(28, max(12, canvas.width - 30))
    for i, key in enumerate(form.rows()):
        if key.startswith("level"):
            label = f"Computer {int(key[5:]) + 1} level"
        else:
            label = SETUP_LABELS[key]
        selected = i == form.row
        if key == "start":
            style = "class:menu.selected" if selected else "class:key"
            canvas.put(4, y + 1, "  Start the game  ", style)
            continue
        style = "class:menu.selected" if selected else ""
        canvas.put(2, y, f"{fit(label, col):>{col}}  ", "")
        canvas.put(col + 4, y, f"‹ {setup_value(form, key)} ›", style)
        y += 1
    try:
        rules = form.rules()
        rules.check_players(form.players)
        put_wrapped(canvas, 2, y + 3, describe_game(rules), "class:dim")
    except ValueError as exc:
        put_wrapped(canvas, 2, y + 3, str(exc), "class:warn", rows=2)
    if ui.message:
        put_wrapped(canvas, 2, y + 5, ui.message, "class:warn", rows=2)
    footer(canvas, "y start anyway · n keep the saved game" if ui.pending_start is not None
           else "↑/↓ choose · ←/→ change · Enter start · Esc back · ? rules")


def draw_pending_start(ui: UiState, start: StartLocal, canvas: Canvas) -> None:
    """The new match asked for on the command line, waiting for a yes over the saved game."""
    header(canvas, "New game against the computer")
    levels = ", ".join(level.capitalize() for level in start.levels)
    y = put_wrapped(canvas, 2, 2, f"{describe_game(start.rules)}, {start.players} players; "
                    f"the computer plays at {levels}.")
    put_wrapped(canvas, 2, y + 1, ui.message, "class:warn", rows=2)
    footer(canvas, "y start anyway · n keep the saved game")


SETTINGS_ROWS = ("name", "colour", "sound", "auto_draw", "level", "preset", "pause_s", "lines",
                 "words")
SETTINGS_LABELS = {
    "name": "Your name", "colour": "Coloured pips", "sound": "Sound (terminal bell)",
    "auto_draw": "Auto-draw", "level": "Default computer level", "preset": "Default rules",
    "pause_s": "Computer move pause", "lines": "Line mode (next start)",
    "words": "Tiles as words (lines)",
}


def settings_value(ui: UiState, key: str) -> str:
    value = getattr(ui.settings, key)
    if isinstance(value, bool):
        return "on" if value else "off"
    if key == "pause_s":
        return f"{value:.1f} s"
    if key == "level":
        # "" means what a new game picks by itself: name that level, as the new-game form will
        return value.capitalize() if value else f"{default_level(ui.levels).capitalize()} (default)"
    return str(value)


def draw_settings(ui: UiState, canvas: Canvas) -> None:
    header(canvas, "Settings")
    col = min(24, max(10, canvas.width - 34))
    for i, key in enumerate(SETTINGS_ROWS):
        style = "class:menu.selected" if i == ui.settings_row else ""
        canvas.put(2, 2 + i, f"{fit(SETTINGS_LABELS[key], col):>{col}}  ")
        text = settings_value(ui, key)
        editing = key == "name" and i == ui.settings_row
        canvas.put(col + 4, 2 + i, f"{text}_" if editing else f"‹ {text} ›", style)
    put_wrapped(canvas, 2, 11, "Type to change your name; Backspace deletes.", "class:dim")
    if ui.name_then:  # (asked once, at the first LAN table: the name is kept from now on)
        put_wrapped(canvas, 2, 13, "What should the other players call you? Type your name "
                    "and press Enter; you can change it here later.", "class:title")
    footer(canvas, "↑/↓ choose · ←/→ change · Esc or Enter save and go back · ? help")


# ----- help --------------------------------------------------------------------------------------


def help_rules(ui: UiState) -> tuple[Rules | None, int]:
    """The rules Help explains and for how many players: the table's, else the preset picked in
    Help, else the new-game form's. None: a LAN table whose rules are not known yet."""
    if ui.obs is not None and ui.back is Screen.TABLE:
        return ui.obs.rules, ui.obs.players
    if ui.lan is not None and ui.back is Screen.WAITING:
        seats = ui.lan.seats or ui.host_form.seats
        return (Rules.preset(ui.host_form.preset) if ui.lan.role == "host" else None), seats
    preset = ui.help_preset or ui.setup.preset
    players = 4 if Rules.preset(preset).partnership else ui.setup.players
    if preset == ui.setup.preset:
        try:
            return ui.setup.rules(), players
        except ValueError:
            pass
    return Rules.preset(preset), players


def help_lines(ui: UiState, width: int) -> tuple[str, list[tuple[str, str]]]:
    """The Help screen's title and its lines (style, text), wrapped to ``width``."""
    lines: list[tuple[str, str]] = []
    if ui.back is Screen.SETTINGS:
        for key, what in SETTINGS_TEXT:
            lines.append(("class:title", key))
            lines += [("", "  " + line) for line in wrap(what, width - 2)]
        return "Help · Settings", lines
    lan = ui.lan
    if lan is not None and lan.role == "host" and lan.address and ui.back is Screen.TABLE:
        lines.append(("class:title", "Join or watch this table"))
        for where in dict.fromkeys((lan.short_address or lan.address, lan.address)):
            lines += [("class:key", "  " + part) for part in _cut(where, width - 2)]
        lines += [("", "  " + line) for line in wrap(f"host fingerprint {lan.fingerprint}",
                                                      width - 2)]
        lines.append(("", ""))
    rules, players = help_rules(ui)
    playing = sum(ui.obs.active) if ui.obs is not None and ui.back is Screen.TABLE else players
    paras = rules_text(rules, players, playing) if rules is not None else [
        f"This table seats {players} players; its rules show here once the first hand is dealt."]
    deal = deal_line(lan) if lan is not None else ""
    for para in (*paras, deal) if deal else paras:
        for i, line in enumerate(wrap(para, width - 2)):
            lines.append(("", ("• " if i == 0 else "  ") + line))
    lines.append(("", ""))
    lines.append(("class:title", "Keys at the table"))
    for key, what in KEYS_TEXT:
        for i, line in enumerate(wrap(what, width - 11)):
            lines.append(("", f"  {key if i == 0 else '':8} {line}"))
    game = describe_game(rules) if rules is not None else "LAN table"
    seated = f"{playing} of {players} players left" if playing < players else f"{players} players"
    return f"Help · {game} · {seated}", lines


def _cut(text: str, width: int) -> list[str]:
    """An address to type, cut at ``width`` (it has no spaces to wrap at)."""
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]


def choosing_preset(ui: UiState) -> bool:
    """Help was opened away from a table: ←/→ shows the other rules."""
    return ui.back not in (Screen.TABLE, Screen.SETTINGS, Screen.WAITING)


def draw_help(ui: UiState, canvas: Canvas) -> None:
    title, lines = help_lines(ui, canvas.width - 4)
    header(canvas, title, "Esc back")
    room = canvas.height - 3
    top = max(0, min(ui.help_scroll, len(lines) - room))
    for y, (style, text) in enumerate(lines[top : top + room]):
        canvas.put(2, 2 + y, text, style)
    more = " · ↑/↓ scroll" if len(lines) > room else ""
    other = " · ←/→ other rules" if choosing_preset(ui) else ""
    footer(canvas, f"Esc, Enter or ? to go back{more}{other}")


def step_help_preset(ui: UiState, delta: int) -> None:
    """←/→ in Help away from a table: the rules of the next preset."""
    names = list(PRESETS)
    current = ui.help_preset or ui.setup.preset
    i = names.index(current) if current in names else 0
    ui.help_preset = names[(i + delta) % len(names)]
    ui.help_scroll = 0
