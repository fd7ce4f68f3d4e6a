"""LAN screens as pure functions of ``UiState``: the lobby, the host form, the waiting room, and
the lines a networked table adds (the deal's verification at the end of a hand)."""

from __future__ import annotations

import textwrap

from lanomino.engine import Rules
from lanomino.ui.helptext import describe_game
from lanomino.ui.lan import HOST_ROWS, HostForm, LanView, LobbyView
from lanomino.ui.render import Canvas

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
LOBBY_TOP = 5  # the row of the first table (mouse clicks map rows to tables)
LOCK = "🔒"


def _header(canvas: Canvas, left: str, right: str = "? help") -> None:
    canvas.put(0, 0, " " * canvas.width, "class:header")
    canvas.put(1, 0, left[: canvas.width - len(right) - 3], "class:header")
    canvas.put(canvas.width - len(right) - 1, 0, right, "class:header")


def _footer(canvas: Canvas, text: str) -> None:
    canvas.put(1, canvas.height - 1, text[: canvas.width - 2], "class:dim")


def draw_lobby(lobby: LobbyView, canvas: Canvas) -> None:
    _header(canvas, "Join a table on the LAN")
    w = canvas.width
    if lobby.error:
        canvas.put(2, 2, lobby.error[: w - 4], "class:warn")
    elif lobby.searching:
        found = len(lobby.tables)
        what = f"{found} table{'s' if found != 1 else ''} found" if found else "no tables yet"
        canvas.put(2, 2, f"{SPINNER[lobby.tick % len(SPINNER)]} searching… {what}", "class:dim")
    canvas.put(4, LOBBY_TOP - 1, f"{'Table':24} {'Rules':18} {'Seats':6}", "class:title")
    rows = canvas.height - LOBBY_TOP - 5
    first = max(0, lobby.index - rows + 1) if lobby.index < len(lobby.tables) else max(0, len(lobby.tables) - rows)
    y = LOBBY_TOP
    for i, table in enumerate(lobby.tables[first : first + rows], start=first):
        style = "class:menu.selected" if i == lobby.index else ""
        seats = f"{table.seats_taken}/{table.seats_total}"
        note = "full" if table.full else ("other version" if not table.compatible else "")
        line = f" {table.name[:24]:24} {table.rules[:18]:18} {seats:6}"
        x = canvas.put(2, y, line, style)
        x = canvas.put(x, y, f"{LOCK} " if table.locked else "   ", style)
        canvas.put(x, y, f"{note:14}", style if note else "class:dim")
        y += 1
    address_row = len(lobby.tables)
    style = "class:menu.selected" if lobby.index == address_row else ""
    canvas.put(2, y + (1 if lobby.tables else 0), " Join by address (HOST:PORT/CODE)… ", style)
    y += 3
    if lobby.entry in ("address", "passphrase"):
        label = "Address: " if lobby.entry == "address" else "Passphrase: "
        shown = lobby.text if lobby.entry == "address" else "•" * len(lobby.text)
        x = canvas.put(2, y, label, "class:title")
        canvas.put(x, y, (shown + "_")[-(w - x - 2):], "class:key")
        y += 1
    if lobby.message:  # (a question about a host's fingerprint takes a few lines)
        for line in textwrap.wrap(lobby.message, max(20, w - 4))[: max(1, canvas.height - y - 2)]:
            canvas.put(2, y, line, "class:warn")
            y += 1
    if lobby.entry == "trust":
        _footer(canvas, "y join this table · n or Esc do not")
    elif lobby.entry:
        _footer(canvas, "type, then Enter · Backspace deletes · Esc cancels")
    else:
        _footer(canvas, f"↑/↓ choose · Enter join · a join by address · {LOCK} needs a passphrase · Esc back")


def host_value(form: HostForm, key: str, selected: bool) -> str:
    if key == "name":
        return form.name + ("_" if selected else "")
    if key == "passphrase":
        if selected:
            return "•" * len(form.passphrase) + "_"
        return "•" * len(form.passphrase) if form.passphrase else "(none: anyone may join)"
    if key == "preset":
        return f"‹ {form.preset} ›"
    if key == "seats":
        return f"‹ {form.seats} ›"
    if key == "bots":
        return f"‹ {form.bots} ›"
    if key == "level":
        return f"‹ {form.level.capitalize()} ›"
    return ""


HOST_LABELS = {
    "name": "Table name", "preset": "Rules", "seats": "Seats (you included)",
    "bots": "Seats for computer players", "level": "Computer level", "passphrase": "Passphrase",
}


def draw_host_form(form: HostForm, canvas: Canvas, rules: Rules | None = None) -> None:
    _header(canvas, "Host a table on the LAN")
    y = 2
    for i, key in enumerate(HOST_ROWS):
        selected = i == form.row
        if key == "open":
            canvas.put(4, y + 1, "  Open the table  ", "class:menu.selected" if selected else "class:key")
            continue
        canvas.put(2, y, f"{HOST_LABELS[key]:>28}  ")
        canvas.put(32, y, host_value(form, key, selected)[: canvas.width - 34],
                   "class:menu.selected" if selected else "")
        y += 1
    humans = form.seats - form.bots - 1
    who = f"{humans} player{'s' if humans != 1 else ''} from the LAN" if humans else "no one else"
    try:
        game = describe_game(rules or Rules.preset(form.preset))
    except ValueError:
        game = form.preset
    canvas.put(2, y + 3, f"{game} · you, {who}"
               + (f" and {form.bots} computer player{'s' if form.bots != 1 else ''}" if form.bots else ""),
               "class:dim")
    if form.message:
        canvas.put(2, y + 4, form.message[: canvas.width - 4], "class:warn")
    _footer(canvas, "↑/↓ choose · ←/→ change · type the name or passphrase · Enter open · Esc back")


def draw_waiting(lan: LanView, canvas: Canvas, tick: int) -> None:
    """Before the first deal: where others join, who sits where; or why the table went away."""
    _header(canvas, f"Table {lan.table}", "q leave")
    y = 2
    if lan.closed:
        canvas.put(2, y, lan.closed[: canvas.width - 4], "class:warn")
        _footer(canvas, "Enter or q: back")
        return
    canvas.put(2, y, f"{SPINNER[tick % len(SPINNER)]} {lan.status}", "class:title")
    y += 2
    if lan.address:
        canvas.put(2, y, "Others join from the lobby, or with `lanomino join` and:", "class:dim")
        canvas.put(4, y + 1, lan.short_address or lan.address, "class:key")
        canvas.put(2, y + 2, f"host fingerprint {lan.fingerprint} (their screen shows it too)",
                   "class:dim")
        if lan.short_address:
            canvas.put(2, y + 3, "or with the full key:", "class:dim")
            canvas.put(4, y + 4, lan.address, "class:dim")
            y += 2
        y += 4
    canvas.put(2, y, "Seats", "class:title")
    for seat in range(lan.seats):
        info = next((s for s in lan.roster if s.seat == seat), None)
        if info is None:
            text, style = "(free)", "class:dim"
        else:
            kind = {"host": "host", "bot": "computer", "human": "LAN player"}.get(info.kind, info.kind)
            text = f"{info.name} ({kind})" + ("" if info.connected else " · away")
            style = ""
        canvas.put(4, y + 1 + seat, f"{seat + 1}. {text}"[: canvas.width - 6], style)
    _footer(canvas, "the match starts when every seat is taken · q leave · ? help")


def verification_line(lan: LanView, hand: int) -> tuple[str, str]:
    """(text, style) saying whether the hand's deal verified."""
    result = lan.verified.get(hand)
    if result is None:
        return "Deal check: checking…", "class:dim"
    ok, detail = result
    if ok:
        return f"Deal check: verified ✓ ({detail})", "class:ok"
    return f"Deal check: FAILED: {detail}", "class:warn"
