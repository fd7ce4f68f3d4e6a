"""The words for the table as it stands, on the full screen's table: what each seat did last
this hand, the ends that count in All Fives, and what auto-draw just did. Pure, as narrate.py
(whose Cast and sentences they use)."""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.engine import Event, Passed, PointsScored, Resigned, TileDrawn, TilePlayed
from lanomino.engine.line import CLOSED, Line
from lanomino.narrate import Cast, capital, either


def last_action(history: Sequence[Event], seat: int) -> str:
    """What ``seat`` did last this hand: 'played 6-4', 'drew 3', 'drew 2, played 5-1', 'passed',
    'played 6-4, scored 10' (All Fives)."""
    mine = [e for e in history if isinstance(e, TilePlayed | TileDrawn | Passed | Resigned)
            and e.seat == seat]
    if not mine:
        return ""
    at = max(i for i, e in enumerate(history) if e is mine[-1])
    after = history[at + 1] if at + 1 < len(history) else None
    scored = f", scored {after.points}" if isinstance(after, PointsScored) else ""
    last = mine[-1]
    drew = 0
    for event in reversed(mine[:-1] if not isinstance(last, TileDrawn) else mine):
        if not isinstance(event, TileDrawn):
            break
        drew += 1
    before = f"drew {drew}, " if drew else ""
    if isinstance(last, TileDrawn):
        return f"drew {drew}"
    if isinstance(last, TilePlayed):
        return f"{before}played {last.tile}{scored}"
    if isinstance(last, Passed):
        return f"{before}passed"
    return "resigned"


def ends_count(line: Line) -> str:
    """All Fives: the ends that count and what they score now: 'ends 6-6 + 3 = 15: scores 15'
    (a double across an end counts both halves)."""
    if line.tiles == 0:
        return ""
    if line.tiles == 1 and line.first is not None:  # a double laid first counts once
        first = line.first
        parts = [str(first) if first.is_double else f"{first.high} + {first.low}"]
    else:
        parts = [f"{n}-{n}" if line.double[e] else str(n) for e, n in enumerate(line.ends)
                 if n != CLOSED and line.counted[e]]
    total = line.fives_count()
    scores = f"scores {total}" if total and total % 5 == 0 else "no score"
    return f"ends {' + '.join(parts)} = {total}: {scores}"


def auto_draw_note(history: Sequence[Event], seat: int, cast: Cast) -> str:
    """What auto-draw just did for ``seat`` (drew, and perhaps passed), or ""."""
    done = last_action(history, seat)
    if "played" in done or not ("drew" in done or done == "passed"):
        return ""
    last = next((e for e in reversed(history) if isinstance(e, Passed) and e.seat == seat), None)
    if done.endswith("passed") and last is not None:
        done += f": no {either(last.ends, cast)}"
    return capital(f"auto-draw for {cast.seat(seat).text}: {done}.")
