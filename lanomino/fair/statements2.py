"""What each party signs in a locked hand's record (``lanomino.transcript/2``, whose file
``fair/transcript2.py`` writes and parses): one statement per key, shuffle, "not me", move,
resignation, reveal and blind re-shuffle value, each by its signer, and the host's points. Pure.

Every statement names the header digest ``H``, so nothing signed for one match fits another;
bytes are lowercase hex of the values' own bytes (``blind/rounds.py``). The sessions sign them
and the verifier (``fair/verify2.py``) checks them: ``statements`` lists a record's, in order,
and ``signers`` whose key signs each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanomino.blind.hand_record import (
    BlindHand,
    Resignation,
    ShuffleEntry,
    format_blind_hand,
)
from lanomino.blind.rounds import KeyAnnouncement, Reveal
from lanomino.engine import Tile
from lanomino.fair.canonical import digest
from lanomino.fair.statements import move_statement

# the hand's signature lists ("unheld" only in a hand re-shuffled blind: may be left out)
SIGNED = ("key", "shuffle", "not_me", "move", "resign", "reveal", "unheld")


# ----- what gets signed ----------------------------------------------------------------------


def key_statement(header: str, hand: int, attempt: int, key: KeyAnnouncement) -> dict[str, Any]:
    """What a holder signs with its key announcement (``blind.key``)."""
    return {"type": "lanomino.blind-key/1", "header": header, "hand": hand, "attempt": attempt,
            "seat": key.seat, "key": key.to_bytes().hex()}


def shuffle_statement(header: str, hand: int, attempt: int, entry: ShuffleEntry
                      ) -> dict[str, Any]:
    """What a shuffler signs with its turn: the digests of the deck it sends (``deck_digest``)
    and of its argument (``argument_digest``; ``ShuffleEntry.of(turn)`` gives both)."""
    return {"type": "lanomino.blind-shuffle/1", "header": header, "hand": hand,
            "attempt": attempt, "seat": entry.seat, "deck": entry.digest.hex(),
            "argument": entry.argument.hex()}


def not_me_statement(header: str, hand: int, attempt: int, seat: int,
                     tile: Tile) -> dict[str, Any]:
    """What a seat signs when it answers "not me" to the opening's question about ``tile``."""
    return {"type": "lanomino.not-me/1", "header": header, "hand": hand, "attempt": attempt,
            "seat": seat, "tile": str(tile)}


def blind_move_statement(header: str, hand: int, index: int,
                         move: dict[str, Any]) -> dict[str, Any]:
    """What a seat signs for its ``index``-th move: ``lanomino.move/1`` of the record's move
    (``format_blind_hand``), with a play's position (the seat's own) and without a draw's (the
    host names it, the record's signature makes it the host's word), and with ``"away": true``
    when the seat's own client's bot made it: the seat signs that too."""
    signed = {k: v for k, v in move.items() if not (k == "pos" and move.get("draw") is True)}
    return move_statement(header, hand, index, signed)


def resign_statement(header: str, hand: int, resignation: Resignation) -> dict[str, Any]:
    """What the seat signs when it resigns (or the host, for a seat that left or was away)."""
    return {"type": "lanomino.resign/1", "header": header, "hand": hand,
            "seat": resignation.seat, "at": resignation.at, "by": resignation.by}


def reveal_statement(header: str, hand: int, attempt: int, reveal: Reveal) -> dict[str, Any]:
    """What a holder signs with its key and seed at the hand's end (``blind.reveal``)."""
    return {"type": "lanomino.blind-reveal/1", "header": header, "hand": hand,
            "attempt": attempt, "seat": reveal.seat, "reveal": reveal.to_bytes().hex()}


def points_statement(header: str, record: dict[str, Any], scores: Sequence[int],
                     voided: Sequence[dict[str, Any]] = (),
                     departures: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """What the host signs after the reveal: the hand's record as written (its digest), the
    points in it and the match score after the hand; and the digests of the records of the
    void deals dealt again before it, and the departures between its deal attempts
    (``Departure.statement_json``), if any."""
    extra: dict[str, Any] = {"voided": [digest(v).hex() for v in voided]} if voided else {}
    if departures:
        extra["departures"] = list(departures)
    return {**extra, "type": "lanomino.points/1", "header": header, "hand": record.get("hand"),
            "host": record.get("host"), "record": digest(record).hex(),
            "points": record.get("points"), "scores": list(scores)}


def unheld_statement(header: str, hand: int, attempt: int, seat: int, digest_: bytes
                     ) -> dict[str, Any]:
    """A survivor's value of a blind re-shuffle: its ``blind_unheld`` message's statement, whose
    ``data`` is the digest the record keeps (``unheld_round.statement_digest``)."""
    return {"type": "lanomino.blind/1", "header": header, "kind": "blind_unheld", "hand": hand,
            "attempt": attempt, "seat": seat, "data": digest_.hex()}


def unheld_signers(record: BlindHand) -> list[int]:
    """The survivor that signed each digest of the record's re-shuffle, step by step."""
    u = record.unheld
    if u is None:
        return []
    survivors = [s for s in record.holders if s not in u.lost]
    return [s for _step in u.sent for s in survivors]


def log_index(record: BlindHand, move: int) -> int:
    """The place of the record's ``move``-th move in the hand's log, where each resignation is
    a move too (the index the seat signed on the wire): ``move`` plus the resignations before
    it."""
    return move + sum(1 for r in record.resignations if r.at <= move)


def resignation_index(record: BlindHand, j: int) -> int:
    """The place of the record's ``j``-th resignation in the hand's log (as ``log_index``): the
    moves before it plus the resignations before it."""
    return record.resignations[j].at + j


def statements(header: str, record: BlindHand) -> dict[str, list[dict[str, Any]]]:
    """Every statement of the hand's record a seat signs, by list (``SIGNED``), in order."""
    h, n, a = header, record.hand, record.attempt
    moves = format_blind_hand(record)["moves"]
    assert isinstance(moves, list)
    return {
        "key": [key_statement(h, n, a, k) for k in record.keys],
        "shuffle": [shuffle_statement(h, n, a, e) for e in record.shuffles],
        "not_me": [not_me_statement(h, n, a, c.seat, c.tile) for c in record.opening],
        "move": [blind_move_statement(h, n, log_index(record, i), m)
                 for i, m in enumerate(moves)],
        "resign": [resign_statement(h, n, r) for r in record.resignations],
        "reveal": [reveal_statement(h, n, a, r) for r in record.reveals],
        "unheld": [unheld_statement(h, n, a, seat, d) for seat, d in zip(
            unheld_signers(record), (d for step in record.unheld.sent for d in step)
            if record.unheld else (), strict=True)],
    }


def signers(record: BlindHand) -> dict[str, list[int]]:
    """The seat whose key signs each statement of ``statements`` (the host for a resignation it
    signed for a seat, and for the reveal it rebuilt from the escrow of a holder that left: a
    reveal without a seed)."""
    return {
        "key": [k.seat for k in record.keys],
        "shuffle": [e.seat for e in record.shuffles],
        "not_me": [c.seat for c in record.opening],
        "move": [m.seat for m in record.moves],
        "resign": [r.signer(record.host) for r in record.resignations],
        "reveal": [record.host if r.seed is None else r.seat for r in record.reveals],
        "unheld": unheld_signers(record),
    }
