"""One holder's side of the locked deck: its key, its shuffle, and the shares it gives out.

A ``Holder`` is made from two 32-byte seeds that the caller draws (``fair/entropy.py`` in the
runtime, fixed bytes in tests): one for the secret key, one for the shuffle. It releases shares
only through its ``ShareGate`` (``gate.py``); a request the gate refuses returns the ``Refusal``,
which names who asked and why.
"""

from __future__ import annotations

from collections.abc import Iterable

from lanomino.blind.deck import Deck, aggregate_key, deck_digest
from lanomino.blind.gate import DealLayout, Refusal, ShareGate
from lanomino.blind.group import BlindError, Point
from lanomino.blind.hashing import Context, Drbg
from lanomino.blind.key_escrow import (
    open_sub_share,
    seal_sub_share,
    split_key,
    standing_context,
    standing_secret,
)
from lanomino.blind.proofs import prove_key, prove_share
from lanomino.blind.rounds import KeyAnnouncement, Reveal, Share, ShuffleTurn, open_own
from lanomino.blind.shuffle_proof import shuffle_with_argument
from lanomino.engine.errors import seat_name


class Holder:
    """A seat that holds a key of the deck (see the module docstring)."""

    def __init__(self, ctx: Context, seat: int, layout: DealLayout, key_seed: bytes,
                 shuffle_seed: bytes) -> None:
        if seat not in ctx.holders:
            raise BlindError(f"{seat_name(seat)} is not a holder of this deal")
        self.seat = seat
        self.ctx = ctx  # the key set is bound in by ``keys_agreed``
        self.gate = ShareGate(seat, layout)
        self._secret = Drbg(key_seed, b"key").nonzero_scalar()
        self._seed = shuffle_seed
        self._deck: Deck = ()
        # owner -> (its commitments, the sub-share it escrowed here), ``--escrow`` tables
        self.escrowed: dict[int, tuple[tuple[Point, ...], int]] = {}
        self._standing: tuple[Context, int] | None = None  # after a loss (``stand_in``)
        self._late: set[int] = set()  # the positions drawn since then
        self._again: tuple[int, Context] | None = None  # a blind re-shuffle: (base, context)
        key, proof = prove_key(ctx, seat, self._secret)  # before the key set exists
        self._announcement = KeyAnnouncement(seat, key, proof)

    def announce(self) -> KeyAnnouncement:
        """``blind.key``: the key and its Schnorr proof (under the context before the key set)."""
        return self._announcement

    def keys_agreed(self, ctx: Context) -> None:
        """The checked key set (``rounds.keyed_context``); it must hold this holder's key."""
        if ctx.key_of(self.seat) != self.announce().key:
            raise BlindError(f"the key set does not hold {seat_name(self.seat)}'s key")
        self.ctx = ctx

    def shuffle(self, deck: Deck) -> ShuffleTurn:
        """``blind.shuffle``: this holder's turn on the checked deck before it."""
        out, argument = shuffle_with_argument(self.ctx, self.seat, deck,
                                              aggregate_key(self.ctx.keys), self._seed)
        return ShuffleTurn(self.seat, deck_digest(deck), out, argument)

    def deck_agreed(self, deck: Deck) -> None:
        """The final deck, every shuffle checked: the one the shares open."""
        self._deck = deck

    def keyed(self, position: int) -> tuple[Context, int]:
        """The context and key ``position`` is shared under: the standing ones for a position
        drawn after a loss, else the deal's."""
        if self._again is not None and position >= self._again[0]:
            return self._again[1], self._secret
        if self._standing is not None and position in self._late:
            return self._standing
        return self.ctx, self._secret

    def _share(self, position: int) -> Share:
        ctx, secret = self.keyed(position)
        point, proof = prove_share(ctx, self.seat, position, secret, self._deck[position].c1)
        return Share(self.seat, position, point, proof)

    def deal_shares(self, asker: str) -> tuple[Share, ...] | Refusal:
        """The shares of every position dealt to another seat: once."""
        granted = self.gate.deal(asker)
        if isinstance(granted, Refusal):
            return granted
        return tuple(self._share(p) for p in granted)

    def drew(self, seat: int) -> int:
        """The signed log says ``seat`` draws now: the position it gets."""
        position = self.gate.drew(seat)
        if self._standing is not None:
            self._late.add(position)
        return position

    def draw_share(self, asker: str, position: int, seat: int) -> Share | Refusal:
        """This holder's share of ``position`` for ``seat``'s draw, if the gate allows it."""
        granted = self.gate.draw(asker, position, seat)
        return granted if isinstance(granted, Refusal) else self._share(granted)

    def open(self, position: int, others: Iterable[Share]) -> int:
        """The tile at one of this holder's positions (or its host-side bots'), from the
        others' shares and its key."""
        owner = self.gate.owner(position)
        if owner is None or self.gate.layout.openers[owner] != self.seat:
            raise BlindError(f"position {position} is not {seat_name(self.seat)}'s to open")
        ctx, secret = self.keyed(position)
        return open_own(ctx, self._deck, position, secret, others)

    def play(self, position: int) -> Share | Refusal:
        """This holder's own share of ``position`` (its own or a bot's it opens), shown with a
        play of that tile: once."""
        granted = self.gate.show(position)
        return granted if isinstance(granted, Refusal) else self._share(granted)

    def reshuffled(self, ctx: Context, deck: Deck, order: tuple[int, ...],
                   redrawn: tuple[int, int] | None) -> None:
        """A blind re-shuffle among the survivors (``ctx``, their keys) locked the tiles nobody
        held again as ``deck``, whose slots follow the deal's positions; ``order`` and
        ``redrawn`` as ``ShareGate.reshuffled``."""
        self._again = len(self._deck), ctx
        self._deck = (*self._deck, *deck)
        self.gate.reshuffled(order, redrawn)

    def show_again(self, position: int) -> Share | Refusal:
        """The share of one of its positions shown already with a play the host refused before
        it applied (a blind re-shuffle began meanwhile): the same public share, for the play
        made again."""
        if not self.gate.shown(position):
            return Refusal(seat_name(self.seat), position, self.seat, "it was never shown")
        return self._share(position)

    def reveal(self) -> Reveal:
        """``blind.reveal`` at the hand's end: the secret key and the shuffle seed."""
        return Reveal(self.seat, self._secret, self._seed)

    # ----- escrow (``--escrow`` tables: key_escrow.py) ---------------------------------------

    def escrow(self, seed: bytes) -> tuple[tuple[Point, ...], dict[int, bytes]]:
        """This holder's key escrowed with every other holder, once the keys are agreed: the
        Feldman commitments and each sub-share sealed to its receiver (by seat)."""
        others = [s for s in self.ctx.holders if s != self.seat]
        escrow = split_key(self.seat, self._secret, others, seed)
        return escrow.commitments, {j: seal_sub_share(self.ctx, self.seat, j, s, seed)
                                    for j, s in escrow.sub_shares.items()}

    def keep_escrow(self, owner: int, commitments: tuple[Point, ...], sealed: bytes) -> None:
        """``owner``'s sub-share sealed to this holder, opened and checked, kept for the hand.

        Raises: BlindFault naming the owner."""
        if owner == self.seat or owner in self.escrowed:
            raise BlindError(f"{seat_name(owner)}'s escrow is not awaited here")
        sub_share = open_sub_share(self.ctx, owner, self.seat, self._secret, commitments,
                                   sealed)
        self.escrowed[owner] = (commitments, sub_share)

    def stand_in(self, owner: int) -> Context:
        """``owner`` is gone: every position drawn from now on is shared under the standing
        context (``key_escrow.standing_context``), whose keys lock the same deck without it.
        Raises: BlindError when this holder keeps no escrow of ``owner``."""
        if owner not in self.escrowed or self._standing is not None:
            raise BlindError(f"no escrow of {seat_name(owner)} stands in here")
        commitments, sub_share = self.escrowed[owner]
        ctx = standing_context(self.ctx, owner, commitments)
        self._standing = ctx, standing_secret(self.ctx, owner, self.seat, self._secret,
                                              sub_share)
        return ctx

    def draw_again(self, position: int) -> None:
        """The draw of ``position`` was waiting for the lost holder's share: it runs again under
        the standing context (its share may go once more, ``ShareGate.draw_again``)."""
        self._late.add(position)
        self.gate.draw_again(position)

    def escrow_reveal(self, owner: int) -> int:
        """At the hand's end (keys are revealed then): the sub-share ``owner`` escrowed here."""
        return self.escrowed[owner][1]
