"""The line of play drawn on a canvas: the chain turning corners, the All Fives spinner's arms,
the last tile played highlighted and the open ends marked where they are.

Pure: ``line_view`` rebuilds the drawing order from the hand's ``TilePlayed`` events and
``draw_line`` maps it to styled cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lanomino.engine import End, Event, TilePlayed
from lanomino.ui.render import Canvas, Fragments, classes, tile_fragments


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the line as the reader sees it: ``near`` toward the start of its arm."""

    near: int
    far: int
    is_double: bool
    spinner: bool = False
    last: bool = False  # the tile played last: drawn highlighted


@dataclass(frozen=True, slots=True)
class LineView:
    """The line rebuilt from played tiles: the main chain left to right, and the spinner arms."""

    chain: tuple[Placed, ...]
    up: tuple[Placed, ...] = ()
    down: tuple[Placed, ...] = ()

    @property
    def spinner(self) -> Placed | None:
        return next((p for p in self.chain if p.spinner), None)


def line_view(history: Sequence[Event]) -> LineView:
    """Rebuild the drawing order of the line from this hand's ``TilePlayed`` events."""
    left: list[Placed] = []  # grows leftward: left[-1] is the left end
    right: list[Placed] = []
    arms: dict[End, list[Placed]] = {End.UP: [], End.DOWN: []}
    first: Placed | None = None
    plays = [e for e in history if isinstance(e, TilePlayed)]
    for i, event in enumerate(plays):
        t, last = event.tile, i == len(plays) - 1
        if event.first:
            a, b = (t.high, t.low) if event.end is End.LEFT else (t.low, t.high)
            first = Placed(a, b, t.is_double, event.spinner, last)
            continue
        assert first is not None
        if event.end is End.LEFT:
            n = left[-1].near if left else first.near
            left.append(Placed(t.other(n), n, t.is_double, event.spinner, last))
        elif event.end is End.RIGHT:
            n = right[-1].far if right else first.far
            right.append(Placed(n, t.other(n), t.is_double, event.spinner, last))
        else:
            arm = arms[event.end]
            spin = next((p for p in [*left, first, *right] if p.spinner), first)
            n = arm[-1].far if arm else spin.near
            arm.append(Placed(n, t.other(n), t.is_double, False, last))
    if first is None:
        return LineView(())
    chain = (*reversed(left), first, *right)
    return LineView(tuple(chain), tuple(arms[End.UP]), tuple(arms[End.DOWN]))


def _width(p: Placed) -> int:
    return 3 if p.is_double else 5


def _extra(p: Placed) -> str:
    return ",".join(n for n in ("tile.spinner" if p.spinner else "",
                                "tile.last" if p.last else "") if n)


def standing_tile(canvas: Canvas, x: int, y: int, a: int, b: int, colour: bool,
                  extra: str = "") -> None:
    """A domino standing up at (x, y), three rows tall, ``a`` on top."""
    base = classes("tile", extra)
    canvas.put(x, y, "╭", base)
    canvas.put(x + 1, y, str(a), classes("tile", extra, f"pip.{a}" if colour else ""))
    canvas.put(x + 2, y, "╮", base)
    canvas.put(x, y + 1, "├─┤", base)
    canvas.put(x, y + 2, "╰", base)
    canvas.put(x + 1, y + 2, str(b), classes("tile", extra, f"pip.{b}" if colour else ""))
    canvas.put(x + 2, y + 2, "╯", base)


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where the spinner landed in a drawn chain: its left column, middle row and track."""

    x: int
    mid: int
    track: int
    corner: bool  # it stands at a corner: no arms can leave it


@dataclass
class _Drawn:
    """A drawn chain: the spinner's spot, how many tracks, and where a mark for each chain end
    goes (the cell just beyond the end tile)."""

    spot: _Spot | None = None
    tracks: int = 1
    ends: dict[End, tuple[int, int]] = field(default_factory=dict)


def draw_chain(chain: tuple[Placed, ...], width: int, height: int, colour: bool) -> Canvas:
    """The chain laid left to right, turning a corner (a standing tile) at each edge.

    Tracks are three rows apart: flat tiles sit on the middle row, doubles stand across it. The
    corner tile stands at the end of a track and the next track starts under it. A chain that
    fits on one track is centred.
    """
    canvas, _ = _draw_chain(chain, width, height, colour)
    return canvas


def _draw_chain(chain: tuple[Placed, ...], width: int, height: int, colour: bool,
                top: int = 0) -> tuple[Canvas, _Drawn]:
    """``draw_chain`` with the first track's middle row at ``top + 1``; also what went where."""
    canvas, drawn = Canvas(width, height), _Drawn()
    if not chain:
        return canvas, drawn
    total = sum(_width(p) for p in chain)
    # centred when it fits on one track; else from column 2, leaving room for the end's mark
    x = max(0, (width - total) // 2) if total <= width else 2
    mid, rightward, corner = top + 1, True, None  # corner: the column of the last corner tile
    drawn.ends[End.LEFT] = (x - 1, mid)
    for p in chain:
        w = _width(p)
        if corner is not None:  # the first tile after a corner starts under it
            if p.is_double:  # a double standing under the corner would touch it: step aside
                x = corner - 1 if not rightward else corner + 3
            corner = None
        # keep three columns free at each edge for the standing tile of a corner
        fits = x + w <= width - 3 if rightward else x - w + 1 >= 3
        if not fits and total > width:
            col = x if rightward else x - 2
            standing_tile(canvas, col, mid, p.near, p.far, colour, _extra(p))
            if p.spinner:
                drawn.spot = _Spot(col, mid, drawn.tracks - 1, True)
            drawn.ends[End.RIGHT] = (col + 1, mid + 3)
            mid += 3
            drawn.tracks += 1
            rightward = not rightward
            corner, x = col, (col + 2 if not rightward else col)
            continue
        left = x if rightward else x - w + 1
        if rightward:
            _draw_flat(canvas, x, mid, p.near, p.far, p, colour)
            x += w
            drawn.ends[End.RIGHT] = (x, mid)
        else:
            _draw_flat(canvas, left, mid, p.far, p.near, p, colour)
            x -= w
            drawn.ends[End.RIGHT] = (x, mid)
        if p.spinner:
            drawn.spot = _Spot(left, mid, drawn.tracks - 1, False)
    if mid >= height:  # a whole track fell off (a double's lower half alone is no news)
        _note_line_goes_on(canvas, height - 1)
    return canvas, drawn


TILE_EDGES = " ]┤╮╯"  # what a row holds just after a whole tile (or between tiles)


def _note_line_goes_on(canvas: Canvas, y: int) -> None:
    """"…line goes on" at the right of row ``y``, over whole tiles only (never half of one)."""
    note = " …line goes on"
    x = max(0, canvas.width - len(note))
    row = canvas.cells[y]
    while x > 0 and row[x - 1][0] not in TILE_EDGES:
        x -= 1
    canvas.put(x, y, " " * (canvas.width - x))
    canvas.put(canvas.width - len(note), y, note, "class:dim")


def tracks(view: LineView, width: int) -> int:
    """How many tracks the line's chain takes at ``width`` (more than one: it turns corners)."""
    return _tracks(view.chain, width)


def _tracks(chain: tuple[Placed, ...], width: int) -> int:
    """How many tracks ``draw_chain`` needs for ``chain`` at ``width``."""
    _, drawn = _draw_chain(chain, width, 3 * len(chain) + 3, colour=False)
    return drawn.tracks


def _draw_flat(canvas: Canvas, x: int, mid: int, a: int, b: int, p: Placed, colour: bool) -> None:
    if p.is_double:
        standing_tile(canvas, x, mid - 1, a, b, colour, _extra(p))
    else:
        canvas.put_fragments(x, mid, tile_fragments(a, b, colour, _extra(p)))


def arm_fragments(arm: tuple[Placed, ...], colour: bool) -> Fragments:
    out: Fragments = []
    for p in arm:
        out += tile_fragments(p.near, p.far, colour, _extra(p))
    return out


def _arm_rows(arm: tuple[Placed, ...]) -> int:
    """Rows an arm takes drawn upright: two per tile, one per double lying across."""
    return sum(1 if p.is_double else 2 for p in arm)


def draw_arm(canvas: Canvas, arm: tuple[Placed, ...], x: int, y: int, step: int, room: int,
             colour: bool) -> int:
    """An arm of the spinner drawn upright in column ``x`` (the spinner's left edge), starting at
    row ``y`` next to the spinner and growing by ``step`` (-1: up, +1: down) for at most ``room``
    rows. When it does not fit, the tiles next to the spinner are left out (the open end is what
    matters) and ``+N`` beside the arm says how many. Returns the row beyond its open end."""
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
            canvas.put_fragments(x - 1, row, tile_fragments(p.near, p.far, colour, _extra(p)))
            row += step
            continue
        base = classes("tile", _extra(p))
        top, bottom = min(row, row + step), max(row, row + step)
        top_n, bottom_n = (p.far, p.near) if step < 0 else (p.near, p.far)
        canvas.put(x, top, "╭", base)
        canvas.put(x + 1, top, str(top_n),
                   classes("tile", _extra(p), f"pip.{top_n}" if colour else ""))
        canvas.put(x + 2, top, "╮", base)
        canvas.put(x, bottom, "╰", base)
        canvas.put(x + 1, bottom, str(bottom_n),
                   classes("tile", _extra(p), f"pip.{bottom_n}" if colour else ""))
        canvas.put(x + 2, bottom, "╯", base)
        row += 2 * step
    return row


def _arm_label(canvas: Canvas, y: int, name: str, arm: tuple[Placed, ...], colour: bool,
               x: int = 0) -> int:
    x = canvas.put(x, y, f"{name} ", "class:dim")
    return canvas.put_fragments(x, y, arm_fragments(arm, colour) or [("class:dim", "-")]) + 2


ARM_NAMES = {End.UP: "up ↑", End.DOWN: "down ↓"}


def draw_line(view: LineView, width: int, height: int, colour: bool,
              marks: dict[End, str] | None = None, arms_open: bool = False) -> Canvas:
    """The whole line: the chain and, in All Fives, the spinner's four arms (up and down drawn
    upright from the spinner; an arm with no room is listed on the last row instead).

    ``marks``: a short label per open end (a choice's number, or "L"/"R"), drawn beside that
    end where it lies. ``arms_open``: the spinner's up and down ends are open (an empty one is
    marked with an arrow)."""
    canvas = Canvas(width, height)
    marks = marks or {}
    if not view.chain:
        empty = "(no tiles on the table yet)"
        canvas.put(max(0, (width - len(empty)) // 2), height // 2, empty, "class:dim")
        return canvas
    want_arms = view.spinner is not None and (view.up or view.down or arms_open)
    if not want_arms:
        chain_canvas, drawn = _draw_chain(view.chain, width, height, colour)
        canvas.blit(chain_canvas, 0, 0)
        _mark_ends(canvas, drawn, marks)
        return canvas
    tracks = _tracks(view.chain, width)
    free = max(0, height - 3 * tracks)
    up_need = _arm_rows(view.up) or (1 if arms_open else 0)
    down_need = _arm_rows(view.down) or (1 if arms_open else 0)
    up_room = min(up_need, max(free - down_need, free // 2))
    chain_canvas, drawn = _draw_chain(view.chain, width, height, colour, top=up_room)
    canvas.blit(chain_canvas, 0, 0)
    _mark_ends(canvas, drawn, marks)
    spot = drawn.spot
    listed: list[End] = []
    if spot is None or spot.corner:
        listed = [e for e in (End.UP, End.DOWN) if getattr(view, e.name.lower())]
    else:
        if spot.track == 0 and up_room > 0:
            end_row = draw_arm(canvas, view.up, spot.x, spot.mid - 2, -1, up_room, colour)
            _mark_arm(canvas, spot.x, end_row, 1, view.up, marks.get(End.UP), "↑")
        elif view.up:
            listed.append(End.UP)
        down_top = spot.mid + 2
        down_room = height - down_top - (1 if listed else 0)
        if spot.track == tracks - 1 and down_room > 0:
            end_row = draw_arm(canvas, view.down, spot.x, down_top, 1, down_room, colour)
            _mark_arm(canvas, spot.x, end_row, -1, view.down, marks.get(End.DOWN), "↓")
        elif view.down:
            listed.append(End.DOWN)
    x = 0
    for end in listed:
        label = ARM_NAMES[end] + (f" {marks[end]}" if end in marks else "")
        x = _arm_label(canvas, height - 1, label, getattr(view, end.name.lower()), colour, x)
    return canvas


def _mark_ends(canvas: Canvas, drawn: _Drawn, marks: dict[End, str]) -> None:
    for end in (End.LEFT, End.RIGHT):
        if end in marks and end in drawn.ends:
            x, y = drawn.ends[end]
            text = marks[end]
            x = x - len(text) + 1 if end is End.LEFT or x < 0 else x
            canvas.put(max(0, min(x, canvas.width - len(text))), y, text, "class:mark")


def _mark_arm(canvas: Canvas, x: int, row: int, back: int, arm: tuple[Placed, ...],
              mark: str | None, arrow: str) -> None:
    """Mark an arm's open end: in the cell beyond it (``row``), or beside its end tile (one row
    ``back`` toward the spinner) when that cell is off the board. An empty open arm gets an
    arrow when it has no mark."""
    text = mark or (arrow if not arm else "")
    if not text:
        return
    if 0 <= row < canvas.height:
        canvas.put(x + 1, row, text, "class:mark")
    else:
        canvas.put(x + 4, row + back, text, "class:mark")
