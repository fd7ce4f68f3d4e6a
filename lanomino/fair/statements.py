"""What gets signed in a transcript: the header, each move, a hand's log, the closing. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from lanomino.blind.hashing import ALGORITHM as BLIND_ALGORITHM
from lanomino.engine import DRAW, PASS, RESIGN, Action, Play
from lanomino.fair.canonical import digest
from lanomino.fair.transcript_model import FORMAT, FORMAT2, MOVE_CLOCK


def header_of(
    table: bytes, algorithm: str, rules_spec: dict[str, Any], players: Sequence[str],
    keys: Sequence[bytes], move_clock: int | None | Literal[False] = False,
) -> dict[str, Any]:
    """The match header. ``move_clock``: ms a move, or None: the table has no move clock (a
    table hosted now says which); False: not said (as in a transcript written before). The
    locked deck's algorithm makes it a ``lanomino.transcript/2`` header."""
    fmt = FORMAT2 if algorithm == BLIND_ALGORITHM else FORMAT
    header = {"format": fmt, "algorithm": algorithm, "table": table.hex(), "rules": rules_spec,
              "players": list(players), "keys": [k.hex() for k in keys]}
    return header if move_clock is False else {**header, MOVE_CLOCK: move_clock}


def header_digest(header: dict[str, Any]) -> str:
    return digest(header).hex()


def header_statement(header: str, seat: int) -> dict[str, Any]:
    """What every seat signs before the first hand: it agrees to the table, rules, players, keys."""
    return {"type": "lanomino.header/1", "header": header, "seat": seat}


def move_statement(header: str, hand: int, index: int, move: dict[str, Any]) -> dict[str, Any]:
    """What a seat signs for its ``index``-th move (0-based) of a hand."""
    return {"type": "lanomino.move/1", "header": header, "hand": hand, "index": index, "move": move}


def dispute_statement(header: str, hand: int, index: int, seat: int,
                      move: dict[str, Any]) -> dict[str, Any]:
    """What a seat signs when the host made its ``index``-th move for it (a resignation, or the
    table's move while the seat was counted away) and the seat says it was there, in time."""
    return {"type": "lanomino.dispute/1", "header": header, "hand": hand, "index": index,
            "seat": seat, "move": move}


def blame_statement(header: str, hand: int, seat: int, what: str, why: str) -> dict[str, Any]:
    """What a host signs when it tells the players it refused a seat's badly signed message (a
    new host after a migration keeps the hand's record of it only with this signature)."""
    return {"type": "lanomino.blame/1", "header": header, "hand": hand, "seat": seat,
            "what": what, "why": why}


def log_statement(
    header: str,
    hand: int,
    host: int,
    set_digests: Sequence[bytes],
    secrets: Sequence[Sequence[tuple[int, bytes]]],
    moves: Sequence[dict[str, Any]],
    points: Sequence[int],
    scores: Sequence[int],
    migrated: dict[str, int] | None = None,
    reshuffled: dict[str, Any] | None = None,
    abandoned: Sequence[dict[str, Any]] = (),
    away: Sequence[int] = (),
    adopted: dict[str, Any] | None = None,
    refused: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """What the host signs when a hand ends: the sets, the secrets, the moves and the result (and,
    when the host changed during the hand, that migration; ``host`` is then the new host; and when
    the unknown tiles were re-shuffled, the digest of the ``reshuffled`` object)."""
    extra: dict[str, Any] = {} if migrated is None else {"migrated": dict(migrated)}
    if reshuffled is not None:
        extra["reshuffled"] = digest(reshuffled).hex()
    if abandoned:
        extra["abandoned"] = [dict(a) for a in abandoned]
    if away:
        extra["away"] = list(away)
    if adopted is not None:  # the seats this host took over under its own keys (fair/adoption.py)
        extra["adopted"] = adopted
    if refused:  # badly signed messages refused on arrival: the host says whose they were
        extra["refused"] = [dict(r) for r in refused]
    return {**extra, "type": "lanomino.log/1", "header": header, "hand": hand, "host": host,
            "sets": [d.hex() for d in set_digests],
            "secrets": [[[seat, s.hex()] for seat, s in attempt] for attempt in secrets],
            "moves": digest(list(moves)).hex(), "points": list(points), "scores": list(scores)}


def end_statement(
    header: str, host: int, hands: int, finished: bool, winner: int | None, scores: Sequence[int],
    departures: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """What the host signs when the transcript closes (the match ended or was abandoned);
    ``departures``: a locked match's, after its last hand, that ended it (``fair/departures2``)."""
    out = {"type": "lanomino.end/1", "header": header, "host": host, "hands": hands,
           "finished": finished, "winner": winner, "scores": list(scores)}
    if departures:
        out["departures"] = list(departures)
    return out


def move_json(seat: int, action: Action) -> dict[str, Any]:
    """The record's JSON form of a move."""
    if isinstance(action, Play):
        out: dict[str, Any] = {"seat": seat, "play": str(action.tile)}
        if action.end is not None:
            out["end"] = str(action.end)
        return out
    name = {DRAW: "draw", PASS: "pass", RESIGN: "resign"}[action]
    return {"seat": seat, name: True}
