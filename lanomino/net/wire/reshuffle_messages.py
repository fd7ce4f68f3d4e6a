"""The messages of a re-shuffle round (after a host is lost without escrow: ``net/host/
reshuffle_round.py`` and ``net/peer/reshuffle_answers.py``), declared as ``messages.py`` declares
the rest, which re-exports them. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lanomino.net.wire.fields import Commitments, Count, Hand, Key, Seat, Signature


@dataclass(frozen=True, slots=True)
class ReshuffleCommitReq:
    TYPE: ClassVar[str] = "reshuffle_commit_req"
    hand: Hand
    term: Hand
    at: Count


@dataclass(frozen=True, slots=True)
class ReshuffleCommit:
    TYPE: ClassVar[str] = "reshuffle_commit"
    hand: Hand
    term: Hand
    commitment: Key
    signature: Signature


@dataclass(frozen=True, slots=True)
class ReshuffleSet:
    TYPE: ClassVar[str] = "reshuffle_set"
    hand: Hand
    term: Hand
    at: Count
    opener: Seat
    claims: Key
    commitments: Commitments
    signature: Signature


@dataclass(frozen=True, slots=True)
class ReshuffleEcho:
    TYPE: ClassVar[str] = "reshuffle_echo"
    hand: Hand
    term: Hand
    set: Key
    signature: Signature


@dataclass(frozen=True, slots=True)
class ReshuffleRevealReq:
    TYPE: ClassVar[str] = "reshuffle_reveal_req"
    hand: Hand
    term: Hand


@dataclass(frozen=True, slots=True)
class ReshuffleReveal:
    TYPE: ClassVar[str] = "reshuffle_reveal"
    hand: Hand
    term: Hand
    secret: Key
