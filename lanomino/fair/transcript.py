"""Transcripts (``lanomino.transcript/1``): the game record plus everything needed to check it.

A transcript is one JSON object per match. It extends the game record (rules, players, and per
hand the moves in the record's move form) with each seat's public key, the commitments and their
signatures, the host-signed commitment set and the peers' echoes of it, the revealed secrets,
the shuffle algorithm, each player's signature over each of their moves, and the host's signature
over the hand's log. The deal itself is derived from the secrets, not stored (a hand may carry
the record's "deal" and "boneyard" too; the verifier then checks them against the shuffle).

This module is the strict parser: ``parse_transcript`` turns JSON into the typed values of
``transcript_model.py`` or raises ``TranscriptError`` saying which field is wrong. The statements
that get signed are in ``statements.py``; both are named here too, as one place to import from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from lanomino.engine import DRAW, PASS, RESIGN, Action, End, Play, Tile, parse_tile
from lanomino.engine.errors import EngineError
from lanomino.fair.adoption import AdoptionError, parse_adoption
from lanomino.fair.attempt import DealAttempt, Echo, SignedCommitment
from lanomino.fair.evidence import parse_evidence
from lanomino.fair.header import HEADER_FIELDS
from lanomino.fair.reshuffle import Claim
from lanomino.fair.statements import (
    end_statement,
    header_digest,
    header_of,
    header_statement,
    log_statement,
    move_json,
    move_statement,
)
from lanomino.fair.transcript_model import (
    FORMAT,
    MAX_REFUSED,
    MOVE_CLOCK,
    RECORD_FORMAT,
    REFUSABLE,
    Abandoned,
    Dispute,
    HandLog,
    MatchEnd,
    Migration,
    Move,
    NotATranscript,
    Refusal,
    Reshuffled,
    Transcript,
    TranscriptError,
)

__all__ = [
    "FORMAT", "MAX_REFUSED", "REFUSABLE", "Abandoned", "DealAttempt", "Echo", "HandLog", "MatchEnd",
    "Migration", "Move", "NotATranscript", "Refusal", "Reshuffled", "SignedCommitment",
    "Transcript", "TranscriptError", "end_statement", "header_digest", "header_of",
    "header_statement", "log_statement", "move_json", "move_statement", "parse_hand",
    "parse_transcript",
]

_HEX = re.compile(r"[0-9a-f]*")
T = TypeVar("T")


def parse_transcript(doc: Any) -> Transcript:
    """Typed values from a transcript's JSON. Raises TranscriptError naming the bad field."""
    if isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT:
        raise NotATranscript("is a game record (lanomino.record/1), not a transcript: only "
                             "matches played over the LAN have transcripts to verify")
    top = _obj(doc, "the transcript", {"format", "algorithm", "table", "rules", "players", "keys",
                                       "header_signatures", "hands", "end"},
               {MOVE_CLOCK, "evidence"})
    if top["format"] != FORMAT:
        raise TranscriptError(f"format: expected {FORMAT!r}, not {top['format']!r}")
    algorithm = _str(top["algorithm"], "algorithm")
    table = _hex(top["table"], "table", 16)
    rules_spec = top["rules"]
    if not isinstance(rules_spec, dict):
        raise TranscriptError("rules: expected an object")
    players = _each(top["players"], "players", _str)
    if not 2 <= len(players) <= 4:
        raise TranscriptError(f"players: a table seats 2 to 4, not {len(players)}")
    keys = _hexes(top["keys"], "keys", 32)
    sigs = _hexes(top["header_signatures"], "header_signatures", 64)
    if len(keys) != len(players) or len(sigs) != len(players):
        raise TranscriptError("keys and header_signatures need one entry per player")
    header = {k: top[k] for k in (*HEADER_FIELDS, MOVE_CLOCK) if k in top}
    clock = _move_clock(top)
    hands = tuple(
        _parse_hand(h, f"hands[{i}]", i + 1, len(players))
        for i, h in enumerate(_list(top["hands"], "hands"))
    )
    return Transcript(header, header_digest(header), table, algorithm, rules_spec, players, keys,
                      sigs, hands, _parse_end(top["end"], len(players)), MOVE_CLOCK in top, clock,
                      parse_evidence(top.get("evidence", []), len(players)))


def _move_clock(top: dict[str, Any]) -> int | None:
    """The header's move clock in milliseconds (None: no move clock, or an older transcript that
    does not say)."""
    value = top.get(MOVE_CLOCK)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise TranscriptError(f"{MOVE_CLOCK}: expected null (no move clock) or the milliseconds "
                              "a seat has for a move")
    return value


def parse_hand(value: Any, index: int, players: int) -> HandLog:
    """The transcript's hand at ``index`` (0-based) alone. Raises TranscriptError."""
    return _parse_hand(value, f"hands[{index}]", index + 1, players)


def _parse_end(value: Any, players: int) -> MatchEnd:
    e = _obj(value, "end", {"host", "hands", "finished", "winner", "scores", "signature"})
    if not isinstance(e["finished"], bool):
        raise TranscriptError("end.finished: expected true or false")
    winner = None if e["winner"] is None else _seat(e["winner"], "end.winner", players)
    scores = tuple(_int(x, "end.scores") for x in _list(e["scores"], "end.scores"))
    return MatchEnd(_seat(e["host"], "end.host", players), _int(e["hands"], "end.hands"),
                    e["finished"], winner, scores, _hex(e["signature"], "end.signature", 64))


def _parse_hand(value: Any, where: str, number: int, players: int) -> HandLog:
    h = _obj(value, where, {"hand", "host", "deals", "moves", "move_signatures", "points", "scores",
                            "log_signature"},
             {"deal", "boneyard", "migrated", "reshuffled", "abandoned", "away", "adopted",
              "refused", "disputes"})
    if _int(h["hand"], f"{where}.hand") != number:
        raise TranscriptError(f"{where}.hand: expected {number}")
    host = _seat(h["host"], f"{where}.host", players)
    unknown = "reshuffled" in h  # the deal's secrets went with the lost host
    abandoned = _parse_abandoned(h.get("abandoned", []), f"{where}.abandoned", players)
    skipped = {a.attempt for a in abandoned}
    raw_deals = _list(h["deals"], f"{where}.deals")
    total = len(raw_deals) + len(skipped)
    if skipped and max(skipped) >= total:
        raise TranscriptError(f"{where}.abandoned: the hand's last attempt must be a deal")
    numbers = [n for n in range(1, total + 1) if n not in skipped]
    deals = tuple(_parse_attempt(d, f"{where}.deals[{i}]", numbers[i], players, unknown)
                  for i, d in enumerate(raw_deals))
    if not deals:
        raise TranscriptError(f"{where}.deals: a hand needs at least one deal")
    moves = tuple(_parse_move(m, f"{where}.moves[{i}]", players)
                  for i, m in enumerate(_list(h["moves"], f"{where}.moves")))
    move_sigs = _hexes(h["move_signatures"], f"{where}.move_signatures", 64)
    points = tuple(_int(p, f"{where}.points") for p in _list(h["points"], f"{where}.points"))
    scores = tuple(_int(p, f"{where}.scores") for p in _list(h["scores"], f"{where}.scores"))
    deal = boneyard = None
    if "deal" in h or "boneyard" in h:
        if "deal" not in h or "boneyard" not in h:
            raise TranscriptError(f"{where}: deal and boneyard come together")
        deal = _each(h["deal"], f"{where}.deal", _tiles)
        boneyard = _tiles(h["boneyard"], f"{where}.boneyard")
    migrated = None
    if "migrated" in h:
        m = _obj(h["migrated"], f"{where}.migrated", {"host", "term", "at"})
        at = f"{where}.migrated"
        migrated = Migration(_seat(m["host"], f"{at}.host", players),
                             _int(m["term"], f"{at}.term"), _int(m["at"], f"{at}.at"))
        if not 0 <= migrated.at <= len(moves) or migrated.term < 1:
            raise TranscriptError(f"{at}: 'at' must be a move index and 'term' at least 1")
    reshuffled = None
    if unknown:
        if migrated is None or deal is not None:
            raise TranscriptError(f"{where}.reshuffled: a re-shuffled hand has a 'migrated' object "
                                  "and no stated deal")
        reshuffled = _parse_reshuffled(h["reshuffled"], f"{where}.reshuffled", players, len(moves))
    try:
        adopted = (parse_adoption(h["adopted"], f"{where}.adopted", players) if "adopted" in h
                   else None)
    except AdoptionError as exc:
        raise TranscriptError(str(exc)) from None
    away = _parse_away(h.get("away", []), f"{where}.away", len(moves))
    refused = _parse_refused(h.get("refused", []), f"{where}.refused", players)
    disputes = _parse_disputes(h.get("disputes", []), f"{where}.disputes", players, len(moves))
    return HandLog(number, host, deals, moves, move_sigs, points, scores,
                   _hex(h["log_signature"], f"{where}.log_signature", 64), deal, boneyard, migrated,
                   reshuffled, abandoned, away, adopted, refused, disputes)


def _parse_disputes(value: Any, where: str, players: int, moves: int) -> tuple[Dispute, ...]:
    out: list[Dispute] = []
    for i, d in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        d = _obj(d, at, {"seat", "index", "signature"})
        index = _int(d["index"], f"{at}.index")
        if not 0 <= index < moves or (out and index <= out[-1].index):
            raise TranscriptError(f"{at}.index: move indices of the hand, in order, one each")
        out.append(Dispute(_seat(d["seat"], f"{at}.seat", players), index,
                           _hex(d["signature"], f"{at}.signature", 64)))
    return tuple(out)


def _parse_refused(value: Any, where: str, players: int) -> tuple[Refusal, ...]:
    items = _list(value, where)
    if len(items) > MAX_REFUSED:
        raise TranscriptError(f"{where}: at most {MAX_REFUSED} refusals a hand")
    out: list[Refusal] = []
    for i, r in enumerate(items):
        at = f"{where}[{i}]"
        r = _obj(r, at, {"seat", "what", "why"})
        if r["what"] not in REFUSABLE:
            raise TranscriptError(f"{at}.what: one of {', '.join(REFUSABLE)}")
        why = _str(r["why"], f"{at}.why")
        if len(why) > 300:
            raise TranscriptError(f"{at}.why: at most 300 characters")
        out.append(Refusal(_seat(r["seat"], f"{at}.seat", players), r["what"], why))
    return tuple(out)


def _parse_away(value: Any, where: str, moves: int) -> frozenset[int]:
    indices = [_int(i, where) for i in _list(value, where)]
    if indices != sorted(set(indices)) or any(not 0 <= i < moves for i in indices):
        raise TranscriptError(f"{where}: move indices of the hand, in order")
    return frozenset(indices)


def _parse_abandoned(value: Any, where: str, players: int) -> tuple[Abandoned, ...]:
    out: list[Abandoned] = []
    for i, a in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        a = _obj(a, at, {"attempt", "step", "unanswered"})
        if a["step"] not in ("commit", "echo", "reveal"):
            raise TranscriptError(f"{at}.step: one of commit, echo, reveal")
        seats = tuple(_seat(s, f"{at}.unanswered", players) for s in _list(a["unanswered"], at))
        number = _int(a["attempt"], f"{at}.attempt")
        if not seats or (out and number <= out[-1].attempt) or number < 1:
            raise TranscriptError(f"{at}: attempts in order, each naming who did not answer")
        out.append(Abandoned(number, a["step"], seats))
    return tuple(out)


def _parse_reshuffled(value: Any, where: str, players: int, moves: int) -> Reshuffled:
    r = _obj(value, where, {"term", "host", "at", "opener", "claims", "commitments",
                            "set_signature", "echoes", "secrets"})
    claims = []
    for i, c in enumerate(_list(r["claims"], f"{where}.claims")):
        at = f"{where}.claims[{i}]"
        c = _obj(c, at, {"seat", "dealt", "drawn", "signature"})
        claims.append(Claim(_seat(c["seat"], f"{at}.seat", players),
                            _tiles(c["dealt"], f"{at}.dealt"), _tiles(c["drawn"], f"{at}.drawn"),
                            _hex(c["signature"], f"{at}.signature", 64)))
    commitments, echoes = _commitments(r, where, players)
    secrets = _hexes(r["secrets"], f"{where}.secrets", 32)
    if len(secrets) != len(commitments):
        raise TranscriptError(f"{where}.secrets: one secret per commitment")
    out = Reshuffled(_int(r["term"], f"{where}.term"), _seat(r["host"], f"{where}.host", players),
                     _int(r["at"], f"{where}.at"), _seat(r["opener"], f"{where}.opener", players),
                     tuple(claims), commitments,
                     _hex(r["set_signature"], f"{where}.set_signature", 64), echoes, secrets, r)
    if not 0 <= out.at <= moves or out.term < 1:
        raise TranscriptError(f"{where}: 'at' must be a move index and 'term' at least 1")
    return out


def _commitments(d: dict[str, Any], where: str,
                 players: int) -> tuple[tuple[SignedCommitment, ...], tuple[Echo, ...]]:
    commitments = []
    for i, c in enumerate(_list(d["commitments"], f"{where}.commitments")):
        at = f"{where}.commitments[{i}]"
        c = _obj(c, at, {"seat", "commitment", "signature"})
        commitments.append(SignedCommitment(_seat(c["seat"], f"{at}.seat", players),
                                            _hex(c["commitment"], f"{at}.commitment", 32),
                                            _hex(c["signature"], f"{at}.signature", 64)))
    echoes = []
    for i, e in enumerate(_list(d["echoes"], f"{where}.echoes")):
        at = f"{where}.echoes[{i}]"
        e = _obj(e, at, {"seat", "set", "signature"})
        echoes.append(Echo(_seat(e["seat"], f"{at}.seat", players),
                           _hex(e["set"], f"{at}.set", 32),
                           _hex(e["signature"], f"{at}.signature", 64)))
    return tuple(commitments), tuple(echoes)


def _parse_attempt(value: Any, where: str, number: int, players: int,
                   unknown: bool = False) -> DealAttempt:
    d = _obj(value, where, {"attempt", "commitments", "set_signature", "echoes", "secrets"})
    if _int(d["attempt"], f"{where}.attempt") != number:
        raise TranscriptError(f"{where}.attempt: expected {number}")
    commitments, echoes = _commitments(d, where, players)
    secrets = _hexes(d["secrets"], f"{where}.secrets", 32)
    if len(secrets) != len(commitments) and not (unknown and not secrets):
        raise TranscriptError(f"{where}.secrets: one secret per commitment"
                              + (" (or none, in a re-shuffled hand)" if unknown else ""))
    return DealAttempt(number, commitments, _hex(d["set_signature"], f"{where}.set_signature", 64),
                       echoes, secrets)


def _parse_move(value: Any, where: str, players: int) -> Move:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where}: expected a move object")
    seat = _seat(value.get("seat"), f"{where}.seat", players)
    kinds = set(value) - {"seat", "end"}
    if len(kinds) != 1:
        raise TranscriptError(f"{where}: a move is one of play, draw, pass, resign")
    kind = kinds.pop()
    if kind == "play":
        try:
            tile = parse_tile(_str(value["play"], f"{where}.play"))
            end = End.parse(_str(value["end"], f"{where}.end")) if "end" in value else None
        except (EngineError, ValueError) as exc:
            raise TranscriptError(f"{where}: {exc}") from None
        return Move(seat, Play(tile, end), value)
    actions: dict[str, Action] = {"draw": DRAW, "pass": PASS, "resign": RESIGN}
    if kind not in actions or value[kind] is not True or "end" in value:
        raise TranscriptError(f"{where}: a move is one of play, draw, pass, resign")
    return Move(seat, actions[kind], value)


# ----- strict field readers ------------------------------------------------------------------


def _obj(value: Any, where: str, required: set[str],
         optional: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TranscriptError(f"{where}: expected an object")
    missing = sorted(required - set(value))
    if missing:
        raise TranscriptError(f"{where}: missing field {missing[0]!r}")
    extra = sorted(set(value) - required - set(optional))
    if extra:
        raise TranscriptError(f"{where}: unknown field {extra[0]!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise TranscriptError(f"{where}: expected a list")
    return value


def _each(value: Any, where: str, parse: Callable[[Any, str], T]) -> tuple[T, ...]:
    """``parse`` of each item of the list ``value``, the items named ``where[i]``."""
    return tuple(parse(item, f"{where}[{i}]") for i, item in enumerate(_list(value, where)))


def _hexes(value: Any, where: str, size: int) -> tuple[bytes, ...]:
    """A list of ``size``-byte values, each as lowercase hex."""
    return _each(value, where, lambda item, at: _hex(item, at, size))


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise TranscriptError(f"{where}: expected a string")
    return value


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TranscriptError(f"{where}: expected a whole number")
    return value


def _seat(value: Any, where: str, players: int) -> int:
    seat = _int(value, where)
    if not 0 <= seat < players:
        raise TranscriptError(f"{where}: {seat} is not a seat index at a table of {players} "
                              f"(indices count from 0)")
    return seat


def _hex(value: Any, where: str, size: int) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size or not _HEX.fullmatch(value):
        raise TranscriptError(f"{where}: expected {size} bytes as lowercase hex")
    return bytes.fromhex(value)


def _tiles(value: Any, where: str) -> tuple[Tile, ...]:
    out = []
    for i, item in enumerate(_list(value, where)):
        try:
            tile = parse_tile(_str(item, f"{where}[{i}]"))
        except EngineError as exc:
            raise TranscriptError(f"{where}[{i}]: {exc}") from None
        if str(tile) != item:
            raise TranscriptError(f"{where}[{i}]: write tiles higher number first, like {tile}")
        out.append(tile)
    return tuple(out)
