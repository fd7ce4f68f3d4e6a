"""The new host's re-shuffle round after a migration whose escrow cannot be rebuilt. Pure.

Theory (the format and the checks are in docs/fair-deal.md, "Re-shuffling the unknown tiles"):
every member's ``report`` to a new host carries its *claim*, its own dealt tiles and draws signed
(``net/peer/reshuffle_answers.py`` makes it; the report goes to the new host only, which is
trusted for secrecy like any host). When the takeover part cannot rebuild the deal from the
escrow it calls ``Reshuffling.start``: the new host keeps the claims that fit the longest move log
(``fair.reshuffle.world_at``) and runs a commit-reveal round among their seats in the re-shuffle's
own domain:

  H->P reshuffle_commit_req (hand, term, at)     P->H reshuffle_commit (commitment, signature)
  H->P reshuffle_set (claims digest, commitments, signature)     P->H reshuffle_echo (signed)
  H->P reshuffle_reveal_req                       P->H reshuffle_reveal (secret)

The new host stays in the ``MIGRATING`` phase meanwhile. When every secret is in, this part calls
``on_done`` (the takeover's ``try_resume``), which finds the finished round (``finished``): the
state at the re-shuffle, the unknown tiles dealt again in the derived order, the move log intact,
and the hand's transcript entry gets the ``reshuffled`` object. A seat whose hand is in no claim
(the lost host, a member that did not report in time) gets its count of tiles from the new order
and leaves the table; a host-side bot the new host plays keeps them and plays on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lanomino.engine import Action, GameState, HandStarted
from lanomino.engine.errors import EngineError
from lanomino.fair import reshuffle as rs
from lanomino.fair.commit_reveal import CommitReveal, Step
from lanomino.net.fair_round import RoundError
from lanomino.net.host.table import Seat, Table
from lanomino.net.wire import messages as m
from lanomino.net.wire.checks import JsonObject
from lanomino.net.wire.values import parse_move

MAX_CLAIM_ROUNDS = 4


@dataclass(slots=True)
class Round:
    """A re-shuffle round the new host runs (one per hand and term): the claims it orders and the
    commit-reveal machine (``fair/commit_reveal.py``) among the claimants."""

    ctx: rs.ReshuffleContext
    at: int
    opener: int
    claims: list[rs.Claim]
    moves: list[JsonObject]
    signatures: list[bytes]
    round: CommitReveal
    secret: bytes = b""  # the new host's own

    @property
    def seats(self) -> list[int]:
        return [c.seat for c in self.claims]

    @property
    def done(self) -> bool:
        return self.round.done

    def actions(self) -> list[tuple[int, Action]]:
        return [(mv["seat"], parse_move(mv, mv["seat"])) for mv in self.moves]

    def to_json(self, host: int) -> JsonObject:
        r = self.round.attempt(0).to_json()
        del r["attempt"]
        return {"term": self.ctx.term, "host": host, "at": self.at, "opener": self.opener,
                "claims": [c.to_json() for c in self.claims], **r}


@dataclass(frozen=True, slots=True)
class Hand:
    """What the new host knows of the hand in play when it would re-shuffle it."""

    number: int
    attempts: int  # how many deal attempts the hand had (the re-shuffle's deck order needs it)
    started: HandStarted
    moves: list[JsonObject]  # the longest move log the members reported
    signatures: list[bytes]


class Reshuffling:
    """The re-shuffle part of a new host: at most one round at a time (its own state)."""

    def __init__(self, table: Table, on_done: Callable[[], None]) -> None:
        self.t = table
        self.on_done = on_done  # every secret is in, or a deadline passed: try to resume
        self.round: Round | None = None

    def finished(self, hand: int) -> Round | None:
        """The finished round for ``hand`` in this term, if there is one."""
        r = self.round
        if r is None or not r.done or r.ctx.hand != hand or r.ctx.term != self.t.term:
            return None
        return r

    def running(self, hand: int) -> bool:
        """A round for ``hand`` in this term was started (and not given up)."""
        r = self.round
        return r is not None and r.ctx.hand == hand and r.ctx.term == self.t.term

    def start(self, state: GameState, hand: Hand, reports: Mapping[int, m.Report]) -> bool:
        """Start the re-shuffle round of ``hand``. False when no claim fits the log (the hand is
        then dealt again, as before)."""
        t = self.t
        try:
            actions = [(mv["seat"], parse_move(mv, mv["seat"])) for mv in hand.moves]
        except (KeyError, ValueError):
            return False
        claims: dict[int, rs.Claim] = {}
        for n, report in sorted(reports.items()):
            claim = report.claim
            if report.hand == hand.number and self._signed(n, hand.number, claim):
                assert claim is not None
                claims[n] = claim
        if not self._fitting(state, hand, claims, actions):
            return False
        ctx = rs.ReshuffleContext(t.table, hand.number, t.term)
        ordered = [claims[s] for s in sorted(claims)]
        domain = rs.reshuffle_domain(t.digest, ctx, t.host_seat, len(hand.moves),
                                     hand.started.opener,
                                     rs.claims_digest(ordered), self._verify)
        machine = CommitReveal.started(domain, [c.seat for c in ordered], t.now, t.timings.answer_s)
        r = Round(ctx, len(hand.moves), hand.started.opener, ordered, hand.moves, hand.signatures,
                  machine, t.secret_source())
        self.round = r
        me = t.host_seat
        c = rs.reshuffle_commitment(ctx, me, r.secret)
        machine.add_commit(me, c, t.identity.sign_statement(domain.commit_statement(me, c)))
        for n in r.seats:
            if n != me:
                t.send(t.seat(n), m.ReshuffleCommitReq(hand.number, ctx.term, r.at))
        self._advance(r)
        return True

    def _fitting(self, state: GameState, hand: Hand, claims: dict[int, rs.Claim],
                 actions: list[tuple[int, Action]]) -> bool:
        """Drop the claims that do not fit the log (at most ``MAX_CLAIM_ROUNDS`` times); True when
        the rest, this host's among them, do."""
        for _ in range(MAX_CLAIM_ROUNDS):
            if not claims or self.t.host_seat not in claims:
                return False
            try:
                rs.world_at(state.copy(), hand.attempts, hand.started.opener, claims, actions)
                return True
            except rs.ReshuffleError as exc:
                if exc.seat not in claims:
                    return False  # the log itself does not fit: nothing to re-shuffle from
                del claims[exc.seat]
            except EngineError:
                return False
        return False

    def _verify(self, seat: int, signature: bytes, statement: JsonObject) -> bool:
        return bool(self.t.ring.verify_statement(self.t.seat(seat).identity, signature, statement))

    def _signed(self, seat: int, hand: int, claim: rs.Claim | None) -> bool:
        """A member's claim (typed on arrival) is its own, and signed for this hand and term."""
        if claim is None or claim.seat != seat:
            return False
        statement = rs.claim_statement(self.t.digest, hand, self.t.term, seat, claim.dealt,
                                       claim.drawn)
        return self._verify(seat, claim.signature, statement)

    # ----- the members' answers (the session's dispatch table calls these) -------------------

    def _check(self, body: m.ReshuffleCommit | m.ReshuffleEcho | m.ReshuffleReveal,
               seat: int) -> Round:
        r = self.round
        key = (body.hand, body.term)
        if r is None or key != (r.ctx.hand, r.ctx.term) or seat not in r.seats:
            raise RoundError("stale", "no re-shuffle round is waiting for this seat")
        return r

    def commit(self, seat: Seat, body: m.ReshuffleCommit, seq: int) -> None:
        r = self._check(body, seat.seat)
        if r.round.step is not Step.COMMIT:
            return  # a resent commitment: nothing new
        if r.round.add_commit(seat.seat, body.commitment, body.signature):
            self._advance(r)

    def echo(self, seat: Seat, body: m.ReshuffleEcho, seq: int) -> None:
        r = self._check(body, seat.seat)
        if r.round.add_echo(seat.seat, body.set, body.signature, self.t.now):
            self._advance(r)

    def reveal(self, seat: Seat, body: m.ReshuffleReveal, seq: int) -> None:
        r = self._check(body, seat.seat)
        if r.round.add_secret(seat.seat, body.secret, self.t.now):
            self._advance(r)

    def _advance(self, r: Round) -> None:
        """Carry the round's step out (as the deal part does for a deal): send the signed set, ask
        for the secrets, resume the table once every secret is in."""
        t = self.t
        cr, me = r.round, t.host_seat
        if cr.after_commits(t.identity.sign_statement, t.now):
            echo = t.identity.sign_statement(cr.domain.echo_statement(me, cr.digest))
            cr.add_echo(me, cr.digest, echo, t.now)
            for n in r.seats:
                if n != me:
                    t.send(t.seat(n), m.ReshuffleSet(
                        r.ctx.hand, r.ctx.term, r.at, r.opener, rs.claims_digest(r.claims),
                        tuple(cr.commitments()), cr.set_signature))
        if cr.step is Step.REVEAL and me not in cr.secrets:
            for n in r.seats:
                if n != me:
                    t.send(t.seat(n), m.ReshuffleRevealReq(r.ctx.hand, r.ctx.term))
            cr.add_secret(me, r.secret, t.now)
        if cr.done:
            self.on_done()

    def deadline(self) -> float | None:
        r = self.round
        return r.round.deadline if r is not None and r.round.deadline else None

    def expire(self, now: float) -> None:
        """A step's deadline passed. Its secrets cannot be asked for again in the same domain (the
        new host may have seen some), so the hand is not re-shuffled: it is dealt again (the
        fallback for a hand nobody can rebuild), and the silent seats count as dropped."""
        r = self.round
        if r is None or r.done:
            return
        late = r.round.expire(now)
        if not late:
            return
        self.round = None  # the hand stays in the peer's re-shuffled hands: ``start`` is not asked
        for n in late:
            self.t.no_answer(n, now)
        self.on_done()
