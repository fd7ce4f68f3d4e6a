"""The signatures on a hand's moves, for ``Checker`` (``lanomino.fair.checker``), and what the
header's move clock allows. Pure.

Every move is signed by its seat. The host may sign one for a seat in two cases only, each listed
in the report (``HostSigned``): the resignation of a seat that left (it cannot sign its departure;
that it had left cannot be checked from the file), and, at a table whose signed header declares a
move clock, the table's move for a seat out of time (the log's ``away``). A transcript written
before the header carried ``move_clock`` keeps the meaning it had then. A seat may dispute such a
move (``Dispute``): its word against the host's, which the file cannot settle, listed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lanomino.engine import Resign
from lanomino.engine.errors import seat_name
from lanomino.fair.report import EDITED, Blamed, HostSigned
from lanomino.fair.statements import dispute_statement, move_statement
from lanomino.fair.transcript_model import HandLog, Transcript

if TYPE_CHECKING:
    from lanomino.fair.checker import Checker


def clock_words(t: Transcript) -> str:
    """What the header says of the move clock, in words."""
    if not t.clock_declared:
        return ("Move clock: not in the header (an older transcript): a move or resignation "
                "the host signed for a seat is accepted, as it was then, and listed.")
    if t.move_clock is None:
        return "Move clock: none: every move must be signed by its own seat."
    return (f"Move clock: {t.move_clock / 1000:g} s a move: the moves the host signed "
            "for a seat out of time are listed.")


def check_move_signatures(c: Checker, hand: HandLog) -> None:
    """One valid signature per move (``move-signature``), then the hand's disputes."""
    c.host_signed = []
    if len(hand.move_signatures) != len(hand.moves):
        raise c.fail("move-signature", c.logger(hand), f"{len(hand.moves)} moves "
                     f"but {len(hand.move_signatures)} move signatures")
    at = None if hand.migrated is None else hand.migrated.at
    no_clock = c.t.clock_declared and c.t.move_clock is None
    for index, (move, signature) in enumerate(zip(hand.moves, hand.move_signatures,
                                                  strict=True)):
        if index == at:
            c.adopt(hand)  # the new host's bots sign with their adopted keys from here on
        statement = move_statement(c.t.header_digest, hand.hand, index, move.raw)
        if c.signed(move.seat, signature, statement):
            continue
        who = seat_name(move.seat)
        what = f"move {index + 1} ({who}: {move.action})"
        if c.signed(hand.host_at(index), signature, statement):
            if isinstance(move.action, Resign) or (index in hand.away and not no_clock):
                c.host_signed.append(HostSigned(index, move.seat, str(move.action)))
                continue
            why = ("at a table without a move clock only a seat moves itself" if no_clock
                   else f"it is not listed as the table's move for {who} out of time")
            raise c.fail("move-signature", c.logger(hand),
                         f"{what} is signed by the host, not by {who}: {why}")
        raise c.fail("move-signature", c.logger(hand),
                     f"{what} is not signed by {who}: moves were changed, added, dropped "
                     "or reordered, or a badly signed move was let in (a host refuses one "
                     "on arrival)")
    if at is not None and at == len(hand.moves):
        c.adopt(hand)
    _check_disputes(c, hand)


def _check_disputes(c: Checker, hand: HandLog) -> None:
    """Each dispute is signed by its seat and names a move the host signed for that seat."""
    made_for = {h.index: n for n, h in enumerate(c.host_signed)}
    for d in hand.disputes:
        who, move = seat_name(d.seat), hand.moves[d.index]
        statement = dispute_statement(c.t.header_digest, hand.hand, d.index, d.seat, move.raw)
        if not c.signed(d.seat, d.signature, statement):
            raise c.fail("dispute", EDITED, f"the dispute of move {d.index + 1} is not "
                         f"signed by {who}: the file was changed after it was signed")
        if move.seat == d.seat and d.index not in made_for:  # (every move passed its check)
            raise c.fail("dispute", Blamed.player(d.seat),
                         f"{who} disputes move {d.index + 1}, which {who} signed itself: its "
                         "own signature on the move refutes the dispute")
        if d.index not in made_for or move.seat != d.seat:
            raise c.fail("dispute", Blamed.player(d.seat),
                         f"{who} disputes move {d.index + 1}, which is not a move the host "
                         f"made for {who}")
        n = made_for[d.index]
        c.host_signed[n] = replace(c.host_signed[n], disputed=True)
