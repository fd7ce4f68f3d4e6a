"""A holder who leaves a locked hand, as every side follows it (``TableHand``'s departure
part). Pure.

At an ``--escrow`` table every holder escrows its key before its shuffle (``my_escrow``,
``on_escrow``: ``escrow_book.py``). When a holder leaves the hand in play (the host's
resignation of it, ``by`` ``left``, applied at every side alike), the others stand in for its
key (``lose``): a draw that waited for its share runs again under the survivors' keys
(``TableHand.redraw_at``), or is dropped when the seat that left drew it; a share of such a
draw that comes late is dropped, not blamed (``dropped``). At the hand's end the host's rebuilt
key comes as the lost holder's reveal (``rebuilt``).

Without escrow (``reshuffle``), the survivors re-shuffle blind the tiles nobody holds
(``unheld_round.py``): the lost holder's tiles and the boneyard's undrawn ones, and the tile of
a draw the loss cut short (the lost holder's share of it never came, so its drawer never saw
it). Nobody sends its hand to anyone. Once the round is done (``on_unheld``) the new deck's first
slots stand for the tiles that left with the lost holder (as at any table, a resigned seat's
tiles leave with it: the engine's counts do not change), the next one goes to the draw the loss
cut short, if any (asked again: ``redraw_at``), and the rest is the boneyard, drawn from its
front, each draw opening for its drawer alone under the survivors' keys. Everything it needs is
public and the same at every side (the owner of each position, the line, the draws), so any
side can start it, a new host as well as the host (``reshuffle``). At the hand's end the
survivors reveal their keys and the hand is judged by ``unheld_check.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from lanomino.blind.deal_round import Step
from lanomino.blind.group import BlindError, Point, base_mul
from lanomino.blind.hand_check import HandVerdict
from lanomino.blind.hand_record import EscrowKept, UnheldEntry
from lanomino.blind.hashing import Context
from lanomino.blind.rounds import BlindFault, Reveal, Share, check_share
from lanomino.blind.settle import Settlement, settled
from lanomino.blind.unheld_check import Unscorable, replay_reshuffled, survivors_of
from lanomino.blind.unheld_round import STEPS, UnheldRound
from lanomino.engine import Draw, Play
from lanomino.engine.errors import seat_name

if TYPE_CHECKING:  # (a part of TableHand, as the sessions' parts are of theirs)
    from lanomino.blind.table_hand import TableHand


def my_escrow(hand: TableHand, seed: Callable[[], bytes]
              ) -> tuple[tuple[Point, ...], dict[int, bytes]] | None:
    """This holder's escrow, once the keys are agreed at an escrow table (never twice; its
    seed drawn only then)."""
    h, book = hand.holder, hand.escrow
    if h is None or book is None or hand.deal.step is not Step.SHUFFLE \
            or h.seat in book.commitments:
        return None
    return h.escrow(seed())


def on_escrow(hand: TableHand, owner: int, commitments: tuple[Point, ...],
              sealed: Sequence[bytes]) -> None:
    """A holder's escrow, its sub-shares sealed to the other holders in seat order
    (``EscrowBook.receive``). Raises BlindFault, BlindError."""
    if hand.escrow is None or hand.deal.step is not Step.SHUFFLE:
        raise BlindError("no escrow is awaited now")
    others = [s for s in hand.ctx.holders if s != owner]
    if len(sealed) != len(others):
        raise BlindFault(owner, "did not escrow its key with all the other holders")
    hand.escrow.receive(hand.ctx, hand.holder, owner, commitments,
                        dict(zip(others, sealed, strict=True)))


def escrowed(hand: TableHand, seat: int) -> None:
    """At an escrow table, ``seat`` may shuffle only once its escrow came. Raises BlindError."""
    if hand.escrow is not None and seat not in hand.escrow.commitments:
        raise BlindError(f"{seat_name(seat)} shuffled before it escrowed its key")


def context_of(hand: TableHand, position: int) -> Context:
    """The context ``position``'s shares are under (after a loss: the standing one for a
    position drawn since)."""
    u = hand.unheld
    if u is not None and position >= u.base:
        return u.ctx
    return hand.ctx if hand.escrow is None else hand.escrow.context_of(hand.ctx, position)


def lose(hand: TableHand, seat: int, now: float) -> bool:
    """``seat`` left the hand: at an escrow table the others stand in for its key and the
    hand goes on (True); else False, and the hand cannot go on without it. A draw waiting
    for the seat's share runs again under the survivors' keys (``redraw_at``), or is
    dropped when the seat that left drew it."""
    if seat not in hand.ctx.holders:
        return False
    if hand.escrow is None:
        return reshuffle(hand, seat, now)
    try:
        hand.escrow.lose(hand.ctx, hand.holder, seat)
    except BlindError:  # (the escrow is spent, or was never made: re-shuffle blind)
        return hand.escrow.lost not in (None, seat) and reshuffle(hand, seat, now)
    draw = hand.draw  # (its share came before the loss at every side, or at none)
    if draw is None or seat in draw.shares:
        return True
    hand.draw = None
    if draw.drawer != seat:
        hand.escrow.late.add(draw.position)
        if hand.holder is not None:
            hand.holder.draw_again(draw.position)
        hand.redraw_at = next(i for i, m in enumerate(hand.moves)
                              if isinstance(m.action, Draw) and m.position == draw.position)
        hand.start_draw(hand.redraw_at, now, hand.answer_s)
    return True


def can_lose(hand: TableHand) -> bool:
    """Whether the hand goes on if a holder leaves now: its escrow is not spent yet, or, with
    none, it was not re-shuffled blind already."""
    if hand.escrow is not None:
        return hand.escrow.lost is None
    return hand.unheld is None


def reshuffling(hand: TableHand) -> bool:
    """A blind re-shuffle is under way: nobody moves until it is done."""
    return hand.unheld is not None and hand.unheld.deck is None


def dropped(hand: TableHand, share: Share) -> bool:
    """A draw share that a loss made moot, dropped rather than blamed: one of the draw the seat
    that left was waiting for, or one sent under the old keys before the loss was known."""
    draw, lost = hand.draw, None if hand.escrow is None else hand.escrow.lost
    u = hand.unheld
    if u is not None and u.cut == share.position and (draw is None or draw.position != u.cut):
        return True  # (a share of the draw the loss cut short)
    if draw is None:
        return lost is not None and hand.owner.get(share.position) == lost
    if draw.ctx is hand.ctx or share.seat not in hand.ctx.holders or share.seat == draw.drawer:
        return False
    try:
        check_share(hand.ctx, hand.deal.deck, share)
    except BlindFault:
        return False
    return True


def rebuilt(hand: TableHand, reveal: Reveal) -> bool:
    """The lost holder's key, rebuilt by the host from the escrow (no seed): checked against
    its key (True); False for any other reveal. Raises BlindFault naming the host."""
    if reveal.seed is not None or hand.escrow is None or reveal.seat != hand.escrow.lost:
        return False
    if base_mul(reveal.secret) != hand.ctx.key_of(reveal.seat):
        raise BlindFault(hand.host, f"rebuilt a key for {seat_name(reveal.seat)} that is not "
                         "its key")
    return True


# ----- the blind re-shuffle (no escrow) ------------------------------------------------------


def reshuffle(hand: TableHand, seat: int, now: float) -> bool:
    """``seat``'s key went with it (no escrow): the survivors' blind re-shuffle begins (True).
    False when the hand cannot go on so: it is not in play, or one was re-shuffled already."""
    view, book = hand.view, hand.escrow
    if view is None or view.outcome is not None or hand.unheld is not None:
        return False
    first = None if book is None else book.lost  # (a spent escrow: its key is lost too)
    lost = (seat,) if first is None else tuple(sorted((first, seat)))
    rest = survivors_of(hand.ctx, lost)
    if not rest.holders:
        return False
    redrawn, draw, stopped = None, hand.draw, None
    if draw is not None and seat not in draw.shares:  # (the same at every side: module doc)
        hand.draw, stopped = None, draw.position
        if draw.drawer != seat:  # its drawer never saw it: its tile is nobody's now
            redrawn = next(i for i, m in enumerate(hand.moves)
                           if isinstance(m.action, Draw) and m.position == draw.position)
    openers = hand.layout.openers
    cut = None if redrawn is None else hand.moves[redrawn].position
    held = [p for p, s in hand.owner.items() if openers[s] in rest.holders and p != cut]
    left = [p for p, s in hand.owner.items() if openers[s] not in rest.holders]
    on_line = frozenset(m.action.tile.index for m in hand.moves if isinstance(m.action, Play))
    count = hand.ctx.tiles - len(on_line) - len(held)
    undrawn = len(hand.order) - hand.draws + (redrawn is not None)
    if count != len(left) + undrawn:
        raise BlindError(f"the tiles nobody holds ({count}) are not the ones that left and the "
                         f"boneyard's ({len(left)} and {undrawn})")
    hand.unheld = UnheldRound(
        rest, 1, lost, on_line, count, at=len(hand.moves), left=len(left), redrawn=redrawn,
        cut=stopped, base=len(hand.deck),
        deadline=None if hand.answer_s is None else now + hand.answer_s,
        escrowed=None if first is None or book is None else (first, book.commitments[first]))
    return True


def my_unheld(hand: TableHand) -> tuple[str, int, bytes] | None:
    """This holder's value for the re-shuffle's step now, once: (the step, the re-shuffle's
    number, the value's bytes); None when the round does not wait for it (or a draw that the
    loss did not cut short is still opening)."""
    u, h = hand.unheld, hand.holder
    if u is None or h is None or u.deck is not None or hand.draw is not None \
            or h.seat not in u.ctx.holders or (u.step, h.seat) in u.sent:
        return None
    openers = hand.layout.openers
    cut = None if u.redrawn is None else hand.moves[u.redrawn].position
    mine = {t for p, t in hand.opened.items()
            if p != cut and p in hand.owner and openers[hand.owner[p]] == h.seat}
    secret = h.reveal()
    assert secret.seed is not None
    kept = None if u.escrowed is None else h.escrow_reveal(u.escrowed[0])
    value = u.mine(h.seat, secret.secret, secret.seed, mine, kept)
    return None if value is None else (value[0], u.number, value[1])


def on_unheld(hand: TableHand, seat: int, number: int, step: str, data: bytes, now: float
              ) -> bool:
    """A survivor's value for the re-shuffle (``UnheldRound.receive``); True once the new deck
    takes the boneyard's place. Raises: BlindFault naming the survivor; BlindError."""
    u = hand.unheld
    if u is None or u.deck is not None:
        raise BlindError("no re-shuffle is under way")
    u.receive(seat, number, step, data, now, hand.answer_s)
    if u.deck is None:
        return False
    _reshuffled(hand, u, now)
    return True


def _reshuffled(hand: TableHand, u: UnheldRound, now: float) -> None:
    assert u.deck is not None
    if u.base + len(u.deck) > 256:
        raise BlindError("a position is one byte: the re-shuffled deck does not fit")
    slots = list(range(u.base, u.base + len(u.deck)))
    hand.extra = u.deck
    for p in slots[:u.left]:  # (they stand for the tiles that left with the lost holder)
        hand.owner[p] = u.lost[0]
    rest = slots[u.left:]
    drawn, again = hand.draws, None
    if u.redrawn is not None:
        move = hand.moves[u.redrawn]
        assert move.position is not None
        again = (move.position, rest[0])
        del hand.owner[move.position]
        hand.owner[rest[0]] = move.seat
        hand.moves[u.redrawn] = replace(move, position=rest[0])
        drawn -= 1
    hand.order = [*hand.order[:drawn], *rest]
    if hand.holder is not None:
        hand.holder.reshuffled(u.ctx, u.deck, tuple(hand.order), again)
    if u.redrawn is not None:
        hand.redraw_at = u.redrawn
        hand.start_draw(u.redrawn, now, hand.answer_s)


def revealing(hand: TableHand) -> tuple[int, ...]:
    """The holders whose reveals the hand's end waits for (not those whose key went)."""
    gone = () if hand.unheld is None else hand.unheld.lost
    return tuple(s for s in hand.ctx.holders if s not in gone)


def seedless(hand: TableHand) -> frozenset[int]:
    """The holders whose shuffle seed went with them (the record keeps their turns)."""
    lost = set() if hand.unheld is None else set(hand.unheld.lost)
    if hand.escrow is not None and hand.escrow.lost is not None:
        lost.add(hand.escrow.lost)
    return frozenset(lost)


def unheld_entry(hand: TableHand) -> UnheldEntry | None:
    """The hand record's ``unheld`` (``hand_record.py``): the round's facts, every survivor's
    signed digests, and every share the lost holder published (they open the survivors'
    tiles)."""
    u = hand.unheld
    if u is None:
        return None
    shares = {(x.seat, x.position): x for x in (
        *(x for batch in hand.deal.shares.values() for x in batch),
        *(x for batch in hand.drawn.values() for x in batch), *hand.proofs.values())
        if x.seat in u.lost}
    book = hand.escrow
    spent = None if u.escrowed is None or book is None else EscrowKept(
        u.escrowed[0], u.escrowed[1], tuple(sorted(p for p in book.late if p < u.base)),
        tuple(u.sub_shares[s] for s in u.ctx.holders))
    return UnheldEntry(u.number, u.at, u.lost, u.left, u.redrawn,
                       tuple(tuple(u.sent[(step, s)] for s in u.ctx.holders) for step in STEPS),
                       tuple(shares[k] for k in sorted(shares)), spent)


def settle_unheld(hand: TableHand) -> Settlement:
    """The hand's end after a blind re-shuffle: judged as its record will be
    (``unheld_check.replay_reshuffled``); or given up, when it had been blocked before the loss
    (``unheld_check.Unscorable``)."""
    assert hand.view is not None
    entry = unheld_entry(hand)
    assert entry is not None
    try:
        replayed = replay_reshuffled(hand.before, hand.layout, hand.ctx, hand.deal.deck,
                                     hand.reveals, entry, hand.moves, hand.host,
                                     hand.resignations, hand.clock)
    except Unscorable as exc:
        return Settlement(HandVerdict(), None, hand.before.copy(), given_up=str(exc))
    return settled(hand.view, hand.moves, hand.host, *replayed)

