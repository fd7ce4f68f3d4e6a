"""The end of a hand and of a match, the score sheet and the scrollable log.

The end-of-hand screen keeps the hand's final board (its last tile highlighted) above the words
saying how it ended, the tiles left, the points itemised and the match score.
"""

from __future__ import annotations

from lanomino.engine import HandEnded, MatchEnded, Observation, TilePlayed
from lanomino.narrate import (
    Cast,
    event_line,
    event_lines,
    hand_end_sentence,
    hand_end_short,
    hand_points,
    match_end_sentence,
    plural,
    standings,
    with_points,
)
from lanomino.ui.chrome import fit, footer, wrap
from lanomino.ui.lobby import verification_line
from lanomino.ui.render import Canvas, tile_fragments
from lanomino.ui.state import UiState
from lanomino.ui.table import cast_of, draw_board, table_header


def draw_hand_end(ui: UiState, canvas: Canvas) -> None:
    """The summary after a hand (and after the match): drawn from the hand's last observation,
    so a LAN table's next deal does not show through."""
    now = ui.obs
    assert now is not None
    result = ui.hand_result
    final = ui.view.final_for(result.hand) if result is not None else None
    # a LAN table may deal the next hand before Enter: then only the hand's last view will do
    obs = final if final is not None else now
    shows_hand = final is not None or now.phase != "play"
    table_header(ui, canvas, obs, None if result is None else result.hand)
    cast = cast_of(ui, obs)
    w, h = canvas.width, canvas.height
    words = _words(ui, obs, result, w)
    board_rows = h - 2 - len(words)
    y = 1
    last = next((e for e in reversed(obs.history) if isinstance(e, TilePlayed)), None)
    if shows_hand and last is not None and board_rows >= 5:
        draw_board(ui, obs, canvas, y, y + board_rows - 1)
        y += board_rows
        canvas.put(0, y - 1, "─" * w, "class:dim")
    else:
        if shows_hand and last is not None:  # no room for the board: name the last play
            words.insert(0, [("class:dim", fit(f"Last play: {event_line(last, cast)}", w - 2))])
        y += max(0, (h - 2 - len(words)) // 3)
    for row in words[: h - 1 - y]:
        canvas.put_fragments(1, y, row)
        y += 1
    footer(canvas, _hint(ui))


Row = list[tuple[str, str]]


def _words(ui: UiState, obs: Observation, result: HandEnded | None, width: int) -> list[Row]:
    """The summary's rows: how the hand ended, the tiles left, the points, the match."""
    cast = cast_of(ui, obs)
    rows: list[Row] = []

    def text(line: str, style: str = "", indent: int = 0) -> None:
        parts = wrap(line, width - 2 - indent)
        if len(parts) > 1:  # the lines after the first stand two columns further in
            parts = parts[:1] + wrap(" ".join(parts[1:]), width - 4 - indent)
        for i, part in enumerate(parts):
            rows.append([("", " " * (indent + (2 if i else 0))), (style, part)])

    match = ui.match_result
    gone = ui.lan.departures if ui.lan is not None else {}
    left = [s for s in range(obs.players) if not obs.active[s] or s in gone]
    if result is not None:
        rows.append([("class:title", f"Hand {result.hand} is over")])
        if not (match is not None and result.end == "resigned"):
            text(hand_end_sentence(result, cast), indent=2)
        rows.append([("class:title", "Tiles left in each hand:")])
        name_w = min(14, max(len(n) for n in cast.names) + 1)
        per_row = max(1, (width - 4 - name_w - 9) // 6)  # tiles per row, room left for the pips
        for seat, tiles in enumerate(result.hands):
            pips = result.pips_left[seat]
            rest = " left the table" if pips is None else f" {plural(pips, 'pip')}"
            for start in range(0, max(1, len(tiles)), per_row):
                first = start == 0
                name = fit(cast.name(seat), name_w - 1) if first else ""
                row: Row = [("", f"  {name:<{name_w}}")]
                for t in tiles[start : start + per_row]:
                    row += [*tile_fragments(t.high, t.low, ui.settings.colour), ("", " ")]
                if start + per_row >= len(tiles):
                    row.append(("class:dim", rest))
                rows.append(row)
        text("Points this hand: " + " · ".join(hand_points(result, cast)))
        if ui.lan is not None:
            line, style = verification_line(ui.lan, result.hand)
            text(line, style)
    if match is not None:
        text(_match_end(ui, match, cast, left), "class:winner")
        ranked = standings(match, cast, left)
        place_w = max(len(place) for place, _, _ in ranked) + 1
        for place, side, points in ranked:
            rows.append([("", f"  {place:<{place_w}}{fit(side, 28):<28} {points:4} pts")])
        if ui.lan is not None and ui.lan.rematch:
            text(f"{ui.lan.rematch} offers a rematch, everyone in the same seat: r to play on",
                 "class:title")
    else:
        scores = " · ".join(with_points(cast.side_name(s), p) for s, p in enumerate(obs.scores))
        target = f" (playing to {obs.rules.target})" if obs.rules.target else ""
        text(f"Match score: {scores}{target}")
    return rows


def _match_end(ui: UiState, match: MatchEnded, cast: Cast, left: list[int]) -> str:
    """Who won; a LAN match its host left without a last word says so ("the host left…")."""
    ended = ui.lan.ended if ui.lan is not None else ""
    if not ended or match.winner is None:
        return match_end_sentence(match, cast, left)
    return f"The match is over: {cast.side(match.winner).text} won because {ended}."


def _hint(ui: UiState) -> str:
    panels = "s scores · l log"
    if ui.resigned and ui.match_result is None:
        more = "q leave" if ui.lan else "f finish the match now · q menu"
        return f"the next hand starts by itself · {more} · {panels}"
    if ui.lan is not None and ui.match_result is None:
        return f"Enter: back to the table (the next hand is being dealt) · {panels} · ? help"
    what = "back to the menu" if ui.match_result else "deal the next hand"
    again = ("r play again · " if ui.lan is not None and ui.match_result is not None
             and not ui.lan.ended else "")
    return f"Enter: {what} · {again}{panels} · ? help"


# ----- the score sheet and the log ---------------------------------------------------------------


def draw_panel(ui: UiState, canvas: Canvas) -> None:
    """The score sheet (s) or the whole log (l), over the table; ↑/↓ scroll, Esc closes."""
    obs = ui.obs
    assert obs is not None
    table_header(ui, canvas, obs, None if ui.hand_result is None else ui.hand_result.hand)
    rows = score_sheet(ui, obs, canvas.width - 2) if ui.view.panel == "sheet" else \
        _log_rows(ui, obs, canvas.width - 2)
    room = canvas.height - 3
    if ui.view.panel == "log":  # newest at the bottom; scroll goes back in time
        end = max(0, len(rows) - ui.view.scroll)
        shown = rows[max(0, end - room) : end]
    else:
        top = min(ui.view.scroll, max(0, len(rows) - room))
        shown = rows[top : top + room]
    for i, (style, line) in enumerate(shown):
        canvas.put(1, 1 + i, line, style)
    what = "score sheet" if ui.view.panel == "sheet" else "log"
    more = " · ↑/↓ scroll" if len(rows) > room else ""
    footer(canvas, f"the {what}{more} · Esc or {ui.view.panel[0]} back to the table")


def _log_rows(ui: UiState, obs: Observation, width: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for line in event_lines(ui.view.events(), cast_of(ui, obs), ui.view.bot_made):
        style = "class:title" if line.startswith("Hand ") else ""
        for i, part in enumerate(wrap(line, width - 2)):
            rows.append((style, ("  " if i else "") + part))
    return rows or [("class:dim", "Nothing has happened yet.")]


def score_sheet(ui: UiState, obs: Observation, width: int) -> list[tuple[str, str]]:
    """Every finished hand of the match: how it ended and each side's points, with totals."""
    cast = cast_of(ui, obs)
    sides = list(range(cast.sides))
    col = max(5, min(12, (width - 24) // max(1, len(sides))))
    how_w = max(8, width - 6 - col * len(sides))
    how_w = min(how_w, 24)

    def line(first: str, how: str, cells: list[str]) -> str:
        return f"{first:>4}  {fit(how, how_w - 1):<{how_w}}" + "".join(
            f"{fit(c, col - 1):>{col}}" for c in cells)

    titles = [cast.side_name(s) for s in sides]
    if cast.rules.partnership:  # a team by its players' names, short: "You/Ben"
        titles = ["/".join(cast.name(m) for m in (s, s + 2)) for s in sides]
    rows = [("class:title", line("Hand", "How it ended", titles))]
    for ended in obs.results:
        rows.append(("", line(str(ended.hand), hand_end_short(ended, cast),
                              [str(ended.points[s]) for s in sides])))
    if not obs.results:
        rows.append(("class:dim", "  No hand has finished yet."))
    rows.append(("class:title", line("", "Total" + (f" (to {obs.rules.target})"
                                                       if obs.rules.target else ""),
                                     [str(obs.scores[s]) for s in sides])))
    match: MatchEnded | None = ui.match_result
    if match is not None:
        rows.append(("", ""))
        rows.append(("class:winner", fit(match_end_sentence(match, cast), width)))
    return rows
