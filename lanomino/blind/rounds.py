"""The messages of the locked deck as values, and the checks every seat runs on arrival.

Each check either returns what the message establishes or raises ``BlindFault`` naming the seat
whose message is wrong: a key without a valid proof, a shuffle whose input is not the deck before
it or whose argument fails, a share whose proof fails, a play whose shares open another tile, a
key or seed revealed at the hand's end that does not match what the seat sent during the hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lanomino.blind.deck import (
    Deck,
    aggregate_key,
    deck_bytes,
    deck_digest,
    opened,
    parse_deck,
    share_of,
    tile_of,
)
from lanomino.blind.group import (
    IDENTITY,
    POINT_BYTES,
    BlindError,
    Point,
    base_mul,
    parse_point,
    parse_scalar,
    scalar_bytes,
)
from lanomino.blind.hashing import SEED_BYTES, Context
from lanomino.blind.proofs import EqualLogProof, KeyProof, key_proof_holds, share_proof_holds
from lanomino.blind.shuffle_proof import ShuffleArgument, check_shuffle_proof, gen_shuffle
from lanomino.engine.errors import seat_name


class BlindFault(BlindError):
    """A seat's message fails its check; ``seat`` is the signer to blame."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(f"{seat_name(seat)}: {message}")
        self.seat = seat


def _sized(data: bytes, size: int, what: str) -> bytes:
    if len(data) != size:
        raise BlindError(f"{what} is {size} bytes, not {len(data)}")
    return data


@dataclass(frozen=True, slots=True)
class KeyAnnouncement:
    """``blind.key``: a holder's key Xᵢ with its Schnorr proof. Bytes: seat (1), X, proof."""

    seat: int
    key: Point
    proof: KeyProof

    def to_bytes(self) -> bytes:
        return bytes([self.seat]) + self.key + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> KeyAnnouncement:
        """Raises: BlindError."""
        _sized(data, 97, "a key announcement")
        return cls(data[0], parse_point(data[1:33]), KeyProof.from_bytes(data[33:]))


@dataclass(frozen=True, slots=True)
class ShuffleTurn:
    """``blind.shuffle``: the input deck's digest, the output deck and the argument."""

    seat: int
    source: bytes  # deck_digest of the input
    deck: Deck
    argument: ShuffleArgument

    def to_bytes(self) -> bytes:
        """Seat (1), the input's digest (32), the output deck, the argument."""
        return bytes([self.seat]) + self.source + deck_bytes(self.deck) + self.argument.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, tiles: int) -> ShuffleTurn:
        """Raises: BlindError."""
        if len(data) < 33 + 2 * POINT_BYTES * tiles:
            raise BlindError("a shuffle turn is too short")
        end = 33 + 2 * POINT_BYTES * tiles
        return cls(data[0], data[1:33], parse_deck(data[33:end], tiles),
                   ShuffleArgument.from_bytes(data[end:], tiles))


@dataclass(frozen=True, slots=True)
class Share:
    """A holder's decryption share of one position with its proof of equal logarithms."""

    seat: int
    position: int
    point: Point
    proof: EqualLogProof

    def to_bytes(self) -> bytes:
        """Seat (1), position (1), D, proof: 130 bytes."""
        return bytes([self.seat, self.position]) + self.point + self.proof.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> Share:
        """Raises: BlindError."""
        _sized(data, 130, "a share")
        return cls(data[0], data[1], parse_point(data[2:34]), EqualLogProof.from_bytes(data[34:]))


@dataclass(frozen=True, slots=True)
class Reveal:
    """``blind.reveal`` at the hand's end: the holder's secret key and its shuffle seed (None
    when the seed was lost: its shuffle is then checked by its stored argument)."""

    seat: int
    secret: int
    seed: bytes | None

    def to_bytes(self) -> bytes:
        """Seat (1), x (32), then the shuffle seed (32) unless it was lost."""
        return bytes([self.seat]) + scalar_bytes(self.secret) + (self.seed or b"")

    @classmethod
    def from_bytes(cls, data: bytes) -> Reveal:
        """Raises: BlindError."""
        if len(data) not in (33, 33 + SEED_BYTES):
            raise BlindError(f"a reveal is 33 or {33 + SEED_BYTES} bytes, not {len(data)}")
        return cls(data[0], parse_scalar(data[1:33]), data[33:] or None)


def shares_to_bytes(shares: Iterable[Share]) -> bytes:
    return b"".join(s.to_bytes() for s in shares)


def shares_from_bytes(data: bytes) -> tuple[Share, ...]:
    """A batch of shares. Raises: BlindError."""
    if len(data) % 130:
        raise BlindError("a batch of shares is a whole number of 130-byte shares")
    return tuple(Share.from_bytes(data[i : i + 130]) for i in range(0, len(data), 130))


def check_key(ctx: Context, announcement: KeyAnnouncement) -> Point:
    """The key, once its proof holds under ``ctx`` (the context before the key set).

    Raises: BlindFault naming the seat.
    """
    if announcement.seat not in ctx.holders:
        raise BlindFault(announcement.seat, "is not a holder of this deal")
    if announcement.key == IDENTITY:  # its "proof" would need no secret at all
        raise BlindFault(announcement.seat, "sent the identity as its key")
    if not key_proof_holds(ctx, announcement.seat, announcement.key, announcement.proof):
        raise BlindFault(announcement.seat, "its key proof does not hold")
    return announcement.key


def keyed_context(ctx: Context, announcements: Mapping[int, KeyAnnouncement]) -> Context:
    """The context with the key set bound in, every holder's key proof checked.

    Raises: BlindFault naming a seat whose key is missing or whose proof fails.
    """
    keys = []
    for seat in ctx.holders:
        if seat not in announcements:
            raise BlindFault(seat, "sent no key")
        keys.append(check_key(ctx, announcements[seat]))
    return ctx.with_keys(keys)


def check_shuffle(ctx: Context, turn: ShuffleTurn, before: Deck) -> Deck:
    """The output deck, once the turn starts from ``before`` and its argument holds.

    Raises: BlindFault naming the shuffler.
    """
    if turn.source != deck_digest(before):
        raise BlindFault(turn.seat, "shuffled a deck other than the one before its turn")
    if len(turn.deck) != len(before):
        raise BlindFault(turn.seat, f"returned {len(turn.deck)} tiles for {len(before)}")
    key = aggregate_key(ctx.keys)
    if not check_shuffle_proof(ctx, turn.seat, turn.argument, before, turn.deck, key):
        raise BlindFault(turn.seat, "its shuffle argument does not hold")
    return turn.deck


def check_share(ctx: Context, deck: Deck, share: Share) -> Point:
    """The share's point, once its proof holds for that position of ``deck``.

    Raises: BlindFault naming the holder.
    """
    if not 0 <= share.position < len(deck):
        raise BlindFault(share.seat, f"sent a share of position {share.position}, not in the deck")
    try:
        key = ctx.key_of(share.seat)
    except BlindError:
        raise BlindFault(share.seat, "sent a share but holds no key") from None
    c1 = deck[share.position].c1
    if not share_proof_holds(ctx, share.seat, share.position, key, c1, share.point, share.proof):
        raise BlindFault(share.seat, f"its share of position {share.position} does not hold")
    return share.point


def open_position(ctx: Context, deck: Deck, position: int, shares: Iterable[Share],
                  checked: Iterable[Share] = ()) -> int:
    """The tile index at ``position`` from one share per holder: ``shares`` are checked here,
    ``checked`` were checked on arrival already (a table keeps the deal's and draws' public
    shares it checked, blind/table_hand.py).

    Raises: BlindFault naming a holder whose share fails; BlindError when a holder's share is
    missing or the opened point is no tile (which checked shares cannot produce).
    """
    by_seat: dict[int, Point] = {}
    for share, check in [*((s, True) for s in shares), *((s, False) for s in checked)]:
        if share.position != position:
            raise BlindFault(share.seat, f"sent a share of {share.position} for {position}")
        by_seat[share.seat] = check_share(ctx, deck, share) if check else share.point
    missing = [s for s in ctx.holders if s not in by_seat]
    if missing:
        raise BlindError(f"position {position} lacks the shares of "
                         + ", ".join(seat_name(s) for s in missing))
    return tile_of(opened(deck[position], by_seat.values()), ctx.tiles)


def open_own(ctx: Context, deck: Deck, position: int, secret: int,
             others: Iterable[Share]) -> int:
    """A holder opens its own position: one checked share from each other holder plus its own,
    kept local. Raises: BlindFault for a share that fails; BlindError for a missing one."""
    mine = base_mul(secret)
    by_seat = {s.seat: s for s in others if s.position == position}
    wanted = [seat for seat in ctx.holders if ctx.key_of(seat) != mine]
    if sorted(by_seat) != wanted:
        raise BlindError(f"position {position} needs one share from each of the other holders")
    points = [check_share(ctx, deck, s) for s in by_seat.values()]
    return tile_of(opened(deck[position], [*points, share_of(secret, deck[position])]),
                   ctx.tiles)


def check_play(ctx: Context, deck: Deck, seat: int, position: int, tile: int, own: Share,
               public: Iterable[Share], owner: int | None, opener: int | None = None,
               checked: bool = False) -> None:
    """A play of ``tile`` from ``position`` by ``seat``: the position is the seat's (``owner``,
    from the deal and the draws in the log), and the share of its ``opener`` (the seat itself,
    or the host for a host-side bot) ``own``, with the public shares of the other holders (from
    the deal or the draw), opens exactly that tile. ``checked``: the public shares were checked
    on arrival (only ``own`` is checked here).

    Raises: BlindFault naming the seat (or a holder whose public share fails).
    """
    opener = seat if opener is None else opener
    bot = "" if opener == seat else f"for {seat_name(seat)}, "  # a host-side bot: the host signs
    if owner != seat:
        whose = "nobody's yet" if owner is None else f"{seat_name(owner)}'s"
        raise BlindFault(opener, f"{bot}played from position {position}, which is {whose}")
    if own.seat != opener or own.position != position:
        raise BlindFault(opener, f"{bot}played from position {position} without its own share "
                         "of it")
    others = [s for s in public if s.seat != opener]
    if sorted(s.seat for s in others) != [s for s in ctx.holders if s != opener]:
        raise BlindFault(opener, f"{bot}played from position {position}, which is not its own")
    fresh, kept = ([own], others) if checked else ([own, *others], [])
    if open_position(ctx, deck, position, fresh, kept) != tile:
        raise BlindFault(opener, f"{bot}position {position} does not hold the tile it played")


def check_reveal(ctx: Context, reveal: Reveal, before: Deck, turn: ShuffleTurn) -> None:
    """At the hand's end: the revealed secret is the seat's key, and its seed reproduces the
    deck it sent from the deck before its turn.

    Raises: BlindFault naming the seat.
    """
    if base_mul(reveal.secret) != ctx.key_of(reveal.seat):
        raise BlindFault(reveal.seat, "revealed a secret that is not its key")
    if reveal.seed is None:
        raise BlindFault(reveal.seat, "withheld its shuffle seed")
    if gen_shuffle(before, aggregate_key(ctx.keys), reveal.seed).deck != turn.deck:
        raise BlindFault(reveal.seat, "its seed does not reproduce the deck it sent")


def open_all(ctx: Context, deck: Deck, secrets: Mapping[int, int]) -> tuple[int, ...]:
    """Every position's tile, from every holder's revealed secret; each tile exactly once.

    Raises: BlindError when a secret is missing or the deck is not the set.
    """
    if set(secrets) != set(ctx.holders):
        raise BlindError("opening the deck needs every holder's secret")
    total = sum(secrets.values())
    tiles = tuple(tile_of(opened(c, [share_of(total, c)]), ctx.tiles) for c in deck)
    if sorted(tiles) != list(range(ctx.tiles)):
        raise BlindError("the deck does not hold each tile of the set once")
    return tiles


def shuffle_chain(ctx: Context, start: Deck, turns: Sequence[ShuffleTurn]) -> Deck:
    """The final deck after every holder's turn in seat order, each checked."""
    if [t.seat for t in turns] != list(ctx.holders):
        raise BlindError("each holder shuffles once, in seat order")
    deck = start
    for turn in turns:
        deck = check_shuffle(ctx, turn, deck)
    return deck
