"""The holder's rule: when a holder may release a decryption share, as a pure object.

A share of a position is harmless alone, but with every other holder's share it opens the tile.
So the whole defence against a nosy host is this rule, which each holder applies to every request
(design study §4.4):

- at the deal, a holder releases its share of each position dealt to another seat, once;
- during the hand, it releases its share of a boneyard position only when the signed log has
  just given that position to that seat (a draw), once;
- its own positions it opens only for itself; it shows its share of one only with a play of
  that tile, once;
- anything else is refused, and the refusal names who asked, for which position and why.

The gate learns the log from ``deal()`` and ``drew(seat)``, called after the caller has checked
the signed entries; it never trusts a position named in a request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lanomino.blind.group import BlindError
from lanomino.engine.dealing import split_deck
from lanomino.engine.errors import seat_name
from lanomino.engine.tiles import make_set


@dataclass(frozen=True, slots=True)
class DealLayout:
    """Which seat each dealt position goes to, the boneyard's positions in draw order, and which
    holder opens each seat's tiles: the seat itself, or for a host-side bot (not a holder) the
    host, which then sees that bot's tiles."""

    dealt: tuple[tuple[int, ...], ...]  # positions per seat (empty for a seat out of the match)
    boneyard: tuple[int, ...]
    openers: tuple[int, ...] = ()  # per seat; () means every seat opens its own

    def __post_init__(self) -> None:
        if not self.openers:
            object.__setattr__(self, "openers", tuple(range(len(self.dealt))))
        if len(self.openers) != len(self.dealt):
            raise BlindError("one opener per seat")

    @classmethod
    def for_deal(cls, tiles: int, active: Sequence[bool], hand_size: int,
                 openers: Sequence[int] = ()) -> DealLayout:
        """The engine's deal rule (``split_deck``) applied to positions 0..tiles−1; ``openers``
        names the holder that opens each seat's tiles (default: each seat its own)."""
        top = {28: 6, 55: 9, 91: 12}.get(tiles)
        if top is None:
            raise BlindError(f"no domino set has {tiles} tiles")
        # A set's tiles in canonical order carry their own position as ``index``: split the set
        # and read the indices, so the deal rule stays written once, in the engine.
        hands, boneyard = split_deck(make_set(top), active, hand_size)
        return cls(tuple(tuple(t.index for t in hand) for hand in hands),
                   tuple(t.index for t in boneyard), tuple(openers))

    def seat_of(self, position: int) -> int | None:
        """The seat a position was dealt to, or None for the boneyard."""
        for seat, positions in enumerate(self.dealt):
            if position in positions:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request the gate turned down; ``str`` says who asked, for what, and why."""

    asker: str
    position: int
    seat: int
    reason: str

    def __str__(self) -> str:
        return (f"refused {self.asker}: a share of position {self.position} for "
                f"{seat_name(self.seat)}: {self.reason}")


@dataclass(slots=True)
class ShareGate:
    """One holder's record of what it may release and what it has released."""

    me: int
    layout: DealLayout
    _dealt_released: bool = False
    _drawn: dict[int, int] = field(default_factory=dict)  # boneyard position -> drawing seat
    _released: set[int] = field(default_factory=set)
    _shown: set[int] = field(default_factory=set)  # own positions shown with a play
    _order: tuple[int, ...] | None = None  # the draw order after a blind re-shuffle

    @property
    def boneyard(self) -> tuple[int, ...]:
        """The boneyard's positions in draw order (after a blind re-shuffle: those drawn
        before it, then the new deck's)."""
        return self.layout.boneyard if self._order is None else self._order

    def drew(self, seat: int) -> int:
        """The signed log says ``seat`` draws: the position it gets (the boneyard's next)."""
        if len(self._drawn) >= len(self.boneyard):
            raise BlindError(f"{seat_name(seat)} cannot draw: the boneyard is empty")
        position = self.boneyard[len(self._drawn)]
        self._drawn[position] = seat
        return position

    def reshuffled(self, order: tuple[int, ...], redrawn: tuple[int, int] | None) -> None:
        """A blind re-shuffle (``unheld_round.py``) made ``order`` the draw order; ``redrawn``:
        a draw the loss cut short, (its old position, its new one), given again to its seat."""
        self._order = order
        if redrawn is not None:
            self._drawn[redrawn[1]] = self._drawn.pop(redrawn[0])

    def owner(self, position: int) -> int | None:
        """The seat that holds ``position`` so far: dealt, or drawn in the log; else None."""
        dealt = self.layout.seat_of(position)
        return dealt if dealt is not None else self._drawn.get(position)

    def deal(self, asker: str) -> tuple[int, ...] | Refusal:
        """The positions whose shares go out at the deal: every one dealt to another seat."""
        if self._dealt_released:
            return Refusal(asker, -1, -1, "the deal's shares were already released")
        self._dealt_released = True
        return tuple(p for seat, positions in enumerate(self.layout.dealt)
                     if self.layout.openers[seat] != self.me
                     for p in positions)

    def draw(self, asker: str, position: int, seat: int) -> int | Refusal:
        """Grant (the position) or refuse a share of a drawn ``position`` for ``seat``."""
        holder = self.owner(position)
        if not 0 <= seat < len(self.layout.openers):
            return Refusal(asker, position, seat, "no such seat")
        if self.layout.openers[seat] == self.me:
            return Refusal(asker, position, seat, "a holder opens its own tiles (and its bots') "
                           "itself")
        dealt = self.layout.seat_of(position)
        if dealt is not None:
            return Refusal(asker, position, seat, f"it was dealt to {seat_name(dealt)}")
        if position not in self.boneyard:
            return Refusal(asker, position, seat, "no such position")
        if holder is None:
            return Refusal(asker, position, seat, "nobody has drawn it")
        if holder != seat:
            return Refusal(asker, position, seat, f"the log gives it to {seat_name(holder)}")
        if position in self._released:
            return Refusal(asker, position, seat, "already released")
        self._released.add(position)
        return position

    def draw_again(self, position: int) -> None:
        """A draw whose round a lost holder cut short runs again under the survivors' keys
        (``escrow_book.py``): its share may go once more, for the same drawer alone."""
        self._released.discard(position)

    def shown(self, position: int) -> bool:
        return position in self._shown

    def show(self, position: int) -> int | Refusal:
        """Grant (the position) or refuse showing this holder's own share with a play."""
        holder = self.owner(position)
        if holder is None or self.layout.openers[holder] != self.me:
            whose = "nobody's yet" if holder is None else f"{seat_name(holder)}'s"
            return Refusal(seat_name(self.me), position, self.me, f"the position is {whose}")
        if position in self._shown:
            return Refusal(seat_name(self.me), position, self.me, "that tile was already played")
        self._shown.add(position)
        return position
