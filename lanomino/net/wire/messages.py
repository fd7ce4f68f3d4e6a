"""Every message body of the table protocol as a frozen dataclass: the one statement of its fields.

Each field's annotation says both what the field is inside (``bytes`` for a key or a signature,
tuples for lists) and, as its ``Annotated`` metadata, the check (``checks.py``, named in
``fields.py``) that validates and converts it on arrival. ``schemas.py`` derives the wire schemas
from these classes, so a rule is written here once, and encodes a value back to its JSON body
(``to_body``: bytes as lowercase hex, tuples as lists). What each message means is told there. Pure.

A field typed ``JsonObject`` is JSON the receiving part checks further (a transcript entry, a
signed move as it was signed): the JSON boundary stays there. Nested values with a shape of their
own are typed (a roster entry, a hand in play: ``parts.py``; a match header; ``Abandoned``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from lanomino.fair.transcript_model import Abandoned
from lanomino.net.wire.blind_messages import BLIND_MESSAGES, BlindBody
from lanomino.net.wire.catch_up_messages import CatchUp as CatchUp  # (re-exported)
from lanomino.net.wire.catch_up_messages import LogWanted as LogWanted
from lanomino.net.wire.checks import (
    ADDR,
    KEY32,
    MAX_MOVES,
    MAX_SEATS,
    MAX_WATCHERS,
    SIG,
    TILE_TEXT,
    JsonObject,
    boolean,
    hexbytes,
    integer,
    listof,
    obj,
    optional,
    text,
)
from lanomino.net.wire.fields import (
    Attempts,
    Code,
    Commitments,
    Count,
    Curve,
    Echoes,
    Events,
    Hand,
    Header,
    Key,
    MaybeClaim,
    Name,
    Object,
    Reason,
    Seat,
    Seats,
    SeatsAtTable,
    Signature,
    Viewer,
    abandoned_entry,
    bot_entry,
    nested,
)
from lanomino.net.wire.parts import LockedPlay as LockedPlay
from lanomino.net.wire.parts import RosterEntry as RosterEntry  # (re-exported with the messages)
from lanomino.net.wire.parts import RosterList
from lanomino.net.wire.parts import SnapshotPlay as SnapshotPlay
from lanomino.net.wire.proof_messages import PreVote as PreVote  # (re-exported with the messages)
from lanomino.net.wire.proof_messages import Proof as Proof
from lanomino.net.wire.reshuffle_messages import (  # (re-exported with the messages)
    ReshuffleCommit as ReshuffleCommit,
)
from lanomino.net.wire.reshuffle_messages import ReshuffleCommitReq as ReshuffleCommitReq
from lanomino.net.wire.reshuffle_messages import ReshuffleEcho as ReshuffleEcho
from lanomino.net.wire.reshuffle_messages import ReshuffleReveal as ReshuffleReveal
from lanomino.net.wire.reshuffle_messages import ReshuffleRevealReq as ReshuffleRevealReq
from lanomino.net.wire.reshuffle_messages import ReshuffleSet as ReshuffleSet
from lanomino.net.wire.snapshot_messages import Resync as Resync  # (re-exported)
from lanomino.net.wire.snapshot_messages import Snapshot as Snapshot
from lanomino.net.wire.snapshot_messages import SnapshotPart as SnapshotPart

# ----- joining ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    TYPE: ClassVar[str] = "hello"
    name: Name
    identity: Key
    curve: Curve
    addr: Annotated[str | None, optional(ADDR)]


@dataclass(frozen=True, slots=True)
class Challenge:
    TYPE: ClassVar[str] = "challenge"
    nonce: Key
    table: Annotated[bytes, hexbytes(16)]
    passphrase: Annotated[bool, boolean]
    host: Key


@dataclass(frozen=True, slots=True)
class Auth:
    TYPE: ClassVar[str] = "auth"
    signature: Signature
    proof: Annotated[bytes | None, optional(KEY32)]


@dataclass(frozen=True, slots=True)
class Watch:
    TYPE: ClassVar[str] = "watch"
    name: Name
    identity: Key
    curve: Curve


@dataclass(frozen=True, slots=True)
class Welcome:
    TYPE: ClassVar[str] = "welcome"
    seat: Viewer
    seats: SeatsAtTable
    roster: RosterList
    rules: Object


@dataclass(frozen=True, slots=True)
class Refused:
    TYPE: ClassVar[str] = "refused"
    code: Code
    reason: Reason


@dataclass(frozen=True, slots=True)
class Roster:
    TYPE: ClassVar[str] = "roster"
    roster: RosterList
    seats: SeatsAtTable
    watching: Annotated[int, integer(0, MAX_WATCHERS)]
    watch_cap: Annotated[int, integer(0, MAX_WATCHERS)]
    move_clock_ms: Annotated[int | None, optional(integer(1, 86_400_000))]
    # the table's bot for a seat out of time, where the seat's own client runs it (locked deck)
    away_level: Annotated[str | None, optional(text(16, r"[a-z]+"))] = None


# ----- the match and the fair deal ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    TYPE: ClassVar[str] = "match"
    header: Header


@dataclass(frozen=True, slots=True)
class Agree:
    TYPE: ClassVar[str] = "agree"
    signature: Signature


@dataclass(frozen=True, slots=True)
class Begin:
    TYPE: ClassVar[str] = "begin"
    signatures: Annotated[tuple[bytes, ...], listof(SIG, MAX_SEATS)]


@dataclass(frozen=True, slots=True)
class CommitReq:
    TYPE: ClassVar[str] = "commit_req"
    hand: Hand
    attempt: Hand


@dataclass(frozen=True, slots=True)
class Commit:
    TYPE: ClassVar[str] = "commit"
    hand: Hand
    attempt: Hand
    commitment: Key
    signature: Signature


@dataclass(frozen=True, slots=True)
class CommitSet:
    TYPE: ClassVar[str] = "commit_set"
    hand: Hand
    attempt: Hand
    commitments: Commitments
    signature: Signature


@dataclass(frozen=True, slots=True)
class Echo:
    TYPE: ClassVar[str] = "echo"
    hand: Hand
    attempt: Hand
    set: Key
    signature: Signature


@dataclass(frozen=True, slots=True)
class RevealReq:
    TYPE: ClassVar[str] = "reveal_req"
    hand: Hand
    attempt: Hand
    echoes: Echoes  # every seat's echo of the set: each seat checks them before it reveals


@dataclass(frozen=True, slots=True)
class Reveal:
    TYPE: ClassVar[str] = "reveal"
    hand: Hand
    attempt: Hand
    secret: Key


@dataclass(frozen=True, slots=True)
class Escrow:
    TYPE: ClassVar[str] = "escrow"
    hand: Hand
    attempt: Hand
    seats: Seats
    holders: Seats
    digests: Annotated[tuple[bytes, ...], listof(KEY32, MAX_SEATS)]
    share: Annotated[str, text(2 * 32 * MAX_SEATS, r"(?:[0-9a-f]{64}){1,4}")]


@dataclass(frozen=True, slots=True)
class Deal:
    TYPE: ClassVar[str] = "deal"
    hand: Hand
    tiles: Annotated[tuple[str, ...], listof(TILE_TEXT, 28)]
    events: Events
    turn: Seat
    attempts: Attempts
    abandoned: Annotated[tuple[Abandoned, ...], listof(abandoned_entry, MAX_SEATS)]


# ----- play --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    TYPE: ClassVar[str] = "move"
    hand: Hand
    index: Count
    move: Object  # the move's JSON exactly as it was signed
    signature: Signature
    seen: Key  # the log's head before this move, as the mover holds it (fair/chain.py)
    seen_host: Annotated[bytes | None, optional(SIG)]  # the host's signature of it (None: move 1)
    seen_signature: Signature  # the mover's signature of ``seen`` (chain.seen_statement)
    away: Annotated[bool, boolean] = False  # its client's bot made it, out of time (locked deck:
    # the signed ``move`` carries ``"away": true`` as well, values.signed_away)


@dataclass(frozen=True, slots=True)
class Update:
    TYPE: ClassVar[str] = "update"
    hand: Hand
    index: Count
    move: Object
    signature: Signature  # the mover's (the host's for a seat that left or is away)
    events: Events
    turn: Seat
    head: Signature  # the host's signature of the log's head after this move (fair/chain.py)
    away: Annotated[bool, boolean] = False  # the table's bot moved for a seat out of time
    # a remote seat's move: the head it held before it, as in its ``move`` (None: the host's own)
    seen: Annotated[bytes | None, optional(KEY32)] = None
    seen_host: Annotated[bytes | None, optional(SIG)] = None
    seen_signature: Annotated[bytes | None, optional(SIG)] = None


@dataclass(frozen=True, slots=True)
class Dispute:
    """A seat says the host made its move ``index`` for it (a resignation, or the table's move
    while it was counted away) while it was there and in time; signed by the seat
    (``lanomino.dispute/1``, fair/dispute_check.py)."""

    TYPE: ClassVar[str] = "dispute"
    hand: Hand
    index: Count
    signature: Signature


@dataclass(frozen=True, slots=True)
class Disputed:
    """The host passes a seat's dispute on to every seat and watcher, as the seat signed it."""

    TYPE: ClassVar[str] = "disputed"
    hand: Hand
    index: Count
    seat: Seat
    signature: Signature


@dataclass(frozen=True, slots=True)
class HandLog:
    TYPE: ClassVar[str] = "hand_log"
    entry: Object
    end: Object


@dataclass(frozen=True, slots=True)
class Error:
    TYPE: ClassVar[str] = "error"
    code: Code
    message: Reason
    ref: Count


@dataclass(frozen=True, slots=True)
class Bye:
    TYPE: ClassVar[str] = "bye"
    reason: Reason
    handover: Annotated[bool, boolean] = False  # a host leaving a running match: elect at once


@dataclass(frozen=True, slots=True)
class Ping:
    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True, slots=True)
class Back:
    TYPE: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class Bots:
    TYPE: ClassVar[str] = "bots"
    bots: Annotated[tuple[JsonObject, ...], listof(bot_entry, MAX_SEATS)]


# the most refusals one hand's log lists (= fair.transcript_model.MAX_REFUSED, tested)
MAX_BLAMES = 16


@dataclass(frozen=True, slots=True)
class Blame:
    """The host refused ``seat``'s badly signed ``what`` (its hand log will say so), signed by the
    host: a new host after a migration keeps that record only with this signature."""

    TYPE: ClassVar[str] = "blame"
    hand: Hand
    seat: Seat
    what: Code
    why: Reason
    signature: Signature


# ----- after a migration -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Report:
    TYPE: ClassVar[str] = "report"
    hand: Count
    moves: Annotated[tuple[JsonObject, ...], listof(obj, MAX_MOVES)]
    signatures: Annotated[tuple[bytes, ...], listof(SIG, MAX_MOVES)]
    escrow: Annotated[Escrow | None, optional(nested(Escrow))]  # the share this peer holds
    claim: MaybeClaim  # for a re-shuffle
    last: Annotated[JsonObject | None, optional(obj)]
    refused: Annotated[tuple[Blame, ...], listof(nested(Blame), MAX_BLAMES)]  # the hand's


Body = (Hello | Challenge | Auth | Watch | Welcome | Refused | Roster | Match | Agree | Begin
        | CommitReq | Commit | CommitSet | Echo | RevealReq | Reveal | Escrow | Deal | Move | Update
        | HandLog | Resync | Snapshot | SnapshotPart | Error | Bye | Ping | Back | Bots | Report
        | ReshuffleCommitReq | ReshuffleCommit | ReshuffleSet | ReshuffleEcho | ReshuffleRevealReq
        | ReshuffleReveal | Blame | Dispute | Disputed | Proof | PreVote | CatchUp | LogWanted
        | BlindBody)

MESSAGES: dict[str, type[Body]] = {cls.TYPE: cls for cls in (
    Hello, Challenge, Auth, Watch, Welcome, Refused, Roster, Match, Agree, Begin, CommitReq, Commit,
    CommitSet, Echo, RevealReq, Reveal, Escrow, Deal, Move, Update, HandLog, Resync, Snapshot,
    SnapshotPart, Error, Bye, Ping, Back, Bots, Blame, Report, ReshuffleCommitReq, ReshuffleCommit,
    ReshuffleSet, ReshuffleEcho, ReshuffleRevealReq, ReshuffleReveal, Dispute, Disputed, Proof,
    PreVote, CatchUp, LogWanted, *BLIND_MESSAGES)}
