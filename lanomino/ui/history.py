"""History and stats, and the replay viewer: plain views, text and drawing (no prompt_toolkit).

The views hold plain data: the history rows and stats are the JSON forms that ``lanomino history
--json`` and ``lanomino stats --json`` print (built by the store), and a replay is a list of
frames per hand, each with every seat's tiles revealed. The same text functions serve the
command line and the client, so both say the same thing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from lanomino.engine import Event, Rules, Tile
from lanomino.engine.errors import EngineError
from lanomino.ui.board import draw_line, line_view
from lanomino.ui.chrome import fit, footer, header, wrap
from lanomino.ui.render import Canvas, tile_fragments

# ----- text shared by the command line and the client -----------------------------------------


def rules_label(spec: dict[str, Any]) -> str:
    """'Draw 100', 'Pairs Block 100', 'All Fives 1 hand' (or the preset name if unreadable)."""
    try:
        rules = Rules.from_spec(dict(spec))
    except (EngineError, TypeError, ValueError):
        return str(spec.get("preset", "?"))
    return rules.short_name()


def result_label(row: dict[str, Any]) -> str:
    helped = row.get("assists") or ()
    label = _result(row)
    return f"{label} ({'+'.join(helped)})" if helped else label


def _result(row: dict[str, Any]) -> str:
    scores = "-".join(str(s) for s in row["scores"])
    if not row["finished"]:
        if row.get("abandoned") and row["you_won"] is not None:  # (decided when the host left)
            return f"{'won' if row['you_won'] else 'lost'} {scores} (the host left)"
        return f"{'abandoned' if row.get('abandoned') else 'unfinished'} {scores}"
    if row["you_won"] is True:
        return f"won {scores}"
    if row["you_won"] is False:
        return f"lost {scores}"
    return f"over {scores}"


def check_label(row: dict[str, Any]) -> str:
    if row["verified"] is None:
        return "-"
    if not row["verified"]:
        return "FAILED"
    if row.get("hands") == 0:  # (a match left before its first hand: nothing was checked)
        return "no hands"
    return "verified" if row["kind"] == "transcript" else "replays"


def players_label(row: dict[str, Any]) -> str:
    return ", ".join(p["name"] for p in row["players"])


def date_label(row: dict[str, Any], wide: bool) -> str:
    shape = "%Y-%m-%d %H:%M" if wide else "%m-%d %H:%M"
    return time.strftime(shape, time.localtime(row["started_at"]))


# id, date, table, players, rules, result, check: the widths for a line of at least so many
# columns (78 fits an 80-column terminal); a width of 0 leaves the column out
LAYOUTS = ((78, (4, 11, 7, 14, 13, 15, 8)), (0, (4, 11, 0, 12, 12, 14, 0)))


def _widths(width: int) -> tuple[int, ...]:
    return next(cols for least, cols in LAYOUTS if width >= least)


def history_header(width: int = 78) -> str:
    """The column titles for a line of ``width`` columns."""
    titles = ("ID", "Date", "Table", "Players", "Rules", "Result", "Checked")
    return _columns(titles, _widths(width))


def history_row(row: dict[str, Any], width: int = 78) -> list[str]:
    """One match in lines of at most ``width`` columns (78 at most): what does not fit its
    column goes on to the next line under it, never cut ("lost 11-110" / "(hint+undo)")."""
    cells = (f"#{row['id']}", date_label(row, False), row["table"], players_label(row),
             rules_label(row["rules"]), result_label(row), check_label(row))
    widths = _widths(width)
    parts = [wrap(text, size) if size else [""] for text, size in zip(cells, widths, strict=True)]
    return [_columns(tuple(p[i] if i < len(p) else "" for p in parts), widths)
            for i in range(max(len(p) for p in parts))]


def _columns(cells: tuple[str, ...], widths: tuple[int, ...]) -> str:
    out = [fit(text, width).ljust(width)
           for text, width in zip(cells, widths, strict=True) if width]
    return " ".join(out).rstrip()


def match_details(row: dict[str, Any]) -> list[str]:
    """A few lines about one match: players with their peer ids, rules, result, verification."""
    lines = [f"Match #{row['id']} · {date_label(row, True)} · {row['table']} · "
             f"{row['hands']} hand{'s' if row['hands'] != 1 else ''} · {rules_label(row['rules'])}"]
    for p in row["players"]:
        who = " (you)" if p["you"] else f" ({p['level']})" if p["level"] else ""
        lines.append(f"  seat {p['seat'] + 1}: {p['name']}{who}  {p['peer_id']}")
    lines.append(f"  {result_label(row)} · {row['verification']}")
    return lines


def _won_how(stats: dict[str, Any]) -> str:
    """How the hands you won ended, adding up to them: '3 by domino, 1 by block, 1 when the
    others left' (a way nobody won by is left out, but for domino and block)."""
    ways = [f"{stats['won_by_domino']} by domino", f"{stats['won_by_block']} by block"]
    if stats.get("won_at_target"):
        ways.append(f"{stats['won_at_target']} at the target")
    if stats.get("won_by_resignation"):
        ways.append(f"{stats['won_by_resignation']} when the others resigned or left")
    return ", ".join(ways)


def stats_lines(stats: dict[str, Any]) -> list[str]:
    """Your stats in plain lines (fits 78 columns)."""
    if not stats["matches"] and not stats["hands"] and not stats.get("played"):
        return ["No matches logged yet: finish a game and it shows up here."]
    rate = f" ({stats['win_rate']:.0%})" if stats["matches"] else ""
    if stats.get("played", 0) > stats["matches"] > 0:  # (wins count the finished matches)
        rate = f" of {stats['matches']}{rate}"
    lines = [
        f"{matches_count(stats)} · won {stats['wins']}{rate} · "
        f"longest winning streak {stats['longest_winning_streak']}",
        f"Hands {stats['hands']} · you won {stats['hands_won']}: {_won_how(stats)} · "
        f"{stats['points_per_hand']:.1f} points per hand",
        "Most played tiles: " + (", ".join(f"{t['tile']} ×{t['times']}"
                                           for t in stats["most_played_tiles"]) or "none yet"),
        "Most played numbers: " + (", ".join(f"{n['number']} ×{n['times']}"
                                             for n in stats["most_played_numbers"]) or "none yet"),
        "",
        f"{'Against':34} {'Matches':>7} {'Wins':>5} {'Win rate':>9}",
    ]
    for t in stats["levels"]:
        lines.append(_tally(f"computer level {t['key']}", t))
    for t in stats["opponents"]:
        if t["key"].startswith("bot:"):
            continue  # shown by level above
        lines.append(_tally(f"{t['name']} ({t['key']})", t))
    return lines


def matches_count(stats: dict[str, Any]) -> str:
    """'Matches 5 (1 not finished)': every match you sat at, as History lists them (wins count
    the finished ones), and the ones watched."""
    played, finished = max(stats.get("played", 0), stats["matches"]), stats["matches"]
    text = f"Matches {played}"
    if played > finished:
        text += f" ({played - finished} not finished)"
    if stats.get("watched"):
        text += f", {stats['watched']} watched"
    return text


def _tally(label: str, t: dict[str, Any]) -> str:
    label = label if len(label) <= 34 else label[:33] + "…"
    return f"{label:34} {t['matches']:>7} {t['wins']:>5} {t['win_rate']:>9.0%}"


# ----- the replay viewer ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """The table after one step of a logged hand, every hand revealed."""

    hand: int  # 1-based, counting void deals
    move: int  # 0: just dealt
    hands: tuple[tuple[Tile, ...], ...]  # every seat's tiles
    line: tuple[Event, ...]  # this hand's public events (draws the line)
    boneyard: int
    scores: tuple[int, ...]  # per side, the match so far
    turn: int | None  # the seat to move, None when the hand is over
    text: tuple[str, ...]  # what just happened


@dataclass
class ReplayView:
    """A logged match to step through: ``→/←`` a move, ``↓/↑`` a hand."""

    title: str
    names: tuple[str, ...]
    rules: Rules
    hands: tuple[tuple[ReplayFrame, ...], ...]
    hand: int = 0
    move: int = 0
    quit_on_leave: bool = False  # opened by `lanomino replay ID`: q ends the program

    def frame(self) -> ReplayFrame:
        return self.hands[self.hand][self.move]

    def step(self, delta: int) -> None:
        """One move on or back, crossing into the next or previous hand."""
        move = self.move + delta
        if move >= len(self.hands[self.hand]):
            if self.hand + 1 < len(self.hands):
                self.hand, self.move = self.hand + 1, 0
            return
        if move < 0:
            if self.hand > 0:
                self.hand -= 1
                self.move = len(self.hands[self.hand]) - 1
            return
        self.move = move

    def last(self) -> None:
        """The very last step of the match."""
        self.hand = len(self.hands) - 1
        self.move = len(self.hands[self.hand]) - 1

    def jump(self, delta: int) -> None:
        """The start of the next or previous hand."""
        self.hand = max(0, min(len(self.hands) - 1, self.hand + delta))
        self.move = 0


def draw_replay(view: ReplayView, canvas: Canvas, colour: bool) -> None:
    f = view.frame()
    w, h = canvas.width, canvas.height
    moves = view.hands[view.hand][-1].move  # (a re-shuffled hand's frames start past move 0)
    where = f"hand {view.hand + 1}/{len(view.hands)} · move {f.move}/{moves}"
    header(canvas, f"{view.title} · {where}"
         f" · boneyard {f.boneyard}", "q quit")
    y = 1
    for seat, tiles in enumerate(f.hands):
        turn = f.turn == seat
        side = seat % 2 if view.rules.partnership else seat
        canvas.put(0, y, "▶" if turn else " ", "class:turn")
        canvas.put(2, y, fit(view.names[seat], 14), "class:turn" if turn else "")
        canvas.put(17, y, f"{f.scores[side]:4} pts")
        x = 27
        per_row = max(1, (w - x) // 6)
        for i, t in enumerate(tiles):
            if i and i % per_row == 0:
                y += 1
            canvas.put_fragments(x + (i % per_row) * 6, y, tile_fragments(t.high, t.low, colour))
        if not tiles:
            canvas.put(x, y, "(no tiles)", "class:dim")
        y += 1
    canvas.put(0, y, "─" * w, "class:dim")
    text_rows = 3
    line_h = max(3, h - y - 2 - text_rows - 1)
    canvas.blit(draw_line(line_view(f.line), w, line_h, colour), 0, y + 1)
    ty = y + 1 + line_h
    canvas.put(0, ty, "─" * w, "class:dim")
    for i, text in enumerate(last_said(f.text, max(10, w - 4), text_rows)):
        canvas.put(1, ty + 1 + i, text)
    footer(canvas, "←/→ move · ↑/↓ hand · Home/End first/last · q quit")


def last_said(texts: tuple[str, ...], width: int, rows: int) -> list[str]:
    """The last of ``texts`` that fit in ``rows`` rows, wrapped, each from its start (a sentence
    never shows from its middle); one longer than the room is shortened at its end."""
    shown: list[str] = []
    for text in reversed(texts):
        lines = wrap(text, width)
        if len(shown) + len(lines) > rows:
            if not shown:  # the newest alone is too long: its start, shortened
                shown = lines[: rows - 1] + [fit(" ".join(lines[rows - 1 :]), width)]
            break
        shown = lines + shown
    return shown


# ----- the History and stats screen --------------------------------------------------------------


@dataclass
class HistoryView:
    """What the History and stats screen shows (filled by the controller from the play log)."""

    rows: list[dict[str, Any]] = field(default_factory=list)  # newest first, as history --json
    stats: dict[str, Any] | None = None  # as stats --json
    tab: str = "matches"  # or "stats"
    selected: int = 0
    message: str = ""

    def move(self, delta: int) -> None:
        if self.rows:
            self.selected = max(0, min(len(self.rows) - 1, self.selected + delta))


def draw_history(view: HistoryView, canvas: Canvas) -> None:
    w, h = canvas.width, canvas.height
    header(canvas, "History and stats", "Esc back")
    x = 1
    for tab, label in (("matches", " Matches "), ("stats", " Stats ")):
        x = canvas.put(x, 1, label, "class:menu.selected" if view.tab == tab else "class:dim") + 1
    said = [("class:warn", line) for line in wrap(view.message, w - 2)] if view.message else []
    if view.tab == "stats":
        lines = stats_lines(view.stats) if view.stats else ["No stats yet."]
        shown = said + [("class:title" if line.startswith("Against") else "", part)
                        for line in lines for part in wrap(line, w - 2)]
        for i, (style, part) in enumerate(shown[: h - 4]):
            canvas.put(1, 3 + i, part, style)
        footer(canvas, "Tab matches · Esc back")
        return
    if not view.rows:
        empty = ("class:dim", "No matches logged yet: finish a game and it shows up here.")
        for i, (style, line) in enumerate([*said, empty]):
            canvas.put(1, 3 + i, line, style)
        footer(canvas, "Tab stats · Esc back")
        return
    canvas.put(1, 2, history_header(w - 2), "class:title")
    details = said + [("class:dim" if i else "", part)
                      for i, line in enumerate(match_details(view.rows[view.selected]))
                      for part in wrap(line, w - 4 if i else w - 2)]
    details = details[: max(1, h - 6)]  # (a row of the list stays in view)
    room = max(1, h - 4 - len(details) - 1)
    listed = [(n, line) for n, row in enumerate(view.rows) for line in history_row(row, w - 2)]
    mine = [i for i, (n, _) in enumerate(listed) if n == view.selected]
    top = max(0, min(mine[0] - room // 2, len(listed) - room))
    top = max(top, mine[-1] - room + 1)  # the selected match whole, when it fits
    for y, (n, line) in enumerate(listed[top : top + room]):
        canvas.put(1, 3 + y, line, "class:menu.selected" if n == view.selected else "")
    dy = h - 1 - len(details)
    canvas.put(0, dy - 1, "─" * w, "class:dim")
    for i, (style, line) in enumerate(details):
        indent = 3 if style == "class:dim" and not line.startswith("  ") else 1
        canvas.put(indent, dy + i, line, style)
    footer(canvas, "↑/↓ choose · Enter replay · Tab stats · Esc back")
