"""LAN screens as pure functions of ``UiState``: the lobby, the host form, the waiting room, and
the lines a networked table adds (the deal's verification at the end of a hand)."""

from __future__ import annotations

from lanomino import command
from lanomino.engine import Rules
from lanomino.narrate import listed, plural
from lanomino.ui.chrome import fit, footer, header, put_wrapped, wrap
from lanomino.ui.helptext import describe_game
from lanomino.ui.lan import HOST_ROWS, LOOPBACK, HostForm, LanView, LobbyView
from lanomino.ui.render import Canvas

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
LOBBY_TOP = 5  # the row of the first table (mouse clicks map rows to tables)
LOCK = "🔒"


def draw_lobby(lobby: LobbyView, canvas: Canvas) -> None:
    w = canvas.width
    if lobby.entry == "passphrase" and lobby.target is not None and not lobby.searching \
            and not lobby.tables:  # a table joined by its address: no LAN search, no list
        header(canvas, f"Join {lobby.target.name or lobby.target.address.split('/')[0]}")
        _entry(lobby, canvas, 2)
        return
    header(canvas, "Join a table on the LAN")
    if lobby.error:
        put_wrapped(canvas, 2, 2, lobby.error, "class:warn", rows=2)
    elif lobby.searching:
        found = len(lobby.tables)
        what = f"{found} table{'s' if found != 1 else ''} found" if found else "no tables yet"
        canvas.put(2, 2, f"{SPINNER[lobby.tick % len(SPINNER)]} searching… {what}", "class:dim")
    name_w, rules_w = (24, 18) if w >= 76 else (14, 12)
    titles = f"{'Table':{name_w}} {'Rules':{rules_w}} {'Seats':6}"
    canvas.put(4, LOBBY_TOP - 1, titles, "class:title")
    rows = canvas.height - LOBBY_TOP - 5
    cursor = lobby.index if lobby.index < len(lobby.tables) else len(lobby.tables) - 1
    first = max(0, cursor - rows + 1)
    y = LOBBY_TOP
    for i, table in enumerate(lobby.tables[first : first + rows], start=first):
        style = "class:menu.selected" if i == lobby.index else ""
        seats = f"{table.seats_taken}/{table.seats_total}"
        note = "full" if table.full else ("other version" if not table.compatible else "")
        name, rules = fit(table.name, name_w), fit(table.rules, rules_w)
        line = f" {name:{name_w}} {rules:{rules_w}} {seats:6}"
        x = canvas.put(2, y, line, style)
        x = canvas.put(x, y, f"{LOCK} " if table.locked else "   ", style)
        canvas.put(x, y, fit(note, w - x - 1), style if note else "class:dim")
        y += 1
    address_row = len(lobby.tables)
    style = "class:menu.selected" if lobby.index == address_row else ""
    canvas.put(2, y + (1 if lobby.tables else 0), " Join by address (HOST:PORT/CODE)… ", style)
    _entry(lobby, canvas, y + 3)


def _entry(lobby: LobbyView, canvas: Canvas, y: int) -> None:
    """What is being typed from row ``y``, what the lobby has to say, and the keys."""
    w = canvas.width
    if lobby.entry in ("address", "passphrase"):
        label = "Address: " if lobby.entry == "address" else "Passphrase: "
        shown = lobby.text if lobby.entry == "address" else "•" * len(lobby.text)
        x = canvas.put(2, y, label, "class:title")
        canvas.put(x, y, (shown + "_")[-(w - x - 2):], "class:key")
        y += 1
    if lobby.message:  # (a question about a host's fingerprint takes a few lines)
        for line in wrap(lobby.message, max(20, w - 4))[: max(1, canvas.height - y - 2)]:
            canvas.put(2, y, line, "class:warn")
            y += 1
    if lobby.entry == "trust":
        footer(canvas, "y join this table · n or Esc do not")
    elif lobby.entry:
        footer(canvas, "type, then Enter · Backspace deletes · Esc cancels")
    else:
        footer(canvas, f"↑/↓ choose · Enter join · w watch · a join by address · {LOCK} needs a "
               "passphrase · Esc back")


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
    if key == "escrow":
        return f"‹ {'on' if form.escrow else 'off'} ›"
    if key == "deal":  # (a table with no other person deals fair: client/hosting.py)
        alone = form.seats - form.bots <= 1
        return "‹ fair (only you) ›" if alone else f"‹ {'locked' if form.blind else 'fair'} ›"
    if key == "address":
        if not form.address:
            return "‹ every interface ›"
        return f"‹ {form.address}{' (this machine only)' if form.address == LOOPBACK else ''} ›"
    return ""


HOST_LABELS = {
    "name": "Table name", "preset": "Rules", "seats": "Seats (you included)",
    "bots": "Seats for computer players", "level": "Computer level", "passphrase": "Passphrase",
    "escrow": "Escrow", "address": "Serve on", "deal": "Deal",
}


# the README's trust model, in a line each
ESCROW_OFF = ("No escrow: no group of players can see another's tiles; when someone leaves "
              "mid-hand, the tiles nobody holds are re-shuffled.")
# the locked deck (issue 29), in a line each
DEAL_LOCKED = ("Locked deal: nobody, you included, can see another person's tiles until they "
               "are played.")
DEAL_LOCKED_BOTS = ("Locked deal: nobody, you included, can see another person's tiles; you do "
                    "see your computer players' tiles, which your program opens for them.")
DEAL_FAIR = ("Fair deal: every player helps shuffle and checks each hand at its end; your "
             "program works out every hand.")
DEAL_ALONE = ("Fair deal: you are the only person at this table, so there is nobody to hide "
              "tiles from; your program works out every hand.")
ESCROW_ON = ("Escrow: when someone leaves mid-hand, the same deal plays on, but all the other "
             "players together could see every hand.")


def seated(humans: int, bots: int) -> str:
    """Who a table is for: 'you and 1 computer player', 'you, 2 players from the LAN and 1
    computer player' (``humans``: the people besides the host)."""
    people = [f"{plural(humans, 'player')} from the LAN"] if humans else []
    return listed(["you", *people, *([plural(bots, "computer player")] if bots else [])])


def draw_host_form(form: HostForm, canvas: Canvas, rules: Rules | None = None) -> None:
    header(canvas, "Host a table on the LAN")
    y = 2
    for i, key in enumerate(HOST_ROWS):
        selected = i == form.row
        if key == "open":
            style = "class:menu.selected" if selected else "class:key"
            canvas.put(4, y + 1, "  Open the table  ", style)
            continue
        col = min(28, max(12, canvas.width - 30))
        canvas.put(2, y, f"{fit(HOST_LABELS[key], col):>{col}}  ")
        canvas.put(col + 4, y, fit(host_value(form, key, selected), canvas.width - col - 5),
                   "class:menu.selected" if selected else "")
        y += 1
    humans = form.seats - form.bots - 1
    try:
        game = describe_game(rules or Rules.preset(form.preset))
    except ValueError:
        game = form.preset
    y = put_wrapped(canvas, 2, y + 3, f"{game}, for {seated(humans, form.bots)}", "class:dim")
    deal = DEAL_ALONE if not humans else DEAL_FAIR if not form.blind else \
        DEAL_LOCKED_BOTS if form.bots else DEAL_LOCKED
    escrow = ESCROW_ON if form.escrow else ESCROW_OFF
    # What the deal and escrow choices mean, the chosen row's first; on a short screen a note
    # that would push the error message (or itself) off the screen waits for its row's turn.
    notes = (escrow, deal) if HOST_ROWS[form.row] == "escrow" else (deal, escrow)
    message_rows = min(2, len(wrap(form.message, canvas.width - 3))) if form.message else 0
    for note in notes:
        rows = min(2, len(wrap(note, canvas.width - 3)))
        if y + rows + message_rows <= canvas.height - 1:
            y = put_wrapped(canvas, 2, y, note, "class:dim", rows=2)
    if form.message:
        put_wrapped(canvas, 2, y, form.message, "class:warn", rows=2)
    footer(canvas, "↑/↓ choose · ←/→ change · type the name or passphrase · Enter open"
           " · Esc back")


def draw_waiting(lan: LanView, canvas: Canvas, tick: int) -> None:
    """Before the first deal: where others join, who sits where; or why the table went away."""
    header(canvas, f"Table {lan.table}", "q leave")
    y = 2
    if lan.closed:
        put_wrapped(canvas, 2, y, lan.closed, "class:warn", rows=canvas.height - 4)
        footer(canvas, "Enter or q: back")
        return
    y = put_wrapped(canvas, 2, y, f"{SPINNER[tick % len(SPINNER)]} {lan.status}", "class:title",
                    indent=2, rows=3) + 1
    if lan.address:
        y = put_wrapped(canvas, 2, y, f"Others join from the lobby, or with `{command('join')}` "
                        "and:", "class:dim")
        y = _address(canvas, y, lan.short_address or lan.address, "class:key")
        y = put_wrapped(canvas, 2, y, f"host fingerprint {lan.fingerprint} (their screen shows "
                        "it too)", "class:dim")
        if lan.short_address:
            canvas.put(2, y, "or with the full key:", "class:dim")
            y = _address(canvas, y + 1, lan.address, "class:dim")
        y += 1
    canvas.put(2, y, "Seats", "class:title")
    for seat in range(lan.seats):
        info = next((s for s in lan.roster if s.seat == seat), None)
        if info is None:
            kept = lan.kept.get(seat)
            text, style = f"(kept for {kept})" if kept else "(free)", "class:dim"
        else:
            kinds = {"host": "host", "bot": "computer", "human": "LAN player"}
            kind = kinds.get(info.kind, info.kind)
            text = f"{info.name} ({kind})" + ("" if info.connected else " · away")
            style = ""
        canvas.put(4, y + 1 + seat, fit(f"{seat + 1}. {text}", canvas.width - 6), style)
    footer(canvas, "the match starts when every seat is taken · q leave · ? help")


def _address(canvas: Canvas, y: int, address: str, style: str) -> int:
    """An address to type, at column 4; one too long for the screen goes on over more rows
    (it has no spaces to break at). Returns the next free row."""
    room = max(8, canvas.width - 6)
    for start in range(0, len(address), room):
        canvas.put(4, y, address[start : start + room], style)
        y += 1
    return y


def verification_line(lan: LanView, hand: int) -> tuple[str, str]:
    """(text, style) saying whether the hand's deal verified."""
    result = lan.verified.get(hand)
    if result is None and lan.arrived_after is not None and hand <= lan.arrived_after:
        return "Deal check: not checked here (the hand ended before you arrived)", "class:dim"
    if result is None:
        return "Deal check: checking…", "class:dim"
    ok, detail = result
    if ok:
        return f"Deal check: verified ✓ ({detail})", "class:ok"
    return f"Deal check: FAILED: {detail}", "class:warn"
