"""What a seat sends before its own move at a locked table (issue 29), and the resignations it is
passed. Pure.

Before a play, the seat shows its own share of the tile (``before_move``: none twice, a lead's
is out already). Before its resignation goes out as a move, it signs transcript/2's resignation
for the hand's record (``blind_resign``, ``at``: the record's moves before it), which the host
checks (``TableHand.on_resign``) and relays; every side keeps its signature
(``net/blind_transcript``) and ``TableHand.apply`` writes the resignation into the record when
the move comes. The seat
stays a holder until the hand's end (its draw shares and its reveal are still needed); from the
next hand on it holds no key and follows as a watcher does (``PeerBlind.deal``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lanomino.blind import table_seats
from lanomino.blind.gate import Refusal
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Action, Play, Resign
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:
    from lanomino.net.peer.blind import PeerBlind

UNSIGNED = bytes(64)


def resignation(hand: TableHand | None, number: int, attempt: int, seat: int
                ) -> b.BlindResign | None:
    """The ``blind_resign`` (to be signed) that goes before ``seat``'s resignation; None when no
    locked hand is in play (nothing to write it into)."""
    if hand is None or hand.view is None:
        return None
    return b.BlindResign(number, attempt, seat, seat, len(hand.moves), "seat", UNSIGNED)


def kept(arrived: Callable[[b.BlindBody], TableHand | None], host: Callable[[], int],
         caught: Callable[[str, str], None]) -> Callable[[b.BlindResign], None]:
    """The handler of a relayed ``blind_resign``: its signature checked and kept for the hand's
    record by ``arrived`` (``PeerBlind._arrived``), and who signed it noted; the move follows.
    One the host did not sign for another seat is the host's doing: ``caught``."""
    def handle(body: b.BlindResign) -> None:
        if body.by != "seat" and body.seat != host():
            caught("blind-signature", f"a resignation of seat {body.resigned + 1} that seat "
                   f"{body.seat + 1} signed")
            return
        hand = arrived(body)
        if hand is not None and body.resigned not in hand.resigning:
            hand.resigning[body.resigned] = (body.by, body.seat)
    return handle


def before_move(blind: PeerBlind, index: int, action: Action, away: bool = False) -> None:
    """What goes out before this seat's move ``index`` (its place in the hand's log): its share
    of the tile it plays (``away``: signed as its own bot's play), or its signed resignation."""
    p, hand = blind.p, blind.hand
    if isinstance(action, Resign) and (said := resignation(hand, blind.number, blind.attempt,
                                                           p.seat)) is not None:
        blind._send(said)
    if hand is None or not isinstance(action, Play) or index in hand.proofs:
        return
    share = table_seats.show(hand, p.seat, action.tile)
    if isinstance(share, Refusal):
        raise ValueError(str(share))
    assert action.end is not None
    hand.on_proof(index, share, action, away)
    blind._send(b.BlindPlay(blind.number, blind.attempt, p.seat, index, str(action.tile),
                           action.end.name.lower(), share, UNSIGNED, away))
