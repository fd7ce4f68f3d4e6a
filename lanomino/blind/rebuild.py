"""A locked hand rebuilt from what the table said in public and this side's own key. Pure.

A seat that comes back on a new connection (its program restarted) has lost the hand it
followed, but not its key: its two seeds come from one secret it kept on disk before its key
went out (``seeds_from``; ``runtime/secrets_file.py``). The host's snapshot (``net/host/
blind_snapshot.py``) hands it the deal attempt in play as the host relayed it: every holder's
signed key, escrow, shuffle, deal shares, "not me", play share, draw share, resignation and
reveal, each with the moves logged before it, and the hand's signed moves. ``Rebuild`` feeds
them to a fresh ``TableHand`` in that order, through the very checks a live hand runs (every
proof on arrival: a false one raises ``BlindFault``), so this side ends with the hand it would
hold had it never left: its own tiles opened from the public shares and its key (the ones it was
dealt and drew, less those it played), the public view, the draw in progress. A statement of its
own marks its holder's gate as spent (its deal shares, a play's share, a draw's share): a share
goes out once, whoever asks again. A watcher (no holder) rebuilds the public hand the same way.

What is not rebuilt: a hand whose tiles nobody holds were re-shuffled blind (the host sends no
snapshot of it), and a key this side no longer has (``LostKey``: another key in the key set
than the one its seeds give: it cannot play on, and leaves the match).
"""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.blind import table_deal as deal
from lanomino.blind import table_draws as draws
from lanomino.blind import table_leave
from lanomino.blind import table_opening as opening
from lanomino.blind.deal_round import Step
from lanomino.blind.group import BlindError, Point
from lanomino.blind.rounds import KeyAnnouncement, Reveal, Share, ShuffleTurn
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Action, Draw, HandStarted, Play, Tile
from lanomino.engine.errors import seat_name
from lanomino.engine.tiles import TILES


def seeds_from(secret: bytes) -> tuple[bytes, bytes]:
    """A holder's key seed and shuffle seed: the two halves of the one secret it keeps on disk
    (each drawn on its own; the shuffle seed is revealed at the hand's end, the key seed never).

    Raises: BlindError for a secret of another length."""
    if len(secret) != 64:
        raise BlindError(f"a holder's kept secret is 64 bytes, not {len(secret)}")
    return secret[:32], secret[32:]


class LostKey(BlindError):
    """This side's seeds do not give the key it announced: it cannot rebuild its hand."""


class Rebuild:
    """``hand`` (just started, nothing fed) rebuilt statement by statement, moves between them
    (see the module docstring). Every method raises what the live step raises: ``BlindFault``
    naming the signer, ``BlindError`` or ``IllegalActionError`` for a statement out of place."""

    def __init__(self, hand: TableHand, now: float) -> None:
        self.hand, self.now = hand, now
        self.started: HandStarted | None = None
        self.drawn: list[Tile] = []  # the tiles this side's own draws opened, in order

    @property
    def me(self) -> int | None:
        return None if self.hand.holder is None else self.hand.holder.seat

    def key(self, announcement: KeyAnnouncement) -> None:
        h = self.hand.holder
        if h is not None and announcement.seat == h.seat and announcement.key != h.announce().key:
            raise LostKey(f"{seat_name(h.seat)}'s key in the deal is not the one its seeds give")
        deal.on_key(self.hand, announcement, self.now)

    def escrow(self, seat: int, commitments: tuple[Point, ...], sealed: Sequence[bytes]) -> None:
        table_leave.on_escrow(self.hand, seat, commitments, sealed)

    def shuffle(self, turn: ShuffleTurn) -> None:
        deal.on_shuffle(self.hand, turn, self.now)

    def shares(self, seat: int, shares: Sequence[Share]) -> None:
        hand = self.hand
        if seat == self.me and hand.holder is not None and hand.deal.step is Step.SHARES:
            hand.holder.deal_shares("the host")  # (they went out: the gate gives none again)
        deal.on_shares(hand, seat, shares, self.now)

    def not_me(self, seat: int, tile: Tile) -> None:
        opening.on_not_me(self.hand, seat, tile, self.now)

    def play(self, seat: int, index: int, share: Share, play: Play, away: bool) -> None:
        """A play's share: the opening's lead (before the hand began), or a coming move's."""
        hand = self.hand
        if hand.view is None:
            opening.on_lead(hand, seat, share, play)
        else:
            hand.on_proof(index, share, play, away)
        if hand.holder is not None and hand.layout.openers[seat] == self.me:
            hand.holder.play(share.position)  # (shown: never again but for this same play)

    def begin(self) -> HandStarted | None:
        """The hand starts once its opening is known, as the host starts it; its HandStarted
        (None: not yet, or started already)."""
        hand = self.hand
        if hand.view is not None or hand.deal.step is not Step.DONE:
            return None
        found = opening.opening(hand)
        if found is None:
            found = None if hand.lead is None else hand.lead.leader
        if found is None:
            return None
        self.started = hand.begin(*found)
        return self.started

    def move(self, seat: int, action: Action, away: bool) -> None:
        """A move of the signed log: applied to the public view; a draw opens its round."""
        hand = self.hand
        self.begin()
        hand.apply(seat, action, self.now, away)
        if isinstance(action, Draw):
            hand.start_draw(len(hand.moves) - 1, self.now, None)

    def draw_share(self, index: int, share: Share) -> None:
        """A share of the draw that was move ``index``; this side's own marks its gate."""
        hand = self.hand
        move = hand.moves[index] if 0 <= index < len(hand.moves) else None
        if move is None or move.position is None or move.position != share.position:
            raise BlindError(f"a share of position {share.position} for move {index + 1}, "
                             "which drew no such position")
        if share.seat == self.me and hand.draw is not None:
            draws.draw_share(hand, "the host", index, share.position, move.seat)
        tile = draws.on_draw_share(hand, share)
        if tile is not None:
            self.drawn.append(TILES[tile])

    def resign(self, seat: int, at: int, by: str) -> None:
        self.hand.on_resign(seat, at, by)

    def reveal(self, reveal: Reveal) -> bool:
        """A holder's key at the hand's end; True once every key is in."""
        return self.hand.on_reveal(reveal)

    def own_tiles(self) -> tuple[Tile, ...]:
        """The tiles this side holds now (none for a watcher)."""
        me = self.me
        return () if me is None else self.hand.tiles_of(me)
