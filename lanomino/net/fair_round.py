"""The host's side of one hand of the fair deal, and the hand's transcript entry. Pure.

``HandDeal`` collects, for one transcript hand, the deal attempts (commitments, the signed set,
the echoes, the secrets), then the moves and their signatures, and finally builds the hand's
``lanomino.transcript/1`` entry with the host's log signature. It checks every signature and
commitment as it arrives and raises ``RoundError`` (with a code for the error reply) otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanomino.fair.adoption import Adoption
from lanomino.fair.chain import extend, head_statement
from lanomino.fair.commit import DealContext
from lanomino.fair.commit_reveal import (
    CommitReveal,
    Domain,
    RoundError,
    Statement,
    Step,
    deal_domain,
)
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.transcript import (
    MAX_REFUSED,
    REFUSABLE,
    Abandoned,
    DealAttempt,
    HandLog,
    Migration,
    Refusal,
    end_statement,
    log_statement,
    move_statement,
)
from lanomino.fair.transcript_model import Dispute
from lanomino.net.wire.checks import JsonObject

__all__ = ["Attempt", "HandDeal", "RoundError", "closing"]


@dataclass(slots=True)
class Attempt:
    """One deal attempt of a hand: the commit-reveal round (``fair.commit_reveal``) for a
    ``DealContext``."""

    ctx: DealContext
    round: CommitReveal
    asked_reveal: bool = False  # the host has asked the seats for their secrets

    @property
    def seats(self) -> list[int]:
        return self.round.seats

    @property
    def commits(self) -> dict[int, tuple[bytes, bytes]]:
        return self.round.commits

    @property
    def echoes(self) -> dict[int, tuple[bytes, bytes]]:
        return self.round.echoes

    @property
    def secrets(self) -> dict[int, bytes]:
        return self.round.secrets

    @property
    def digest(self) -> bytes:
        return self.round.digest

    @property
    def set_signature(self) -> bytes:
        return self.round.set_signature

    def opened(self) -> list[tuple[int, bytes]]:
        """The secrets in seat order (none when they went with a lost host: a re-shuffled hand)."""
        return self.round.opened()

    def public(self) -> DealAttempt:
        """The attempt without its secrets (every peer keeps it: a new host needs it)."""
        return self.round.attempt(self.ctx.attempt, secrets=False)

    def to_json(self) -> JsonObject:
        return self.round.attempt(self.ctx.attempt).to_json()


class HandDeal:
    """The fair-deal record of one transcript hand, kept by the host."""

    def __init__(self, header: str, hand: int, host_seat: int, keys: Sequence[bytes],
                 ring: KeyRing) -> None:
        self.header, self.hand, self.host_seat = header, hand, host_seat
        self.keys = list(keys)
        self.ring = ring
        self.attempts: list[Attempt] = []
        self.abandoned: list[Abandoned] = []  # attempts that missed a deadline (who did not answer)
        self.away: list[int] = []  # moves the table's bot made for a seat out of time (host-signed)
        self.moves: list[JsonObject] = []
        self.signatures: list[bytes] = []
        self.heads: list[bytes] = []  # the log's head after each move (fair/chain.py)
        self.unchecked: list[int] = []  # moves whose signature is not checked yet (peers' moves)
        # the re-shuffle after a migration (host/reshuffle_round.py)
        self.reshuffled: JsonObject | None = None
        self.adopted: Adoption | None = None  # seats a new host adopted (fair/adoption.py)
        self.refused: list[Refusal] = []  # badly signed messages refused (who, what, why)
        self.migrated: Migration | None = None  # the host changed during the hand
        self.disputes: list[Dispute] = []  # seats' disputes of moves the host made for them
        # the disputes passed on while the log had i moves, per i: they count toward head(i)
        self.relayed: dict[int, list[Dispute]] = {}

    @classmethod
    def of_log(cls, log: HandLog, table: bytes, header: str, keys: Sequence[bytes], ring: KeyRing,
               taken_over: Migration) -> HandDeal:
        """A finished hand's record, from its parsed log, for the host that took the table over
        after it (``taken_over``): a resignation may still come."""
        d = cls(header, log.hand, log.host, keys, ring)
        d.adopted = log.adopted
        for attempt in log.deals:
            d.attempts.append(d.attempt_from(table, attempt, attempt.secrets))
        d.abandoned = list(log.abandoned)
        d.moves = [move.raw for move in log.moves]
        d.signatures = list(log.move_signatures)
        d.migrated = taken_over
        return d

    def blame(self, seat: int, what: str, why: str) -> Refusal | None:
        """A seat's message was refused for its signature: the hand's log says so (who, what,
        why), so the verifier holds that seat at fault, not the host (at most MAX_REFUSED).
        Returns the record, or None when none was added."""
        if what in REFUSABLE and len(self.refused) < MAX_REFUSED:
            self.refused.append(Refusal(seat, what, why[:300]))
            return self.refused[-1]
        return None

    def signed_head(self, identity: Identity) -> bytes:
        """The host's signature of the log's head after the last move (fair/chain.py)."""
        if self.heads and len(self.heads) > len(self.moves):
            self.heads = []  # (the moves were replaced: a rebuilt hand)
        extend(self.heads, self.header, self.hand, self.moves, self.signatures, self.relayed)
        return identity.sign_statement(head_statement(self.header, self.hand,
                                                      len(self.moves) - 1, self.heads[-1]))

    @property
    def current(self) -> Attempt:
        return self.attempts[-1]

    def domain(self, ctx: DealContext) -> Domain:
        """The deal round's statements for ``ctx``, checked against the seats' keys."""
        def verify(seat: int, signature: bytes, statement: Statement) -> bool:
            return self.ring.verify_statement(self.keys[seat], signature, statement)
        return deal_domain(self.header, ctx, self.host_seat, verify)

    def new_attempt(self, table: bytes, seats: Sequence[int], now: float = 0.0,
                    answer_s: float | None = None) -> Attempt:
        """The next attempt's round among ``seats`` (its deadlines ``answer_s`` apart)."""
        ctx = DealContext(table, self.hand, len(self.attempts) + len(self.abandoned) + 1)
        attempt = Attempt(ctx, CommitReveal.started(self.domain(ctx), seats, now, answer_s))
        self.attempts.append(attempt)
        return attempt

    def restored_attempt(self, ctx: DealContext, seats: Sequence[int],
                         commits: dict[int, tuple[bytes, bytes]], set_signature: bytes,
                         echoes: dict[int, tuple[bytes, bytes]],
                         secrets: Sequence[bytes]) -> Attempt:
        """A finished attempt as a transcript or a peer's record holds it (after a migration)."""
        r = CommitReveal(self.domain(ctx), list(seats), step=Step.DONE, commits=dict(commits),
                         set_signature=set_signature, echoes=dict(echoes),
                         secrets=dict(zip(seats, secrets, strict=False)))
        r.digest = next(iter(echoes.values()))[0] if echoes else b""
        return Attempt(ctx, r)

    def attempt_from(self, table: bytes, a: DealAttempt, secrets: Sequence[bytes]) -> Attempt:
        """A finished attempt of this hand as a transcript or a peer's record holds it, with the
        ``secrets`` known of it (none: they went with a lost host)."""
        return self.restored_attempt(DealContext(table, self.hand, a.attempt),
                                     [c.seat for c in a.commitments],
                                     {c.seat: (c.commitment, c.signature) for c in a.commitments},
                                     a.set_signature,
                                     {e.seat: (e.set_digest, e.signature) for e in a.echoes},
                                     secrets)

    def abandon(self) -> list[int]:
        """The current attempt missed a deadline: keep who failed to answer (the transcript says
        so) and forget the attempt; returns the seats that did not answer."""
        a = self.attempts.pop()
        self.abandoned.append(Abandoned(a.ctx.attempt, a.round.abandoned_at,
                                        tuple(a.round.unanswered)))
        return list(a.round.unanswered)

    def excluded(self) -> set[int]:
        """The seats that failed to answer an earlier attempt of this hand: they take no part in
        this hand's deal (they still play the hand, unless they leave)."""
        return {s for a in self.abandoned for s in a.unanswered}

    def signed_by(self, host: int) -> list[int]:
        """The moves (not resignations) that ``host`` signed for another seat: the table's bot
        moved for a seat out of time (a new host learns them so from the log it rebuilds)."""
        return [i for i, (move, sig) in enumerate(zip(self.moves, self.signatures, strict=True))
                if move.get("seat") != host and move.get("resign") is not True
                and self.ring.verify_statement(self.keys[host], sig,
                                               move_statement(self.header, self.hand, i, move))]

    def check_signatures(self) -> list[tuple[int, int]]:
        """Check the signatures of the moves taken unchecked (in bulk, at the hand's end); returns
        the bad ones as (index, seat). A resignation may carry the host's signature instead."""
        bad: list[tuple[int, int]] = []
        for index in self.unchecked:
            move, sig = self.moves[index], self.signatures[index]
            seat = move["seat"]
            statement = move_statement(self.header, self.hand, index, move)
            if self.ring.verify_statement(self.keys[seat], sig, statement):
                continue
            m = self.migrated
            host = self.host_seat if m is None or index < m.at else m.host
            by_host = move.get("resign") is True or index in self.away
            if by_host and self.ring.verify_statement(self.keys[host], sig, statement):
                continue
            bad.append((index, seat))
        self.unchecked = []
        return bad

    def entry(self, host: Identity, points: Sequence[int], scores: Sequence[int]) -> JsonObject:
        """The hand's transcript entry, signed by the host."""
        digests = [a.digest for a in self.attempts]
        secrets = [a.opened() for a in self.attempts]
        migrated = None if self.migrated is None else self.migrated.to_json()
        abandoned = [a.to_json() for a in self.abandoned]
        refused = [r.to_json() for r in self.refused]
        adopted = None if self.adopted is None else self.adopted.to_json()
        log_host = self.host_seat if self.migrated is None else self.migrated.host
        log = log_statement(self.header, self.hand, log_host, digests, secrets, self.moves,
                            list(points), list(scores), migrated, self.reshuffled,
                            abandoned, self.away, adopted, refused)
        extra: JsonObject = {} if migrated is None else {"migrated": migrated}
        if abandoned:
            extra["abandoned"] = abandoned
        if self.away:
            extra["away"] = list(self.away)
        if self.reshuffled is not None:
            extra["reshuffled"] = self.reshuffled
        if adopted is not None:
            extra["adopted"] = adopted
        if refused:
            extra["refused"] = refused
        if self.disputes:  # (outside the log signature: fair/dispute_check.py)
            extra["disputes"] = [x.to_json() for x in self.disputes]
        return {**extra, "hand": self.hand, "host": self.host_seat,
                "deals": [a.to_json() for a in self.attempts],
                "moves": list(self.moves), "move_signatures": [s.hex() for s in self.signatures],
                "points": list(points), "scores": list(scores),
                "log_signature": host.sign_statement(log).hex()}


def closing(host: Identity, header: str, host_seat: int, hands: int, finished: bool,
            winner: int | None, scores: Sequence[int]) -> JsonObject:
    """The host's signed closing statement as it stands after ``hands`` hands."""
    statement = end_statement(header, host_seat, hands, finished, winner, list(scores))
    return {"host": host_seat, "hands": hands, "finished": finished, "winner": winner,
            "scores": list(scores), "signature": host.sign_statement(statement).hex()}
