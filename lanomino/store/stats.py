"""Stats from the play log's derived tables: your results by opponent, level, hand and tile."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lanomino.engine import Rules
from lanomino.engine.errors import EngineError

TOP_TILES = 5


def _decided(table: str = "") -> str:
    """SQL: the match has a result: finished, or left by its host at a table of two and decided
    by this seat's node (PlayLog.keep_abandoned with a winner)."""
    t = table
    return f"({t}finished = 1 OR ({t}abandoned = 1 AND {t}winner IS NOT NULL))"


@dataclass(frozen=True, slots=True)
class Tally:
    """Matches and wins against one opponent or computer level."""

    key: str  # a peer id, or a computer level
    name: str
    matches: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "matches": self.matches, "wins": self.wins,
                "win_rate": round(self.win_rate, 4)}


@dataclass(frozen=True, slots=True)
class Stats:
    matches: int
    wins: int
    opponents: tuple[Tally, ...]
    levels: tuple[Tally, ...]
    hands: int
    hands_won: int
    won_by_domino: int
    won_by_block: int
    points_per_hand: float
    tiles: tuple[tuple[str, int], ...]  # most played first
    numbers: tuple[tuple[int, int], ...]  # (pips, tiles played showing them), most first
    longest_streak: int
    current_streak: int = 0
    played: int = 0  # matches with your seat in the log, finished or not (History lists them)
    watched: int = 0  # matches in the log without a seat of yours
    won_at_target: int = 0  # All Fives: hands won by reaching the target during play
    won_by_resignation: int = 0  # hands won because the others resigned or left

    def to_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches, "played": max(self.played, self.matches),
            "watched": self.watched, "wins": self.wins,
            "win_rate": round(self.wins / self.matches, 4) if self.matches else 0.0,
            "opponents": [t.to_json() for t in self.opponents],
            "levels": [t.to_json() for t in self.levels],
            "hands": self.hands, "hands_won": self.hands_won,
            "won_by_domino": self.won_by_domino, "won_by_block": self.won_by_block,
            "won_at_target": self.won_at_target, "won_by_resignation": self.won_by_resignation,
            "points_per_hand": round(self.points_per_hand, 2),
            "most_played_tiles": [{"tile": t, "times": n} for t, n in self.tiles],
            "most_played_numbers": [{"number": p, "times": n} for p, n in self.numbers],
            "longest_winning_streak": self.longest_streak, "current_streak": self.current_streak,
        }


def count_numbers(tiles: Counter[str]) -> list[tuple[int, int]]:
    """How often each number showed on the tiles played (a double counts once)."""
    numbers: Counter[int] = Counter()
    for tile, n in tiles.items():
        for pips in {int(x) for x in tile.split("-")}:
            numbers[pips] += n
    return sorted(numbers.items(), key=lambda kv: (-kv[1], -kv[0]))


@dataclass
class _Count:
    name: str
    matches: int = 0
    wins: int = 0


def compute_stats(conn: sqlite3.Connection) -> Stats:
    """Your stats over every logged match where you had a seat (inside a read transaction).

    Wins, streaks and tallies count decided matches (finished, or decided when the host left
    a table of two); ``played`` counts every match you sat at, ``watched`` the others, so the
    three add up to what History lists; hands count whenever they were logged."""
    matches = conn.execute(
        f"SELECT id, winner, me_side FROM match WHERE me IS NOT NULL AND {_decided()} "
        "ORDER BY started_at, id").fetchall()
    played, watched = conn.execute(
        "SELECT COUNT(me), COUNT(*) - COUNT(me) FROM match").fetchone()
    won = {mid: winner is not None and winner == side for mid, winner, side in matches}
    opponents, levels = _tallies(conn, won)
    longest = current = 0
    for mid, _, _ in matches:
        current = current + 1 if won[mid] else 0
        longest = max(longest, current)
    hands = conn.execute(
        "SELECT h.end_kind, h.winner, h.points, m.me_side "
        "FROM hand h JOIN match m ON m.id = h.match_id WHERE m.me IS NOT NULL").fetchall()
    won_ends = [end for end, winner, _, side in hands if winner is not None and winner == side]
    points = [_points(text, side) for _, _, text, side in hands]
    tiles: Counter[str] = Counter({str(t): int(n) for t, n in conn.execute(
        "SELECT t.tile, COUNT(*) FROM hand_tile t JOIN match m ON m.id = t.match_id "
        "WHERE t.seat = m.me GROUP BY t.tile")})
    return Stats(
        matches=len(matches), wins=sum(won.values()), opponents=opponents, levels=levels,
        hands=len(hands), hands_won=len(won_ends),
        won_by_domino=won_ends.count("domino"), won_by_block=won_ends.count("blocked"),
        won_at_target=won_ends.count("target"), won_by_resignation=won_ends.count("resigned"),
        points_per_hand=sum(points) / len(points) if points else 0.0,
        tiles=tuple(sorted(tiles.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_TILES]),
        numbers=tuple(count_numbers(tiles)[:TOP_TILES]),
        longest_streak=longest, current_streak=current, played=int(played),
        watched=int(watched),
    )


def _tallies(conn: sqlite3.Connection,
             won: dict[int, bool]) -> tuple[tuple[Tally, ...], tuple[Tally, ...]]:
    """Per opponent (peer id) and per computer level; partners are not opponents."""
    rows = conn.execute(
        "SELECT m.id, p.seat, p.peer_id, p.name, p.level, m.me_side, m.rules "
        "FROM match_player p JOIN match m ON m.id = p.match_id "
        f"WHERE m.me IS NOT NULL AND {_decided('m.')} AND p.seat != m.me "
        "ORDER BY m.started_at, m.id").fetchall()
    by_peer: dict[str, _Count] = {}
    by_level: dict[str, _Count] = {}
    counted: set[tuple[int, str]] = set()
    for mid, seat, peer, name, level, me_side, rules in rows:
        if _is_partnership(rules) and seat % 2 == me_side:
            continue
        if (mid, peer) not in counted:  # a computer level is one pseudo peer: once per match
            counted.add((mid, peer))
            entry = by_peer.setdefault(peer, _Count(name))
            entry.name = f"computer, {level}" if level else name  # the latest name this peer used
            entry.matches += 1
            entry.wins += won[mid]
        if level and (mid, level) not in counted:  # two computers of one level: one match
            counted.add((mid, level))
            lv = by_level.setdefault(level, _Count(level))
            lv.matches += 1
            lv.wins += won[mid]
    return _sorted(by_peer), _sorted(by_level)


def _sorted(table: dict[str, _Count]) -> tuple[Tally, ...]:
    out = [Tally(key, c.name, c.matches, c.wins) for key, c in table.items()]
    return tuple(sorted(out, key=lambda t: (-t.matches, t.key)))


def _is_partnership(rules: str) -> bool:
    try:
        return Rules.from_spec(dict(json.loads(rules))).partnership
    except (EngineError, TypeError, ValueError):
        return False


def _points(text: str, side: int | None) -> int:
    try:
        return int(json.loads(text)[side]) if side is not None else 0
    except (TypeError, ValueError, IndexError):
        return 0
