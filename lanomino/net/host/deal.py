"""The host session's deal part: the match header, the fair deal's commit-reveal round, escrow.

Pure (see session.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from lanomino.engine import (
    DealVoided,
    new_game,
    start_hand,
)
from lanomino.fair.attempt import Echo
from lanomino.fair.commit import (
    commit_statement,
    commitment,
    echo_statement,
)
from lanomino.fair.commit_reveal import Step
from lanomino.fair.escrow import EscrowError, split
from lanomino.fair.header import MatchHeader
from lanomino.fair.shuffle import ALGORITHM, derive_deal
from lanomino.fair.transcript import (
    header_statement,
)
from lanomino.net.fair_round import Attempt, HandDeal, RoundError, closing
from lanomino.net.host.table import Phase, Seat, Table, seat_view
from lanomino.net.watchers import VIEWER
from lanomino.net.wire import messages as m
from lanomino.net.wire.values import event_to_json


class Locked(Protocol):
    """The locked deck's deal (net/host/blind.py), at a table that deals it."""

    def start_hand(self) -> None: ...

    def deadline(self) -> float | None: ...

    def timer(self, now: float) -> None: ...

    def seat_left(self, seat: int) -> bool: ...


class Dealing:
    """The match header, the fair deal of each hand and its escrow: one part of a HostSession.

    Its own state: the secrets of the host's local seats and the escrow shares handed out. It
    calls ``after_deal`` (the play part's) once a hand is dealt."""

    def __init__(self, table: Table, *, escrow: bool) -> None:
        self.t = table
        self.escrow = escrow  # a table option (the README's trust model says what it costs)
        self.escrow_shares: dict[int, m.Escrow] = {}
        self.local_secrets: dict[tuple[int, int, int], bytes] = {}
        self.after_deal: Callable[[], None] = _nothing
        self.algorithm = ALGORITHM  # the header's: the locked deck's at a table that deals it
        self.locked: Locked | None = None  # the locked deck's deal instead (net/host/blind.py)

    # ----- the match header --------------------------------------------------------------------

    def start_header(self) -> None:
        seats = [s for s in self.t.seats if s is not None]
        self.t.header = MatchHeader(self.t.table, self.algorithm, self.t.rules_spec,
                                    tuple(s.name for s in seats), tuple(s.identity for s in seats),
                                    self.t.move_clock_ms)
        self.t.digest = self.t.header.digest()
        self.t.header_sigs = {n: p.identity.sign_statement(header_statement(self.t.digest, n))
                            for n, p in self.t.local.items()}
        self.t.go(Phase.HEADER)
        match = m.Match(self.t.header)
        for s in self.t.humans():
            self.t.send(s, match)
        self.t.publish(match)  # (public: every transcript opens with it)
        if len(self.t.header_sigs) == self.t.players:  # (every seat is the host's own)
            self._begin()

    def agree(self, seat: Seat, body: m.Agree, seq: int) -> None:
        if self.t.phase is not Phase.HEADER:
            raise RoundError("wrong_phase", "no match header is waiting for signatures")
        if not self.t.ring.verify_statement(seat.identity, body.signature,
                                          header_statement(self.t.digest, seat.seat)):
            raise RoundError("bad_signature", "the header signature does not verify")
        self.t.header_sigs[seat.seat] = body.signature
        if len(self.t.header_sigs) == self.t.players:
            self._begin()

    def _begin(self) -> None:
        sigs = [self.t.header_sigs[n].hex() for n in range(self.t.players)]
        self.t.state = new_game(self.t.rules, self.t.players)
        assert self.t.header is not None
        self.t.doc = {**self.t.header.to_json(), "header_signatures": sigs, "hands": [],
                    "end": closing(self.t.identity, self.t.digest, self.t.host_seat, 0, False,
                                   None, self.t.state.scores)}
        begin = m.Begin(tuple(self.t.header_sigs[n] for n in range(self.t.players)))
        for s in self.t.humans():
            self.t.send(s, begin)
            self.t.send_bots(s)
        self.t.publish(begin)
        self.start_hand()

    # ----- the fair deal -----------------------------------------------------------------------
    # One commit-reveal round per attempt (fair/commit_reveal.py owns its steps and deadlines);
    # the host answers for its local seats at once and asks the others.

    def start_hand(self, later: bool = False) -> None:
        """The next hand's deal begins (``later``: see ``new_attempt``)."""
        if self.locked is not None:
            self.locked.start_hand()
            return
        assert self.t.doc is not None
        keys = [s.identity if s is not None else b"" for s in self.t.seats]
        self.t.deal = HandDeal(self.t.digest, len(self.t.doc["hands"]) + 1, self.t.host_seat, keys,
                               self.t.ring)
        self.new_attempt(later)

    def new_attempt(self, later: bool = False) -> None:
        """A fresh commit-reveal round: the other seats are asked for their commitments, the
        host's local seats commit. ``later``: those commitments (a signature and its check each)
        are made once this input's messages have gone (``Table.owe``; the session's next input or
        timer, before anything else), so that they do not hold up the move that ended the hand
        before; nothing can answer the requests in between."""
        assert self.t.state is not None and self.t.deal is not None
        excluded = self.t.deal.excluded()
        seats = [n for n in range(self.t.players) if self.t.state.active[n] and n not in excluded]
        a = self.t.deal.new_attempt(self.t.table, seats, self.t.now, self.t.timings.answer_s)
        departed = [n for n in seats if n not in self.t.local and self.t.seat(n).left]
        if departed:  # still in the hand (it resigns once dealt) but gone: it cannot answer
            a.round.abandon_for(departed, self.t.now)
            self.t.deal.abandon()
            self.new_attempt()
            return
        self.t.go(Phase.DEAL)
        local = [n for n in seats if n in self.t.local]
        for n in seats:
            if n not in self.t.local:
                self.t.send(self.t.seat(n), m.CommitReq(a.ctx.hand, a.ctx.attempt))
        deal = self.t.deal

        def commit_local() -> None:
            if self.t.phase is not Phase.DEAL or self.t.deal is not deal or deal.current is not a:
                return  # the table moved on (another attempt, a step down): nothing is owed
            for n in local:
                secret = self._local_secret(n)
                c = commitment(a.ctx, n, secret)
                statement = commit_statement(self.t.digest, a.ctx, n, c)
                sig = self.t.local[n].identity.sign_statement(statement)
                a.round.add_commit(n, c, sig)
            self._advance_round()

        if later and len(local) < len(seats):  # (a remote seat must answer before the round moves)
            self.t.owe(commit_local)
        else:
            commit_local()

    def _local_secret(self, seat: int) -> bytes:
        assert self.t.deal is not None
        key = (self.t.deal.hand, self.t.deal.current.ctx.attempt, seat)
        if key not in self.local_secrets:  # one secret per deal and seat: a restarted round
            # reuses it
            self.local_secrets[key] = self.t.secret_source()
        return self.local_secrets[key]

    def commit(self, seat: Seat, body: m.Commit, seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_commit(seat.seat, body.commitment, body.signature):
            self._advance_round()

    def echo(self, seat: Seat, body: m.Echo, seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_echo(seat.seat, body.set, body.signature, self.t.now):
            self._advance_round()

    def reveal(self, seat: Seat, body: m.Reveal, seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_secret(seat.seat, body.secret, self.t.now):
            self._advance_round()

    def _advance_round(self) -> None:
        """Carry the round's step out: seal and send the set once every seat committed, ask for
        the secrets once every seat echoed, deal once every secret is in."""
        assert self.t.deal is not None
        a = self.t.deal.current
        r = a.round
        if r.after_commits(self.t.identity.sign_statement, self.t.now):
            for n in list(r.seats):
                if n in self.t.local:
                    sig = self.t.local[n].identity.sign_statement(
                        echo_statement(self.t.digest, a.ctx, n, r.digest))
                    r.add_echo(n, r.digest, sig, self.t.now)
                else:
                    self.send_set(self.t.seat(n))
        if r.step is Step.REVEAL and not a.asked_reveal:
            a.asked_reveal = True
            for n in list(r.seats):
                if n in self.t.local:
                    r.add_secret(n, self._local_secret(n), self.t.now)
                elif n not in r.secrets:
                    self.t.send(self.t.seat(n), reveal_req(a))
        if r.done:
            self._deal_out(a)

    def deadlines(self) -> list[float]:
        """When the deal's round next times out (none: no round waits)."""
        d = self.t.deal
        if self.locked is not None:
            due = self.locked.deadline()
        elif self.t.phase is Phase.DEAL and d is not None and d.current.round.deadline:
            due = d.current.round.deadline
        else:
            due = None
        return [] if due is None else [due]

    def round_timer(self, now: float) -> None:
        """A step's deadline passed: the seats that did not answer are treated as dropped (their
        grace period starts) and the deal goes on without them in a fresh attempt."""
        if self.t.all_local:
            self.start_header()  # (and begins the match: every signature is the host's own)
            return
        if self.locked is not None:
            self.locked.timer(now)
            return
        d = self.t.deal
        if self.t.phase is not Phase.DEAL or d is None:
            return
        late = d.current.round.expire(now)
        if not late:
            return
        d.abandon()
        for n in late:
            self.t.no_answer(n, now)
        self.new_attempt()

    def _deal_out(self, a: Attempt) -> None:
        assert self.t.deal is not None and self.t.state is not None
        _, hands, boneyard = derive_deal(a.ctx, a.opened(), self.t.rules, self.t.state.active)
        events = start_hand(self.t.state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            self.new_attempt()
            return
        self.t.go(Phase.PLAY)
        self.t.dealt = [list(h) for h in hands]
        attempts = tuple(x.public() for x in self.t.deal.attempts)
        abandoned = tuple(self.t.deal.abandoned)
        for s in self.t.audience():
            started = event_to_json(seat_view(events[0], s.seat))
            self.t.send(s, m.Deal(a.ctx.hand, tuple(str(t) for t in hands[s.seat]), (started,),
                                  self.t.state.turn, attempts, abandoned))
        self.t.publish(m.Deal(a.ctx.hand, (), (event_to_json(seat_view(events[0], VIEWER)),),
                              self.t.state.turn, attempts,
                              abandoned))  # watchers: no tiles, no must_lead
        self.t.host_view()
        self.after_deal()

    def send_set(self, seat: Seat) -> None:
        assert self.t.deal is not None
        a = self.t.deal.current
        self.t.send(seat, m.CommitSet(a.ctx.hand, a.ctx.attempt, tuple(a.round.commitments()),
                                      a.set_signature))

    def _check_round(self, body: m.Commit | m.Echo | m.Reveal) -> Attempt:
        d = self.t.deal
        if self.t.phase is not Phase.DEAL or d is None:
            raise RoundError("wrong_phase", f"the table is in the {self.t.phase.value} phase")
        if (body.hand, body.attempt) != (d.hand, d.current.ctx.attempt):
            raise RoundError("stale", f"this deal is hand {d.hand} attempt {d.current.ctx.attempt}")
        return d.current

    def split_escrow(self) -> None:
        """XOR shares of the deal's secrets to the human peers (never to one alone), unless the
        table deals without escrow (the peers together could read every hand)."""
        assert self.t.deal is not None and self.t.state is not None
        self.escrow_shares = {}
        if not self.escrow or self.locked is not None:  # (a locked deck's escrow: not placed yet)
            return
        holders = [s.seat for s in self.t.humans() if self.t.state.active[s.seat]]
        a = self.t.deal.current
        if len(a.secrets) < len(a.seats):
            return  # a re-shuffled hand: its secrets went with the lost host (reshuffle_round.py)
        try:
            escrow, shares = split(a.ctx, a.opened(), holders)
        except EscrowError:
            return  # fewer than two holders: losing the host follows the leave rules
        for share in shares:
            self.escrow_shares[share.holder] = m.Escrow(
                a.ctx.hand, a.ctx.attempt, tuple(escrow.seats), tuple(escrow.holders),
                tuple(escrow.digests), share.data.hex())
            self.t.send(self.t.seat(share.holder), self.escrow_shares[share.holder])


def _nothing() -> None:
    pass


def reveal_req(a: Attempt) -> m.RevealReq:
    """The ask for a seat's secret, with every seat's signed echo of the set: each seat checks
    that all of them name the set it echoed before it reveals (a host that showed two seats two
    sets is caught before any secret is out)."""
    return m.RevealReq(a.ctx.hand, a.ctx.attempt,
                       tuple(Echo(n, d, sig) for n, (d, sig) in sorted(a.echoes.items())))
