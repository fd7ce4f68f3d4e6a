"""Pure drawing: a character canvas, dominoes and the hand (the line of play is ``ui/board.py``).

Everything here maps values to styled text; nothing reads the terminal. Styles are class names
("class:tile,pip.5,tile.selected"), resolved by ``ui/style.py``; with ``colour=False`` no colour
classes are emitted, so highlighting relies on reverse/bold/underline alone.
"""

from __future__ import annotations

import unicodedata

from lanomino.engine import Tile

Fragments = list[tuple[str, str]]


class Canvas:
    """A width x height grid of (character, style) cells; text outside is clipped."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = [[(" ", "")] * self.width for _ in range(self.height)]
        self.cut: list[tuple[int, int]] = []  # (x, y) of visible characters that fell off

    def put(self, x: int, y: int, text: str, style: str = "") -> int:
        """Write ``text`` at (x, y); returns the x after it. Characters outside are dropped
        (and noted in ``cut``: screens wrap or shorten text so that nothing is)."""
        col = x
        for ch in text:
            wide = unicodedata.east_asian_width(ch) in "WF"  # 🔒 takes two cells on screen
            if 0 <= y < self.height and 0 <= col < self.width - wide:
                self.cells[y][col] = (ch, style)
                if wide:
                    self.cells[y][col + 1] = ("", style)
            elif ch != " ":
                self.cut.append((col, y))
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


def classes(*names: str) -> str:
    """One style string for several class names ("class:tile,tile.selected")."""
    return "class:" + ",".join(n for n in names if n)


def tile_fragments(a: int, b: int, colour: bool, extra: str = "") -> Fragments:
    """A domino lying flat, ``a`` on the left: ``[6|4]``."""
    base = classes("tile", extra)
    return [
        (base, "["),
        (classes("tile", extra, f"pip.{a}" if colour else ""), str(a)),
        (base, "|"),
        (classes("tile", extra, f"pip.{b}" if colour else ""), str(b)),
        (base, "]"),
    ]


# ----- the hand ------------------------------------------------------------------------------


def draw_hand(hand: tuple[Tile, ...], fits: set[Tile], selected: int | None, width: int,
              colour: bool) -> Canvas:
    """Your tiles in rows of flat dominoes with their numbers below (1..9, 0 for the 10th).

    Playable tiles are marked; the selected one is reversed, with ▲ under it when it fits and ×
    when it does not. ``selected=None``: not your turn.
    """
    per_row = max(1, (width + 1) // 6)
    rows = (len(hand) + per_row - 1) // per_row or 1
    canvas = Canvas(width, rows * 2)
    for i, tile in enumerate(hand):
        x, y = (i % per_row) * 6, (i // per_row) * 2
        label, mark_style = str(i + 1) if i < 9 else ("0" if i == 9 else " "), "class:dim"
        if selected is not None and i == selected and tile in fits:
            extra, label, mark_style = "tile.selected", "▲", "class:tile.selected.mark"
        elif selected is not None and i == selected:
            extra, label, mark_style = "tile.selected.nofit", "×", "class:warn"
        elif selected is not None and tile in fits:
            extra = "tile.playable"
        elif selected is not None:
            extra = "tile.dim"
        else:
            extra = ""
        canvas.put_fragments(x, y, tile_fragments(tile.high, tile.low, colour, extra))
        canvas.put(x + 2, y + 1, label, mark_style)
    return canvas
