"""One draw as a round: the other holders' shares of the drawn position, each checked on
arrival, with a deadline. Pure.

The log names the drawer and the position (the boneyard's next); every other holder's gate
releases its share (``gate.py``) and the shares travel in one parallel round. Every seat that
follows the table keeps them (they are public: without the drawer's own share they open
nothing); the drawer adds its own and has the tile (``Holder.open``). A share that fails its
proof abandons the draw and names its holder; a deadline that passes names the holders still
silent, whom the table then treats as departed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lanomino.blind.deck import Deck
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context
from lanomino.blind.rounds import BlindFault, Share, check_share
from lanomino.engine.errors import seat_name


@dataclass(slots=True)
class DrawRound:
    """The shares of one draw (see the module docstring)."""

    ctx: Context
    deck: Deck
    position: int
    drawer: int
    deadline: float | None = None
    shares: dict[int, Share] = field(default_factory=dict)
    culprit: int | None = None
    unanswered: tuple[int, ...] = ()

    @classmethod
    def started(cls, ctx: Context, deck: Deck, position: int, drawer: int, now: float,
                answer_s: float | None) -> DrawRound:
        return cls(ctx, deck, position, drawer, None if answer_s is None else now + answer_s)

    @property
    def over(self) -> bool:
        return self.culprit is not None or bool(self.unanswered)

    def missing(self) -> tuple[int, ...]:
        """The holders whose share has not come yet."""
        return tuple(s for s in self.ctx.holders if s != self.drawer and s not in self.shares)

    @property
    def done(self) -> bool:
        return not self.over and not self.missing()

    def receive(self, share: Share) -> None:
        """A holder's share of the drawn position.

        Raises: BlindFault naming the holder when its proof fails (the draw is abandoned);
        BlindError for a share this draw does not wait for (not counted, nobody named).
        """
        if self.over:
            raise BlindError("this draw is over")
        if share.position != self.position:
            raise BlindError(f"a share of position {share.position} came for the draw of "
                             f"{self.position}")
        if share.seat not in self.missing():
            raise BlindError(f"this draw does not wait for a share from {seat_name(share.seat)}")
        try:
            check_share(self.ctx, self.deck, share)
        except BlindFault as fault:
            self.culprit = fault.seat
            raise
        self.shares[share.seat] = share

    def expire(self, now: float) -> bool:
        """Abandon the draw if its deadline has passed with shares missing; True if it did."""
        if self.over or self.done or self.deadline is None or now < self.deadline:
            return False
        self.unanswered = self.missing()
        return True
