"""Sentences about everything around the game: a LAN table's status, the play log, the replay,
settings and rules. Plain lines, no columns, no box characters (``plain`` cleans what others wrote).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lanomino import command
from lanomino.engine import Rules
from lanomino.lines.narrator import replay_line
from lanomino.lines.say import Voice, join_words
from lanomino.narrate import plural
from lanomino.ui.helptext import describe_game, rules_text
from lanomino.ui.history import (
    ReplayView,
    check_label,
    date_label,
    matches_count,
    result_label,
    rules_label,
)
from lanomino.ui.lan import LanView

_PLAIN = str.maketrans({"…": "...", "·": ",", "✓": "", "→": "to", "←": "", "×": "x",
                        "“": '"', "”": '"', "‘": "'", "’": "'", "—": "-", "–": "-"})


def plain(text: str) -> str:
    """``text`` without the full-screen client's symbols (a screen reader reads words)."""
    return " ".join(text.translate(_PLAIN).split())


def sentence(text: str) -> str:
    """A status phrase ('waiting for players (1/2)') as a sentence."""
    text = plain(text)
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# ----- a LAN table ---------------------------------------------------------------------------


@dataclass
class LanHeard:
    """What has been said about one LAN table already."""

    status: str = ""
    address: str = ""
    roster: tuple[Any, ...] = ()
    verified: set[int] = field(default_factory=set)
    closed: str = ""
    rematch: str = ""
    table: TableHeard = field(default_factory=lambda: TableHeard())
    dropped: set[int] = field(default_factory=set)  # seats said to have lost touch
    disputes: int = 0  # how many of the table's disputes were said


@dataclass
class TableHeard:
    """What has been said about who watches, the move clock and the seats out of time."""

    watching: int = 0  # nobody, until a roster says
    clock: float | None = None  # no move clock, until the table says
    away: set[int] = field(default_factory=set)


YOU_ARE_AWAY = ("Your time ran out: the table's bot plays for you. Type back, or any move, to "
                "come back and play your own turns.")


def table_news(heard: TableHeard, watching: int, clock: float | None,
               rows: Iterable[tuple[int, str, bool]], me: int = -1,
               watcher: bool = False) -> list[str]:
    """What changed in who watches, the move clock and the seats out of time (``rows``: seat,
    name, away; ``me``: the reader's seat, -1 for a watcher; ``watcher``: the reader is one of
    those watching); the one wording for a watcher's sentences and the line mode. The reader's
    own coming back is said by the client (its message, client/lan.py) the moment they say it."""
    out: list[str] = []
    if watching != heard.watching:
        heard.watching = watching
        out.append(_watching(watching, watcher))
    if clock != heard.clock:
        heard.clock = clock
        out.append("No move clock." if clock is None else f"Move clock: {clock:g} s a move.")
    for seat, name, away in rows:
        if away != (seat in heard.away):
            heard.away.symmetric_difference_update({seat})
            if seat == me:
                out += [YOU_ARE_AWAY] if away else []
            else:
                out.append(f"{name} is out of time: the table's bot plays for them." if away
                           else f"{name} is back.")
    return out


def _watching(watching: int, watcher: bool) -> str:
    """How many watch, the reader counted among them when they watch too."""
    if not watcher:
        return f"{watching} watching."
    return "You are the only one watching." if watching <= 1 else (
        f"{watching} watching, you among them.")


def _lost_touch(lan: LanView, heard: LanHeard) -> list[str]:
    """A seat that lost touch, at once, with how long it is kept, and that it is back when it
    comes back in time (how it left the match is said with its move: "did not come back")."""
    names = {r.seat: r.name for r in lan.roster}
    out = [f"{names.get(seat, f'Seat {seat + 1}')} is back." for seat in sorted(heard.dropped)
           if seat not in lan.dropped and seat not in lan.departures]
    for seat, until in sorted(lan.dropped.items()):
        if seat not in heard.dropped:
            left_s = max(0, math.ceil(until - time.monotonic()))
            out.append(f"{names.get(seat, f'Seat {seat + 1}')} lost touch: their seat is kept "
                       f"for {left_s} s.")
    heard.dropped = set(lan.dropped)
    return out


def lan_news(lan: LanView, heard: LanHeard, me: int = -1) -> list[str]:
    """What changed at the table since ``heard`` (which is brought up to date); ``me``: the
    reader's seat (-1: none yet, or a watcher)."""
    out: list[str] = []
    if lan.address and lan.address != heard.address:
        heard.address = lan.address
        out.append(f"The table {lan.table} is open. Others join it with: "
                   f"{command('join')} {lan.address}")
        if lan.fingerprint:
            out.append(f"Host key fingerprint: {lan.fingerprint}.")
    roster = tuple((r.seat, r.name, r.kind, r.connected) for r in lan.roster)
    if roster and roster != heard.roster:
        heard.roster = roster
        out.append(_seats(lan))
    if roster:
        rows = [(r.seat, r.name, r.away) for r in lan.roster]
        out += table_news(heard.table, lan.watchers, lan.move_clock_s, rows, me, lan.watching)
        out += _lost_touch(lan, heard)
    out += lan.disputes[heard.disputes:]  # a seat says the host moved for it while it was there
    heard.disputes = len(lan.disputes)
    if lan.status and lan.status != heard.status:
        heard.status = lan.status
        out.append(sentence(lan.status))
    for hand in sorted(set(lan.verified) - heard.verified):
        heard.verified.add(hand)
        ok, detail = lan.verified[hand]
        detail = detail.removeprefix(f"hand {hand}: ")
        out.append(f"Hand {hand} checked: the deal and every move were fair ({plain(detail)})."
                   if ok
                   else f"Hand {hand} FAILED its check: {plain(detail)}.")
    if lan.closed and lan.closed != heard.closed:
        heard.closed = lan.closed
        out.append(sentence(lan.closed))
    if lan.rematch and lan.rematch != heard.rematch:
        heard.rematch = lan.rematch
        out.append(f"{lan.rematch} offers a rematch, everyone in the same seat: "
                   "type again to play on.")
    return out


def _seats(lan: LanView) -> str:
    people = []
    for r in sorted(lan.roster, key=lambda r: r.seat):
        who = "a computer player" if r.kind == "bot" else r.name
        gone = ", not connected" if not r.connected else ""
        people.append(f"{who} (seat {r.seat + 1}{gone})")
    free = lan.seats - len(lan.roster)
    tail = f"; {plural(free, 'seat')} free" if free > 0 else ""  # (full: the status says so)
    return f"At the table: {join_words(people)}{tail}."


# ----- rules and settings --------------------------------------------------------------------


def rules_lines(rules: Rules, players: int) -> list[str]:
    return [f"{describe_game(rules)}, {players} players.", *rules_text(rules, players)]


SETTING_WORDS = {"name": "name", "colour": "colour", "sound": "sound", "auto_draw": "auto_draw",
                 "autodraw": "auto_draw", "level": "level", "preset": "preset", "rules": "preset",
                 "pause": "pause_s", "pause_s": "pause_s", "lines": "lines", "words": "words"}
SETTING_HELP = {
    "name": "your name at the table", "colour": "coloured pips in the full-screen client",
    "sound": "a bell on your turn (full-screen client)",
    "auto_draw": "draw for you when nothing fits",
    "level": "the computer's level in a new match", "preset": "the rules of a new match",
    "pause_s": "seconds a computer player waits before its move",
    "lines": "start in this line mode instead of the full-screen client",
    "words": "say tiles as words (five-three) instead of digits (5-3)",
}


def settings_lines(values: dict[str, Any]) -> list[str]:
    out = []
    for key, what in SETTING_HELP.items():
        value = values.get(key)
        shown = ("on" if value else "off") if isinstance(value, bool) else (value or "the default")
        out.append(f"{key.replace('_s', '')}: {shown} ({what}).")
    out.append("Change one with set NAME VALUE, for example: set words on.")
    return out


def parse_setting(args: tuple[str, ...], text: str, values: dict[str, Any]) -> tuple[str, Any]:
    """(key, value) from 'set words on'. Raises ValueError with a sentence."""
    if len(args) < 2:
        raise ValueError("Say set NAME VALUE, for example: set words on. "
                         "Type settings for the list.")
    key = SETTING_WORDS.get(args[0])
    if key is None:
        raise ValueError(f"There is no setting {args[0]!r}. Type settings for the list.")
    raw = text.split(None, 1)[1].strip() if key == "name" else args[1]
    old = values.get(key)
    if isinstance(old, bool):
        if raw not in ("on", "off", "yes", "no", "true", "false"):
            raise ValueError(f"{args[0]} is on or off, not {raw!r}.")
        return key, raw in ("on", "yes", "true")
    if key == "pause_s":
        try:
            return key, float(raw)
        except ValueError:
            raise ValueError(f"The pause is a number of seconds, not {raw!r}.") from None
    return key, raw


# ----- history, stats, replay ----------------------------------------------------------------


def history_lines(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return ["No matches logged yet: finish a game and it shows up here."]
    out = [f"{plural(len(rows), 'match', 'matches')} logged, newest first:"]
    for row in rows:
        players = join_words([p["name"] for p in row["players"]])
        out.append(f"Match {row['id']}, {date_label(row, True)}, {row['table']}, {players}, "
                   f"{rules_label(row['rules'])}: {result_label(row)}, {_checked(row)}.")
    out.append("Type replay and a match number to step through it.")
    return out


def _checked(row: dict[str, Any]) -> str:
    """The history's check column as words ("-" in the column: nothing was checked)."""
    label = check_label(row)
    return "not checked" if label == "-" else label


def stats_lines(stats: dict[str, Any] | None) -> list[str]:
    if not stats or (not stats["matches"] and not stats["hands"] and not stats.get("played")):
        return ["No matches logged yet: finish a game and it shows up here."]
    out = [f"{matches_count(stats).replace('Matches', 'Matches:', 1)}, won {stats['wins']}. "
           f"Longest winning streak: {stats['longest_winning_streak']}.",
           f"Hands: {stats['hands']}, you won {stats['hands_won']}: {stats['won_by_domino']} by "
           f"going out, {stats['won_by_block']} by a block. "
           f"{stats['points_per_hand']:.1f} points per hand."]
    tallies = [(f"computer level {t['key']}", t) for t in stats["levels"]]
    tallies += [(t["name"], t) for t in stats["opponents"] if not t["key"].startswith("bot:")]
    for who, t in tallies:
        out.append(f"Against {who}: {plural(t['matches'], 'match', 'matches')}, "
                   f"{plural(t['wins'], 'win')}.")
    return out


def replay_lines(view: ReplayView, words: bool, before: int | None) -> list[str]:
    """The replay's current step: the events since move ``before`` of the same hand (None: the
    whole position, as when arriving at a hand)."""
    frame = view.frame()
    voice = Voice(view.names, None, view.rules, words)
    moves = len(view.hands[view.hand]) - 1
    out = [f"Hand {view.hand + 1} of {len(view.hands)}, move {frame.move} of {moves}."]
    start = 0 if before is None else len(view.hands[view.hand][before].line)
    for i in range(start, len(frame.line)):
        said = voice.event(frame.line[i], replay_line(frame.line[: i + 1], view.rules.fives))
        if said:
            out.append(said)
    if before is None or frame.move == 0:
        out += [f"{voice.who(s)} held {voice.tiles(tiles)}." for s, tiles in enumerate(frame.hands)]
    return out
