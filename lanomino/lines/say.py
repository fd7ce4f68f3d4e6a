"""The line mode's sentences: tiles, seats, sides and game events in short plain words.

Every sentence the line front end says about the game is made here, so that it can switch to the
team's shared narration module in one place. Sentences are in the past tense ("Ana played
five-three on the right."), which reads the same for "you" and for a name; the few present-tense
ones go through ``Voice.verb``. Seats are counted from 1 when a number is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lanomino.engine import (
    DealVoided,
    End,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    Passed,
    PointsScored,
    Resigned,
    Tile,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.line import CLOSED, Line

NUMBER_WORDS = ("blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def join_words(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(count: int, word: str, many: str = "") -> str:
    """'1 tile', '3 tiles'."""
    return f"{count} {word if count == 1 else many or word + 's'}"


@dataclass(frozen=True, slots=True)
class Voice:
    """How one reader is spoken to: their seat (``me``, None for someone who only watches), the
    seats' names, whether points go to teams, and tiles as words or as digits."""

    names: tuple[str, ...]
    me: int | None = None
    partnership: bool = False
    words: bool = False

    # ----- values ---------------------------------------------------------------------------

    def number(self, n: int) -> str:
        return NUMBER_WORDS[n] if self.words and 0 <= n < len(NUMBER_WORDS) else str(n)

    def tile(self, tile: Tile) -> str:
        """'5-3', or 'five-three' / 'double-six' with words."""
        if not self.words:
            return str(tile)
        if tile.is_double:
            return f"double-{self.number(tile.high)}"
        return f"{self.number(tile.high)}-{self.number(tile.low)}"

    def who(self, seat: int, start: bool = True) -> str:
        """'You' / 'you' for the reader's seat, else the seat's name."""
        if seat == self.me:
            return "You" if start else "you"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def verb(self, seat: int, plain: str, third: str) -> str:
        """'hold' for you, 'holds' for anyone else."""
        return plain if seat == self.me else third

    def side(self, side: int, start: bool = True) -> str:
        """A seat, or in a partnership game a team named by its two players."""
        if not self.partnership:
            return self.who(side, start)
        if self.me is not None and self.me % 2 == side:
            return "Your team" if start else "your team"
        members = [self.who(s, start) for s in (side, side + 2) if s < len(self.names)]
        return f"{join_words(members)}'s team" if len(members) == 2 else members[0]

    def ends(self, line: Line) -> str:
        """'Ends: 3 and 6.' (open ends in order: left, right, the spinner's up and down)."""
        shown = [self.number(n) for n in line.ends if n != CLOSED]
        if not shown:
            return "The line is empty."
        return f"Ends: {join_words(shown)}."

    def tiles(self, tiles: Iterable[Tile]) -> str:
        return join_words([self.tile(t) for t in tiles]) or "no tiles"

    def numbered(self, hand: Sequence[Tile]) -> str:
        """'1: 5-3, 2: 6-4' (the numbers a `play N` command takes)."""
        return ", ".join(f"{i}: {self.tile(t)}" for i, t in enumerate(hand, start=1)) or "no tiles"

    def scores(self, scores: Sequence[int], target: int) -> str:
        parts = [f"{self.side(side, False)} {points}" for side, points in enumerate(scores)]
        goal = f", playing to {target}" if target else ""
        return f"Scores: {', '.join(parts)}{goal}."

    # ----- events ---------------------------------------------------------------------------

    def event(self, event: Event, line: Line) -> str:
        """One sentence for ``event`` ("" for nothing to say); ``line`` is the line after it."""
        if isinstance(event, HandStarted):
            return self._started(event)
        if isinstance(event, DealVoided):
            return "Nobody held a double, so the tiles were shuffled and dealt again."
        if isinstance(event, TilePlayed):
            return self._played(event, line)
        if isinstance(event, TileDrawn):
            what = self.tile(event.tile) if event.tile is not None else "a tile"
            return f"{self.who(event.seat)} drew {what}. Boneyard: {event.boneyard}."
        if isinstance(event, Passed):
            return f"{self.who(event.seat)} passed."
        if isinstance(event, PointsScored) and event.reason == "fives":
            return f"{self.side(event.side)} scored {plural(event.points, 'point')} for the ends."
        if isinstance(event, Resigned):
            return f"{self.who(event.seat)} resigned and left the match."
        if isinstance(event, HandEnded):
            return self.hand_ended(event)
        if isinstance(event, MatchEnded):
            return self.match_ended(event)
        return ""

    def _started(self, event: HandStarted) -> str:
        lead = f" with {self.tile(event.must_lead)}" if event.must_lead is not None else ""
        yard = f", {plural(event.boneyard, 'tile')} in the boneyard" if event.boneyard else ""
        sizes = set(event.hand_sizes) - {0}
        each = f"{plural(sizes.pop(), 'tile')} each" if len(sizes) == 1 else "tiles"
        return (f"Hand {event.hand}: {each}{yard}. "
                f"{self.who(event.opener)} {self.verb(event.opener, 'lead', 'leads')}{lead}.")

    def _played(self, event: TilePlayed, line: Line) -> str:
        who = self.who(event.seat)
        if event.first:
            text = f"{who} led {self.tile(event.tile)}."
        else:
            text = f"{who} played {self.tile(event.tile)} on the {end_name(event.end)}."
        if event.spinner:
            text += " It is the spinner."
        return f"{text} {self.ends(line)}"

    def hand_ended(self, event: HandEnded) -> str:
        if event.winner is None:
            how = "The line was blocked and nobody won the hand" if event.end == "blocked" else (
                "The hand ended with no winner")
            return f"{how}."
        side = self.side(event.winner)
        won = f"won hand {event.hand}"
        if event.end == "domino":
            text = f"{side} went out and {won}"
        elif event.end == "blocked":
            text = f"The line was blocked. {side} had the fewest pips and {won}"
        elif event.end == "target":
            text = f"{side} reached the target and {won}"
        else:
            text = f"The other side resigned. {side} {won}"
        return f"{text}: {plural(event.points[event.winner], 'point')}."

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

    def match_ended(self, event: MatchEnded) -> str:
        parts = [f"{self.side(s, False)} {points}" for s, points in enumerate(event.scores)]
        final = f"Final scores: {', '.join(parts)}."
        if event.winner is None:
            return f"The match is over with no winner. {final}"
        return f"{self.side(event.winner)} won the match. {final}"


def end_name(end: End) -> str:
    return str(end)
