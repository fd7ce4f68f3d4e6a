"""The one commit -> set -> echo -> reveal round, as the host runs it. Pure.

Theory of operation. A round gathers, from a fixed list of seats, a signed commitment each; the
host then signs the ordered set, every seat echoes the set's digest (signed), and every seat
reveals the secret it committed to. The deal of a hand (``net/fair_round.py``), the re-shuffle
after a migration (``net/reshuffle_round.py``) and fair self-play (``fair/fair_match.py``) all run
this one machine; they differ only in their ``Domain``: which statements are signed and how a
secret opens a commitment.

Steps and their transitions (the table below is the only place that allows a change)::

    COMMIT --every seat committed--> ECHO --every seat echoed--> REVEAL --every secret in--> DONE
    COMMIT | ECHO | REVEAL --a step's deadline passed, seats still silent--> ABANDONED

Every step has a deadline (``answer_s`` after the step began, ``now`` is a parameter). When it
passes with seats still to answer, ``expire`` abandons the round and names those seats
(``unanswered``): the driver treats them as dropped and starts a fresh round without them, so a
seat that stays connected but never answers cannot stall a table.
"""

from __future__ import annotations

import enum
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lanomino.engine.errors import seat_name
from lanomino.fair.attempt import DealAttempt, Echo, SignedCommitment
from lanomino.fair.commit import (
    DealContext,
    commit_statement,
    echo_statement,
    opens,
    set_digest,
    set_statement,
)

Statement = dict[str, object]  # a canonical-JSON object that a key signs


class RoundError(ValueError):
    """A commit-reveal message that does not check out; ``code`` names the problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Step(enum.Enum):
    COMMIT = "commit"
    ECHO = "echo"
    REVEAL = "reveal"
    DONE = "done"
    ABANDONED = "abandoned"


TRANSITIONS: dict[Step, frozenset[Step]] = {
    Step.COMMIT: frozenset({Step.ECHO, Step.ABANDONED}),
    Step.ECHO: frozenset({Step.REVEAL, Step.ABANDONED}),
    Step.REVEAL: frozenset({Step.DONE, Step.ABANDONED}),
    Step.DONE: frozenset(),
    Step.ABANDONED: frozenset(),
}


@dataclass(frozen=True, slots=True)
class Domain:
    """What one kind of round signs and checks (the deal's, the re-shuffle's)."""

    commit_statement: Callable[[int, bytes], Statement]  # (seat, commitment)
    set_statement: Callable[[Sequence[tuple[int, bytes]]], Statement]  # the ordered commitments
    echo_statement: Callable[[int, bytes], Statement]  # (seat, set digest)
    opens: Callable[[int, bytes, bytes], bool]  # (seat, secret, commitment)
    verify: Callable[[int, bytes, Statement], bool]  # (seat, signature, statement): seat's key
    label: str = "deal"  # for messages: "deal", "re-shuffle"


@dataclass(slots=True)
class CommitReveal:
    """One round among ``seats`` (in seat order); see the module docstring."""

    domain: Domain
    seats: list[int]
    answer_s: float | None = None  # each step's deadline after it began (None: no deadline)
    step: Step = Step.COMMIT
    deadline: float | None = None
    commits: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (c, sig)
    statement: Statement | None = None  # the host's set statement, once every seat committed
    set_signature: bytes = b""
    digest: bytes = b""
    echoes: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (digest, sig)
    secrets: dict[int, bytes] = field(default_factory=dict)
    unanswered: tuple[int, ...] = ()  # who let a deadline pass (ABANDONED)
    abandoned_at: str = ""  # the step it was abandoned at

    @classmethod
    def started(
        cls, domain: Domain, seats: Sequence[int], now: float, answer_s: float | None
    ) -> CommitReveal:
        """A round in its COMMIT step, its deadline running from ``now``."""
        r = cls(domain, list(seats), answer_s)
        r.deadline = None if answer_s is None else now + answer_s
        return r

    # ----- the one place a step changes -----------------------------------------------------------

    def _to(self, step: Step, now: float) -> None:
        if step not in TRANSITIONS[self.step]:
            raise RoundError(
                "wrong_phase",
                f"a {self.domain.label} round cannot go from {self.step.value} to {step.value}",
            )
        self.step = step
        live = step in (Step.COMMIT, Step.ECHO, Step.REVEAL) and self.answer_s is not None
        self.deadline = now + self.answer_s if live and self.answer_s is not None else None

    # ----- queries ------------------------------------------------------------------------------

    def missing(self) -> list[int]:
        """The seats the current step still waits for."""
        if self.step is Step.COMMIT:
            return [s for s in self.seats if s not in self.commits]
        if self.step is Step.ECHO:
            return [s for s in self.seats if s not in self.echoes]
        if self.step is Step.REVEAL:
            return [s for s in self.seats if s not in self.secrets]
        return []

    @property
    def done(self) -> bool:
        return self.step is Step.DONE

    def opened(self) -> list[tuple[int, bytes]]:
        """The secrets in seat order (fewer when some went with a lost host)."""
        return [(s, self.secrets[s]) for s in self.seats if s in self.secrets]

    def commitments(self) -> list[tuple[int, bytes]]:
        return [(s, self.commits[s][0]) for s in self.seats if s in self.commits]

    # ----- input ----------------------------------------------------------------------------------

    def _expect(self, step: Step, seat: int) -> None:
        if seat not in self.seats:
            raise RoundError(
                "wrong_phase",
                f"{seat_name(seat)} does not take part in this {self.domain.label} round",
            )
        if self.step is not step:
            raise RoundError(
                "wrong_phase",
                f"the {self.domain.label} round is at its {self.step.value} step, not {step.value}",
            )

    def add_commit(self, seat: int, committed: bytes, signature: bytes) -> bool:
        """A seat's signed commitment; True when it was new. Raises RoundError."""
        if seat in self.commits and seat in self.seats:
            if self.commits[seat][0] == committed:
                return False  # the same commitment again (a resent message): nothing new
            raise RoundError("bad_commitment",
                             f"{seat_name(seat)} already committed to another secret")
        self._expect(Step.COMMIT, seat)
        if not self.domain.verify(seat, signature, self.domain.commit_statement(seat, committed)):
            what = f"{seat_name(seat)}'s {self.domain.label} commitment"
            raise RoundError("bad_signature", f"{what} is not signed by that seat's key")
        self.commits[seat] = (committed, signature)
        return True

    def seal(self, sign: Callable[[Statement], bytes], now: float) -> None:
        """Every seat committed: the host signs the ordered set; the echo step begins."""
        if self.missing():
            raise RoundError("wrong_phase", "not every seat has committed yet")
        self.statement = self.domain.set_statement(self.commitments())
        self.set_signature = sign(self.statement)
        self.digest = set_digest(self.statement)
        self.echoes = {}
        self._to(Step.ECHO, now)

    def add_echo(self, seat: int, digest_: bytes, signature: bytes, now: float) -> bool:
        """A seat's signed echo of the set; True when it was new. Raises RoundError."""
        if self.step is Step.REVEAL and self.echoes.get(seat, (b"",))[0] == digest_:
            return False  # a returning seat echoed the set again before revealing
        self._expect(Step.ECHO, seat)
        if not self.domain.verify(seat, signature, self.domain.echo_statement(seat, digest_)):
            raise RoundError(
                "bad_signature",
                f"{seat_name(seat)}'s {self.domain.label} echo is not signed by that seat's key",
            )
        if not hmac.compare_digest(digest_, self.digest):
            raise RoundError(
                "equivocation", f"{seat_name(seat)} echoed a different {self.domain.label} set"
            )
        self.echoes[seat] = (digest_, signature)
        if not self.missing():
            self._to(Step.REVEAL, now)
        return True

    def add_secret(self, seat: int, secret: bytes, now: float) -> bool:
        """A seat's revealed secret; True when it was new. Raises RoundError."""
        if seat in self.secrets and self.secrets[seat] == secret:
            return False
        self._expect(Step.REVEAL, seat)
        if not self.domain.opens(seat, secret, self.commits[seat][0]):
            raise RoundError(
                "bad_secret",
                f"{seat_name(seat)}'s {self.domain.label} secret does not open their commitment",
            )
        self.secrets[seat] = secret
        if not self.missing():
            self._to(Step.DONE, now)
        return True

    def after_commits(self, sign: Callable[[Statement], bytes], now: float) -> bool:
        """Seal the set if every seat has committed; True when the echo step began."""
        if self.step is not Step.COMMIT or self.missing():
            return False
        self.seal(sign, now)
        return True

    def drop(self, seat: int, now: float) -> None:
        """A seat left while the round was running: it no longer takes part (the step may be
        complete now; a set already sealed is re-opened by the driver with a new round)."""
        if seat not in self.seats:
            return
        self.seats.remove(seat)
        self.commits.pop(seat, None)
        self.echoes.pop(seat, None)
        self.secrets.pop(seat, None)
        if self.step is Step.ECHO and not self.missing():
            self._to(Step.REVEAL, now)
        elif self.step is Step.REVEAL and not self.missing():
            self._to(Step.DONE, now)

    def expire(self, now: float) -> list[int]:
        """Past the step's deadline with seats still silent: abandon the round and return them
        (empty: nothing is late)."""
        if self.deadline is None or now < self.deadline or not self.missing():
            return []
        self.unanswered = tuple(self.missing())
        self.abandoned_at = self.step.value
        self._to(Step.ABANDONED, now)
        return list(self.unanswered)

    def attempt(self, number: int, secrets: bool = True) -> DealAttempt:
        """The finished round as a transcript keeps it (``secrets=False``: as every peer holds
        the hand in play's, the secrets still unopened)."""
        return DealAttempt(number, tuple(SignedCommitment(s, *self.commits[s]) for s in self.seats),
                           self.set_signature, tuple(Echo(s, *self.echoes[s]) for s in self.seats),
                           tuple(x for _, x in self.opened()) if secrets else ())

    def abandon_for(self, seats: Sequence[int], now: float) -> None:
        """Abandon the round because ``seats`` left while it ran (they count as not answering)."""
        self.unanswered = tuple(seats)
        self.abandoned_at = self.step.value
        self._to(Step.ABANDONED, now)


def deal_domain(
    header: str, ctx: DealContext, host: int, verify: Callable[[int, bytes, Statement], bool]
) -> Domain:
    """The deal's round (``lanomino.commit/1``, ``set/1``, ``echo/1`` statements) for ``ctx``,
    its set signed by seat ``host``."""
    return Domain(
        commit_statement=lambda seat, c: commit_statement(header, ctx, seat, c),
        set_statement=lambda entries: set_statement(header, ctx, host, entries),
        echo_statement=lambda seat, d: echo_statement(header, ctx, seat, d),
        opens=lambda seat, secret, c: opens(ctx, seat, secret, c),
        verify=verify,
    )
