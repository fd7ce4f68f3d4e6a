"""The words about a game: every sentence about its events, made from the engine's facts.

One voice for the client's log, the end-of-hand summary, ``lanomino replay`` and the line mode.
Pure: no prompt_toolkit and no I/O. A ``Cast`` says who is who: the reader's own seat is "you"
(with "you" grammar), other seats by name, a seat without a name as "seat N" numbered from 1,
and a partnership's team by its members ("you and Ben", "Ana and Cleo").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from lanomino.engine import (
    DealVoided,
    End,
    Event,
    HandEnd,
    HandEnded,
    HandStarted,
    MatchEnd,
    MatchEnded,
    Passed,
    PointsScored,
    Resigned,
    Rules,
    Tile,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.errors import seat_name

NUMBER_WORDS = ("blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def seat_label(seat: int, names: Sequence[str] = ()) -> str:
    """How a person reads a seat: its player's name, else "seat N" counted from 1."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return seat_name(seat)


def refusal_for(seat: int, message: str) -> str:
    """An engine refusal ("seat 1 may not pass: ...") as the person at ``seat`` reads it."""
    return message.replace(f"{seat_name(seat)}'s", "your").replace(f"{seat_name(seat)} ", "you ")


def plural(count: int, noun: str, many: str = "") -> str:
    """'1 pip', '2 pips', '0 tiles'; ``many`` for a noun that takes more than an s: '2 matches'."""
    return f"{count} {noun}" if count == 1 else f"{count} {many or noun + 's'}"


def listed(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def capital(text: str) -> str:
    """A sentence's first letter in capitals."""
    return text[:1].upper() + text[1:]


def _you_up(text: str) -> str:
    """'you and Ben' -> 'You and Ben'; any name keeps its case ('youssef' too)."""
    return "You" + text[3:] if text == "you" or text.startswith("you ") else text


class Who(NamedTuple):
    """A subject in a sentence: its words, and whether it takes "they" grammar (you, a team)."""

    text: str
    plural: bool
    owner: str  # the possessive: "your", "Ana's", "their"

    def says(self, singular: str, plural: str) -> str:
        """The subject and its verb: 'Ana scores', 'you score'."""
        return f"{self.text} {plural if self.plural else singular}"


@dataclass(frozen=True, slots=True)
class Cast:
    """Who sits where, for the words: names per seat, the reader's seat, and the rules."""

    names: tuple[str, ...]
    rules: Rules
    you: int | None = None  # the reader's seat: said as "you"
    words: bool = False  # tiles and numbers as words ("five-three"), for reading aloud
    departures: tuple[tuple[int, str], ...] = ()  # (seat, how it left) at a LAN table
    away: bool = False  # the reader is out of time: the table's bot made their moves

    def number(self, n: int) -> str:
        return NUMBER_WORDS[n] if self.words and 0 <= n < len(NUMBER_WORDS) else str(n)

    def tile(self, tile: Tile) -> str:
        """'5-3', or with words 'five-three' and 'double-six'."""
        if not self.words:
            return str(tile)
        if tile.is_double:
            return f"double-{self.number(tile.high)}"
        return f"{self.number(tile.high)}-{self.number(tile.low)}"

    def seat(self, seat: int) -> Who:
        if seat == self.you:
            # out of time, the reader did not choose the move: the table's bot did, for them
            return Who("the table's bot, for you,", False, "your") if self.away else Who(
                "you", True, "your")
        name = seat_label(seat, self.names)
        # a local player keeps the default name "You": give it you-grammar, not "You opens"
        if name.casefold() == "you":
            return Who(name, True, "your")
        return Who(name, False, f"{name}'s")

    def side(self, side: int) -> Who:
        """A seat, or in a partnership game the team of seats ``side`` and ``side + 2``."""
        if not self.rules.partnership:
            return self.seat(side)
        members = [s for s in range(len(self.names) or 4) if s % 2 == side]
        if self.you in members:  # you first: "you and Ben"
            members.sort(key=lambda s: s != self.you)
        return Who(listed([self.seat(s).text for s in members]), True, "their")

    def name(self, seat: int) -> str:
        """The seat as a label in a list or a column: 'You', 'Ana' (a name keeps its case)."""
        return _you_up(self.seat(seat).text)

    def side_name(self, side: int) -> str:
        return _you_up(self.side(side).text)

    @property
    def sides(self) -> int:
        return 2 if self.rules.partnership else len(self.names)


WHERE = {End.LEFT: "on the left", End.RIGHT: "on the right", End.UP: "above the spinner",
         End.DOWN: "below the spinner"}


def event_line(event: Event, cast: Cast, mover: int | None = None,
               left: Sequence[int] = ()) -> str | None:
    """One line for ``event`` (past tense), or None for an event not worth a line. ``mover`` is
    the seat whose play scored (for a PointsScored); ``left``: the seats that have resigned."""
    if isinstance(event, TilePlayed):
        who = cast.seat(event.seat).text
        spin = " (the spinner)" if event.spinner else ""
        if event.first:
            return capital(f"{who} opened with {cast.tile(event.tile)}{spin}.")
        where = WHERE[event.end]
        showing = cast.number(event.exposed)
        return capital(f"{who} played {cast.tile(event.tile)} {where}{spin}: {showing} showing.")
    if isinstance(event, TileDrawn):
        what = cast.tile(event.tile) if event.tile is not None else "a tile"
        return capital(f"{cast.seat(event.seat).text} drew {what}, {event.boneyard} left to draw.")
    if isinstance(event, Passed):
        return capital(f"{cast.seat(event.seat).text} passed: no {either(event.ends, cast)}.")
    if isinstance(event, PointsScored):
        return capital(_scored(event, cast, mover))
    if isinstance(event, HandStarted):
        return _started(event, cast)
    if isinstance(event, Resigned):
        how = dict(cast.departures).get(event.seat, "resigned and left the table")
        return capital(f"{cast.seat(event.seat).text} {how}.")
    if isinstance(event, HandEnded):
        return f"Hand {event.hand} is over: {_hand_end(event, cast)}"
    if isinstance(event, MatchEnded):
        scores = ", ".join(f"{cast.side(s).text} {p}" for s, p in enumerate(event.scores))
        return f"{match_end_sentence(event, cast, left)} Final scores: {scores}."
    if isinstance(event, DealVoided):
        return (f"Hand {event.hand}: nobody was dealt a double, so the tiles are shuffled and "
                "dealt again.")
    return None


def event_lines(events: Iterable[Event], cast: Cast,
                bot_made: Collection[int] = ()) -> list[str]:
    """A line for each event worth one, knowing who made each score and who resigned;
    ``bot_made``: the places among ``events`` of the reader's moves that the table's bot made
    while they were out of time."""
    lines: list[str] = []
    mover: int | None = None
    left: list[int] = []
    for i, event in enumerate(events):
        if isinstance(event, TilePlayed):
            mover = event.seat
        elif isinstance(event, Resigned):
            left.append(event.seat)
        text = event_line(event, replace(cast, away=True) if i in bot_made else cast, mover, left)
        if text:
            lines.append(text)
    return lines


def either(ends: Sequence[int], cast: Cast) -> str:
    """The numbers a seat could not match: 'four or six' (a pass, auto-draw's note)."""
    return " or ".join(cast.number(n) for n in ends) or "open end"


def _started(event: HandStarted, cast: Cast) -> str:
    lead = f" with {cast.tile(event.must_lead)}" if event.must_lead is not None else ""
    line = f"Hand {event.hand}: {cast.seat(event.opener).text} to open{lead}"
    if cast.rules.draws and event.boneyard:
        line += f"; {plural(event.boneyard, 'tile')} in the boneyard"
    return line + "."


def _scored(event: PointsScored, cast: Cast, mover: int | None) -> str:
    side = cast.side(event.side)
    ends = f"the ends add up to {event.points}"
    if cast.rules.partnership and mover is not None:
        return f"{cast.seat(mover).text} scored {event.points} for {side.text}: {ends}."
    return f"{side.text} scored {event.points}: {ends}."


# ----- the end of a hand and of a match ---------------------------------------------------------


def hand_end_sentence(ended: HandEnded, cast: Cast) -> str:
    """How the hand ended and how its end points were counted, as one sentence."""
    return capital(_hand_end(ended, cast))


def _hand_end(ended: HandEnded, cast: Cast) -> str:
    # the facts may come from a peer: a missing seat or winner is worded, never asserted
    c = ended.tally
    who = cast.seat(c.seat).text if c.seat is not None else "a player"
    side = cast.side(ended.winner) if ended.winner is not None else Who("nobody", False, "")
    if ended.end is HandEnd.RESIGNED:
        winner = "nobody wins" if ended.winner is None else side.says("wins the match",
                                                                     "win the match")
        return f"{who} resigned, so {winner}."
    if ended.end is HandEnd.TARGET:
        goal = f"the target of {cast.rules.target}"
        if cast.rules.partnership:
            return f"{who} took {side.text} to {goal} during the hand."
        return f"{who} reached {goal} during the hand."
    if ended.end is HandEnd.DOMINO:
        scores = f"the {plural(c.others, 'pip')} {_pips_held(ended, cast)}"
        if not c.others:  # (only blanks left: "the 0 pips you have left" said nothing)
            scores = f"nothing: the tiles {_pips_held(ended, cast)} hold no pips"
        if cast.rules.partnership:
            text = f"{who} went out: {side.says('scores', 'score')} {scores}"
        elif c.seat is not None:
            text = f"{cast.seat(c.seat).says('went out and scores', 'went out and score')} {scores}"
        else:
            text = f"{side.says('went out and scores', 'went out and score')} {scores}"
        return text + _rounded(c.counted, c.earned) + "."
    return _blocked(ended, cast)


def _pips_held(ended: HandEnded, cast: Cast) -> str:
    """Who holds the pips that went-out scores: "Ana has left", "you and Cleo have left"."""
    sides = 2 if cast.rules.partnership else len(ended.pips_left)
    held = [s for s, pips in enumerate(ended.pips_left)
            if pips is not None and s % sides != ended.winner]
    if not 0 < len(held) <= 2:
        return "left in the other hands"
    who = [cast.seat(s) for s in held]
    have = "have" if len(who) > 1 or who[0].plural else "has"
    return f"{listed([w.text for w in who])} {have} left"


def _blocked(ended: HandEnded, cast: Cast) -> str:
    c = ended.tally
    names = listed([cast.side(s).text for s in c.tied])
    if ended.winner is None:
        return f"the line is blocked: {names} tie on {plural(c.own, 'pip')}, so nobody scores."
    side = cast.side(ended.winner)
    if c.tied:
        lightest = cast.tile(c.lightest) if c.lightest is not None else "?"
        head = (f"the line is blocked: {names} tie on {plural(c.own, 'pip')}; "
                f"{side.says('holds', 'hold')} the lightest tile ({lightest}), "
                f"{'win' if side.plural else 'wins'}")
    else:
        head = f"the line is blocked: {side.says('has', 'have')} the fewest pips ({c.own})"
    score = "score" if side.plural else "scores"
    theirs = _losers_owner(ended.winner, cast)
    if cast.rules.blocked_scoring == "difference":
        count = (f"{score} {c.counted}: {theirs} {plural(c.others, 'pip')} minus "
                 f"{side.owner} {c.own}")
    else:
        count = f"{score} {theirs} {plural(c.others, 'pip')}"
    return f"{head} and {count}{_rounded(c.counted, c.earned)}."


def _losers_owner(winner: int, cast: Cast) -> str:
    """Whose pips a blocked hand's winner scores: "Ana's" (one other player), "your", "the
    other team's", "the others'"."""
    if cast.rules.partnership:
        return "the other team's"
    others = [s for s in range(cast.sides) if s != winner]
    return cast.seat(others[0]).owner if len(others) == 1 else "the others'"


def _rounded(counted: int, earned: int) -> str:
    return f", rounded to {earned}" if earned != counted else ""


def hand_points(ended: HandEnded, cast: Cast) -> list[str]:
    """Each side's points this hand, itemised: 'Ana 35 (25 for the pips, 10 for the ends)'."""
    out = []
    for side, points in enumerate(ended.points):
        counted = ended.tally.earned if side == ended.winner else 0
        fives = points - counted
        parts = []
        if counted:
            parts.append(f"{counted} for the pips")
        if fives:
            parts.append(f"{fives} for the ends")
        detail = f" ({', '.join(parts)})" if len(parts) > 1 or fives else ""
        out.append(f"{with_points(cast.side_name(side), points)}{detail}")
    return out


def with_points(name: str, points: int) -> str:
    """'Ana 35'; 'normal bot 1: 5' where the name ends in a number of its own."""
    return f"{name}: {points}" if name[-1:].isdigit() else f"{name} {points}"


def match_end_sentence(ended: MatchEnded, cast: Cast, left: Sequence[int] = ()) -> str:
    """Who won the match and why. ``left``: the seats that resigned or left, in order."""
    if ended.winner is None:
        return "The match is over: nobody won."
    winner = cast.side(ended.winner).text
    if ended.why is MatchEnd.RESIGNED:
        gone = [s for s in left if cast.rules.partnership or s != ended.winner]
        return f"The match is over: {winner} won because {who_left(gone, cast)}."
    points = plural(ended.scores[ended.winner], "point")
    if ended.why is MatchEnd.ONE_HAND:
        return f"The match is over: {winner} won the single hand with {points}."
    return f"The match is over: {winner} won with {points}."


def who_left(seats: Sequence[int], cast: Cast) -> str:
    """How the seats that are gone left, as a LAN table saw it ('Bo did not come back and Cy
    left the table'), else 'resigned': 'Bo resigned', 'Bo and Cy both resigned'."""
    if not seats:
        return "the others resigned"
    how = [_how_left(seat, cast) for seat in seats]
    names = [cast.seat(seat).text for seat in seats]
    if len(set(how)) > 1:
        return listed([f"{name} {said}" for name, said in zip(names, how, strict=True)])
    each = "" if len(seats) == 1 or how[0] == "did not come back" else (
        "both " if len(seats) == 2 else "all ")
    return f"{listed(names)} {each}{how[0]}"


def dealt_again(hand: int, gone: Sequence[int], cast: Cast) -> str:
    """The hand in play dealt again under its number (at a locked table someone left it before it
    could be scored: only they could open their tiles): who left, and that the deal starts over."""
    if not gone:
        return f"Hand {hand} is dealt again from the start."
    return f"{capital(who_left(gone, cast))}: hand {hand} is dealt again among the players left."


def _how_left(seat: int, cast: Cast) -> str:
    return dict(cast.departures).get(seat, "resigned")


def standings(ended: MatchEnded, cast: Cast,
              left: Sequence[int] = ()) -> list[tuple[str, str, int]]:
    """(place, side, points) from first to last. A side that resigned gets no rank ('-') and
    says so after its name (it lost whatever its score), so a ranked winner never sits above a
    better score without saying why."""
    gone = {s % 2 if cast.rules.partnership else s for s in left}
    rows = []
    place = 0
    for side in ended.standings:
        if side in gone and side != ended.winner:
            how = "resigned" if cast.rules.partnership else _how_left(side, cast)
            rows.append(("-", f"{cast.side_name(side)} ({how})", ended.scores[side]))
            continue
        place += 1
        rows.append((f"{place}.", cast.side_name(side), ended.scores[side]))
    return rows


def hand_end_short(ended: HandEnded, cast: Cast) -> str:
    """A few words for a score sheet row: 'Ana went out', 'blocked', 'you resigned'."""
    c = ended.tally
    if ended.end is HandEnd.DOMINO and c.seat is not None:
        return f"{cast.seat(c.seat).text} went out"
    if ended.end is HandEnd.TARGET and c.seat is not None:
        return f"{cast.seat(c.seat).text} hit target"
    if ended.end is HandEnd.RESIGNED and c.seat is not None:
        return f"{cast.seat(c.seat).text} resigned"
    return "blocked, a tie" if ended.winner is None else "blocked"


def final_result(winner: int | None, scores: Sequence[int], cast: Cast) -> str:
    """The end of a match in one clause: 'you won: you 61, Ana 40' / 'nobody won: …'."""
    who = "nobody" if winner is None else cast.side(winner).text
    listed_scores = ", ".join(with_points(cast.side(s).text, p) for s, p in enumerate(scores))
    return f"{who} won: {listed_scores}"
