"""The line mode's words: tiles, seats, sides and game events, one short sentence each.

The sentences about game events come from the team's one narration voice (``lanomino.narrate``:
"you" grammar, names, teams, plurals, seats counted from 1); this module adds what only the line
mode says: tiles as words when asked ("five-three", "double-six", "six-blank"), the open ends
after every play, your hand numbered for ``play N``, and the scores in one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lanomino.engine import Event, HandEnded, MatchEnded, Rules, Tile, TilePlayed
from lanomino.engine.line import CLOSED, Line
from lanomino.narrate import Cast, event_line, hand_points, listed, plural, with_points

_TILE = re.compile(r"(?<![\w-])([0-6])-([0-6])(?![\w-])")  # "5-3" as narrate writes a tile


def join_words(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or another last word: 'left or right')."""
    if last == "and":
        return listed(list(items))
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


@dataclass(frozen=True, slots=True)
class Voice:
    """How one reader is spoken to: the seats' names, the reader's seat (``me``, None for someone
    who only watches), the rules (teams, for the sides), and tiles as words or as digits."""

    names: tuple[str, ...]
    me: int | None = None
    rules: Rules = field(default_factory=Rules.classic)
    words: bool = False
    departures: tuple[tuple[int, str], ...] = ()  # (seat, how it left) at a LAN table
    away: bool = False  # the reader's moves are the table's bot's (out of time)

    @property
    def cast(self) -> Cast:
        return Cast(self.names, self.rules, self.me, departures=self.departures, away=self.away)

    # ----- values ---------------------------------------------------------------------------

    def number(self, n: int) -> str:
        return self._spoken.number(n)

    def tile(self, tile: Tile) -> str:
        """'5-3', or 'five-three' / 'double-six' with words (the narration's own words)."""
        return self._spoken.tile(tile)

    @property
    def _spoken(self) -> Cast:
        return Cast(self.names, self.rules, self.me, words=self.words,
                    departures=self.departures)

    def spell(self, text: str) -> str:
        """``text`` with its tiles as words when ``words`` is set."""
        if not self.words:
            return text
        return _TILE.sub(lambda m: self.tile(Tile(int(m[1]), int(m[2]))), text)

    def who(self, seat: int, start: bool = True) -> str:
        """'You' / 'you' for the reader's seat, else the seat's name ('seat 3' without one)."""
        return self.cast.name(seat) if start else self.cast.seat(seat).text

    def verb(self, seat: int, plain: str, third: str) -> str:
        """'hold' for you, 'holds' for anyone else."""
        return plain if self.cast.seat(seat).plural else third

    def side(self, side: int, start: bool = True) -> str:
        """A seat, or in a partnership game a team named by its players ('you and Ben')."""
        return self.cast.side_name(side) if start else self.cast.side(side).text

    def ends(self, line: Line) -> str:
        """'Ends: 3 and 6.' (open ends in order: left, right, the spinner's up and down). In All
        Fives they add up as the game counts them: a double across an end is said as the
        double, an arm of the spinner nobody has played on is said not to count, and the count
        follows ('Ends: left 5, right 1-1 and down 3; up 2 does not count yet: 10 in all.')."""
        open_ = [e for e, n in enumerate(line.ends) if n != CLOSED]
        if not open_:
            return "The line is empty."
        if line.fives and line.tiles == 1 and line.first is not None and line.first.is_double:
            return f"Ends: {self.tile(line.first)} alone: {line.fives_count()} in all."
        named = len(open_) > 2  # the spinner's arms are open: say which end is which

        def end(e: int) -> str:
            n = line.ends[e]
            shown = self.tile(Tile(n, n)) if line.fives and line.double[e] else self.number(n)
            return f"{('left', 'right', 'up', 'down')[e]} {shown}" if named else shown

        if not line.fives:
            return f"Ends: {join_words([end(e) for e in open_])}."
        counted = [end(e) for e in open_ if line.counted[e]]
        idle = [end(e) for e in open_ if not line.counted[e]]
        waiting = f"; {join_words(idle)} {'do' if len(idle) > 1 else 'does'} not count yet" if (
            idle) else ""
        return f"Ends: {join_words(counted)}{waiting}: {line.fives_count()} in all."

    def tiles(self, tiles: Iterable[Tile]) -> str:
        return join_words([self.tile(t) for t in tiles]) or "no tiles"

    def numbered(self, hand: Sequence[Tile]) -> str:
        """'1: 5-3, 2: 6-4' (the numbers a `play N` command takes)."""
        return ", ".join(f"{i}: {self.tile(t)}" for i, t in enumerate(hand, start=1)) or "no tiles"

    def scores(self, scores: Sequence[int], target: int) -> str:
        parts = [with_points(self.side(side, False), points) for side, points in enumerate(scores)]
        goal = f", playing to {target}" if target else ""
        return f"Scores: {', '.join(parts)}{goal}."

    # ----- events ---------------------------------------------------------------------------

    def event(self, event: Event, line: Line, mover: int | None = None,
              left: Sequence[int] = ()) -> str:
        """One line for ``event`` ("" for nothing to say); ``line`` is the line after it,
        ``mover`` the seat whose play scored, ``left`` the seats that resigned."""
        text = event_line(event, self.cast, mover, left) or ""
        if isinstance(event, TilePlayed):  # the ends say what is showing, for every end
            text = text.removesuffix(f": {event.exposed} showing.").removesuffix(".")
            text = f"{text}. {self.ends(line)}"
        return self.spell(text)

    def hand_ended(self, event: HandEnded) -> list[str]:
        """How the hand ended; then every side's points in it."""
        cast = self.cast
        points = []
        for side, item in enumerate(hand_points(event, cast)):
            head = cast.side_name(side)  # lower-case "you" inside the sentence
            lower = cast.side(side).text + item[len(head):]
            points.append(lower if item.startswith(head) else item)
        return [self.spell(event_line(event, cast) or ""),
                f"Points this hand: {', '.join(points)}."]

    def pips_left(self, event: HandEnded) -> str:
        """'Left in hand: Ana 6-6 (12 pips), you nothing.' (every hand is public now)."""
        parts = []
        for seat, tiles in enumerate(event.hands):
            if event.pips_left[seat] is None:
                continue
            held = (f"{self.tiles(tiles)} ({plural(sum(t.pips for t in tiles), 'pip')})"
                    if tiles else "nothing")
            parts.append(f"{self.who(seat, False)} {held}")
        return f"Left in hand: {', '.join(parts)}." if parts else ""

    def match_ended(self, event: MatchEnded, left: Sequence[int] = ()) -> str:
        return self.spell(event_line(event, self.cast, left=left) or "")
