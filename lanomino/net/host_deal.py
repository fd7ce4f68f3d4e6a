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
from lanomino.fair.escrow import EscrowError, split
from lanomino.fair.shuffle import ALGORITHM, derive_deal
from lanomino.fair.transcript import (
    header_digest,
    header_of,
    header_statement,
)
from lanomino.net.fair_round import HandDeal, RoundError, closing
from lanomino.net.host_base import HostBase, Phase, Seat, seat_view
from lanomino.net.messages import event_to_json


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
        self._start_hand()

    # ----- the fair deal -----------------------------------------------------------------------

    def _start_hand(self) -> None:
        assert self.doc is not None
        keys = [s.identity if s is not None else b"" for s in self.seats]
        self.deal = HandDeal(self.digest, len(self.doc["hands"]) + 1, self.host_seat, keys, self.ring)
        self._new_attempt()

    def _new_attempt(self) -> None:
        assert self.state is not None and self.deal is not None
        active = [n for n in range(self.players) if self.state.active[n]]
        a = self.deal.new_attempt(self.table, active)
        self.phase = Phase.COMMIT
        for n in active:
            if n in self.local:
                secret = self._local_secret(n)
                c = commitment(a.ctx, n, secret)
                sig = self.local[n].identity.sign_statement(commit_statement(self.digest, a.ctx, n, c))
                self.deal.add_commit(n, c, sig)
            else:
                self._send(self._seat(n), "commit_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        self._after_commit()

    def _local_secret(self, seat: int) -> bytes:
        assert self.deal is not None
        key = (self.deal.hand, self.deal.current.ctx.attempt, seat)
        if key not in self.local_secrets:  # one secret per deal and seat: a restarted round reuses it
            self.local_secrets[key] = self.secret_source()
        return self.local_secrets[key]

    def _commit(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._check_round(Phase.COMMIT, body)
        assert self.deal is not None
        self.deal.add_commit(seat.seat, body["commitment"], body["signature"])
        self._after_commit()

    def _after_commit(self) -> None:
        assert self.deal is not None
        if self.deal.current.missing_commits():
            return
        self.deal.seal_set(self.identity)
        self.phase = Phase.ECHO
        a = self.deal.current
        for n in a.seats:
            if n in self.local:
                sig = self.local[n].identity.sign_statement(echo_statement(self.digest, a.ctx, n, a.digest))
                self.deal.add_echo(n, a.digest, sig)
            else:
                self._send_set(self._seat(n))
        self._after_echo()

    def _send_set(self, seat: Seat) -> None:
        assert self.deal is not None
        a = self.deal.current
        self._send(seat, "commit_set", hand=a.ctx.hand, attempt=a.ctx.attempt,
                   commitments=[[n, a.commits[n][0].hex()] for n in a.seats], signature=a.set_signature.hex())

    def _echo(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        assert self.deal is not None
        if self.phase is Phase.REVEAL and self.deal.current.echoes.get(seat.seat, (b"",))[0] == body["set"]:
            return  # a returning peer echoed the set again before revealing: nothing new
        self._check_round(Phase.ECHO, body)
        self.deal.add_echo(seat.seat, body["set"], body["signature"])
        self._after_echo()

    def _after_echo(self) -> None:
        assert self.deal is not None
        a = self.deal.current
        if a.missing_echoes():
            return
        self.phase = Phase.REVEAL
        for n in a.seats:
            if n in self.local:
                self.deal.add_secret(n, self._local_secret(n))
            elif n not in a.secrets:
                self._send(self._seat(n), "reveal_req", hand=a.ctx.hand, attempt=a.ctx.attempt)
        self._after_reveal()

    def _reveal(self, seat: Seat, body: dict[str, Any], seq: int) -> None:
        self._check_round(Phase.REVEAL, body)
        assert self.deal is not None
        self.deal.add_secret(seat.seat, body["secret"])
        self._after_reveal()

    def _after_reveal(self) -> None:
        assert self.deal is not None and self.state is not None
        a = self.deal.current
        if a.missing_secrets():
            return
        _, hands, boneyard = derive_deal(a.ctx, a.opened(), self.rules, self.state.active)
        events = start_hand(self.state, hands, boneyard)
        if isinstance(events[0], DealVoided):
            self._new_attempt()
            return
        self.phase = Phase.PLAY
        self.dealt = [list(h) for h in hands]
        self._split_escrow()
        for s in self._audience():
            started = event_to_json(seat_view(events[0], s.seat))
            self._send(s, "deal", hand=a.ctx.hand, tiles=[str(t) for t in hands[s.seat]], events=[started],
                       turn=self.state.turn, attempts=[x.public_json() for x in self.deal.attempts])
        self._host_view()
        self._run_local_seats()

    def _check_round(self, phase: Phase, body: dict[str, Any]) -> None:
        d = self.deal
        if self.phase is not phase or d is None:
            raise RoundError("wrong_phase", f"the table is in the {self.phase.value} phase")
        if (body["hand"], body["attempt"]) != (d.hand, d.current.ctx.attempt):
            raise RoundError("stale", f"this deal is hand {d.hand} attempt {d.current.ctx.attempt}")

    def _split_escrow(self) -> None:
        """XOR shares of the deal's secrets to the human peers (never to one alone), unless the
        table deals without escrow (the peers together could read every hand)."""
        assert self.deal is not None and self.state is not None
        self.escrow_shares = {}
        if not self.escrow:
            return
        holders = [s.seat for s in self._humans() if self.state.active[s.seat]]
        a = self.deal.current
        if a.missing_secrets():
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
