"""The JSON forms of game values on the wire: tiles, moves, engine events. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanomino.engine import (
    DRAW,
    PASS,
    RESIGN,
    TILES,
    Action,
    DealVoided,
    End,
    Event,
    HandEnd,
    HandEnded,
    HandStarted,
    HandTally,
    MatchEnd,
    MatchEnded,
    Passed,
    Play,
    PointsScored,
    Resigned,
    Tile,
    TileDrawn,
    TilePlayed,
    parse_tile,
)
from lanomino.engine.errors import EngineError, seat_name
from lanomino.net.errors import RemoteProtocolError
from lanomino.net.wire.checks import (
    HAND,
    MAX_MOVES,
    MAX_SEATS,
    SEAT,
    SIG,
    TILE_TEXT,
    Check,
    _fail,
    boolean,
    check_fields,
    integer,
    listof,
    obj,
    optional,
    text,
)

# ----- game values as JSON ------------------------------------------------------------------


_TILE_BY_TEXT: dict[str, Tile] = {str(t): t for t in TILES}  # exactly the texts accepted below
_END_BY_TEXT: dict[str, End] = {str(e): e for e in End}


def tile_from_text(value: Any, where: str) -> Tile:
    tile = _TILE_BY_TEXT.get(value) if type(value) is str else None
    if tile is not None:
        return tile
    try:
        tile = parse_tile(TILE_TEXT(value, where))
    except EngineError:
        raise _fail(where, "a tile like 6-4", value) from None
    if str(tile) != value:
        raise _fail(where, "a tile written higher number first", value)
    return tile


def tiles_from_text(values: Sequence[Any], where: str) -> tuple[Tile, ...]:
    return distinct(tuple(tile_from_text(v, f"{where}[{i}]") for i, v in enumerate(values)), where)


def distinct(tiles: tuple[Tile, ...], where: str) -> tuple[Tile, ...]:
    """``tiles``, none listed twice. Raises RemoteProtocolError naming ``where``."""
    if len(set(tiles)) != len(tiles):
        raise RemoteProtocolError(f"field {where!r}: a tile is listed twice")
    return tiles


def _end(value: Any, where: str) -> End:
    end = _END_BY_TEXT.get(value) if type(value) is str else None
    if end is not None:
        return end
    try:
        return End.parse(text(5)(value, where))
    except ValueError:
        raise _fail(where, "left, right, up or down", value) from None


def signed_away(move: Any) -> bool:
    """A locked table's move that its seat's own client's bot made, out of time on the move
    clock: it says so under the seat's signature, ``"away": true`` in the move it signs."""
    return isinstance(move, dict) and move.get("away") is True


def parse_move(move: Any, seat: int, where: str = "move", away: bool = False) -> Action:
    """A move in the record's JSON form for ``seat`` (``away``: at a locked table, where a play,
    draw or pass may carry ``"away": true``, ``signed_away``). Raises RemoteProtocolError."""
    if not isinstance(move, dict) or move.get("seat") != seat or isinstance(move.get("seat"), bool):
        raise RemoteProtocolError(f"field {where!r}: expected a move by {seat_name(seat)}")
    marked = away and signed_away(move) and move.get("resign") is None
    kinds = set(move) - {"seat", "end"} - ({"away"} if marked else set())
    if len(kinds) != 1:
        raise RemoteProtocolError(f"field {where!r}: a move is one of play, draw, pass, resign")
    kind = kinds.pop()
    if kind == "play":
        tile = tile_from_text(move["play"], f"{where}.play")
        return Play(tile, _end(move["end"], f"{where}.end") if "end" in move else None)
    actions: dict[str, Action] = {"draw": DRAW, "pass": PASS, "resign": RESIGN}
    if kind not in actions or move[kind] is not True or "end" in move:
        raise RemoteProtocolError(f"field {where!r}: a move is one of play, draw, pass, resign")
    return actions[kind]


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an engine event (tiles as "6-4", ends as names)."""
    kind = type(event)
    if kind is TilePlayed:
        e = event
        assert isinstance(e, TilePlayed)
        return {"e": "played", "seat": e.seat, "tile": str(e.tile), "end": str(e.end),
                "first": e.first, "exposed": e.exposed, "spinner": e.spinner}
    if kind is TileDrawn:
        assert isinstance(event, TileDrawn)
        tile = None if event.tile is None else str(event.tile)
        return {"e": "drawn", "seat": event.seat, "tile": tile, "ends": list(event.ends),
                "boneyard": event.boneyard}
    if kind is Passed:
        assert isinstance(event, Passed)
        return {"e": "passed", "seat": event.seat, "ends": list(event.ends)}
    if kind is PointsScored:
        assert isinstance(event, PointsScored)
        return {"e": "scored", "side": event.side, "points": event.points, "reason": event.reason}
    if kind is Resigned:
        assert isinstance(event, Resigned)
        return {"e": "resigned", "seat": event.seat}
    if kind is HandStarted:
        assert isinstance(event, HandStarted)
        return {"e": "started", "hand": event.hand, "opener": event.opener,
                "must_lead": None if event.must_lead is None else str(event.must_lead),
                "sizes": list(event.hand_sizes), "boneyard": event.boneyard}
    if kind is DealVoided:
        assert isinstance(event, DealVoided)
        return {"e": "voided", "hand": event.hand}
    if kind is HandEnded:
        assert isinstance(event, HandEnded)
        return {"e": "hand_ended", "hand": event.hand, "end": event.end, "winner": event.winner,
                "points": list(event.points), "pips_left": list(event.pips_left),
                "hands": [_tiles(h) for h in event.hands], "tally": _tally_to_json(event.tally)}
    assert isinstance(event, MatchEnded)
    return {"e": "match_ended", "winner": event.winner, "scores": list(event.scores),
            "standings": list(event.standings), "why": str(event.why)}


def _tally_to_json(c: HandTally) -> dict[str, Any]:
    return {"seat": c.seat, "others": c.others, "own": c.own, "counted": c.counted,
            "earned": c.earned, "tied": list(c.tied),
            "lightest": None if c.lightest is None else str(c.lightest)}


def _tally(value: Any, where: str) -> HandTally:
    f = check_fields(obj(value, where), _TALLY_FIELDS, where)
    lightest = None if f["lightest"] is None else tile_from_text(f["lightest"], f"{where}.lightest")
    return HandTally(f["seat"], f["others"], f["own"], f["counted"], f["earned"], tuple(f["tied"]),
                     lightest)


def _choice(kind: type[HandEnd] | type[MatchEnd]) -> Check:
    def check(value: Any, where: str) -> Any:
        try:
            return kind(value)
        except ValueError:
            raise _fail(where, f"one of {', '.join(kind)}", value) from None

    return check


_SMALL = integer(-(2**31), 2**31 - 1)
_NUMBER = integer(-1, 12)
_PIPS = integer(0, 200)
_TALLY_FIELDS: dict[str, Check] = {
    "seat": optional(SEAT), "others": _PIPS, "own": _PIPS, "counted": _PIPS, "earned": _PIPS,
    "tied": listof(SEAT, MAX_SEATS), "lightest": optional(TILE_TEXT),
}
_EVENT_FIELDS: dict[str, dict[str, Check]] = {
    "played": {"seat": SEAT, "tile": tile_from_text, "end": text(5), "first": boolean,
               "exposed": _NUMBER, "spinner": boolean},
    "drawn": {"seat": SEAT, "tile": optional(tile_from_text), "ends": listof(_NUMBER, 4),
              "boneyard": integer(0, 28)},
    "passed": {"seat": SEAT, "ends": listof(_NUMBER, 4)},
    "scored": {"side": SEAT, "points": _SMALL, "reason": text(16)},
    "resigned": {"seat": SEAT},
    "started": {"hand": HAND, "opener": SEAT, "must_lead": optional(tile_from_text),
                "sizes": listof(integer(0, 28), MAX_SEATS), "boneyard": integer(0, 28)},
    "voided": {"hand": HAND},
    "hand_ended": {"hand": HAND, "end": _choice(HandEnd), "winner": optional(SEAT),
                   "points": listof(_SMALL, MAX_SEATS),
                   "pips_left": listof(optional(_PIPS), MAX_SEATS),
                   "hands": listof(listof(tile_from_text, 28), MAX_SEATS), "tally": _tally},
    "match_ended": {"winner": optional(SEAT), "scores": listof(_SMALL, MAX_SEATS),
                    "standings": listof(SEAT, MAX_SEATS), "why": _choice(MatchEnd)},
}


def _event_kind(value: Any, where: str) -> str:
    return str(value)  # already looked up in _EVENT_FIELDS by event_from_json


# Each event's fields plus its "e" (so the object is checked as it is, without a copy).
_EVENT_SCHEMAS: dict[str, dict[str, Check]] = {
    kind: {"e": _event_kind, **fields} for kind, fields in _EVENT_FIELDS.items()
}


def event_from_json(value: Any, where: str = "event") -> Event:
    """An engine event from its JSON form. Raises RemoteProtocolError naming the field."""
    raw = obj(value, where)
    kind = raw.get("e")
    schema = _EVENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise RemoteProtocolError(f"field {where!r}: unknown event {kind!r}")
    f = check_fields(raw, schema, where)
    # (tiles come parsed: the schema's checks are tile_from_text)
    if kind == "played":
        return TilePlayed(f["seat"], f["tile"], _end(f["end"], f"{where}.end"), f["first"],
                          f["exposed"], f["spinner"])
    if kind == "drawn":
        return TileDrawn(f["seat"], f["tile"], tuple(f["ends"]), f["boneyard"])
    if kind == "passed":
        return Passed(f["seat"], tuple(f["ends"]))
    if kind == "scored":
        return PointsScored(f["side"], f["points"], f["reason"])
    if kind == "resigned":
        return Resigned(f["seat"])
    if kind == "started":
        return HandStarted(f["hand"], f["opener"], f["must_lead"], tuple(f["sizes"]),
                           f["boneyard"])
    if kind == "voided":
        return DealVoided(f["hand"])
    if kind == "hand_ended":
        hands = tuple(distinct(h, f"{where}.hands[{i}]") for i, h in enumerate(f["hands"]))
        return HandEnded(f["hand"], f["end"], f["winner"], tuple(f["points"]),
                         tuple(f["pips_left"]), hands, f["tally"])
    return MatchEnded(f["winner"], tuple(f["scores"]), tuple(f["standings"]), f["why"])


def signatures(entry: dict[str, Any]) -> tuple[bytes, ...]:
    """A hand log entry's move signatures, as bytes. Raises RemoteProtocolError naming the field."""
    return tuple(listof(SIG, MAX_MOVES)(entry.get("move_signatures"), "entry.move_signatures"))


def events_from_json(values: Sequence[Any], where: str = "events") -> list[Event]:
    return [event_from_json(v, f"{where}[{i}]") for i, v in enumerate(values)]

