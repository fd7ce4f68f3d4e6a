"""One locked hand as a table follows it, for the host and for every seat alike. Pure.

The sessions (``net/host/blind*.py``, ``net/peer/blind.py``) carry messages; this is what each
side does with them, written once: the deal round (``LockedDeal``) with this side's ``Holder``,
the tiles this side opens (its own; the host's bots' too, on the host), the opening's public
rounds (``LeadRounds``, ``table_opening.py``), the public view of the hand (``PublicHand``),
each play's proof (``rounds.check_play``), each draw's round of shares (``DrawRound``,
``table_draws.py``), and at the hand's end the reveals, every tile opened and the scores
(``settle``). Every check raises ``BlindFault`` naming the signer, or ``BlindError`` for a
message out of place (nobody named).

A draw's position is the boneyard's next (the deal rule); the log gives it to the seat that
drew, and this side's ``Holder`` (its gate) learns it from the same call, so a request for any
other position is refused by the gate (``table_draws.draw_share``).

The deal round's messages (keys, shuffles, deal shares): ``table_deal.py``.
A holder who leaves the hand in play (escrow, standing in for its key): ``table_leave.py``.
A seat whose tiles this side holds (its own; the host's bots): ``table_seats.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lanomino.blind import table_leave as leave
from lanomino.blind.deal_round import LockedDeal, Step
from lanomino.blind.deck import Deck, aggregate_key, open_deck
from lanomino.blind.draw_round import DrawRound
from lanomino.blind.escrow_book import EscrowBook
from lanomino.blind.gate import DealLayout
from lanomino.blind.group import BlindError
from lanomino.blind.hand_record import BlindHand, BlindMove, NotMe, Resignation, ShuffleEntry
from lanomino.blind.hashing import Context
from lanomino.blind.holder import Holder
from lanomino.blind.lead_rounds import LeadRounds, questions
from lanomino.blind.rounds import (
    BlindFault,
    Reveal,
    Share,
    check_play,
    check_reveal,
    open_all,
)
from lanomino.blind.settle import Settlement, settle
from lanomino.blind.unheld_round import UnheldRound
from lanomino.engine import (
    Action,
    Draw,
    Event,
    GameState,
    HandStarted,
    Play,
    Resign,
    Tile,
)
from lanomino.engine.errors import seat_name
from lanomino.engine.public import PublicHand
from lanomino.engine.tiles import TILES


def layout_for(state: GameState, tiles: int, openers: Sequence[int]) -> DealLayout:
    """The deal's layout for the match ``state`` waiting for a deal (the engine's deal rule)."""
    size = state.rules.hand_size_for(state.players)
    return DealLayout.for_deal(tiles, state.active, size, openers)


@dataclass(slots=True)
class TableHand:
    """One locked hand as one side follows it (see the module docstring). ``me`` is the holder
    this side is (None: it holds no key)."""

    before: GameState  # the match before the hand (public between hands)
    host: int
    deal: LockedDeal
    holder: Holder | None
    opened: dict[int, int] = field(default_factory=dict)  # position -> tile, the ones it opens
    lead: LeadRounds | None = None
    view: PublicHand | None = None
    moves: list[BlindMove] = field(default_factory=list)
    resignations: list[Resignation] = field(default_factory=list)  # each after ``at`` moves
    # seat -> who signed its coming resignation (``by``) and that signer's seat
    resigning: dict[int, tuple[str, int]] = field(default_factory=dict)
    proofs: dict[int, Share] = field(default_factory=dict)  # log index -> the opener's share
    plays: dict[int, Play] = field(default_factory=dict)  # log index -> the play its share shows
    marked: set[int] = field(default_factory=set)  # plays whose share says the bot made them
    # the signature of every statement the hand's record keeps (fair/statements2.py), by
    # (kind, seat) for a key, shuffle or reveal, (kind, (seat, tile)) for a "not me", and
    # ("move", index) for a move (its index in the log, ``logged``)
    signatures: dict[tuple[str, object], bytes] = field(default_factory=dict)
    owner: dict[int, int] = field(default_factory=dict)  # position -> seat holding it now
    drawn: dict[int, tuple[Share, ...]] = field(default_factory=dict)  # position -> its shares
    draw: DrawRound | None = None
    draws: int = 0
    reveals: dict[int, Reveal] = field(default_factory=dict)
    answer_s: float | None = None  # how long a seat has to answer a round (None: untimed)
    escrow: EscrowBook | None = None  # an ``--escrow`` table's escrows (escrow_book.py)
    redraw_at: int | None = None  # a draw (its move) a loss cut short: to be asked again
    due: float | None = None  # when the opening's question asked now times out
    clock: bool = False  # the match header declares a move clock (a seat's bot may move for it)
    order: list[int] = field(default_factory=list)  # the boneyard's positions in draw order
    extra: Deck = ()  # a blind re-shuffle's new deck, its slots after the deal's positions
    unheld: UnheldRound | None = None  # the blind re-shuffle after a holder left (no escrow)
    asked_by: dict[int, int] = field(default_factory=dict)  # drawn position -> the host it went to

    @classmethod
    def start(cls, before: GameState, ctx: Context, openers: Sequence[int], host: int,
              me: int | None, seeds: tuple[bytes, bytes] | None, now: float,
              answer_s: float | None, escrow: bool = False) -> TableHand:
        layout = layout_for(before, ctx.tiles, openers)
        holder = None
        if me is not None and seeds is not None:
            holder = Holder(ctx, me, layout, *seeds)
        hand = cls(before.copy(), host, LockedDeal.started(ctx, layout, now, answer_s), holder,
                   answer_s=answer_s, escrow=EscrowBook() if escrow else None)
        hand.owner = {p: s for s, ps in enumerate(layout.dealt) for p in ps}
        hand.order = list(layout.boneyard)
        return hand

    @property
    def ctx(self) -> Context:
        return self.deal.ctx

    @property
    def layout(self) -> DealLayout:
        return self.deal.layout

    @property
    def deck(self) -> Deck:
        """The deal's deck, then a blind re-shuffle's new deck (``extra``)."""
        return (*self.deal.deck, *self.extra) if self.extra else self.deal.deck

    def tiles_of(self, seat: int) -> tuple[Tile, ...]:
        """The tiles this side opened that ``seat`` holds now."""
        return tuple(TILES[t] for p, t in sorted(self.opened.items())
                     if self.owner.get(p) == seat)

    def position_of(self, seat: int, tile: Tile) -> int:
        """Where ``seat``'s ``tile`` lies (this side opened it). Raises BlindError."""
        for p, t in self.opened.items():
            if t == tile.index and self.owner.get(p) == seat:
                return p
        raise BlindError(f"{seat_name(seat)} holds no {tile} here")

    # ----- the opening (its rounds: table_opening.py) ------------------------------------

    @property
    def void(self) -> bool:
        """Every seat said "not me" to every question: the deal is void (``no_double=
        reshuffle``); its keys are revealed (``on_reveal``), its record kept, and it is dealt
        again."""
        return self.view is None and self.lead is not None and self.lead.void

    def timed(self, now: float) -> None:
        """The round asked now (the opening's next question, the reveals) is due in time."""
        self.due = None if self.answer_s is None else now + self.answer_s

    def begin(self, opener: int, must_lead: Tile | None) -> HandStarted:
        """The hand starts on the public view. Raises IllegalActionError for a bad opener."""
        self.view = PublicHand(self.before, opener, must_lead)
        return self.view.started

    # ----- moves ---------------------------------------------------------------------------

    def check_proof(self, seat: int, position: int, tile: Tile, share: Share) -> None:
        """``share`` proves ``seat`` holds ``tile`` at ``position``. Raises BlindFault."""
        public = [*self.deal.shares_of(position), *self.drawn.get(position, ())]
        check_play(leave.context_of(self, position), self.deck, seat, position, tile.index,
                   share, public, self.owner.get(position), self.layout.openers[seat],
                   checked=True)

    @property
    def logged(self) -> int:
        """The moves in the hand's log so far, its resignations counted (a move's index on the
        wire and in transcript/2's signed statements)."""
        return len(self.moves) + len(self.resignations)

    def on_proof(self, index: int, share: Share, play: Play, away: bool = False) -> None:
        """The opener's share for ``play``, which will be the log's move ``index`` (kept until
        it comes; ``away``: signed as its seat's bot's move)."""
        if index != self.logged or index in self.proofs:
            raise BlindError(f"a play's share for move {index + 1} came at move "
                             f"{self.logged + 1}")
        self.proofs[index], self.plays[index] = share, play
        (self.marked.add if away else self.marked.discard)(index)

    def on_resign(self, seat: int, at: int, by: str, signer: int | None = None) -> None:
        """``seat``'s signed resignation ahead of its move (``by``: who signed it, ``Resignation``;
        ``signer``: its seat, the hand's host now when not given): ``at`` must be the moves so
        far."""
        if self.view is None or at != len(self.moves) or seat in self.resigning:
            raise BlindError(f"a resignation after {at} moves came after {len(self.moves)}")
        self.resigning[seat] = (by, seat if by == "seat" else self.host if signer is None
                                else signer)

    def apply(self, seat: int, action: Action, now: float, away: bool = False) -> list[Event]:
        """A move on the public view: a play must come with its checked share (``on_proof``,
        else BlindFault naming its opener), which says ``away`` as the move does; a draw takes
        the boneyard's next position. Raises IllegalActionError (the public rules), BlindFault,
        BlindError."""
        view = self.view
        if view is None:
            raise BlindError("the hand has not started")
        if leave.reshuffling(self) and not isinstance(action, Resign):
            raise BlindError("the tiles nobody holds are being re-shuffled: wait")
        index = self.logged
        position: int | None = None
        if isinstance(action, Play):
            opener = self.layout.openers[seat]
            share = self.proofs.get(index)
            if share is None or self.plays.get(index) != action:
                raise BlindFault(opener, f"played {action} without its signed share")
            if index == 0 and self.lead is not None:  # (its share is the rounds' answer,
                away = False  # which no bot made: the record keeps that one)
            elif (index in self.marked) != away:
                raise BlindFault(opener, f"played {action} with a share that says otherwise "
                                 "whether its bot made the move")
            self.check_proof(seat, share.position, action.tile, share)
            position = share.position
        events = view.apply(seat, action)  # (raises before anything changed)
        if not isinstance(action, Play):  # a share kept for a play that never entered the log
            self.proofs.pop(index, None)  # (a lost host's, that reached some sides only): no
            self.plays.pop(index, None)  # side keeps it, so every side's record is the same
        if isinstance(action, Play):
            assert position is not None
            del self.owner[position]
            self.opened.pop(position, None)
        elif isinstance(action, Draw):
            position = self.order[self.draws]
            self.draws += 1
            self.owner[position] = seat
            if self.escrow is not None and self.escrow.lost is not None:
                self.escrow.late.add(position)
            if self.holder is not None:
                self.holder.drew(seat)
        if view.moves > len(self.moves):  # (a resignation is kept apart in the record)
            self.moves.append(BlindMove(seat, action, position, away))
        else:
            by, signer = self.resigning.pop(seat, ("seat", seat))
            self.resignations.append(Resignation(seat, len(self.moves), by,
                                                 None if by == "seat" else signer))
            if self.resignations[-1].by == "left":  # (the same step at every side)
                leave.lose(self, seat, now)
        if view.outcome is not None:
            self.timed(now)  # the reveals are due
        return events

    def start_draw(self, index: int, now: float, answer_s: float | None) -> DrawRound:
        """The round of shares for the draw that was move ``index`` (its shares:
        ``table_draws.py``)."""
        move = self.moves[index]
        assert move.position is not None
        ctx = leave.context_of(self, move.position)
        self.draw = DrawRound.started(ctx, self.deck, move.position,
                                      self.layout.openers[move.seat], now, answer_s)
        return self.draw

    # ----- the hand's end ------------------------------------------------------------------

    def my_reveal(self) -> Reveal | None:
        return None if self.holder is None else self.holder.reveal()

    def on_reveal(self, reveal: Reveal) -> bool:
        """A holder's key and seed, checked against what it sent; True once all are in."""
        if self.reveals.get(reveal.seat) == reveal:
            return False  # (this side has it: a new host passes the members' on again)
        turn = next((t for t in self.deal.turns if t.seat == reveal.seat), None)
        if turn is None or reveal.seat in self.reveals:
            raise BlindError(f"a reveal from {seat_name(reveal.seat)} is not awaited")
        index = self.deal.turns.index(turn)
        before = self.deal.turns[index - 1].deck if index else self._open_deck()
        if not leave.rebuilt(self, reveal):
            check_reveal(self.ctx, reveal, before, turn)
        self.reveals[reveal.seat] = reveal
        return len(self.reveals) == len(leave.revealing(self))

    def _open_deck(self) -> Deck:
        return open_deck(aggregate_key(self.ctx.keys), self.ctx.tiles)

    def settle(self) -> Settlement:
        """Every tile opened from the reveals, the log replayed by the full engine."""
        assert self.view is not None
        if self.unheld is not None:
            return leave.settle_unheld(self)
        tiles = open_all(self.ctx, self.deal.deck, {s: r.secret for s, r in self.reveals.items()})
        return settle(self.view, self.before, self.layout, tiles, self.moves, self.host,
                      self.resignations, self.clock)

    def record(self, table: bytes, points: tuple[int, ...]) -> BlindHand:
        """The hand's record (``lanomino.blind-hand/1``) once it is settled."""
        ctx, deal = self.ctx, self.deal
        lost = leave.seedless(self)  # (their turns kept: no seed)
        order = questions(self.before.rules)  # (one order at every seat: asked, then by seat)
        claims = sorted(self.lead.claims if self.lead else (),
                        key=lambda c: (order.index(c[1]), c[0]))
        opening = tuple(NotMe(s, t) for s, t in claims)
        return BlindHand(table, ctx.hand, ctx.attempt, ctx.tiles, self.host, ctx.holders,
                         tuple(deal.keys[s] for s in ctx.holders),
                         tuple(ShuffleEntry.of(t, keep=t.seat in lost) for t in deal.turns),
                         opening, tuple(self.moves),
                         tuple(self.reveals[s] for s in ctx.holders if s in self.reveals),
                         points, tuple(r.under(self.host) for r in self.resignations),
                         leave.unheld_entry(self))

    # ----- deadlines ------------------------------------------------------------------------

    def deadline(self) -> float | None:
        """When the round this side waits for times out: the deal's step, the opening's
        question, a draw's shares, the reveals at the hand's end."""
        if self.draw is not None:
            return self.draw.deadline
        if self.unheld is not None and self.unheld.deck is None:
            return self.unheld.deadline
        if self.view is not None:
            return None if self.view.outcome is None else self.due
        return self.due if self.deal.step is Step.DONE else self.deal.deadline

    def expire(self, now: float) -> tuple[int, ...]:
        """The seats a deadline that passed names (none: it has not passed)."""
        if self.draw is not None:
            return self.draw.unanswered if self.draw.expire(now) else ()
        if self.unheld is not None and self.unheld.deck is None:
            return self.unheld.unanswered if self.unheld.expire(now) else ()
        if self.view is None and self.deal.step is not Step.DONE:
            return self.deal.unanswered if self.deal.expire(now) else ()
        due = self.deadline()
        if due is None or now < due or self.view is None and self.lead is None:
            return ()
        return self.waiting_for()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the round this side waits for has not heard yet: a draw's shares, the
        deal's step, the opening's question, the reveals (of a void deal, or at the hand's
        end)."""
        if self.draw is not None:
            return self.draw.missing()
        if self.unheld is not None and self.unheld.deck is None:
            return self.unheld.missing()
        if self.view is None and self.deal.step is not Step.DONE:
            return self.deal.missing()
        if self.view is None and self.lead is not None and not self.lead.void:
            return tuple(s for s in self.lead.seats if s not in self.lead.answered)
        return tuple(s for s in leave.revealing(self) if s not in self.reveals)

    def put_off(self, until: float) -> None:
        """The round this side waits for now times out at ``until`` (a silent seat's grace
        period is waited out: ``net/host/blind_leave.py``)."""
        if self.draw is not None:
            self.draw.deadline = until
        elif self.unheld is not None and self.unheld.deck is None:
            self.unheld.deadline = until
        elif self.view is None and self.deal.step is not Step.DONE:
            self.deal.deadline = until
        else:
            self.due = until

    @property
    def failed(self) -> bool:
        """A round of the hand failed for good: the deal's, a draw's, a blind re-shuffle's."""
        return self.deal.step is Step.ABANDONED or self.draw is not None and self.draw.over \
            or self.unheld is not None and self.unheld.over

    @property
    def ready(self) -> bool:
        """A seat may move: the hand is in play, no draw waits for its shares, no blind
        re-shuffle is under way."""
        return self.draw is None and self.view is not None and self.view.outcome is None \
            and (self.unheld is None or self.unheld.deck is not None)
