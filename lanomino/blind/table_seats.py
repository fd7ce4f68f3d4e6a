"""What a side does for a seat whose tiles it holds, in a locked hand (``table_hand.py``). Pure.

Every side holds its own seat's tiles; the host also holds its bots' (it opens them). For such a
seat this side shows a tile for its play (``show``: this holder's share, once, through its gate),
checks a move before it goes out against the tiles only this side can see (``check_own``: a draw
or a pass while a tile fits is refused on the spot, not named at the hand's end), and builds what
the seat sees (``observe``: the public view with the seat's own tiles in it).
"""

from __future__ import annotations

from dataclasses import replace

from lanomino.blind.gate import Refusal
from lanomino.blind.rounds import Share
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Action, Draw, Observation, Phase, Tile, TileDrawn, observe
from lanomino.engine.errors import IllegalActionError
from lanomino.engine.events import unopened_draw
from lanomino.engine.tiles import TILES


def show(hand: TableHand, seat: int, tile: Tile) -> Share | Refusal:
    """This holder's share of ``seat``'s ``tile`` for its play: once (the gate), or again the
    very share shown with a play that never entered the log (a host lost before it passed the
    move on: the share went out already). Raises BlindError."""
    assert hand.holder is not None
    position = hand.position_of(seat, tile)  # (still held: not played in the log yet)
    share = hand.holder.play(position)
    return hand.holder.show_again(position) if isinstance(share, Refusal) else share


def check_own(hand: TableHand, seat: int, action: Action) -> None:
    """A move of a seat whose tiles this side holds (the host's own, its bots'), before it goes
    out: what only those tiles decide is checked here, so a draw or a pass while a tile fits is
    refused on the spot rather than named at the hand's end; and nothing moves while the seat's
    drawn tile is still opening. Raises IllegalActionError."""
    assert hand.view is not None
    if not hand.ready:
        raise IllegalActionError("the tile you drew is still opening: a moment")
    if action not in hand.view.legal_for(seat, hand.tiles_of(seat)):
        raise IllegalActionError(f"{action} is not a legal move now")


def observe_seat(hand: TableHand, seat: int) -> Observation:
    """What ``seat`` sees now, with the tiles this side opened for it (the host's own seat and
    its bots): the engine's ``observe`` on a copy of the public view holding them."""
    assert hand.view is not None
    probe = hand.view.core.copy()
    if hand.view.outcome is not None:
        probe.phase = Phase.DEAL  # the hand is over: its scores come with the reveals
    probe.hands = [0] * probe.players
    for tile in hand.tiles_of(seat):
        probe.hands[seat] |= tile.bit
    obs = observe(probe, seat)
    # the seat's own draws show their tiles once open, as a peer's view shows them; while its
    # latest is still opening, its turn has no move yet (its tile comes with the shares)
    drawn = iter([hand.opened.get(m.position) for m in hand.moves if m.seat == seat
                  and isinstance(m.action, Draw) and m.position is not None])
    history = tuple(e._replace(tile=TILES[t]) if type(e) is TileDrawn and e.seat == seat and (
        t := next(drawn, None)) is not None else e for e in obs.history)
    opening = unopened_draw(history, seat)  # (the rule a peer's view applies)
    # (how many tiles each seat holds is public: the view counts them; the probe holds only this
    # seat's own tiles, so its counts would say 0 for every other seat)
    return replace(obs, history=history, legal=() if opening else obs.legal,
                   hand_sizes=tuple(hand.view.counts))
