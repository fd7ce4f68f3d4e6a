"""What every screen shares: the header bar, the footer line, and text that never gets cut.

Long text is wrapped or shortened on word boundaries, so no screen ever ends a line mid-word.
"""

from __future__ import annotations

import re
import textwrap

from lanomino.ui.render import Canvas


def fit(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` columns, else shortened at a word boundary with '…'."""
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if text[width - 1].isalnum() and space > width // 3:  # the cut falls inside a word
        cut = cut[:space]
    return cut.rstrip(" ,;:·-") + "…"


UNIT = re.compile(r"\([^()]*\)\S*|\S+")  # a word, or "(playing to 100)"


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words; where it can, a
    line breaks between the parts of "a · b · c" (the "·" ends the line: "Ben 65 (55 for the
    pips, 10 for the ends)" stays whole) and never inside "(...)" ("(playing to 100)")."""
    width = max(1, width)
    if len(text.rstrip()) <= width:
        return [text.rstrip()]  # as it is: columns lined up with spaces stay lined up
    parts = text.split(" · ")
    units = [u for i, part in enumerate(parts)
             for u in _units(part + (" ·" if i < len(parts) - 1 else ""), width)]
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) <= width:
            line += " " + unit
            continue
        if line:
            lines.append(line)
        pieces = textwrap.wrap(unit, width, break_on_hyphens=False) or [""]  # (a word too long)
        lines += pieces[:-1]
        line = pieces[-1]
    return [*lines, line] if line or not lines else lines


def _units(part: str, width: int) -> list[str]:
    """What of ``part`` stays on one line: all of it when it fits, else its words with each
    "(...)" kept whole (when that fits)."""
    if len(part.strip()) <= width:
        return [part.strip()] if part.strip() else []
    units: list[str] = []
    for match in UNIT.finditer(part):
        unit = " ".join(match.group(0).split())
        units += unit.split() if len(unit) > width else [unit]
    if len(units) > 1 and units[-1] == "·" and len(units[-2]) + 2 <= width:
        units[-2:] = [units[-2] + " ·"]  # (a line may end in "·", never start with it)
    return units


def put_wrapped(canvas: Canvas, x: int, y: int, text: str, style: str = "",
                indent: int = 0, rows: int | None = None) -> int:
    """Write ``text`` wrapped to the canvas's right edge (continuation lines indented by
    ``indent``), in at most ``rows`` rows (the last one shortened). Returns the next free row."""
    width = canvas.width - x - 1
    lines = wrap(text, width)
    if len(lines) > 1 and indent:
        lines = lines[:1] + wrap(" ".join(lines[1:]), width - indent)
    if rows is not None and len(lines) > rows:
        lines = lines[: max(0, rows - 1)] + [fit(" ".join(lines[max(0, rows - 1):]), width)]
        lines = lines[:rows]
    for i, line in enumerate(lines):
        canvas.put(x + (indent if i else 0), y + i, line, style)
    return y + len(lines)


def header(canvas: Canvas, left: str, right: str = "? help") -> None:
    """The reversed bar on the top row: what this screen is, and its main keys on the right."""
    canvas.put(0, 0, " " * canvas.width, "class:header")
    canvas.put(1, 0, fit(left, canvas.width - len(right) - 3), "class:header")
    canvas.put(canvas.width - len(right) - 1, 0, right, "class:header")


def footer(canvas: Canvas, text: str) -> None:
    """The key hints on the bottom row, shortened between hints when the terminal is narrow."""
    width = canvas.width - 2
    if len(text) > width:
        hints = text.split(" · ")
        while len(hints) > 1 and len(" · ".join(hints)) > width:
            hints.pop()
        text = " · ".join(hints)
    canvas.put(1, canvas.height - 1, fit(text, width), "class:dim")
