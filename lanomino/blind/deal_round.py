"""The locked deal as a round every seat follows, checking each message on arrival. Pure.

Theory of operation. The holders first send their keys (each with a Schnorr proof); with every
key in, the key set is bound into the context. Then the holders shuffle in seat order, each
starting from the deck the one before it produced (the first from the public open deck); every
turn's argument is checked before the next turn is taken. Then each holder sends its shares of
every position dealt to a seat it does not open (another person's; a host-side bot's tiles are
the host's to open), each with its proof. With all of them in, each seat opens
its own hand with its key, and nobody else can.

Steps and their transitions (the table below is the only place that allows a change)::

    KEYS --every key in--> SHUFFLE --every holder shuffled--> SHARES --every share in--> DONE
    KEYS | SHUFFLE | SHARES --a deadline passed, or a message failed its check--> ABANDONED

``now`` is a parameter; each step has a deadline (``answer_s`` after it began). A message that
fails its check abandons the round and names its signer (``culprit``); a deadline that passes
names the seats still silent (``unanswered``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from lanomino.blind.deck import Deck, aggregate_key, open_deck
from lanomino.blind.gate import DealLayout
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context
from lanomino.blind.rounds import (
    BlindFault,
    KeyAnnouncement,
    Share,
    ShuffleTurn,
    check_key,
    check_share,
    check_shuffle,
)
from lanomino.engine.errors import seat_name


class Step(enum.Enum):
    KEYS = "keys"
    SHUFFLE = "shuffle"
    SHARES = "shares"
    DONE = "done"
    ABANDONED = "abandoned"


TRANSITIONS: dict[Step, frozenset[Step]] = {
    Step.KEYS: frozenset({Step.SHUFFLE, Step.ABANDONED}),
    Step.SHUFFLE: frozenset({Step.SHARES, Step.ABANDONED}),
    Step.SHARES: frozenset({Step.DONE, Step.ABANDONED}),
    Step.DONE: frozenset(),
    Step.ABANDONED: frozenset(),
}


@dataclass(slots=True)
class LockedDeal:
    """One deal attempt's round (see the module docstring)."""

    ctx: Context  # before the key set; ``ctx`` gains it after the KEYS step
    layout: DealLayout
    answer_s: float | None = None
    step: Step = Step.KEYS
    deadline: float | None = None
    keys: dict[int, KeyAnnouncement] = field(default_factory=dict)
    turns: list[ShuffleTurn] = field(default_factory=list)
    deck: Deck = ()  # the open deck, then the deck after each checked turn
    shares: dict[int, tuple[Share, ...]] = field(default_factory=dict)  # holder -> its batch
    culprit: int | None = None
    unanswered: tuple[int, ...] = ()

    @classmethod
    def started(cls, ctx: Context, layout: DealLayout, now: float, answer_s: float | None
                ) -> LockedDeal:
        deal = cls(ctx, layout, answer_s)
        deal.deadline = None if answer_s is None else now + answer_s
        return deal

    def _to(self, step: Step, now: float) -> None:
        if step not in TRANSITIONS[self.step]:
            raise BlindError(f"a locked deal cannot go from {self.step.value} to {step.value}")
        self.step = step
        live = step in (Step.KEYS, Step.SHUFFLE, Step.SHARES) and self.answer_s is not None
        self.deadline = now + self.answer_s if live and self.answer_s is not None else None

    def _fault(self, fault: BlindFault, now: float) -> BlindFault:
        self.culprit = fault.seat
        self._to(Step.ABANDONED, now)
        return fault

    def _expect(self, step: Step, seat: int) -> None:
        if self.step is not step:
            raise BlindError(f"{seat_name(seat)}'s {step.value} message came in the "
                             f"{self.step.value} step")

    def missing(self) -> tuple[int, ...]:
        """The holders the current step still waits for."""
        if self.step is Step.KEYS:
            return tuple(s for s in self.ctx.holders if s not in self.keys)
        if self.step is Step.SHUFFLE:
            return self.ctx.holders[len(self.turns):len(self.turns) + 1]
        if self.step is Step.SHARES:
            return tuple(s for s in self.ctx.holders if s not in self.shares)
        return ()

    def receive_key(self, announcement: KeyAnnouncement, now: float) -> None:
        """A holder's key. Raises: BlindFault (the round is abandoned, the seat named)."""
        self._expect(Step.KEYS, announcement.seat)
        if announcement.seat in self.keys:
            raise BlindError(f"{seat_name(announcement.seat)} sent its key twice")
        try:
            check_key(self.ctx, announcement)
        except BlindFault as fault:
            raise self._fault(fault, now) from None
        self.keys[announcement.seat] = announcement
        if self.missing():
            return
        self.ctx = self.ctx.with_keys(self.keys[s].key for s in self.ctx.holders)
        self.deck = open_deck(aggregate_key(self.ctx.keys), self.ctx.tiles)
        self._to(Step.SHUFFLE, now)

    def receive_shuffle(self, turn: ShuffleTurn, now: float) -> None:
        """The next holder's shuffle, checked against the deck before it.

        Raises: BlindFault (the round is abandoned, the shuffler named).
        """
        self._expect(Step.SHUFFLE, turn.seat)
        if (turn.seat,) != self.missing():
            raise BlindError(f"{seat_name(turn.seat)} shuffled out of turn")
        try:
            self.deck = check_shuffle(self.ctx, turn, self.deck)
        except BlindFault as fault:
            raise self._fault(fault, now) from None
        self.turns.append(turn)
        if len(self.turns) == len(self.ctx.holders):
            self._to(Step.SHARES, now)

    def receive_shares(self, seat: int, shares: Sequence[Share], now: float) -> None:
        """A holder's deal shares: exactly the positions dealt to other seats, each proved.

        Raises: BlindFault (the round is abandoned, the holder named).
        """
        self._expect(Step.SHARES, seat)
        if seat in self.shares or seat not in self.ctx.holders:
            raise BlindError(f"{seat_name(seat)} may not send deal shares now")
        openers = self.layout.openers
        wanted = sorted(p for s, ps in enumerate(self.layout.dealt) if openers[s] != seat
                        for p in ps)
        try:
            if any(share.seat != seat for share in shares):
                raise BlindFault(seat, "sent shares signed as another seat")
            if sorted(share.position for share in shares) != wanted:
                raise BlindFault(seat, "did not send one share for each position dealt to others")
            for share in shares:
                check_share(self.ctx, self.deck, share)
        except BlindFault as fault:
            raise self._fault(fault, now) from None
        self.shares[seat] = tuple(shares)
        if not self.missing():
            self._to(Step.DONE, now)

    def shares_of(self, position: int) -> tuple[Share, ...]:
        """Every public deal share of ``position`` (each holder's but its opener's)."""
        return tuple(s for batch in self.shares.values() for s in batch if s.position == position)

    def expire(self, now: float) -> bool:
        """Abandon the round if the step's deadline has passed; True if it did."""
        if self.deadline is None or now < self.deadline:
            return False
        self.unanswered = self.missing()
        self._to(Step.ABANDONED, now)
        return True
