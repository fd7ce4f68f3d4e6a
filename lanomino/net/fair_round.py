"""The host's side of one hand of the fair deal, and the hand's transcript entry. Pure.

``HandDeal`` collects, for one transcript hand, the deal attempts (commitments, the signed set,
the echoes, the secrets), then the moves and their signatures, and finally builds the hand's
``lanomino.transcript/1`` entry with the host's log signature. It checks every signature and
commitment as it arrives and raises ``RoundError`` (with a code for the error reply) otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lanomino.fair.commit import (
    DealContext,
    commit_statement,
    echo_statement,
    opens,
    set_digest,
    set_statement,
)
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.transcript import end_statement, log_statement, move_statement


class RoundError(ValueError):
    """A commit-reveal message that does not check out; ``code`` names the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Attempt:
    """One deal attempt of a hand: the commit-reveal round for a ``DealContext``."""

    ctx: DealContext
    seats: list[int]  # the seats that take part (active seats), in seat order
    commits: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (commitment, sig)
    statement: dict[str, Any] | None = None  # the host's set statement, once every seat committed
    set_signature: bytes = b""
    digest: bytes = b""
    echoes: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (digest, sig)
    secrets: dict[int, bytes] = field(default_factory=dict)

    def missing_commits(self) -> list[int]:
        return [s for s in self.seats if s not in self.commits]

    def missing_echoes(self) -> list[int]:
        return [s for s in self.seats if s not in self.echoes]

    def missing_secrets(self) -> list[int]:
        return [s for s in self.seats if s not in self.secrets]

    def opened(self) -> list[tuple[int, bytes]]:
        """The secrets in seat order (none when they went with a lost host: a re-shuffled hand)."""
        return [(s, self.secrets[s]) for s in self.seats if s in self.secrets]

    def public_json(self) -> dict[str, Any]:
        """The attempt without its secrets (every peer keeps it: a new host needs it)."""
        return {k: v for k, v in self.to_json(secrets=False).items() if k != "secrets"}

    def to_json(self, secrets: bool = True) -> dict[str, Any]:
        return {
            "attempt": self.ctx.attempt,
            "commitments": [{"seat": s, "commitment": self.commits[s][0].hex(),
                             "signature": self.commits[s][1].hex()} for s in self.seats],
            "set_signature": self.set_signature.hex(),
            "echoes": [{"seat": s, "set": self.echoes[s][0].hex(), "signature": self.echoes[s][1].hex()}
                       for s in self.seats],
            "secrets": [x.hex() for _, x in self.opened()] if secrets else [],
        }


class HandDeal:
    """The fair-deal record of one transcript hand, kept by the host."""

    def __init__(self, header: str, hand: int, host_seat: int, keys: Sequence[bytes], ring: KeyRing) -> None:
        self.header, self.hand, self.host_seat = header, hand, host_seat
        self.keys = list(keys)
        self.ring = ring
        self.attempts: list[Attempt] = []
        self.moves: list[dict[str, Any]] = []
        self.signatures: list[bytes] = []
        self.unchecked: list[int] = []
        self.reshuffled: dict[str, Any] | None = None  # the re-shuffle after a migration (net/reshuffle.py)
        self.migrated: dict[str, int] | None = None  # {"host", "term", "at"} after a host migration  # moves whose signature is not checked yet (peers' moves)

    @property
    def current(self) -> Attempt:
        return self.attempts[-1]

    def new_attempt(self, table: bytes, seats: Sequence[int]) -> Attempt:
        attempt = Attempt(DealContext(table, self.hand, len(self.attempts) + 1), list(seats))
        self.attempts.append(attempt)
        return attempt

    def add_commit(self, seat: int, committed: bytes, signature: bytes) -> None:
        a = self.current
        if seat not in a.seats:
            raise RoundError("wrong_phase", f"seat {seat} does not take part in this deal")
        if seat in a.commits:
            if a.commits[seat][0] == committed:
                return  # the same commitment again (a resent message): nothing new
            raise RoundError("bad_commitment", f"seat {seat} already committed to another secret")
        if not self.ring.verify_statement(self.keys[seat], signature,
                                          commit_statement(self.header, a.ctx, seat, committed)):
            raise RoundError("bad_signature", f"seat {seat}'s commitment is not signed by its key")
        a.commits[seat] = (committed, signature)

    def seal_set(self, host: Identity) -> None:
        """Every seat has committed: the host signs the ordered set (echoes start afresh)."""
        a = self.current
        a.statement = set_statement(self.header, a.ctx, self.host_seat, [(s, a.commits[s][0]) for s in a.seats])
        a.set_signature = host.sign_statement(a.statement)
        a.digest = set_digest(a.statement)
        a.echoes = {}

    def add_echo(self, seat: int, digest: bytes, signature: bytes) -> None:
        a = self.current
        if a.statement is None or seat not in a.seats:
            raise RoundError("wrong_phase", f"no commitment set is waiting for seat {seat}'s echo")
        if not self.ring.verify_statement(self.keys[seat], signature,
                                          echo_statement(self.header, a.ctx, seat, digest)):
            raise RoundError("bad_signature", f"seat {seat}'s echo is not signed by its key")
        if digest != a.digest:
            raise RoundError("equivocation", f"seat {seat} echoed a different commitment set")
        a.echoes[seat] = (digest, signature)

    def add_secret(self, seat: int, secret: bytes) -> None:
        a = self.current
        if seat not in a.commits or not opens(a.ctx, seat, secret, a.commits[seat][0]):
            raise RoundError("bad_secret", f"seat {seat}'s secret does not open its commitment")
        a.secrets[seat] = secret

    def drop_seat(self, seat: int) -> None:
        """A seat left while this attempt was running: it no longer takes part."""
        a = self.current
        if seat in a.seats:
            a.seats.remove(seat)
            a.commits.pop(seat, None)
            a.echoes.pop(seat, None)
            a.secrets.pop(seat, None)

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
            host = self.host_seat if self.migrated is None or index < self.migrated["at"] else self.migrated["host"]
            if move.get("resign") is True and self.ring.verify_statement(self.keys[host], sig, statement):
                continue
            bad.append((index, seat))
        self.unchecked = []
        return bad

    def entry(self, host: Identity, points: Sequence[int], scores: Sequence[int]) -> dict[str, Any]:
        """The hand's transcript entry, signed by the host."""
        digests = [a.digest for a in self.attempts]
        secrets = [a.opened() for a in self.attempts]
        log_host = self.host_seat if self.migrated is None else self.migrated["host"]
        log = log_statement(self.header, self.hand, log_host, digests, secrets, self.moves,
                            list(points), list(scores), self.migrated, self.reshuffled)
        extra: dict[str, Any] = {} if self.migrated is None else {"migrated": dict(self.migrated)}
        if self.reshuffled is not None:
            extra["reshuffled"] = self.reshuffled
        return {**extra, "hand": self.hand, "host": self.host_seat, "deals": [a.to_json() for a in self.attempts],
                "moves": list(self.moves), "move_signatures": [s.hex() for s in self.signatures],
                "points": list(points), "scores": list(scores),
                "log_signature": host.sign_statement(log).hex()}


def closing(host: Identity, header: str, host_seat: int, hands: int, finished: bool,
            winner: int | None, scores: Sequence[int]) -> dict[str, Any]:
    """The host's signed closing statement as it stands after ``hands`` hands."""
    statement = end_statement(header, host_seat, hands, finished, winner, list(scores))
    return {"host": host_seat, "hands": hands, "finished": finished, "winner": winner,
            "scores": list(scores), "signature": host.sign_statement(statement).hex()}
