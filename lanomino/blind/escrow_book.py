"""A locked hand's escrow at an ``--escrow`` table, as one side follows it. Pure.

Once the keys are agreed, every holder sends its key escrowed with all the other holders
(``key_escrow.py``: the Feldman commitments, and each sub-share sealed to its receiver), before
its shuffle; every side checks the commitments (they open with the holder's key and need all the
others), and a holder opens and checks the sub-share sealed to it (``Holder.keep_escrow``).

When a holder leaves the hand (the host's resignation of it, ``by`` ``left``), every side stands
in for its key (``lose``): draws from then on are shared under the standing context, which the
survivors alone hold and which locks the same deck (``key_escrow.standing_context``). At the
hand's end each survivor gives the host the sub-share it kept (``give``), and the host rebuilds
the lost key (``rebuilt``), each sub-share checked against its commitments; the rebuilt reveal
has no shuffle seed, so the hand's record keeps the lost holder's shuffle with its argument.
One loss a hand: a second holder leaving the same hand still ends the match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lanomino.blind.group import BlindError, Point, base_mul
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.key_escrow import rebuilt_reveal, share_key, standing_context
from lanomino.blind.rounds import BlindFault, Reveal
from lanomino.engine.errors import seat_name


@dataclass(slots=True)
class EscrowBook:
    """The escrows of one locked hand and its loss, if any (see the module docstring)."""

    commitments: dict[int, tuple[Point, ...]] = field(default_factory=dict)  # by owner
    lost: int | None = None
    standing: Context | None = None  # the survivors' context after the loss
    late: set[int] = field(default_factory=set)  # the positions drawn since the loss
    given: dict[int, int] = field(default_factory=dict)  # survivor -> its sub-share of the lost

    def receive(self, ctx: Context, holder: Holder | None, owner: int,
                commitments: tuple[Point, ...], sealed: Mapping[int, bytes]) -> None:
        """``owner``'s escrow: its commitments checked; the sub-share sealed to this side's
        holder opened and checked. Raises: BlindFault naming the owner; BlindError when it is
        not awaited."""
        if owner not in ctx.holders or owner in self.commitments:
            raise BlindError(f"{seat_name(owner)}'s escrow is not awaited")
        others = [s for s in ctx.holders if s != owner]
        if not commitments or commitments[0] != ctx.key_of(owner):
            raise BlindFault(owner, "escrowed commitments that are not for its key")
        if len(commitments) != len(others) or sorted(sealed) != others:
            raise BlindFault(owner, "did not escrow its key with all the other holders")
        if holder is not None and holder.seat != owner:
            holder.keep_escrow(owner, commitments, sealed[holder.seat])
        self.commitments[owner] = commitments

    def lose(self, ctx: Context, holder: Holder | None, owner: int) -> None:
        """``owner`` left the hand: the survivors stand in for its key from now on.
        Raises: BlindError when its escrow never came or a holder was lost already."""
        if self.lost is not None or owner not in self.commitments:
            raise BlindError(f"nobody can stand in for {seat_name(owner)}'s key")
        self.lost = owner
        self.standing = standing_context(ctx, owner, self.commitments[owner])
        if holder is not None and holder.seat != owner:
            holder.stand_in(owner)

    def context_of(self, ctx: Context, position: int) -> Context:
        """The context ``position``'s draw shares are under."""
        if self.standing is not None and position in self.late:
            return self.standing
        return ctx

    def give(self, ctx: Context, seat: int, owner: int, sub_share: int) -> Reveal | None:
        """A survivor's sub-share of the lost key at the hand's end; the rebuilt reveal once
        every survivor's is in. Raises: BlindFault naming a survivor whose sub-share does not
        fit; BlindError for one not awaited."""
        if owner != self.lost or seat == owner or seat not in ctx.holders or seat in self.given:
            raise BlindError(f"a sub-share from {seat_name(seat)} is not awaited")
        if base_mul(sub_share) != share_key(self.commitments[owner], seat):
            raise BlindFault(seat, f"gave a sub-share of {seat_name(owner)}'s key that does not "
                             "fit its commitments")
        self.given[seat] = sub_share
        if len(self.given) < len(ctx.holders) - 1:
            return None
        return rebuilt_reveal(ctx, owner, self.commitments[owner], self.given)
