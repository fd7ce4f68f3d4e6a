"""The messages of the locked deck (issue 29, ``lanomino/blind/``), declared as ``messages.py``
declares the rest, which re-exports them. Pure.

Every one is signed by its sender with its identity key (``signed_statement``): a seat's key,
shuffle, shares, "not me", play share and reveal are relayed by the host as they came, so every
other seat checks the sender's signature and then the value's own proof; the host's
``blind_deal`` and ``blind_ask`` are signed by the host. What goes into the match transcript
(``lanomino.transcript/2``, ``fair/statements2.py``) is signed as that transcript's statement: a
key, a shuffle (the digest of its output), a "not me", a play (the record's move, with the
position its tile came from) and a reveal; the rest as ``blind_statement``. ``blind_end`` carries
the host's signature of the hand's points (over the record as written) and of the match's
closing statement, which each seat checks against the record it built itself. Each value travels
as the bytes ``blind/rounds.py`` gives it (lowercase hex) and is parsed at the edge: a point
that is no point, a proof of the wrong length, a shuffle for a set that does not exist is refused
here, naming the field. Sizes are bounded by the largest set (double-twelve, 91 tiles).

Direction and meaning (P = peer, H = host; a peer's message goes to the host, which relays it
unchanged to every other seat):

  H->P blind_deal    a locked deal attempt begins: the set's size, the holders (the people at the
                     table; host-side bots hold no key) and, per seat, the holder that opens its
                     tiles (the seat itself, or the host for its bots)
  P->H blind_key     a holder's key with its Schnorr proof
  P->H blind_escrow  at an ``--escrow`` table, once the keys are agreed and before its shuffle: a
                     holder's key escrowed with all the other holders (the Feldman commitments,
                     each sub-share sealed to its receiver, in seat order: blind/key_escrow.py)
  P->H blind_shuffle a holder's shuffle turn: the input deck's digest, the output, the argument
  P->H blind_shares  a holder's shares of every position dealt to a seat it does not open
  P->H blind_not_me  "I do not hold this tile", to the opening's question (lead_rounds.py)
  H->P blind_ask     the host asks each holder for its share of the position the log has just
                     given a drawing seat (a holder's gate refuses any other: blind/gate.py)
  P->H blind_draw    a holder's share of that position
  P->H blind_play    the share of its opener that goes with a play: the position the tile was in
                     (signed by the seat that plays; a host-side bot's carries the host's share),
                     and ``away`` when the seat's own client's bot plays it (out of time), under
                     the same signature as its move's ``"away": true``
  P->H blind_reveal  at the hand's end: the holder's secret key and shuffle seed (the host's, for
                     a holder that left an ``--escrow`` table: the key it rebuilt, no seed)
  P->H blind_rebuild at the hand's end, to the host only: a survivor's sub-share of the key of
                     a holder that left (keys are revealed then anyway)
  P->H blind_unheld  after a holder left without escrow, a survivor's value for a step of the
                     blind re-shuffle (blind/unheld_round.py): its hand vector, its shuffle, its
                     blinding or its opening shares; ``number`` counts the hand's re-shuffles
  H->P blind_end     the hand's points and the match score, as the host settled them after the
                     reveals, with its signatures (points over the record; the closing)
  H->P blind_over    people left before hand ``hand`` was dealt and that ended the match (one
                     side left): the host's closing statement over the departures each seat
                     holds and the match score (fair/departures2.py: ``check_closing``)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from lanomino.blind.group import Point
from lanomino.blind.hand_record import RESIGNED_BY, Resignation, ShuffleEntry
from lanomino.blind.key_escrow import SEALED_BYTES
from lanomino.blind.rounds import shares_to_bytes
from lanomino.engine import End, parse_tile
from lanomino.fair.statements2 import (
    blind_move_statement,
    key_statement,
    not_me_statement,
    resign_statement,
    reveal_statement,
    shuffle_statement,
)
from lanomino.net.wire.blind_values import (
    Commitments,
    Index,
    Key,
    OneShare,
    Position,
    Sealed,
    SeatList,
    Secret,
    Shares,
    SubShare,
    Tile,
    Tiles,
    Turn,
    UnheldValue,
    pieces,
    shuffle_bytes,
    u32s,
)
from lanomino.net.wire.checks import MAX_SEATS, boolean, integer, listof, text
from lanomino.net.wire.fields import Hand, Seat, Signature

STATEMENT = "lanomino.blind/1"


@dataclass(frozen=True, slots=True)
class BlindDeal:
    TYPE: ClassVar[str] = "blind_deal"
    hand: Hand
    attempt: Hand
    seat: Seat  # the host's
    tiles: Tiles
    holders: SeatList
    openers: SeatList  # per seat of the table
    signature: Signature
    escrow: Annotated[bool, boolean] = False  # each holder escrows its key (``--escrow``)

    def payload(self) -> bytes:
        flag = b"/escrow" if self.escrow else b""
        return u32s(self.tiles) + bytes(self.holders) + b"/" + bytes(self.openers) + flag


@dataclass(frozen=True, slots=True)
class BlindKey:
    TYPE: ClassVar[str] = "blind_key"
    hand: Hand
    attempt: Hand
    seat: Seat
    key: Key
    signature: Signature

    def payload(self) -> bytes:
        return self.key.to_bytes()


@dataclass(frozen=True, slots=True)
class BlindEscrow:
    TYPE: ClassVar[str] = "blind_escrow"
    hand: Hand
    attempt: Hand
    seat: Seat
    commitments: Commitments  # the Feldman commitments, 32 bytes each
    sealed: Sealed  # the sub-shares sealed to the other holders, in seat order
    signature: Signature

    @classmethod
    def of(cls, hand: int, attempt: int, seat: int, commitments: tuple[Point, ...],
           sealed: dict[int, bytes]) -> BlindEscrow:
        """The message of ``Holder.escrow``'s output (unsigned)."""
        return cls(hand, attempt, seat, b"".join(commitments),
                   b"".join(sealed[j] for j in sorted(sealed)), bytes(64))

    def points(self) -> tuple[Point, ...]:
        return tuple(Point(p) for p in pieces(self.commitments, 32, "escrow commitments"))

    def blobs(self) -> tuple[bytes, ...]:
        return pieces(self.sealed, SEALED_BYTES, "sealed sub-shares")

    def payload(self) -> bytes:
        return self.commitments + b"/" + self.sealed


@dataclass(frozen=True, slots=True)
class BlindRebuild:
    TYPE: ClassVar[str] = "blind_rebuild"
    hand: Hand
    attempt: Hand
    seat: Seat
    owner: Seat  # the holder that left
    sub_share: SubShare  # the scalar's 32 bytes
    signature: Signature

    def payload(self) -> bytes:
        return u32s(self.owner) + self.sub_share


@dataclass(frozen=True, slots=True)
class BlindShuffle:
    TYPE: ClassVar[str] = "blind_shuffle"
    hand: Hand
    attempt: Hand
    seat: Seat
    turn: Turn
    signature: Signature

    def payload(self) -> bytes:
        return self.turn.to_bytes()


@dataclass(frozen=True, slots=True)
class BlindShares:
    TYPE: ClassVar[str] = "blind_shares"
    hand: Hand
    attempt: Hand
    seat: Seat
    shares: Shares
    signature: Signature

    def payload(self) -> bytes:
        return shares_to_bytes(self.shares)


@dataclass(frozen=True, slots=True)
class BlindNotMe:
    TYPE: ClassVar[str] = "blind_not_me"
    hand: Hand
    attempt: Hand
    seat: Seat
    tile: Tile
    signature: Signature

    def payload(self) -> bytes:
        return self.tile.encode()


@dataclass(frozen=True, slots=True)
class BlindAsk:
    TYPE: ClassVar[str] = "blind_ask"
    hand: Hand
    attempt: Hand
    seat: Seat  # the host's
    index: Index  # the draw's move number in the hand
    position: Position
    drawer: Seat
    signature: Signature

    def payload(self) -> bytes:
        return u32s(self.index, self.position, self.drawer)


@dataclass(frozen=True, slots=True)
class BlindDraw:
    TYPE: ClassVar[str] = "blind_draw"
    hand: Hand
    attempt: Hand
    seat: Seat
    index: Index  # the draw's move number in the hand
    share: OneShare
    signature: Signature

    def payload(self) -> bytes:
        return u32s(self.index) + self.share.to_bytes()


@dataclass(frozen=True, slots=True)
class BlindPlay:
    TYPE: ClassVar[str] = "blind_play"
    hand: Hand
    attempt: Hand
    seat: Seat  # the seat that plays (its opener's share: the host's for a host-side bot)
    index: Index  # the play's move number in the hand
    tile: Tile
    end: Annotated[str, text(5, "|".join(e.name.lower() for e in End))]
    share: OneShare  # the opener's own share of the position the tile was in
    signature: Signature
    away: Annotated[bool, boolean] = False  # its client's bot plays it, out of time (signed)

    def payload(self) -> bytes:
        return u32s(self.index) + self.share.to_bytes()


@dataclass(frozen=True, slots=True)
class BlindReveal:
    TYPE: ClassVar[str] = "blind_reveal"
    hand: Hand
    attempt: Hand
    seat: Seat
    reveal: Secret
    signature: Signature

    def payload(self) -> bytes:
        return self.reveal.to_bytes()


@dataclass(frozen=True, slots=True)
class BlindEnd:
    TYPE: ClassVar[str] = "blind_end"
    hand: Hand
    attempt: Hand
    seat: Seat  # the host's
    points: Annotated[tuple[int, ...], listof(integer(0, 100_000), MAX_SEATS)]
    scores: Annotated[tuple[int, ...], listof(integer(0, 1_000_000), MAX_SEATS)]
    signature: Signature  # lanomino.points/1 over the hand's record as written
    closing: Signature  # lanomino.end/1: the match's closing statement after this hand

    def payload(self) -> bytes:
        return u32s(*self.points)


@dataclass(frozen=True, slots=True)
class BlindOver:
    TYPE: ClassVar[str] = "blind_over"
    hand: Hand  # the hand that was never dealt
    attempt: Hand
    seat: Seat  # the host's
    scores: Annotated[tuple[int, ...], listof(integer(0, 1_000_000), MAX_SEATS)]
    signature: Signature  # lanomino.end/1 with the departures: the match's closing statement

    def payload(self) -> bytes:
        return u32s(*self.scores)


@dataclass(frozen=True, slots=True)
class BlindResign:
    """A resignation from a locked hand as its signer signs it for the hand's record
    (transcript/2's ``resign_statement``), sent just before the resignation's move: ``seat`` signs
    the resignation of ``resigned`` after ``at`` of the record's moves; ``by`` is ``seat`` (its
    own) or ``left`` (the host's, for a seat the roster shows gone). The seat stays a holder for
    the rest of the hand (its key is still needed)."""

    TYPE: ClassVar[str] = "blind_resign"
    hand: Hand
    attempt: Hand
    seat: Seat
    resigned: Seat
    at: Annotated[int, integer(0, 4095)]
    by: Annotated[str, text(8, "seat|left|away")]
    signature: Signature

    def payload(self) -> bytes:
        return u32s(self.resigned, self.at) + self.by.encode()


@dataclass(frozen=True, slots=True)
class BlindUnheld:
    TYPE: ClassVar[str] = "blind_unheld"
    hand: Hand
    attempt: Hand
    seat: Seat
    number: Annotated[int, integer(1, 255)]
    step: Annotated[str, text(8, "vector|shuffle|blinding|opening")]
    value: UnheldValue
    signature: Signature

    def payload(self) -> bytes:
        """(its SHA-256 is ``unheld_round.statement_digest``: what the hand's record keeps)"""
        return u32s(self.number) + self.step.encode() + self.value


BlindBody = (BlindDeal | BlindKey | BlindShuffle | BlindShares | BlindNotMe | BlindAsk | BlindDraw
             | BlindPlay | BlindReveal | BlindEnd | BlindResign | BlindEscrow | BlindRebuild
             | BlindUnheld | BlindOver)
BLIND_MESSAGES: tuple[type[BlindBody], ...] = (
    BlindDeal, BlindKey, BlindShuffle, BlindShares, BlindNotMe, BlindAsk, BlindDraw, BlindPlay,
    BlindReveal, BlindEnd, BlindResign, BlindEscrow, BlindRebuild, BlindUnheld, BlindOver)


# what a seat sends (the host relays it); the rest is the host's
FROM_PEERS = frozenset({"blind_key", "blind_shuffle", "blind_shares", "blind_not_me", "blind_draw",
                        "blind_play", "blind_reveal", "blind_resign", "blind_escrow",
                        "blind_rebuild", "blind_unheld"})


def blind_statement(header: str, body: BlindBody) -> dict[str, Any]:
    """What the sender of ``body`` signs (``body.signature`` is left out): the match, the kind
    of message, the deal attempt, the sender's seat and the SHA-256 of the value's bytes."""
    return {"type": STATEMENT, "header": header, "kind": body.TYPE, "hand": body.hand,
            "attempt": body.attempt, "seat": body.seat,
            "data": hashlib.sha256(body.payload()).hexdigest()}


def names_its_sender(body: BlindBody) -> bool:
    """The seat inside the value (a key's, a shuffle turn's, a draw share's, a reveal's) is the
    seat that signed it: nobody passes another seat's value off as its own."""
    if isinstance(body, BlindKey):
        return body.key.seat == body.seat
    if isinstance(body, BlindShuffle):
        return body.turn.seat == body.seat
    if isinstance(body, BlindDraw):
        return body.share.seat == body.seat
    if isinstance(body, BlindReveal):  # (or the host's rebuilt reveal of a holder that left)
        return body.reveal.seat == body.seat or body.reveal.seed is None
    if isinstance(body, BlindResign):  # (a resignation by another is the host's: checked there)
        return body.by in RESIGNED_BY and (body.by == "seat") == (body.resigned == body.seat)
    return True


def signed_statement(header: str, body: BlindBody) -> dict[str, Any]:
    """What the sender of ``body`` signs: a transcript/2 statement for what the transcript keeps,
    else ``blind_statement``."""
    h, n, a = header, body.hand, body.attempt
    if isinstance(body, BlindKey):
        return key_statement(h, n, a, body.key)
    if isinstance(body, BlindShuffle):
        return shuffle_statement(h, n, a, ShuffleEntry.of(body.turn))
    if isinstance(body, BlindNotMe):
        return not_me_statement(h, n, a, body.seat, parse_tile(body.tile))
    if isinstance(body, BlindPlay):
        away = {"away": True} if body.away else {}
        return blind_move_statement(h, n, body.index, {"seat": body.seat, "play": body.tile,
                                                       "end": body.end,
                                                       "pos": body.share.position, **away})
    if isinstance(body, BlindReveal):
        return reveal_statement(h, n, a, body.reveal)
    if isinstance(body, BlindResign):
        return resign_statement(h, n, Resignation(body.resigned, body.at, body.by))
    return blind_statement(header, body)


__all__ = ["BLIND_MESSAGES", "FROM_PEERS", "BlindAsk", "BlindBody", "BlindDeal", "BlindDraw",
           "BlindEnd", "BlindEscrow", "BlindKey", "BlindNotMe", "BlindOver", "BlindPlay",
           "BlindRebuild",
           "BlindResign", "BlindReveal", "BlindShares", "BlindShuffle", "BlindUnheld",
           "blind_statement",
           "names_its_sender", "shuffle_bytes", "signed_statement"]
