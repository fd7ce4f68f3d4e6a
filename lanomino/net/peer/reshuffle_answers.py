"""A peer's part in the re-shuffle round after a migration (the new host's side and the theory:
``net/host/reshuffle_round.py``). Pure.

The peer's ``report`` to a new host carries its signed claim (``claim``); to the new host's
``reshuffle_commit_req`` it answers with a commitment to a fresh secret, to the signed
``reshuffle_set`` with an echo (after checking its own commitment, the host's signature and the
opener), and it reveals only for a set it echoed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from lanomino.engine import HandStarted, Tile, TileDrawn
from lanomino.fair import reshuffle as rs
from lanomino.fair.commit import set_digest
from lanomino.fair.identity import Identity, KeyRing
from lanomino.net.view import PeerView
from lanomino.net.wire import messages as m


class PeerSide(Protocol):
    """What the re-shuffle part reads of its peer session, and how it sends."""

    seat: int
    term: int
    table: bytes
    digest: str
    host_seat: int
    keys: list[bytes]
    identity: Identity
    ring: KeyRing
    view: PeerView | None
    dealt: dict[int, tuple[Tile, ...]]
    secret_source: Callable[[], bytes]

    def _send(self, body: m.Body) -> None: ...


class ReshuffleAnswers:
    """The re-shuffle rounds this peer took part in: its secrets, what it committed to and what it
    echoed."""

    def __init__(self, peer: PeerSide) -> None:
        self.peer = peer
        self.secrets: dict[tuple[int, int], bytes] = {}  # (hand, term) -> this seat's secret
        self.committed: dict[tuple[int, int], bytes] = {}
        self.echoed: set[tuple[int, int]] = set()
        # the hands this peer took part in a re-shuffle of (a later loss of that hand's host cannot
        # be re-shuffled again: the first re-shuffle's claims went with that host)
        self.hands: set[int] = set()

    def claim(self, hand: int) -> rs.Claim | None:
        """This seat's signed claim of its part of the hand in play (the ``report``'s ``claim``)."""
        peer = self.peer
        view = peer.view
        if not hand or view is None or hand not in peer.dealt or not view.history:
            return None
        started = view.history[0]
        if not isinstance(started, HandStarted):
            return None
        dealt = tuple(peer.dealt[hand])
        drawn = tuple(e.tile for e in view.history
                      if isinstance(e, TileDrawn) and e.seat == peer.seat and e.tile is not None)
        statement = rs.claim_statement(peer.digest, hand, peer.term, peer.seat, dealt, drawn)
        return rs.Claim(peer.seat, dealt, drawn, peer.identity.sign_statement(statement))

    def _ctx(self, body: m.ReshuffleCommitReq | m.ReshuffleSet | m.ReshuffleRevealReq,
             ) -> rs.ReshuffleContext:
        return rs.ReshuffleContext(self.peer.table, body.hand, body.term)

    def commit_req(self, body: m.ReshuffleCommitReq) -> None:
        peer, ctx = self.peer, self._ctx(body)
        key = (ctx.hand, ctx.term)
        if key not in self.secrets:
            self.secrets[key] = peer.secret_source()
        self.hands.add(ctx.hand)
        c = rs.reshuffle_commitment(ctx, peer.seat, self.secrets[key])
        self.committed[key] = c
        sig = peer.identity.sign_statement(rs.commit_statement(peer.digest, ctx, peer.seat, c))
        peer._send(m.ReshuffleCommit(ctx.hand, ctx.term, c, sig))

    def set(self, body: m.ReshuffleSet) -> None:
        peer, ctx = self.peer, self._ctx(body)
        mine = self.committed.get((ctx.hand, ctx.term))
        if mine is None:
            raise ValueError("a re-shuffle set for a round this seat did not commit to")
        entries = list(body.commitments)
        if (peer.seat, mine) not in entries or [s for s, _ in entries] != sorted({s for s,
                                                                                  _ in entries}):
            raise ValueError("this seat's re-shuffle commitment is missing from the set, "
                             "or the set is out of order")
        statement = rs.set_statement(peer.digest, ctx, peer.host_seat, body.at, body.opener,
                                     body.claims, entries)
        if not peer.ring.verify_statement(peer.keys[peer.host_seat], body.signature, statement):
            raise ValueError("the re-shuffle set is not signed by the host")
        view = peer.view
        started = view.history[0] if view is not None and view.history else None
        if not isinstance(started, HandStarted) or started.opener != body.opener:
            raise ValueError("the re-shuffle set names another opener than the one this seat saw")
        digest = set_digest(statement)
        self.echoed.add((ctx.hand, ctx.term))
        sig = peer.identity.sign_statement(rs.echo_statement(peer.digest, ctx, peer.seat, digest))
        peer._send(m.ReshuffleEcho(ctx.hand, ctx.term, digest, sig))

    def reveal_req(self, body: m.ReshuffleRevealReq) -> None:
        ctx = self._ctx(body)
        if (ctx.hand, ctx.term) not in self.echoed:
            raise ValueError("asked to reveal before this seat echoed the re-shuffle set")
        secret = self.secrets[(ctx.hand, ctx.term)]
        self.peer._send(m.ReshuffleReveal(ctx.hand, ctx.term, secret))
