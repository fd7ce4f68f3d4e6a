"""The host session's match header and the fair deal's commit-reveal round, and escrow. Pure."""

from __future__ import annotations

from typing import Any

from lanomino.engine import (
    DealVoided,
    new_game,
    start_hand,
)
from lanomino.fair.commit import (
    commit_statement,
    commitment,
    echo_statement,
)
from lanomino.fair.commit_reveal import Step
from lanomino.fair.escrow import EscrowError, split
from lanomino.fair.shuffle import ALGORITHM, derive_deal
from lanomino.fair.transcript import (
    header_digest,
    header_of,
    header_statement,
)
from lanomino.net.fair_round import Attempt, HandDeal, RoundError, closing
from lanomino.net.host_base import HostBase, Phase, Seat, seat_view
from lanomino.net.session_base import ProtocolProblem
from lanomino.net.watchers import VIEWER
from lanomino.net.wire.values import event_to_json


class HostDeal(HostBase):
    """The match header and the fair deal (see host_session.py)."""

    # ----- the match header --------------------------------------------------------------------

    def _start_header(self) -> None:
        seats = [s for s in self.seats if s is not None]
        self.header = header_of(self.table, ALGORITHM, self.rules_spec, [s.name for s in seats],
                                [s.identity for s in seats])
        self.digest = header_digest(self.header)
        self.header_sigs = {n: p.identity.sign_statement(header_statement(self.digest, n))
                            for n, p in self.local.items()}
        self.phase = Phase.HEADER
        for s in self._humans():
            self._send(s, "match", header=self.header)
        self._publish("match", header=self.header)  # (public: every transcript opens with it)

    def _agree(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        if self.phase is not Phase.HEADER:
            raise RoundError("wrong_phase", "no match header is waiting for signatures")
        if not self.ring.verify_statement(seat.identity, body["signature"],
                                          header_statement(self.digest, seat.seat)):
            raise RoundError("bad_signature", "the header signature does not verify")
        self.header_sigs[seat.seat] = body["signature"]
        if len(self.header_sigs) == self.players:
            self._begin()

    def _begin(self) -> None:
        sigs = [self.header_sigs[n].hex() for n in range(self.players)]
        self.state = new_game(self.rules, self.players)
        self.doc = {**self.header, "header_signatures": sigs, "hands": [],
                    "end": closing(self.identity, self.digest, self.host_seat, 0, False, None, self.state.scores)}
        for s in self._humans():
            self._send(s, "begin", signatures=sigs)
            self._send_bots(s)
        self._publish("begin", signatures=sigs)
        self._start_hand()

    # ----- the fair deal -----------------------------------------------------------------------
    # One commit-reveal round per attempt (fair/commit_reveal.py owns its steps and deadlines);
    # the host answers for its local seats at once and asks the others.

    def _start_hand(self) -> None:
        assert self.doc is not None
        keys = [s.identity if s is not None else b"" for s in self.seats]
        self.deal = HandDeal(self.digest, len(self.doc["hands"]) + 1, self.host_seat, keys, self.ring)
        self._new_attempt()

    def _new_attempt(self) -> None:
        assert self.state is not None and self.deal is not None
        excluded = self.deal.excluded()
        seats = [n for n in range(self.players) if self.state.active[n] and n not in excluded]
        a = self.deal.new_attempt(self.table, seats, self.now, self.timings.answer_s)
        departed = [n for n in seats if n not in self.local and self._seat(n).left]
        if departed:  # still in the hand (it resigns once dealt) but gone: it cannot answer
            a.round.abandon_for(departed, self.now)
            self.deal.abandon()
            self._new_attempt()
            return
        self.phase = Phase.DEAL
        for n in seats:
            if n in self.local:
                secret = self._local_secret(n)
                c = commitment(a.ctx, n, secret)
                sig = self.local[n].identity.sign_statement(commit_statement(self.digest, a.ctx, n, c))
                a.round.add_commit(n, c, sig)
            else:
                self._send(self._seat(n), "commit_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        self._advance_round()

    def _local_secret(self, seat: int) -> bytes:
        assert self.deal is not None
        key = (self.deal.hand, self.deal.current.ctx.attempt, seat)
        if key not in self.local_secrets:  # one secret per deal and seat: a restarted round reuses it
            self.local_secrets[key] = self.secret_source()
        return self.local_secrets[key]

    def _commit(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_commit(seat.seat, body["commitment"], body["signature"]):
            self._advance_round()

    def _echo(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_echo(seat.seat, body["set"], body["signature"], self.now):
            self._advance_round()

    def _reveal(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        a = self._check_round(body)
        if a.round.add_secret(seat.seat, body["secret"], self.now):
            self._advance_round()

    def _advance_round(self) -> None:
        """Carry the round's step out: seal and send the set once every seat committed, ask for
        the secrets once every seat echoed, deal once every secret is in."""
        assert self.deal is not None
        a = self.deal.current
        r = a.round
        if r.after_commits(self.identity.sign_statement, self.now):
            for n in list(r.seats):
                if n in self.local:
                    sig = self.local[n].identity.sign_statement(
                        echo_statement(self.digest, a.ctx, n, r.digest))
                    r.add_echo(n, r.digest, sig, self.now)
                else:
                    self._send_set(self._seat(n))
        if r.step is Step.REVEAL and not a.asked_reveal:
            a.asked_reveal = True
            for n in list(r.seats):
                if n in self.local:
                    r.add_secret(n, self._local_secret(n), self.now)
                elif n not in r.secrets:
                    self._send(self._seat(n), "reveal_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        if r.done:
            self._deal_out(a)

    def _round_timer(self, now: float) -> None:
        """A step's deadline passed: the seats that did not answer are treated as dropped (their
        grace period starts) and the deal goes on without them in a fresh attempt."""
        d = self.deal
        if self.phase is not Phase.DEAL or d is None:
            return
        late = d.current.round.expire(now)
        if not late:
            return
        d.abandon()
        for n in late:
            self._no_answer(n, now)
        self._new_attempt()

    def _no_answer(self, number: int, now: float) -> None:
        """Seat ``number`` let a deadline pass: it counts as dropped (its grace period starts;
        past it, the table's leave rules apply)."""
        seat = self._seat(number)
        self.stats["deadline.no_answer"] += 1
        self._events.append(ProtocolProblem("no_answer", f"seat {number} did not answer in time",
                                            number))
        if seat.unanswered_since is None:
            seat.unanswered_since = now

    def _deal_out(self, a: Attempt) -> None:
        assert self.deal is not None and self.state is not None
        _, hands, boneyard = derive_deal(a.ctx, a.opened(), self.rules, self.state.active)
        events = start_hand(self.state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            self._new_attempt()
            return
        self.phase = Phase.PLAY
        self.dealt = [list(h) for h in hands]
        for s in self._audience():
            started = event_to_json(seat_view(events[0], s.seat))
            self._send(s, "deal", hand=a.ctx.hand, tiles=[str(t) for t in hands[s.seat]], events=[started],
                       turn=self.state.turn, attempts=[x.public_json() for x in self.deal.attempts],
                       abandoned=list(self.deal.abandoned))
        self._publish("deal", hand=a.ctx.hand, tiles=[], events=[event_to_json(seat_view(events[0], VIEWER))],
                      turn=self.state.turn, attempts=[x.public_json() for x in self.deal.attempts],
                      abandoned=list(self.deal.abandoned))  # watchers: no tiles, no must_lead
        self._host_view()
        self._after_deal()

    def _send_set(self, seat: Seat) -> None:
        assert self.deal is not None
        a = self.deal.current
        self._send(seat, "commit_set", hand=a.ctx.hand, attempt=a.ctx.attempt,
                   commitments=[[n, c.hex()] for n, c in a.round.commitments()],
                   signature=a.set_signature.hex())

    def _check_round(self, body: dict[str, Any]) -> Attempt:
        d = self.deal
        if self.phase is not Phase.DEAL or d is None:
            raise RoundError("wrong_phase", f"the table is in the {self.phase.value} phase")
        if (body["hand"], body["attempt"]) != (d.hand, d.current.ctx.attempt):
            raise RoundError("stale", f"this deal is hand {d.hand} attempt {d.current.ctx.attempt}")
        return d.current

    def _split_escrow(self) -> None:
        """XOR shares of the deal's secrets to the human peers (never to one alone), unless the
        table deals without escrow (the peers together could read every hand)."""
        assert self.deal is not None and self.state is not None
        self.escrow_shares = {}
        if not self.escrow:
            return
        holders = [s.seat for s in self._humans() if self.state.active[s.seat]]
        a = self.deal.current
        if len(a.secrets) < len(a.seats):
            return  # a re-shuffled hand: its secrets went with the lost host (net/reshuffle.py)
        try:
            escrow, shares = split(a.ctx, a.opened(), holders)
        except EscrowError:
            return  # fewer than two holders: losing the host follows the leave rules
        for share in shares:
            self.escrow_shares[share.holder] = {
                "hand": a.ctx.hand, "attempt": a.ctx.attempt, "seats": list(escrow.seats),
                "holders": list(escrow.holders), "digests": [d.hex() for d in escrow.digests],
                "share": share.data.hex()}
            self._send(self._seat(share.holder), "escrow", **self.escrow_shares[share.holder])
