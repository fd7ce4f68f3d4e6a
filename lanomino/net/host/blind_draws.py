"""A draw's round of shares at a locked table, the host's side (issue 29). Pure.

A draw is a move like any other (the table's ``apply``): the boneyard's next position goes to
the drawer, still locked. Once the draw has gone out (``after_move``), the host asks every other
holder for its share of that position (``blind_ask``, signed by the host; a holder's gate gives
a share only for the position the signed log gave the drawer, ``blind/table_draws.py``), gives
its own, and checks and relays each share as it comes (``blind_draw``). With every share in,
the tile is open for its drawer and the table goes on. Each draw is asked once per deal
attempt (``asked``); a draw a loss cut short is asked again without the lost holder
(``blind_departure.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lanomino.blind import table_draws
from lanomino.blind.gate import Refusal
from lanomino.blind.table_hand import TableHand
from lanomino.engine import Draw
from lanomino.net.host.table import Handler, Seat, on
from lanomino.net.wire import blind_messages as b

if TYPE_CHECKING:  # (a part of BlindDealing, as blind_close.py's functions are)
    from lanomino.net.host.blind import BlindDealing

UNSIGNED = bytes(64)


class LockedDraws:
    """Each draw's round of shares: one part of ``BlindDealing`` (see the module docstring)."""

    def __init__(self, dealing: BlindDealing) -> None:
        self.d = dealing
        self.asked: set[int] = set()  # the draws (move numbers) whose shares were asked

    def handlers(self) -> list[tuple[str, Handler]]:
        return [on(b.BlindDraw, self.draw)]

    def new_attempt(self) -> None:
        """A new deal attempt: no draw of it has been asked yet."""
        self.asked = set()

    def after_move(self, hand: TableHand) -> None:
        """A move went out: when it is a draw not asked yet, its shares are asked for."""
        index = len(hand.moves) - 1
        if index < 0:
            return
        last = hand.moves[index]
        if isinstance(last.action, Draw) and index not in self.asked:
            self.ask(index, last.seat)

    def request(self, index: int, position: int, drawer: int) -> b.BlindAsk:
        """The host's signed ``blind_ask`` for the draw that was move ``index``: the shares of
        ``position`` for ``drawer`` (the same request when it is asked again: a returning
        holder, a new host)."""
        d = self.d
        return d._signed(b.BlindAsk(d.number, d.attempt, d.t.host_seat, index, position, drawer,
                                    UNSIGNED))

    def ask(self, index: int, drawer: int) -> None:
        """The round of shares for the draw that was move ``index`` begins: every other holder
        still at the table is asked, and the host gives its own share (unless it drew)."""
        d = self.d
        t, hand = d.t, d.hand
        assert hand is not None
        self.asked.add(index)
        draw = hand.start_draw(index, t.now, t.timings.answer_s)
        ask = self.request(index, draw.position, drawer)
        for s in t.humans():
            if s.seat in draw.ctx.holders and s.seat != draw.drawer:  # (after a loss: standing)
                t.send(s, ask)
        if draw.drawer == t.host_seat or hand.holder is None:
            return
        share = table_draws.draw_share(hand, "the host", index, draw.position, drawer)
        assert not isinstance(share, Refusal), str(share)
        body = d._signed(b.BlindDraw(d.number, d.attempt, t.host_seat, index, share, UNSIGNED))
        d._relay(body, t.host_seat)
        table_draws.on_draw_share(hand, share)

    def draw(self, seat: Seat, body: b.BlindDraw, seq: int) -> None:
        """A holder's share of the draw in progress, checked and relayed; once every share is
        in, the tile is open for its drawer and the table goes on."""
        d = self.d
        hand = d._arrived(seat, body)
        d._run(seat, body, lambda: table_draws.on_draw_share(hand, body.share))
        d.leaving.own_unheld(hand)  # (a re-shuffle waits for a draw the loss did not stop)
        if hand.draw is None:
            d.t.host_view()
            d.playing.run_local_seats()
