"""Pure drawing: a character canvas, dominoes, the line of play and the hand.

Everything here maps values to styled text; nothing reads the terminal. Styles are class names
("class:tile,pip.5,tile.selected"), resolved by ``ui/style.py``; with ``colour=False`` no colour
classes are emitted, so highlighting relies on reverse/bold/underline alone.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from lanomino.engine import End, Event, Tile, TilePlayed

Fragments = list[tuple[str, str]]


class Canvas:
    """A width x height grid of (character, style) cells; text outside is clipped."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = [[(" ", "")] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> int:
        """Write ``text`` at (x, y); returns the x after it."""
        col = x
        for ch in text:
            wide = unicodedata.east_asian_width(ch) in "WF"  # 🔒 takes two cells on screen
            if 0 <= y < self.height and 0 <= col < self.width - wide:
                self.cells[y][col] = (ch, style)
                if wide:
                    self.cells[y][col + 1] = ("", style)
            col += 1 + wide
        return col

    def put_fragments(self, x: int, y: int, fragments: Fragments) -> int:
        for style, text in fragments:
            x = self.put(x, y, text, style)
        return x

    def blit(self, other: Canvas, x: int, y: int) -> None:
        for dy, row in enumerate(other.cells):
            if 0 <= y + dy < self.height:
                for dx, cell in enumerate(row):
                    if 0 <= x + dx < self.width and cell != (" ", ""):
                        self.cells[y + dy][x + dx] = cell

    def text(self) -> str:
        """The plain characters, rows joined by newlines, trailing spaces cut."""
        return "\n".join("".join(ch for ch, _ in row).rstrip() for row in self.cells)

    def fragments(self) -> Fragments:
        """Styled runs, rows separated by "\\n" (the form prompt_toolkit draws)."""
        out: Fragments = []
        for y, row in enumerate(self.cells):
            style, run = None, ""
            for ch, st in row:
                if st != style and run:
                    out.append((style or "", run))
                    run = ""
                style = st
                run += ch
            if run:
                out.append((style or "", run))
            if y < self.height - 1:
                out.append(("", "\n"))
        return out


# ----- one domino ----------------------------------------------------------------------------


def _classes(*names: str) -> str:
    """One style string for several class names ("class:tile,tile.selected")."""
    return "class:" + ",".join(n for n in names if n)


def tile_fragments(a: int, b: int, colour: bool, extra: str = "") -> Fragments:
    """A domino lying flat, ``a`` on the left: ``[6|4]``."""
    base = _classes("tile", extra)
    return [
        (base, "["),
        (_classes("tile", extra, f"pip.{a}" if colour else ""), str(a)),
        (base, "|"),
        (_classes("tile", extra, f"pip.{b}" if colour else ""), str(b)),
        (base, "]"),
    ]


def standing_tile(canvas: Canvas, x: int, y: int, a: int, b: int, colour: bool, extra: str = "",
                  tall: bool = False) -> None:
    """A domino standing up at (x, y), ``a`` on top. ``tall`` makes it four rows (a corner)."""
    base = _classes("tile", extra)
    canvas.put(x, y, "╭", base)
    canvas.put(x + 1, y, str(a), _classes("tile", extra, f"pip.{a}" if colour else ""))
    canvas.put(x + 2, y, "╮", base)
    canvas.put(x, y + 1, "├─┤", base)
    row = y + 2
    if tall:
        canvas.put(x, row, "│ │", base)
        row += 1
    canvas.put(x, row, "╰", base)
    canvas.put(x + 1, row, str(b), _classes("tile", extra, f"pip.{b}" if colour else ""))
    canvas.put(x + 2, row, "╯", base)


# ----- the line of play ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the line as the reader sees it: ``near`` toward the start of its arm."""

    near: int
    far: int
    is_double: bool
    spinner: bool = False


@dataclass(frozen=True, slots=True)
class LineView:
    """The line rebuilt from played tiles: the main chain left to right, and the spinner arms."""

    chain: tuple[Placed, ...]
    up: tuple[Placed, ...] = ()
    down: tuple[Placed, ...] = ()

    @property
    def spinner(self) -> Placed | None:
        return next((p for p in self.chain if p.spinner), None)


def line_view(history: tuple[Event, ...] | list[Event]) -> LineView:
    """Rebuild the drawing order of the line from this hand's ``TilePlayed`` events."""
    left: list[Placed] = []  # grows leftward: left[-1] is the left end
    right: list[Placed] = []
    arms: dict[End, list[Placed]] = {End.UP: [], End.DOWN: []}
    first: Placed | None = None
    for event in history:
        if not isinstance(event, TilePlayed):
            continue
        t = event.tile
        if event.first:
            a, b = (t.high, t.low) if event.end is End.LEFT else (t.low, t.high)
            first = Placed(a, b, t.is_double, event.spinner)
            continue
        assert first is not None
        if event.end is End.LEFT:
            n = left[-1].near if left else first.near
            left.append(Placed(t.other(n), n, t.is_double, event.spinner))
        elif event.end is End.RIGHT:
            n = right[-1].far if right else first.far
            right.append(Placed(n, t.other(n), t.is_double, event.spinner))
        else:
            arm = arms[event.end]
            spin = next((p for p in [*left, first, *right] if p.spinner), first)
            n = arm[-1].far if arm else spin.near
            arm.append(Placed(n, t.other(n), t.is_double))
    if first is None:
        return LineView(())
    chain = (*reversed(left), first, *right)
    return LineView(tuple(chain), tuple(arms[End.UP]), tuple(arms[End.DOWN]))


def _width(p: Placed) -> int:
    return 3 if p.is_double else 5


def draw_chain(chain: tuple[Placed, ...], width: int, height: int, colour: bool) -> Canvas:
    """The chain laid left to right, turning a corner (a standing tile) at each edge.

    Tracks are three rows apart: flat tiles sit on the middle row, doubles stand across it.
    A chain that fits on one track is centred.
    """
    canvas, _ = _draw_chain(chain, width, height, colour)
    return canvas


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where the spinner landed in a drawn chain: its left column, middle row and track."""

    x: int
    mid: int
    track: int
    corner: bool  # it stands at a corner (tall): no arms can leave it


def _draw_chain(chain: tuple[Placed, ...], width: int, height: int, colour: bool,
                top: int = 0) -> tuple[Canvas, _Spot | None]:
    """``draw_chain`` with the first track's middle row at ``top + 1``; also where the spinner is."""
    canvas = Canvas(width, height)
    spot: _Spot | None = None
    if not chain:
        return canvas, None
    total = sum(_width(p) for p in chain)
    x = max(0, (width - total) // 2) if total <= width else 0
    mid, rightward, track = top + 1, True, 0
    for p in chain:
        w = _width(p)
        # keep three columns free at each edge for the standing tile of a corner
        fits = x + w <= width - 3 if rightward else x - w + 1 >= 3
        if not fits and total > width:
            # turn: this tile stands where the track ends and the next track runs back.
            col = x if rightward else x - 2
            standing_tile(canvas, col, mid, p.near, p.far, colour, _spin(p), tall=True)
            if p.spinner:
                spot = _Spot(col, mid, track, True)
            mid += 3
            track += 1
            rightward = not rightward
            x = col - 1 if not rightward else col + 3
            continue
        left = x if rightward else x - w + 1
        if rightward:
            _draw_flat(canvas, x, mid, p.near, p.far, p, colour)
            x += w
        else:
            _draw_flat(canvas, left, mid, p.far, p.near, p, colour)
            x -= w
        if p.spinner:
            spot = _Spot(left, mid, track, False)
    if mid + 1 >= height:
        canvas.put(max(0, width - 14), height - 1, " …line goes on", "class:dim")
    return canvas, spot


def _tracks(chain: tuple[Placed, ...], width: int) -> int:
    """How many tracks ``draw_chain`` needs for ``chain`` at ``width``."""
    canvas, _ = _draw_chain(chain, width, 3 * len(chain) + 3, colour=False)
    rows = [i for i, line in enumerate(canvas.text().splitlines()) if line.strip()]
    return (rows[-1] // 3) + 1 if rows else 1


def _spin(p: Placed) -> str:
    return "tile.spinner" if p.spinner else ""


def _draw_flat(canvas: Canvas, x: int, mid: int, a: int, b: int, p: Placed, colour: bool) -> None:
    if p.is_double:
        standing_tile(canvas, x, mid - 1, a, b, colour, _spin(p))
    else:
        canvas.put_fragments(x, mid, tile_fragments(a, b, colour, _spin(p)))


def arm_fragments(arm: tuple[Placed, ...], colour: bool) -> Fragments:
    out: Fragments = []
    for p in arm:
        out += tile_fragments(p.near, p.far, colour)
    return out


def _arm_rows(arm: tuple[Placed, ...]) -> int:
    """Rows an arm takes drawn upright: two per tile, one per double lying across."""
    return sum(1 if p.is_double else 2 for p in arm)


def draw_arm(canvas: Canvas, arm: tuple[Placed, ...], x: int, y: int, step: int, room: int,
             colour: bool) -> None:
    """An arm of the spinner drawn upright in column ``x`` (the spinner's left edge), starting at
    row ``y`` next to the spinner and growing by ``step`` (-1: up, +1: down) for at most ``room``
    rows. When it does not fit, the tiles next to the spinner are left out (the open end is what
    matters) and ``+N`` beside the arm says how many."""
    shown, row = list(arm), y
    while shown and _arm_rows(tuple(shown)) > room:
        shown.pop(0)
    if len(shown) < len(arm):
        canvas.put(x + 5, y, f"+{len(arm) - len(shown)}", "class:dim")
        if room > _arm_rows(tuple(shown)):
            canvas.put(x + 1, y, "⋮", "class:dim")
            row += step
    for p in shown:
        if p.is_double:  # a double lies across the arm
            canvas.put_fragments(x - 1, row, tile_fragments(p.near, p.far, colour))
            row += step
            continue
        near_row, far_row = row, row + step
        base = _classes("tile")
        top, bottom = min(near_row, far_row), max(near_row, far_row)
        top_n, bottom_n = (p.far, p.near) if step < 0 else (p.near, p.far)
        canvas.put(x, top, "╭", base)
        canvas.put(x + 1, top, str(top_n), _classes("tile", f"pip.{top_n}" if colour else ""))
        canvas.put(x + 2, top, "╮", base)
        canvas.put(x, bottom, "╰", base)
        canvas.put(x + 1, bottom, str(bottom_n), _classes("tile", f"pip.{bottom_n}" if colour else ""))
        canvas.put(x + 2, bottom, "╯", base)
        row += 2 * step


def _arm_label(canvas: Canvas, y: int, name: str, arm: tuple[Placed, ...], colour: bool, x: int = 0) -> int:
    x = canvas.put(x, y, f"{name} ", "class:dim")
    return canvas.put_fragments(x, y, arm_fragments(arm, colour) or [("class:dim", "-")]) + 2


def draw_line(view: LineView, width: int, height: int, colour: bool) -> Canvas:
    """The whole line: the chain and, in All Fives, the spinner's four arms (up and down drawn
    upright from the spinner; an arm with no room is listed on the last row instead)."""
    canvas = Canvas(width, height)
    if not view.chain:
        canvas.put(max(0, (width - 26) // 2), height // 2, "(no tiles on the table yet)", "class:dim")
        return canvas
    if view.spinner is None or not (view.up or view.down):
        canvas.blit(draw_chain(view.chain, width, height, colour), 0, 0)
        return canvas
    tracks = _tracks(view.chain, width)
    chain_rows = 3 * tracks
    free = max(0, height - chain_rows)
    up_need, down_need = _arm_rows(view.up), _arm_rows(view.down)
    up_room = min(up_need, max(free - down_need, free // 2))
    chain_canvas, spot = _draw_chain(view.chain, width, height, colour, top=up_room)
    canvas.blit(chain_canvas, 0, 0)
    listed: list[tuple[str, tuple[Placed, ...]]] = []
    if spot is None or spot.corner:
        listed = [("up ↑", view.up), ("down ↓", view.down)]
    else:
        if view.up and spot.track == 0 and up_room > 0:
            draw_arm(canvas, view.up, spot.x, spot.mid - 2, -1, up_room, colour)
        elif view.up:
            listed.append(("up ↑", view.up))
        down_top = spot.mid + 2
        down_room = height - down_top - (1 if listed else 0)
        if view.down and spot.track == tracks - 1 and down_room > 0:
            draw_arm(canvas, view.down, spot.x, down_top, 1, down_room, colour)
        elif view.down:
            listed.append(("down ↓", view.down))
    x = 0
    for name, arm in listed:
        x = _arm_label(canvas, height - 1, name, arm, colour, x)
    return canvas


# ----- the hand ------------------------------------------------------------------------------


def draw_hand(hand: tuple[Tile, ...], fits: set[Tile], selected: int | None, width: int,
              colour: bool) -> Canvas:
    """Your tiles in rows of flat dominoes with their numbers below (1..9, 0 for the 10th).

    Playable tiles are marked; the selected one is reversed. ``selected=None``: not your turn.
    """
    per_row = max(1, (width + 1) // 6)
    rows = (len(hand) + per_row - 1) // per_row or 1
    canvas = Canvas(width, rows * 2)
    for i, tile in enumerate(hand):
        x, y = (i % per_row) * 6, (i // per_row) * 2
        if selected is not None and i == selected:
            extra = "tile.selected"
        elif selected is not None and tile in fits:
            extra = "tile.playable"
        elif selected is not None:
            extra = "tile.dim"
        else:
            extra = ""
        canvas.put_fragments(x, y, tile_fragments(tile.high, tile.low, colour, extra))
        label = str(i + 1) if i < 9 else ("0" if i == 9 else " ")
        mark = "▲" if selected is not None and i == selected else label
        canvas.put(x + 2, y + 1, mark, "class:tile.selected.mark" if mark == "▲" else "class:dim")
    return canvas
