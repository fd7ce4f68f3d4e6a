"""From a stream of observations to sentences, each said once.

The narrator remembers how far into the hand's public history it has spoken; every new
observation yields only what happened since (and a hand's end from ``results`` if the history
that held it was already replaced by the next deal's). It reads nothing but observations, so it
serves a seat that plays and one that only watches alike: "you" is used only when the observation
is a playing seat's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lanomino.engine import (
    Draw,
    End,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    Observation,
    Pass,
    Passed,
    Play,
    Resigned,
    TileDrawn,
    TilePlayed,
)
from lanomino.engine.events import unopened_draw
from lanomino.engine.line import Line
from lanomino.lines.say import Voice, join_words
from lanomino.narrate import dealt_again, plural
from lanomino.ui.board import Placed, line_view


def voice_for(obs: Observation, names: tuple[str, ...], words: bool, plays: bool = True,
              departures: tuple[tuple[int, str], ...] = ()) -> Voice:
    seats = names + tuple(f"Seat {s + 1}" for s in range(len(names), obs.players))
    me = obs.seat if plays and obs.seat >= 0 else None  # (seat -1: a watcher, net/watchers.py)
    return Voice(seats, me, obs.rules, words, departures)


def replay_line(events: Sequence[Event], fives: bool) -> Line:
    """The line after ``events`` (one hand's history), rebuilt from its plays."""
    line = Line(fives)
    for event in events:
        _lay(line, event)
    return line


def _lay(line: Line, event: Event) -> None:
    if isinstance(event, TilePlayed):
        if event.first:
            line.place_first(event.tile, event.end)
        else:
            line.place(event.tile, event.end.value)


class Narrator:
    """Says what is new in each observation; ``plays=False`` for a reader without a seat."""

    def __init__(self, words: bool = False, plays: bool = True) -> None:
        self.words, self.plays = words, plays
        self.hand_no: int | None = None  # the hand whose history is being followed
        self.said = 0  # events of that hand's history already spoken
        self.results = 0  # hand results spoken
        self.outcome = False  # the match's end spoken
        self.turn: tuple[int, int] | None = None  # (hand, history length) of the last turn said
        self.line = Line()
        self.mover: int | None = None  # the seat that played last (a score is theirs)
        self.left: list[int] = []  # seats that resigned, in order
        self.left_here: list[int] = []  # those of them that resigned in the hand's deal in play
        self.departures: tuple[tuple[int, str], ...] = ()  # (seat, how) at a LAN table
        self.away = False  # the move clock ran out for this seat: the table's bot takes its turns
        self.started: Event | None = None  # the hand's first event as last seen (its deal)
        self.active: tuple[bool, ...] = ()  # who was still in the match, as last seen

    def voice(self, obs: Observation, names: tuple[str, ...]) -> Voice:
        return voice_for(obs, names, self.words, self.plays, self.departures)

    def update(self, obs: Observation, names: tuple[str, ...]) -> list[str]:
        """The sentences for what happened since the last observation."""
        voice = self.voice(obs, names)
        out: list[str] = []
        if self.hand_no is None:
            out += self._first_sight(obs, voice)
        elif obs.hand_no == self.hand_no and obs.history and obs.history[0] != self.started:
            out += self._dealt_again(obs, voice)  # (a locked table: someone left before it
        elif obs.hand_no == self.hand_no and len(obs.history) < self.said:  # moves taken back
            self.said, self.turn = len(obs.history), None
            self.results = min(self.results, len(obs.results))
            self.outcome = obs.outcome is not None
            self.line = replay_line(obs.history, obs.rules.fives)
            out += self.board(obs, voice)
        elif obs.hand_no != self.hand_no:
            out += self._missed_results(obs, voice)
            if obs.hand_no > self.hand_no + 1 and obs.rules.no_double == "reshuffle":
                out.append("Nobody held a double, so the tiles were shuffled and dealt again.")
            self.hand_no, self.said, self.line = obs.hand_no, 0, Line(obs.rules.fives)
            self.left_here = []
        self.started = obs.history[0] if obs.history else None
        self.active = tuple(obs.active)
        for at in range(self.said, len(obs.history)):
            if at == len(obs.history) - 1 and unopened_draw(obs.history, voice.me):
                break  # (the locked deck: said with its tile, once open)
            out += self._event(obs.history[at], voice, obs)
            self.said += 1
        out += self._missed_results(obs, voice)
        if obs.outcome is not None and not self.outcome:
            self.outcome = True
            out.append(voice.match_ended(obs.outcome, self._gone(obs)))
        out += self._turn(obs, voice)
        return [line for line in out if line]

    def _dealt_again(self, obs: Observation, voice: Voice) -> list[str]:
        """The hand in play was dealt again under the same number: at a locked table someone
        left before it could be scored (only they could open their tiles). Who, and that the
        deal starts over; then the new deal is said as any."""
        gone = [s for s in range(obs.players) if s < len(self.active) and not obs.active[s]
                and (self.active[s] or s in self.left_here)]  # (resigned as a move of it: a
        self.left_here = []  # holder lost in its round of passes after a block nobody saw)
        self.said, self.turn, self.line = 0, None, Line(obs.rules.fives)
        return [dealt_again(obs.hand_no, gone, voice.cast)]

    def _gone(self, obs: Observation) -> list[int]:
        """Who left the match: those seen resigning, then any other inactive seat."""
        return [*self.left, *(seat for seat in range(obs.players)
                              if not obs.active[seat] and seat not in self.left)]

    def _first_sight(self, obs: Observation, voice: Voice) -> list[str]:
        """Joining a hand under way (a resumed game, a seat taken back): the state, not the past."""
        self.hand_no, self.line = obs.hand_no, replay_line(obs.history, obs.rules.fives)
        self.results = len(obs.results)
        self.outcome = obs.outcome is not None
        if len(obs.history) <= 1:
            self.line = Line(obs.rules.fives)
            return []  # a fresh deal: its start is narrated as usual
        self.said = len(obs.history)
        if obs.phase != "play":
            return [f"Hand {obs.hand_no} is over.", voice.scores(obs.scores, obs.rules.target)]
        return [f"Hand {obs.hand_no} is under way.", *self.board(obs, voice),
                voice.scores(obs.scores, obs.rules.target)]

    def _event(self, event: Event, voice: Voice, obs: Observation) -> list[str]:
        _lay(self.line, event)
        if isinstance(event, TilePlayed):
            self.mover = event.seat
        elif isinstance(event, Resigned) and event.seat not in self.left:
            self.left.append(event.seat)
            self.left_here.append(event.seat)
        if isinstance(event, HandEnded):
            return self._missed_results(obs, voice)
        if isinstance(event, MatchEnded):
            if self.outcome:
                return []
            self.outcome = True
        mine = isinstance(event, (TilePlayed, TileDrawn, Passed)) and event.seat == voice.me
        said = replace(voice, away=True) if mine and self.away else voice  # the bot's, for them
        out = [said.event(event, self.line, self.mover, self.left)]
        if isinstance(event, HandStarted) and voice.me is not None and not obs.is_my_turn:
            out.append(f"Your hand: {voice.numbered(obs.hand)}.")
        return out

    def _hand_over(self, event: HandEnded, voice: Voice, obs: Observation) -> list[str]:
        late = self.results != len(obs.results)
        scores = _scores_after(obs, self.results) if late else obs.scores
        return [*voice.hand_ended(event), voice.pips_left(event),
                voice.scores(scores, obs.rules.target)]

    def _missed_results(self, obs: Observation, voice: Voice) -> list[str]:
        out: list[str] = []
        while self.results < len(obs.results):
            event = obs.results[self.results]
            self.results += 1
            out += self._hand_over(event, voice, obs)
        return out

    def _turn(self, obs: Observation, voice: Voice) -> list[str]:
        if voice.me is None or not obs.is_my_turn or not obs.legal:
            return []  # (no move yet: the tile this seat drew is still opening)
        key = (obs.hand_no, len(obs.history))
        if key == self.turn:
            return []
        self.turn = key
        if self.away:  # out of time: the table's bot plays this turn at once (even if the
            return []  # player comes back before its move is confirmed), so it is not theirs
        return ["Your turn.", f"Your hand: {voice.numbered(obs.hand)}.", self.choices(obs, voice)]

    # ----- answers to hand, board, scores ---------------------------------------------------

    def choices(self, obs: Observation, voice: Voice) -> str:
        """What the reader may do now, with the tile numbers a command takes."""
        plays: dict[int, list[End | None]] = {}
        for action in obs.legal:
            if isinstance(action, Play):
                plays.setdefault(obs.hand.index(action.tile) + 1, []).append(action.end)
        if plays:
            items = []
            for number, ends in sorted(plays.items()):
                tile = voice.tile(obs.hand[number - 1])
                places = [str(e) for e in ends if e is not None]
                where = f" ({join_words(places, 'or')})" if len(places) > 1 else ""
                items.append(f"{number}: {tile}{where}")
            extra = " You may also draw." if any(isinstance(a, Draw) for a in obs.legal) else ""
            lead = "You lead. " if obs.line.is_empty else ""
            return f"{lead}Playable: {', '.join(items)}.{extra}"
        if any(isinstance(a, Draw) for a in obs.legal):
            return f"Nothing fits. Type draw ({plural(obs.drawable, 'tile')} to draw)."
        if any(isinstance(a, Pass) for a in obs.legal):
            return "Nothing fits and nothing can be drawn. Type pass."
        return ""

    def hand(self, obs: Observation, names: tuple[str, ...]) -> list[str]:
        voice = self.voice(obs, names)
        if voice.me is None:
            return ["You hold no tiles: you are watching."]
        out = [f"Your hand: {voice.numbered(obs.hand)}."]
        if obs.is_my_turn:
            out.append(self.choices(obs, voice))
        return out

    def board(self, obs: Observation, voice: Voice | None = None,
              names: tuple[str, ...] = ()) -> list[str]:
        voice = voice or self.voice(obs, names)
        view = line_view(obs.history)
        if not view.chain:
            out = ["No tile has been played in this hand yet."]
        else:
            out = [f"The line from left to right: {_laid(view.chain, voice)}."]
            for arm, where in ((view.up, "Above"), (view.down, "Below")):
                if arm:
                    out.append(f"{where} the spinner, going out: {_laid(arm, voice)}.")
            out.append(voice.ends(replay_line(obs.history, obs.rules.fives)))
        counts = [f"{voice.who(s, False)} {plural(n, 'tile')}"
                  for s, n in enumerate(obs.hand_sizes) if obs.active[s]]
        out.append(f"Tiles in hand: {', '.join(counts)}.")
        if obs.rules.draws:
            out.append(f"Boneyard: {plural(obs.boneyard, 'tile')}.")
        if obs.phase == "play":
            out.append(f"{voice.who(obs.turn)} {voice.verb(obs.turn, 'are', 'is')} to play.")
        return out

    def scores(self, obs: Observation, names: tuple[str, ...]) -> list[str]:
        voice = self.voice(obs, names)
        return [voice.scores(obs.scores, obs.rules.target),
                f"Hand {obs.hand_no}; {plural(len(obs.results), 'hand')} finished."]


def _laid(tiles: tuple[Placed, ...], voice: Voice) -> str:
    """Tiles as they lie, each written from its near number to its far one."""
    names = [f"double-{voice.number(p.near)}" if p.is_double and voice.words
             else f"{voice.number(p.near)}-{voice.number(p.far)}" for p in tiles]
    return ", ".join(names)


def _scores_after(obs: Observation, hands: int) -> tuple[int, ...]:
    """The match scores after the first ``hands`` results (a hand spoken late)."""
    totals = [0] * len(obs.scores)
    for result in obs.results[:hands]:
        for side, points in enumerate(result.points):
            totals[side] += points
    return tuple(totals)
