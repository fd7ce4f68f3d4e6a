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
from lanomino.blind.group import BlindError
from lanomino.blind.hashing import Context, Drbg
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

    def _share(self, position: int) -> Share:
        point, proof = prove_share(self.ctx, self.seat, position, self._secret,
                                   self._deck[position].c1)
        return Share(self.seat, position, point, proof)

    def deal_shares(self, asker: str) -> tuple[Share, ...] | Refusal:
        """The shares of every position dealt to another seat: once."""
        granted = self.gate.deal(asker)
        if isinstance(granted, Refusal):
            return granted
        return tuple(self._share(p) for p in granted)

    def drew(self, seat: int) -> int:
        """The signed log says ``seat`` draws now: the position it gets."""
        return self.gate.drew(seat)

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
        return open_own(self.ctx, self._deck, position, self._secret, others)

    def play(self, position: int) -> Share | Refusal:
        """This holder's own share of ``position`` (its own or a bot's it opens), shown with a
        play of that tile: once."""
        granted = self.gate.show(position)
        return granted if isinstance(granted, Refusal) else self._share(granted)

    def reveal(self) -> Reveal:
        """``blind.reveal`` at the hand's end: the secret key and the shuffle seed."""
        return Reveal(self.seat, self._secret, self._seed)
