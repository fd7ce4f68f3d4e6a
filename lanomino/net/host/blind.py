"""The host session's part at a table that deals the locked deck (issue 29). Pure (see session.py).

The host is a holder like every person at the table (its key locks the deck too) and the relay
of every other holder's messages: each one is checked on arrival (its sender's signature, then
its value's proof, ``blind/table_hand.py``) and passed on unchanged to every other person, who
checks it again. A message that fails is refused and names its signer. The host never sees
another person's tiles: it runs the hand on the public view (``engine/public.py``, through the
table's ``apply`` and ``observe``), opens its own tiles and its host-side bots' (which are not
holders: it sees their tiles), asks each holder for its share of a drawn position only as the
signed log gives it (``blind_ask``; a holder's gate refuses any other), and scores the hand
once every holder has revealed its key (``settle``), signing the points (``blind_end``).

A hand's steps: ``blind_deal`` -> keys -> shuffles in seat order -> deal shares -> each seat opens
its tiles -> the opener (public facts, or the rounds of "who holds 6-6?") -> ``deal`` (the public
HandStarted, no tiles) -> moves (a play with its ``blind_play`` share, a draw with its round of
shares) -> the reveals -> ``blind_end`` -> the next hand. Its parts: a draw's round of shares,
``blind_draws.py``; escrow and a person who leaves, ``blind_departure.py`` and
``blind_leave.py``; the hand's end and the match's, ``blind_close.py``; what a snapshot
carries, ``blind_snapshot.py``. A round past its deadline names the silent seats; unless the
seat can be stood in for (an ``--escrow`` table) or its tiles re-shuffled blind (without
escrow), the match then ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from lanomino.blind import table_deal, table_opening, table_seats
from lanomino.blind.deal_round import Step
from lanomino.blind.gate import Refusal
from lanomino.blind.group import BlindError
from lanomino.blind.hand_record import BlindHand
from lanomino.blind.hashing import ALGORITHM, Context
from lanomino.blind.rounds import BlindFault, Share
from lanomino.blind.table_hand import TableHand
from lanomino.engine import (
    Action,
    End,
    Event,
    GameState,
    IllegalActionError,
    Observation,
    Play,
    Resign,
    Tile,
    observe,
    parse_tile,
)
from lanomino.engine.errors import seat_name
from lanomino.engine.tiles import TILES
from lanomino.fair.commit_reveal import RoundError
from lanomino.net.blind_transcript import keep
from lanomino.net.fair_round import HandDeal
from lanomino.net.host.blind_close import LockedClose, reveal_key, settle_hand
from lanomino.net.host.blind_departure import Departures, host_resignation, seat_resigns
from lanomino.net.host.blind_draws import LockedDraws
from lanomino.net.host.blind_leave import Leaving
from lanomino.net.host.deal import Dealing
from lanomino.net.host.play import Playing
from lanomino.net.host.table import Handler, Phase, Seat, Table, on, seat_view
from lanomino.net.watchers import VIEWER
from lanomino.net.wire import blind_messages as b
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import event_to_json

B = TypeVar("B", bound=b.BlindBody)
NO_SIGNATURE = bytes(64)


class BlindDealing:
    """The locked deck at the host: one part of a HostSession (see the module docstring)."""

    def __init__(self, table: Table, dealing: Dealing, play: Playing) -> None:
        self.t = table
        self.playing = play
        self.dealing = dealing
        dealing.locked = self  # (it stands in for the fair deal)
        dealing.algorithm = ALGORITHM
        self.hand: TableHand | None = None
        self.number = 0  # the hand in play
        self.attempt = 0
        self.closing = LockedClose(table)  # each hand's end, and the match's
        self.leaving = Departures(self)  # escrow, a person who leaves
        self.leavers = Leaving(self)  # a person who leaves before the hand can be scored
        self.seat_left = self.leavers.seat_left  # (the table's leave rules ask it first)
        self.draws = LockedDraws(self)  # each draw's round of shares
        self.revealed = False
        self.said = play.lock(self)  # what a snapshot carries (blind_snapshot.py)
        # the hand runs on the public view: the table applies a move and makes a seat's view here
        table.apply = self._apply
        table.observe = self._observe
        table.after_move = self._after_move
        table.ready = self._ready
        table.snapshots = False

    @property
    def records(self) -> list[BlindHand]:
        """Every hand's record so far (``lanomino.blind-hand/1``)."""
        return self.closing.records

    def handlers(self) -> list[tuple[str, Handler]]:
        """The session's dispatch entries for the holders' messages."""
        return [on(b.BlindKey, self.key), on(b.BlindShuffle, self.shuffle),
                on(b.BlindShares, self.shares), on(b.BlindNotMe, self.not_me),
                on(b.BlindPlay, self.play), on(b.BlindReveal, self.reveal),
                on(b.BlindResign, self.resign),
                *self.draws.handlers(), *self.leaving.handlers()]

    # ----- signing and checking -----------------------------------------------------------------

    def _signed(self, body: B) -> B:
        """``body`` signed by its seat: the host's own key, or its bot's."""
        t = self.t
        identity = t.identity if body.seat == t.host_seat else t.local[body.seat].identity
        return replace(body, signature=identity.sign_statement(b.signed_statement(t.digest, body)))

    def _arrived(self, seat: Seat, body: b.BlindBody) -> TableHand:
        """The hand a holder's message belongs to, once its signature is its seat's."""
        t, hand = self.t, self.hand
        if hand is None or (body.hand, body.attempt) != (self.number, self.attempt):
            raise RoundError("stale", f"the locked deal is hand {self.number} attempt "
                             f"{self.attempt}")
        signed = body.seat == seat.seat and b.names_its_sender(body) and t.header is not None \
            and t.ring.verify_statement(t.header.keys[seat.seat], body.signature,
                                        b.signed_statement(t.digest, body))
        if not signed:
            raise RoundError("bad_signature", f"this {body.TYPE} is not signed by its seat")
        keep(hand, body)
        return hand

    def _relay(self, body: b.BlindBody, sender: int | None) -> None:
        self.said.keep(self.hand, body)  # (the host's own messages too; and for a snapshot)
        for s in self.t.humans():
            if s.seat != sender:
                self.t.send(s, body)
        self.t.publish(body)  # (public: a watcher follows and checks the hand as a seat does)

    def _run(self, seat: Seat, body: b.BlindBody, step: Callable[[], object],
             then: Callable[[], None] | None = None) -> None:
        """A checked step, then ``body`` relayed (and ``then``): faults name their signer; a
        round that failed ends the match."""
        hand = self.hand
        try:
            step()
        except BlindFault as fault:  # (the refusal names the seat: Table.refuse)
            if hand is not None and hand.failed:
                self._give_up(f"the locked deal failed: {fault}")
            raise RoundError("blind_fault", str(fault)) from None
        except (BlindError, IllegalActionError) as exc:
            if hand is not None and hand.failed:  # (a blind re-shuffle found a false count)
                self._give_up(f"the locked deal failed: {exc}")
            raise RoundError("blind", str(exc)) from None
        self._relay(body, seat.seat)
        if then is not None:
            then()
        self._advance()

    # ----- the deal ----------------------------------------------------------------------------

    def start_hand(self) -> None:
        """The next hand's locked deal begins."""
        self.number += 1
        self.attempt = 0
        self.new_attempt()

    def new_attempt(self) -> None:
        t = self.t
        assert t.state is not None
        self.attempt += 1
        self.draws.new_attempt()
        self.revealed = False
        if not self.leavers.before_deal():  # (people who left once their key was out)
            return
        people = [n for n, s in enumerate(t.seats) if s is not None and s.kind != "bot"
                  and not s.left and t.state.active[n]]
        openers = tuple(n if n in people else t.host_seat for n in range(t.players))
        holders = set(people)
        if any(t.state.active[n] and openers[n] == t.host_seat for n in range(t.players)):
            holders.add(t.host_seat)  # (its bots' tiles too, after its own seat resigned)
        ctx = Context(t.table, self.number, self.attempt, len(TILES), tuple(sorted(holders)))
        me = t.host_seat if t.host_seat in holders else None  # None: it runs the table only
        seeds = (t.secret_source(), t.secret_source())
        escrow = self.dealing.escrow and len(ctx.holders) > 2  # (two: each alone holds the other)
        self.hand = TableHand.start(t.state, ctx, openers, t.host_seat, me, seeds, t.now,
                                    t.timings.answer_s, escrow)
        t.deal = None
        t.go(Phase.DEAL)
        start = self._signed(b.BlindDeal(self.number, self.attempt, t.host_seat, len(TILES),
                                         ctx.holders, openers, NO_SIGNATURE, escrow))
        self._relay(start, None)
        if self.hand.holder is not None:
            key = self._signed(b.BlindKey(self.number, self.attempt, t.host_seat,
                                          self.hand.holder.announce(), NO_SIGNATURE))
            table_deal.on_key(self.hand, key.key, t.now)
            self._relay(key, t.host_seat)
        self._advance()

    def key(self, seat: Seat, body: b.BlindKey, seq: int) -> None:
        hand = self._arrived(seat, body)
        self._run(seat, body, lambda: table_deal.on_key(hand, body.key, self.t.now))

    def shuffle(self, seat: Seat, body: b.BlindShuffle, seq: int) -> None:
        hand = self._arrived(seat, body)
        self._run(seat, body, lambda: table_deal.on_shuffle(hand, body.turn, self.t.now))

    def shares(self, seat: Seat, body: b.BlindShares, seq: int) -> None:
        hand = self._arrived(seat, body)
        now = self.t.now
        self._run(seat, body, lambda: table_deal.on_shares(hand, seat.seat, body.shares, now))

    def _advance(self) -> None:
        """The host's own part in the round, as it comes due; then the opening."""
        t, hand = self.t, self.hand
        if hand is None or t.phase is not Phase.DEAL:
            return
        me = t.host_seat  # (the host's holder)
        self.leaving.own_escrow(hand)
        turn = table_deal.my_shuffle(hand)
        if turn is not None:
            body = self._signed(b.BlindShuffle(self.number, self.attempt, me, turn, NO_SIGNATURE))
            table_deal.on_shuffle(hand, turn, t.now)
            self._relay(body, me)
        shares = table_deal.my_shares(hand, "the host")
        if shares is not None:
            batch = self._signed(b.BlindShares(self.number, self.attempt, me, shares,
                                               NO_SIGNATURE))
            table_deal.on_shares(hand, me, shares, t.now)
            self._relay(batch, me)
        if hand.deal.step is Step.DONE and hand.view is None:
            opening = table_opening.opening(hand)
            if opening is not None:
                self._begin(*opening)
            else:
                self._answer_rounds()

    # ----- the opening -------------------------------------------------------------------------

    def not_me(self, seat: Seat, body: b.BlindNotMe, seq: int) -> None:
        hand = self._arrived(seat, body)
        self._run(seat, body, lambda: table_opening.on_not_me(
            hand, seat.seat, parse_tile(body.tile), self.t.now))

    def _answer_rounds(self) -> None:
        """The host's seats (its own, its bots') answer the question asked now, and the next."""
        t, hand = self.t, self.hand
        assert hand is not None and hand.lead is not None
        mine = [n for n in hand.lead.seats if hand.layout.openers[n] == t.host_seat]
        spoke = True
        while spoke:
            spoke = False
            for n in mine:
                tile = table_opening.question(hand)
                said = table_opening.answer(hand, n, t.now)
                if isinstance(said, Share) and tile is not None:
                    self._relay(self._signed(b.BlindPlay(self.number, self.attempt, n, 0,
                                                         str(tile), "left", said,
                                                         NO_SIGNATURE)), None)
                    self._begin(n, tile)
                    return
                if said is not None:
                    self._relay(self._signed(b.BlindNotMe(self.number, self.attempt, n,
                                                          str(said), NO_SIGNATURE)), None)
                    spoke = True
        if hand.lead.void:  # nobody holds a tile the rules let lead: keys out, deal again
            reveal_key(self)

    def play(self, seat: Seat, body: b.BlindPlay, seq: int) -> None:
        """A play's share: the lead (the answer to the rounds), or the share of a coming move."""
        hand = self._arrived(seat, body)
        play = Play(parse_tile(body.tile), End[body.end.upper()])
        if hand.view is None:
            led: list[Tile] = []
            self._run(seat, body,
                      lambda: led.append(table_opening.on_lead(hand, seat.seat, body.share, play)),
                      lambda: self._begin(seat.seat, led[0]))
            return
        self._run(seat, body, lambda: hand.on_proof(body.index, body.share, play, body.away))

    def _begin(self, opener: int, must_lead: Tile | None) -> None:
        """The hand starts: every seat gets the public HandStarted (no tiles: each has its own)."""
        t, hand = self.t, self.hand
        assert hand is not None and t.header is not None
        started = hand.begin(opener, must_lead)
        assert hand.view is not None
        t.state = hand.view.core
        t.deal = HandDeal(t.digest, self.number, t.host_seat, list(t.header.keys), t.ring)
        t.go(Phase.PLAY)
        for s in t.audience():
            t.send(s, m.Deal(self.number, (), (event_to_json(seat_view(started, s.seat)),),
                             hand.view.turn, (), ()))
        t.publish(m.Deal(self.number, (), (event_to_json(seat_view(started, VIEWER)),),
                         hand.view.turn, (), ()))
        t.host_view()
        self.playing.run_local_seats()

    # ----- moves (the table's apply and observe) -------------------------------------------------

    def _show(self, seat: int, index: int, play: Play) -> None:
        """The host's share of a tile its seat (or bot) plays, signed by that seat, sent out."""
        hand = self.hand
        assert hand is not None and hand.holder is not None and play.end is not None
        share = table_seats.show(hand, seat, play.tile)
        if isinstance(share, Refusal):
            raise IllegalActionError(str(share))
        hand.on_proof(index, share, play)
        self._relay(self._signed(b.BlindPlay(self.number, self.attempt, seat, index,
                                             str(play.tile), play.end.name.lower(), share,
                                             NO_SIGNATURE)), None)

    def resign(self, seat: Seat, body: b.BlindResign, seq: int) -> None:
        """A seat's signed resignation for the hand's record, ahead of its move."""
        hand = self._arrived(seat, body)
        self._run(seat, body, lambda: seat_resigns(hand, body))

    def _apply(self, state: GameState, seat: int, action: Action, away: bool) -> list[Event]:
        hand = self.hand
        if hand is None or hand.view is None:
            raise IllegalActionError("no locked hand is in play")
        index = hand.logged
        if isinstance(action, Resign) and ("resign", seat) not in hand.signatures:
            self._relay(self._signed(host_resignation(self.t, hand, self.number, self.attempt,
                                                      seat)), None)
        if seat in self.t.local and not isinstance(action, Resign) and index not in hand.proofs:
            table_seats.check_own(hand, seat, action)  # (the host's seat or a bot's: its tiles)
            if isinstance(action, Play):
                self._show(seat, index, action)
        try:
            return hand.apply(seat, action, self.t.now, away)
        except BlindFault as fault:
            hand.proofs.pop(index, None)
            raise RoundError("blind_fault", str(fault)) from None
        except BlindError as exc:
            raise RoundError("blind", str(exc)) from None

    def _observe(self, state: GameState, seat: int) -> Observation:
        hand = self.hand
        if hand is None or hand.view is None or state is not hand.view.core:
            return observe(state, seat)
        return table_seats.observe_seat(hand, seat)

    def _ready(self) -> bool:
        return self.hand is None or self.hand.ready

    def _after_move(self) -> None:
        """A move went out: a draw's shares are asked for; at the hand's end, the reveals."""
        t, hand = self.t, self.hand
        if hand is None or hand.view is None:
            return
        last = hand.moves[-1] if hand.moves else None
        deal = t.deal
        if last is not None and not isinstance(last.action, Play) and deal is not None \
                and "resign" not in deal.moves[-1]:
            # a draw's or a pass's signature is its move's, which the hand's record keeps
            hand.signatures.setdefault(("move", hand.logged - 1), deal.signatures[-1])
        self.draws.after_move(hand)  # (a draw: its round of shares, blind_draws.py)
        self.leaving.after_move(hand)  # (a loss: a draw it cut short, a blind re-shuffle)
        if hand.view.outcome is not None:
            reveal_key(self)

    # ----- the hand's end ----------------------------------------------------------------------

    def reveal(self, seat: Seat, body: b.BlindReveal, seq: int) -> None:
        hand = self._arrived(seat, body)
        done: list[bool] = []
        self._run(seat, body, lambda: done.append(hand.on_reveal(body.reveal)))
        if done and done[0]:
            settle_hand(self)

    # ----- deadlines ---------------------------------------------------------------------------

    def deadline(self) -> float | None:
        return None if self.hand is None else self.hand.deadline()

    def timer(self, now: float) -> None:
        if self.hand is None or self.leavers.wait_out(now):
            return
        late = self.hand.expire(now)
        for n in late:
            self.t.no_answer(n, now)
        if late:
            who = ", ".join(seat_name(n) for n in late)
            self._give_up(f"the locked deal waited in vain for {who}")

    def _give_up(self, reason: str) -> None:
        self.hand = None
        self.closing.give_up(reason)
