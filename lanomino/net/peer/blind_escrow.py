"""A seat's part in the escrow of an ``--escrow`` locked table (issue 29). Pure.

The host's ``blind_deal`` says the table escrows; a seat refuses it with fewer than three
holders (``refused_escrow``: the one other holder alone would hold its key). Once the keys are
agreed it sends its own escrow before its shuffle (``escrow_out``) and checks every other
holder's as it arrives (``table_leave.on_escrow``). When the host resigns a holder that left,
every side stands in for its key (``table_leave.lose``); a draw that waits for the one share of a
silent holder may take that seat's grace period more (``grace``, the host waits it out). At the
hand's end the seat gives the host its sub-share of the lost key (``sub_share_out``, to the host
only) and checks the key the host rebuilt, which comes as the lost holder's reveal signed by the
host (``rebuilt_by_other``: from anyone else, the host is caught).

Without escrow, when the host resigns a holder that left, every side starts the survivors' blind
re-shuffle (``table_leave.reshuffle``): this seat holds its moves until the new deck is the
boneyard, sends its own values as they come due (``unheld_out``: its hand vector, its shuffle
and blinding in its turn, its opening shares), checks every other survivor's (``unheld``: a bad
one names its signer), and then plays on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind import table_leave
from lanomino.blind.group import BlindError, scalar_bytes
from lanomino.blind.rounds import BlindFault
from lanomino.blind.table_hand import TableHand
from lanomino.net.session_base import ObservationChanged
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:
    from lanomino.net.peer.blind import PeerBlind

UNSIGNED = bytes(64)


def refused_escrow(blind: PeerBlind, body: b.BlindDeal) -> bool:
    """A deal that asks for escrow with two holders: the host is caught (True)."""
    if body.escrow and len(body.holders) < 3:
        blind._caught("blind-escrow", f"hand {body.hand}: the host asked for escrow with "
                      f"{len(body.holders)} holders (the other one alone would hold a key)")
        return True
    return False


def escrow_out(blind: PeerBlind, hand: TableHand) -> None:
    """This seat's escrow, once the keys are agreed (before its shuffle)."""
    escrow = table_leave.my_escrow(hand, blind.p.secret_source)
    if escrow is not None:
        body = b.BlindEscrow.of(blind.number, blind.attempt, blind.p.seat, *escrow)
        blind._send(body)
        table_leave.on_escrow(hand, blind.p.seat, body.points(), body.blobs())


def sub_share_out(blind: PeerBlind, hand: TableHand) -> None:
    """At the hand's end, this seat's sub-share of a lost holder's key, for the host."""
    lost = None if hand.escrow is None else hand.escrow.lost
    if lost is not None and hand.holder is not None and hand.unheld is None:  # (else: spent)
        sub_share = scalar_bytes(hand.holder.escrow_reveal(lost))
        blind._send(b.BlindRebuild(blind.number, blind.attempt, blind.p.seat, lost, sub_share,
                                   UNSIGNED))


def grace(blind: PeerBlind, hand: TableHand | None) -> float:
    """How much longer than a round this seat gives the host: a draw that waits for one
    holder's share waits out that seat's grace period (``Departures.wait_out``)."""
    draw, t = None if hand is None else hand.draw, blind.p.timings
    if draw is None or hand is None or not table_leave.can_lose(hand) \
            or len(draw.missing()) != 1:
        return 0.0
    return t.grace_s + t.answer_s


def rebuilt_by_other(blind: PeerBlind, body: b.BlindReveal) -> bool:
    """A reveal of one seat signed by another that is not the host: caught (True)."""
    if body.reveal.seat != body.seat and body.seat != blind.p.host_seat:
        blind._caught("blind-signature", f"a reveal of seat {body.reveal.seat + 1} that seat "
                      f"{body.seat + 1} signed")
        return True
    return False


def unheld(blind: PeerBlind, body: b.BlindUnheld) -> None:
    """A survivor's value for the blind re-shuffle, checked; this seat's own next."""
    hand = blind._arrived(body)
    if hand is None:
        return
    try:
        done = table_leave.on_unheld(hand, body.seat, body.number, body.step, body.value,
                                     blind.p.now)
    except BlindFault as fault:
        blind._fault(fault)
        return
    except BlindError as exc:  # (the tiles found are not the public count: a false vector)
        blind.p._problem("blind", str(exc))
        return
    if done:
        resumed(blind, hand)
    unheld_out(blind, hand)


def unheld_out(blind: PeerBlind, hand: TableHand) -> None:
    """This seat's values for a blind re-shuffle as they come due (it holds its moves until
    the new deck is the boneyard). A move of its own still on its way when the loss came (a
    holder may leave between two moves) is refused by the host while the re-shuffle runs: it
    moves again once the new deck is in (``resumed``)."""
    p = blind.p
    if table_leave.reshuffling(hand):
        p.holding, p.pending_move = True, None
    while (mine := table_leave.my_unheld(hand)) is not None:
        step, number, value = mine
        blind._send(b.BlindUnheld(blind.number, blind.attempt, p.seat, number, step, value,
                                  UNSIGNED))
        if table_leave.on_unheld(hand, p.seat, number, step, value, p.now):
            resumed(blind, hand)


def resumed(blind: PeerBlind, hand: TableHand) -> None:
    """The new deck is the boneyard: play goes on (a draw of this seat's that the loss cut
    short opens first, asked again). The moves that came while it was held (the resignation
    that started the re-shuffle among them) show now: a screen that waits for no later move
    must not go on showing the seat that left."""
    p = blind.p
    draw = hand.draw
    p.holding = draw is not None and draw.drawer == p.seat
    if not p.holding and p.view is not None:
        p._events.append(ObservationChanged(make=p.view.observation))
    p.prompt_turn()

