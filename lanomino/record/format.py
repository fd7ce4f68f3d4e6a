"""Reading and writing ``lanomino.record/1`` documents.

Parsing checks the shape of every field and names the JSON path of the first problem
(``$.hands[1].moves[3].end``). Whether the moves are legal is the replay's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lanomino.engine import DRAW, PASS, RESIGN, Action, Draw, End, Pass, Play, Resign, Rules
from lanomino.engine.errors import EngineError
from lanomino.engine.tiles import parse_halves, parse_tile

FORMAT = "lanomino.record/1"
MAX_HANDS = 10_000
MAX_MOVES = 1_000


class MalformedRecordError(ValueError):
    """The document is not a well-formed record; ``path`` is the JSON path of the problem."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: Action
    high_first: bool = True  # a play written high number first ("5-3"); orients a first tile


@dataclass(frozen=True, slots=True)
class HandRecord:
    deal: tuple[tuple[str, ...], ...]  # tiles as written
    boneyard: tuple[str, ...]
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    rules_spec: dict[str, Any]
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...]


def parse_record(doc: Any) -> Record:
    """A Record from parsed JSON. Raises MalformedRecordError."""
    if not isinstance(doc, dict):
        raise MalformedRecordError("$", "a record is a JSON object")
    if doc.get("format") != FORMAT:
        raise MalformedRecordError("$.format", f"expected {FORMAT!r}, found {doc.get('format')!r}")
    spec = _field(doc, "rules", dict, "$")
    try:
        rules = Rules.from_spec(spec)
    except EngineError as exc:
        raise MalformedRecordError("$.rules", str(exc)) from None
    players = _field(doc, "players", list, "$")
    if not all(isinstance(p, str) and 0 < len(p) <= 64 for p in players):
        raise MalformedRecordError("$.players", "players are names (1 to 64 characters)")
    try:
        rules.check_players(len(players))
    except EngineError as exc:
        raise MalformedRecordError("$.players", str(exc)) from None
    hands_doc = _field(doc, "hands", list, "$")
    if len(hands_doc) > MAX_HANDS:
        raise MalformedRecordError("$.hands", f"more than {MAX_HANDS} hands")
    hands = tuple(_parse_hand(h, f"$.hands[{i}]", len(players)) for i, h in enumerate(hands_doc))
    return Record(rules, dict(spec), tuple(players), hands)


def _field(doc: dict[str, Any], key: str, kind: type, path: str) -> Any:
    if key not in doc:
        raise MalformedRecordError(f"{path}.{key}", "missing")
    value = doc[key]
    if not isinstance(value, kind):
        raise MalformedRecordError(f"{path}.{key}", f"expected a JSON {_kind_name(kind)}")
    return value


def _kind_name(kind: type) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number"}
    return names.get(kind, kind.__name__)


def _tile_text(value: Any, path: str) -> str:
    try:
        parse_tile(value)
    except EngineError as exc:
        raise MalformedRecordError(path, str(exc)) from None
    return str(value)


def _parse_hand(doc: Any, path: str, players: int) -> HandRecord:
    if not isinstance(doc, dict):
        raise MalformedRecordError(path, "a hand is a JSON object")
    deal_doc = _field(doc, "deal", list, path)
    if len(deal_doc) != players:
        raise MalformedRecordError(f"{path}.deal",
                                   f"expected {players} hands, found {len(deal_doc)}")
    deal = []
    for s, hand in enumerate(deal_doc):
        if not isinstance(hand, list):
            raise MalformedRecordError(f"{path}.deal[{s}]", "expected a JSON array of tiles")
        deal.append(tuple(_tile_text(t, f"{path}.deal[{s}][{k}]") for k, t in enumerate(hand)))
    boneyard = tuple(
        _tile_text(t, f"{path}.boneyard[{k}]")
        for k, t in enumerate(_field(doc, "boneyard", list, path))
    )
    moves_doc = doc.get("moves", [])
    if not isinstance(moves_doc, list):
        raise MalformedRecordError(f"{path}.moves", "expected a JSON array")
    if len(moves_doc) > MAX_MOVES:
        raise MalformedRecordError(f"{path}.moves", f"more than {MAX_MOVES} moves")
    moves = tuple(_parse_move(m, f"{path}.moves[{i}]", players) for i, m in enumerate(moves_doc))
    return HandRecord(tuple(deal), boneyard, moves)


def _parse_move(doc: Any, path: str, players: int) -> Move:
    if not isinstance(doc, dict):
        raise MalformedRecordError(path, "a move is a JSON object")
    seat = doc.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise MalformedRecordError(f"{path}.seat", f"expected a seat number 0..{players - 1}")
    kinds = [k for k in ("play", "draw", "pass", "resign") if k in doc]
    if len(kinds) != 1:
        raise MalformedRecordError(path, "a move has exactly one of play, draw, pass, resign")
    unknown = set(doc) - {"seat", "play", "end", "draw", "pass", "resign"}
    if unknown:
        raise MalformedRecordError(f"{path}.{sorted(unknown)[0]}", "unknown key")
    kind = kinds[0]
    if kind != "play":
        if doc[kind] is not True:
            raise MalformedRecordError(f"{path}.{kind}", "expected true")
        if "end" in doc:
            raise MalformedRecordError(f"{path}.end", f"a {kind} has no end")
        simple: dict[str, Action] = {"draw": DRAW, "pass": PASS, "resign": RESIGN}
        action = simple[kind]
        return Move(seat, action)
    text = doc["play"]
    try:
        a, b = parse_halves(text)
        tile = parse_tile(text)
    except EngineError as exc:
        raise MalformedRecordError(f"{path}.play", str(exc)) from None
    end: End | None = None
    if "end" in doc:
        if not isinstance(doc["end"], str):
            raise MalformedRecordError(f"{path}.end", "expected left, right, up or down")
        try:
            end = End.parse(doc["end"])
        except ValueError as exc:
            raise MalformedRecordError(f"{path}.end", str(exc)) from None
    return Move(seat, Play(tile, end), a >= b)


def as_action(move: Move, first: bool) -> Action:
    """The engine action for a recorded move; ``first`` when it opens the hand, where the
    written order of the tile says which number lies on the left."""
    action = move.action
    if first and isinstance(action, Play) and action.end is None:
        return Play(action.tile, End.LEFT if move.high_first else End.RIGHT)
    return action


def action_to_json(seat: int, action: Action, first: bool) -> dict[str, Any]:
    """One move in record form. A first tile is written with its left number first."""
    if isinstance(action, Play):
        if first:
            t = action.tile
            text = f"{t.low}-{t.high}" if action.end is End.RIGHT else f"{t.high}-{t.low}"
            return {"seat": seat, "play": text}
        out: dict[str, Any] = {"seat": seat, "play": str(action.tile)}
        if action.end is not None:
            out["end"] = str(action.end)
        return out
    if isinstance(action, Draw):
        return {"seat": seat, "draw": True}
    if isinstance(action, Pass):
        return {"seat": seat, "pass": True}
    if isinstance(action, Resign):
        return {"seat": seat, "resign": True}
    raise TypeError(f"not an action: {action!r}")


def record_to_json(record: Record) -> dict[str, Any]:
    hands = []
    for hand in record.hands:
        moves = []
        first_done = False
        for move in hand.moves:
            action = as_action(move, not first_done)
            is_first = isinstance(action, Play) and not first_done
            moves.append(action_to_json(move.seat, action, is_first))
            first_done = first_done or is_first
        hands.append({"deal": [list(h) for h in hand.deal], "boneyard": list(hand.boneyard),
                      "moves": moves})
    return {"format": FORMAT, "rules": record.rules_spec, "players": list(record.players),
            "hands": hands}
