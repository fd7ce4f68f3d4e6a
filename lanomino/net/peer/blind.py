"""A peer session's part at a table that deals the locked deck (issue 29). Pure.

Every seat is a holder: it makes its key, shuffles in its turn, sends its deal shares and opens
its own tiles, and it checks every other holder's message as it arrives (its sender's signature,
then its proof: ``blind/table_hand.py``, the same steps the host runs). It answers the opening's
rounds ("not me", or its lead with its share), shows its share with each play, releases its
share of a drawn position only when the host asks for the position the signed log has just given
the drawing seat (the gate, ``blind/gate.py``: any other request is refused and the host is
caught), opens its own draws, and at the hand's end reveals its key, opens every tile and scores
the hand itself (``settle``), comparing the host's signed points.

It also refuses a ``blind_deal`` that leaves a person out of the holders or names another
opener for a person's tiles: the host would read them. Escrow: ``blind_escrow.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from lanomino.blind import table_deal, table_draws, table_leave, table_opening
from lanomino.blind.deal_round import Step
from lanomino.blind.gate import Refusal
from lanomino.blind.hand_record import BlindHand
from lanomino.blind.hashing import ALGORITHM, Context
from lanomino.blind.rebuild import seeds_from
from lanomino.blind.rounds import BlindFault, Share
from lanomino.blind.table_hand import TableHand
from lanomino.engine import (
    Action,
    Draw,
    End,
    Event,
    GameState,
    HandStarted,
    Play,
    Resign,
    Tile,
    new_game,
    parse_tile,
)
from lanomino.engine.tiles import TILES
from lanomino.net.blind_transcript import LockedTranscript, keep
from lanomino.net.peer import blind_escrow as esc
from lanomino.net.peer import blind_leave as leave
from lanomino.net.peer.blind_close import end, over, settle
from lanomino.net.peer.blind_moves import before_move, kept
from lanomino.net.peer.blind_snapshot import own_secret
from lanomino.net.session_base import (
    HostCaught,
    ObservationChanged,
    ProtocolProblem,
)
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire.values import parse_move, signed_away

if TYPE_CHECKING:
    from lanomino.net.peer.state import Handler, PeerState

NO_SIGNATURE = bytes(64)


class PeerBlind:
    """The locked deck at a seat: one part of a PeerSession (see the module docstring)."""

    def __init__(self, peer: PeerState) -> None:
        self.p = peer
        self.hand: TableHand | None = None
        self.match: GameState | None = None  # the match before the hand (public between hands)
        self.number = self.attempt = 0
        # the hand this seat settled, until the host's blind_end: (hand, record, match score)
        self.settled: tuple[TableHand, BlindHand, tuple[int, ...]] | None = None
        self.book: LockedTranscript | None = None  # the match's transcript/2 so far
        self.last = 0.0  # when this seat last saw the locked hand move (progress.py times it)
        self.next_deal = False  # a hand's points came and the match goes on: the next deal is due
        self.last_end: b.BlindEnd | None = None  # the last hand's points (a new host may lack them)

    def handlers(self) -> list[tuple[str, Handler]]:
        """The session's dispatch entries for the locked deck's messages."""
        from lanomino.net.peer.state import on  # (the state holds this part)
        return [on(b.BlindDeal, self.deal), on(b.BlindKey, self.key),
                on(b.BlindShuffle, self.shuffle), on(b.BlindShares, self.shares),
                on(b.BlindNotMe, self.not_me), on(b.BlindPlay, self.play),
                on(b.BlindAsk, self.ask), on(b.BlindDraw, self.draw),
                on(b.BlindReveal, self.reveal), on(b.BlindEnd, self.end),
                on(b.BlindEscrow, self.escrow), on(b.BlindUnheld, partial(esc.unheld, self)),
                on(b.BlindResign, self.resign), on(b.BlindOver, partial(over, self))]

    def resign(self, body: b.BlindResign) -> None:
        """A relayed resignation: a departure before the hand can be scored
        (``blind_leave.py``), else a move of the hand in play (``blind_moves.kept``)."""
        if not leave.resigned(self, body):
            kept(self._arrived, lambda: self.p.host_seat, self._caught)(body)

    def due(self) -> float | None:
        """When the host must have moved the locked hand on (None: this seat waits for no
        round: a move, which progress.py times as at any table, or nothing)."""
        hand, p = self.hand, self.p
        waiting = self.settled is not None or self.next_deal or hand is not None and (
            hand.view is None or hand.draw is not None or hand.view.outcome is not None
            or table_leave.reshuffling(hand))
        if not waiting:
            return None
        return self.last + p.timings.answer_s + p.timings.relay_s + esc.grace(self, hand) \
            + leave.grace(self, hand)

    # ----- signing and checking -----------------------------------------------------------------

    def _send(self, body: b.BlindBody) -> None:
        p = self.p
        body = replace(body, signature=p.identity.sign_statement(
            b.signed_statement(p.digest, body)))
        keep(self.hand, body)
        p._send(body)

    def _caught(self, check: str, detail: str) -> None:
        p = self.p
        p.caught.append(HostCaught(check, detail, {"check": check, "host": p.host_seat,
                                                   "hand": self.number}, p.now))
        p._events.append(p.caught[-1])

    def _arrived(self, body: b.BlindBody) -> TableHand | None:
        """The hand ``body`` belongs to, once its sender's signature holds (a relayed message
        that is not its seat's is the host's doing: caught)."""
        p, hand = self.p, self.hand
        self.last = p.now
        if hand is None or (body.hand, body.attempt) != (self.number, self.attempt):
            p._problem("stale", f"a {body.TYPE} for hand {body.hand} attempt {body.attempt}")
            return None
        if not 0 <= body.seat < len(p.keys) or not b.names_its_sender(body) or \
                not p.ring.verify_statement(
                p.keys[body.seat], body.signature, b.signed_statement(p.digest, body)):
            self._caught("blind-signature", f"the host passed on a {body.TYPE} that is not "
                         f"signed by seat {body.seat + 1}")
            return None
        keep(hand, body)
        return hand

    def _fault(self, fault: BlindFault) -> None:
        self.p._events.append(ProtocolProblem("blind_fault", str(fault), fault.seat))

    # ----- the deal ----------------------------------------------------------------------------

    def deal(self, body: b.BlindDeal) -> None:
        p = self.p
        self.last = p.now
        assert p.rules is not None
        if p.header is None or p.header.algorithm != ALGORITHM:
            raise ValueError("a locked deal at a table whose header does not deal it")
        if self.settled is not None:  # no deal without the last hand's points and log
            self._caught("blind-order", f"the host dealt hand {body.hand} before it sent the "
                         f"points of hand {self.number}")
            return
        self.next_deal = False
        if body.seat != p.host_seat or not p.ring.verify_statement(
                p.keys[p.host_seat], body.signature, b.blind_statement(p.digest, body)):
            self._caught("blind-signature", "the locked deal is not signed by the host")
            return
        p.election = None  # (a new host deals: its election is over, net/host/locked_takeover.py)
        people = [e.seat for e in p.roster if e.kind != "bot" and not e.left]
        match = self.match or new_game(p.rules, p.players)
        if len(body.openers) != p.players or any(
                match.active[n] and (n not in body.holders or body.openers[n] != n)
                for n in people):
            self._caught("blind-openers", f"hand {body.hand}: the host left a person out of "
                         "the holders, or named another opener for a person's tiles")
            return
        voids = leave.given_up(self, body)  # (void, or given up for a person who left)
        if body.attempt != voids + 1:  # no deal again without the void deal's keys
            self._caught("blind-order", f"the host dealt hand {body.hand} as attempt "
                         f"{body.attempt}, after {voids} void deals whose keys were revealed, "
                         "or deals given up for a person who left")
            return
        if esc.refused_escrow(self, body):
            return
        self.match, self.number, self.attempt = match, body.hand, body.attempt
        ctx = Context(p.table, body.hand, body.attempt, body.tiles, body.holders)
        if p.watch or not match.active[p.seat]:  # a watcher, a seat that resigned: no key
            self.hand = TableHand.start(match, ctx, body.openers, p.host_seat, None, None, p.now,
                                        None, body.escrow)
            return
        seeds = seeds_from(own_secret(p, body.hand, body.attempt))  # (kept: blind_snapshot.py)
        self.hand = hand = TableHand.start(match, ctx, body.openers, p.host_seat, p.seat, seeds,
                                           p.now, None, body.escrow)
        assert hand.holder is not None
        self._send(b.BlindKey(body.hand, body.attempt, p.seat, hand.holder.announce(),
                              NO_SIGNATURE))
        table_deal.on_key(hand, hand.holder.announce(), p.now)
        self._act()

    def _step(self, body: b.BlindBody, step: Callable[[], object]) -> None:
        """Run a checked step of ``body``; then this seat's own part as it comes due."""
        try:
            step()
        except BlindFault as fault:
            self._fault(fault)
            return
        self._act()

    def key(self, body: b.BlindKey) -> None:
        hand = self._arrived(body)
        if hand is not None:
            self._step(body, lambda: table_deal.on_key(hand, body.key, self.p.now))

    def escrow(self, body: b.BlindEscrow) -> None:
        hand = self._arrived(body)
        if hand is not None:
            self._step(body, lambda: table_leave.on_escrow(hand, body.seat, body.points(),
                                                           body.blobs()))

    def shuffle(self, body: b.BlindShuffle) -> None:
        hand = self._arrived(body)
        if hand is not None:
            self._step(body, lambda: table_deal.on_shuffle(hand, body.turn, self.p.now))

    def shares(self, body: b.BlindShares) -> None:
        hand = self._arrived(body)
        if hand is not None:
            self._step(body, lambda: table_deal.on_shares(hand, body.seat, body.shares, self.p.now))

    def _act(self) -> None:
        p, hand = self.p, self.hand
        if hand is None:
            return
        esc.escrow_out(self, hand)
        turn = table_deal.my_shuffle(hand)
        if turn is not None:
            self._send(b.BlindShuffle(self.number, self.attempt, p.seat, turn, NO_SIGNATURE))
            table_deal.on_shuffle(hand, turn, p.now)
        shares = table_deal.my_shares(hand, "the host")
        if shares is not None:
            self._send(b.BlindShares(self.number, self.attempt, p.seat, shares, NO_SIGNATURE))
            table_deal.on_shares(hand, p.seat, shares, p.now)
        if hand.deal.step is Step.DONE and hand.view is None \
                and table_opening.opening(hand) is None:
            self._answer()

    # ----- the opening -------------------------------------------------------------------------

    def _answer(self) -> None:
        """This seat's answers to the questions asked now: its lead, or "not me"."""
        p, hand = self.p, self.hand
        assert hand is not None
        while (tile := table_opening.question(hand)) is not None \
                and (said := table_opening.answer(hand, p.seat, p.now)):
            if isinstance(said, Share):
                self._send(b.BlindPlay(self.number, self.attempt, p.seat, 0, str(tile), "left",
                                       said, NO_SIGNATURE))
                return
            self._send(b.BlindNotMe(self.number, self.attempt, p.seat, str(said), NO_SIGNATURE))
        if hand.void:  # nobody holds a tile the rules let lead: keys out, the host deals again
            self._reveal()

    def not_me(self, body: b.BlindNotMe) -> None:
        hand = self._arrived(body)
        if hand is not None:
            self._step(body, lambda: table_opening.on_not_me(
                hand, body.seat, parse_tile(body.tile), self.p.now))
            if hand.view is None and hand.lead is not None:
                self._answer()

    def play(self, body: b.BlindPlay) -> None:
        hand = self._arrived(body)
        if hand is None:
            return
        play = Play(parse_tile(body.tile), End[body.end.upper()])
        if hand.view is None:
            self._step(body, lambda: table_opening.on_lead(hand, body.seat, body.share, play))
        else:
            self._step(body, lambda: hand.on_proof(body.index, body.share, play, body.away))

    def begin(self, started: HandStarted) -> tuple[Tile, ...]:
        """The host's HandStarted: the opener must be the one this seat found itself. This
        seat's tiles for its view (none: the table does not deal the locked deck)."""
        p, hand = self.p, self.hand
        if hand is None:
            return ()
        if hand.deal.step is not Step.DONE:
            raise ValueError("a locked hand starts before its deal is done")
        opening = table_opening.opening(hand)
        if opening is None:
            leader = None if hand.lead is None else hand.lead.leader
            if leader is None:
                raise ValueError("a locked hand starts before anyone led")
            opening = leader
        if opening[0] != started.opener:
            self._caught("blind-opener", f"the host started hand {self.number} with seat "
                         f"{started.opener + 1} leading, not seat {opening[0] + 1}")
        hand.begin(*opening)
        return hand.tiles_of(p.seat)

    # ----- moves -------------------------------------------------------------------------------

    def before_play(self, index: int, action: Action, away: bool = False) -> None:
        """What goes out before this seat's move (``blind_moves.before_move``)."""
        before_move(self, index, action, away)

    def update(self, move: object, signature: bytes, events: list[Event]) -> bool:
        """A move the host passed on (its signatures checked): applied to this seat's public
        view of the hand (a play's share checked). False: it does not hold."""
        p, hand = self.p, self.hand
        self.last = p.now
        if hand is None or hand.view is None or not isinstance(move, dict):
            return True
        seat = move.get("seat")
        try:
            action = parse_move(move, seat if isinstance(seat, int) else -1, away=True)
            hand.apply(int(seat), action, p.now, signed_away(move))  # type: ignore[arg-type]
        except BlindFault as fault:
            self._fault(fault)
            self._caught("blind-play", f"the host passed on a play that does not hold: {fault}")
            return False
        if not isinstance(action, Play) and not isinstance(action, Resign):
            hand.signatures[("move", hand.logged - 1)] = signature  # (the record's move)
        if isinstance(action, Draw):
            draw = hand.start_draw(len(hand.moves) - 1, p.now, None)
            p.holding = draw.drawer == p.seat
        esc.unheld_out(self, hand)  # (a holder left without escrow: the blind re-shuffle)
        if hand.view.outcome is not None:
            p.holding = True  # the hand is over: nobody moves until its scores (_settle)
            if p.view is not None:
                p.view.phase = "deal"  # (its screen says so: no "your turn" with no tiles)
            self._reveal()
        return True

    def _reveal(self) -> None:
        """This seat's key and seed, once: at the hand's end, or of a void deal."""
        p, hand = self.p, self.hand
        if hand is None or hand.holder is None or hand.holder.seat in hand.reveals:
            return  # (a watcher holds no key)
        reveal = hand.holder.reveal()
        self._send(b.BlindReveal(self.number, self.attempt, p.seat, reveal, NO_SIGNATURE))
        esc.sub_share_out(self, hand)  # (a holder that left: the host rebuilds its key)
        if hand.on_reveal(reveal):
            settle(self)

    def ask(self, body: b.BlindAsk) -> None:
        """The host asks for this seat's share of a drawn position: given only as the log says."""
        p, hand = self.p, self.hand
        self.last = p.now
        if hand is None or body.seat != p.host_seat or not p.ring.verify_statement(
                p.keys[p.host_seat], body.signature, b.blind_statement(p.digest, body)):
            self._caught("blind-signature", "a share request not signed by the host")
            return
        given = table_draws.given(hand, body.index, body.position, body.drawer)
        if given is not None:  # a new host asks again for a share that went to the lost host
            self._send(b.BlindDraw(self.number, self.attempt, p.seat, body.index, given,
                                   NO_SIGNATURE))
            return
        share = table_draws.draw_share(hand, "the host", body.index, body.position, body.drawer)
        if isinstance(share, Refusal):
            p.stats["blind.refused"] += 1
            self._caught("share-request", str(share))
            return
        self._send(b.BlindDraw(self.number, self.attempt, p.seat, body.index, share,
                               NO_SIGNATURE))
        self._opened(table_draws.on_draw_share(hand, share))
        esc.unheld_out(self, hand)

    def draw(self, body: b.BlindDraw) -> None:
        hand = self._arrived(body)
        if hand is None:
            return
        try:
            tile = table_draws.on_draw_share(hand, body.share)
        except BlindFault as fault:
            self._fault(fault)
            return
        self._opened(tile)
        esc.unheld_out(self, hand)  # (a re-shuffle waits for a draw the loss did not stop)

    def _opened(self, tile: int | None) -> None:
        """This seat's drawn tile is open: into its view, and it may move again."""
        p = self.p
        if tile is None or p.view is None:
            return
        p.holding = False
        p.view.opened_draw(TILES[tile])
        p._events.append(ObservationChanged(make=p.view.observation))  # (a screen shows it)
        p.prompt_turn()

    # ----- the hand's end ----------------------------------------------------------------------

    def end(self, body: b.BlindEnd) -> None:
        """The host's points and closing of the hand this seat settled (``blind_close.end``)."""
        end(self, body)

    def reveal(self, body: b.BlindReveal) -> None:
        hand = self._arrived(body)
        if hand is None or esc.rebuilt_by_other(self, body):
            return
        try:
            done = hand.on_reveal(body.reveal)
        except BlindFault as fault:
            self._fault(fault)
            return
        if done:
            settle(self)
