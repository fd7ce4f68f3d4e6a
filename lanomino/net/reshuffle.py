"""The re-shuffle round after a migration whose escrow cannot be rebuilt: both sides. Pure.

Theory (the format and the checks are in docs/fair-deal.md, "Re-shuffling the unknown tiles"):
every member's ``report`` to a new host carries its *claim*, its own dealt tiles and draws signed
(``own_claim``; the report goes to the new host only, which is trusted for secrecy like any host).
When ``HostMigrate._rebuild_hand`` cannot rebuild the deal from the escrow it calls ``start``: the
new host keeps the claims that fit the longest move log (``fair.reshuffle.world_at``) and runs a
commit-reveal round among their seats in the re-shuffle's own domain:

  H->P reshuffle_commit_req (hand, term, at)     P->H reshuffle_commit (commitment, signature)
  H->P reshuffle_set (claims digest, commitments, signature)     P->H reshuffle_echo (signed)
  H->P reshuffle_reveal_req                       P->H reshuffle_reveal (secret)

The new host stays in the ``MIGRATING`` phase meanwhile. When every secret is in, it calls
``_try_resume`` again; ``_rebuild_hand`` then finds the finished round (``resume``): the state at
the re-shuffle, the unknown tiles dealt again in the derived order, the move log intact, and the
hand's transcript entry gets the ``reshuffled`` object. A seat whose hand is in no claim (the lost
host, a member that did not report in time) gets its count of tiles from the new order and leaves
the table; a host-side bot the new host plays keeps them and plays on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lanomino.engine import GameState, HandStarted, TileDrawn
from lanomino.engine.errors import EngineError
from lanomino.fair import reshuffle as rs
from lanomino.fair.commit import CommitmentError, set_digest
from lanomino.fair.commit_reveal import CommitReveal, Step
from lanomino.net.fair_round import HandDeal, RoundError
from lanomino.net.wire.values import parse_move, tiles_from_text

MAX_CLAIM_ROUNDS = 4


# ----- the peer's side ---------------------------------------------------------------------------


def _peer_store(peer: Any) -> dict[str, Any]:
    store: dict[str, Any] = peer.reshuffle_store
    return store


def reshuffled_hands(peer: Any) -> set[int]:
    """The hands this peer took part in a re-shuffle of (a later loss of that hand's host cannot
    be re-shuffled again: the first re-shuffle's claims went with that host)."""
    hands: set[int] = _peer_store(peer)["hands"]
    return hands


def own_claim(peer: Any, hand: int) -> dict[str, Any] | None:
    """This seat's signed claim of its part of the hand in play (the ``report``'s ``claim``)."""
    view = peer.view
    if not hand or view is None or hand not in peer.dealt or not view.history:
        return None
    started = view.history[0]
    if not isinstance(started, HandStarted):
        return None
    dealt = tuple(peer.dealt[hand])
    drawn = tuple(e.tile for e in view.history if isinstance(e, TileDrawn) and e.seat == peer.seat
                  and e.tile is not None)
    statement = rs.claim_statement(peer.digest, hand, peer.term, peer.seat, dealt, drawn)
    return {"seat": peer.seat, "dealt": [str(t) for t in dealt], "drawn": [str(t) for t in drawn],
            "opener": started.opener, "signature": peer.identity.sign_statement(statement).hex()}


def _peer_ctx(peer: Any, body: dict[str, Any]) -> rs.ReshuffleContext:
    return rs.ReshuffleContext(peer.table, body["hand"], body["term"])


def peer_commit_req(peer: Any, body: dict[str, Any]) -> None:
    ctx = _peer_ctx(peer, body)
    store = _peer_store(peer)
    key = (ctx.hand, ctx.term)
    if key not in store["secrets"]:
        store["secrets"][key] = peer.secret_source()
    store["hands"].add(ctx.hand)
    c = rs.reshuffle_commitment(ctx, peer.seat, store["secrets"][key])
    store.setdefault("committed", {})[key] = c
    sig = peer.identity.sign_statement(rs.commit_statement(peer.digest, ctx, peer.seat, c))
    peer._send("reshuffle_commit", hand=ctx.hand, term=ctx.term, commitment=c.hex(), signature=sig.hex())


def peer_set(peer: Any, body: dict[str, Any]) -> None:
    ctx = _peer_ctx(peer, body)
    store = _peer_store(peer)
    mine = store.get("committed", {}).get((ctx.hand, ctx.term))
    if mine is None:
        raise ValueError("a re-shuffle set for a round this seat did not commit to")
    entries = [(seat, c) for seat, c in body["commitments"]]
    if (peer.seat, mine) not in entries or [s for s, _ in entries] != sorted({s for s, _ in entries}):
        raise ValueError("this seat's re-shuffle commitment is missing from the set, or the set is out of order")
    statement = rs.set_statement(peer.digest, ctx, peer.host_seat, body["at"], body["opener"], body["claims"],
                                 entries)
    if not peer.ring.verify_statement(peer.keys[peer.host_seat], body["signature"], statement):
        raise ValueError("the re-shuffle set is not signed by the host")
    started = peer.view.history[0] if peer.view is not None and peer.view.history else None
    if not isinstance(started, HandStarted) or started.opener != body["opener"]:
        raise ValueError("the re-shuffle set names another opener than the one this seat saw")
    digest = set_digest(statement)
    store["echoed"].add((ctx.hand, ctx.term))
    sig = peer.identity.sign_statement(rs.echo_statement(peer.digest, ctx, peer.seat, digest))
    peer._send("reshuffle_echo", hand=ctx.hand, term=ctx.term, set=digest.hex(), signature=sig.hex())


def peer_reveal_req(peer: Any, body: dict[str, Any]) -> None:
    ctx = _peer_ctx(peer, body)
    store = _peer_store(peer)
    if (ctx.hand, ctx.term) not in store["echoed"]:
        raise ValueError("asked to reveal before this seat echoed the re-shuffle set")
    secret = store["secrets"][(ctx.hand, ctx.term)]
    peer._send("reshuffle_reveal", hand=ctx.hand, term=ctx.term, secret=secret.hex())


# ----- the new host's side -----------------------------------------------------------------------


@dataclass(slots=True)
class Round:
    """A re-shuffle round the new host runs (one per hand and term): the claims it orders and the
    commit-reveal machine (``fair/commit_reveal.py``) among the claimants."""

    ctx: rs.ReshuffleContext
    at: int
    opener: int
    claims: list[rs.Claim]
    moves: list[dict[str, Any]]
    signatures: list[bytes]
    round: CommitReveal
    secret: bytes = b""  # the new host's own

    @property
    def seats(self) -> list[int]:
        return [c.seat for c in self.claims]

    @property
    def done(self) -> bool:
        return self.round.done

    def to_json(self, host: int) -> dict[str, Any]:
        r = self.round.to_json(0)
        del r["attempt"]
        return {"term": self.ctx.term, "host": host, "at": self.at, "opener": self.opener,
                "claims": [c.to_json() for c in self.claims], **r}


def _round(host: Any) -> Round | None:
    r: Round | None = host.reshuffle_round
    return r


def _parse_claim(host: Any, seat: int, hand: int, raw: Any) -> rs.Claim | None:
    """A member's claim as the new host checks it (signature, shape); None if it does not check out."""
    try:
        if not isinstance(raw, dict) or raw.get("seat") != seat:
            return None
        dealt = tiles_from_text(raw["dealt"], "claim.dealt")
        drawn = tiles_from_text(raw["drawn"], "claim.drawn")
        sig = bytes.fromhex(raw["signature"])
        statement = rs.claim_statement(host.digest, hand, host.term, seat, dealt, drawn)
        if not host.ring.verify_statement(host.seats[seat].identity, sig, statement):
            return None
        return rs.Claim(seat, dealt, drawn, sig)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def start(host: Any, state: GameState, hand: int) -> bool:
    """The escrow could not give the hand in play back: start (or keep waiting for) the re-shuffle
    round. False when no re-shuffle is possible (no hand was dealt, this hand was re-shuffled
    before, no claim fits the log): the hand is then dealt again, as before."""
    running = _round(host)
    if running is not None and running.ctx.hand == hand and running.ctx.term == host.term:
        return True
    carried = host.carried
    attempts = carried.attempts.get(hand)
    if not attempts or hand in reshuffled_hands(carried) or carried.view is None or not carried.view.history:
        return False
    started = carried.view.history[0]
    if not isinstance(started, HandStarted):
        return False
    moves, sigs = host._longest_log(hand)
    try:
        actions = [(m["seat"], parse_move(m, m["seat"])) for m in moves]
    except (KeyError, ValueError):
        return False
    claims: dict[int, rs.Claim] = {}
    for n, report in sorted(host.reports.items()):
        claim = _parse_claim(host, n, hand, report.get("claim")) if report.get("hand") == hand else None
        if claim is not None:
            claims[n] = claim
    for _ in range(MAX_CLAIM_ROUNDS):
        if not claims or host.host_seat not in claims:
            return False
        try:
            rs.world_at(state.copy(), len(attempts), started.opener, claims, actions)
            break
        except rs.ReshuffleError as exc:
            if exc.seat not in claims:
                return False  # the log itself does not fit: nothing to re-shuffle from
            del claims[exc.seat]
        except EngineError:
            return False
    else:
        return False
    ctx = rs.ReshuffleContext(host.table, hand, host.term)
    ordered = [claims[s] for s in sorted(claims)]

    def verify(seat: int, signature: bytes, statement: dict[str, Any]) -> bool:
        return bool(host.ring.verify_statement(host.seats[seat].identity, signature, statement))

    domain = rs.reshuffle_domain(host.digest, ctx, host.host_seat, len(moves), started.opener,
                                 rs.claims_digest(ordered), verify)
    machine = CommitReveal.started(domain, [c.seat for c in ordered], host.now, host.timings.answer_s)
    r = Round(ctx, len(moves), started.opener, ordered, moves, sigs, machine, host.secret_source())
    host.reshuffle_round = r
    reshuffled_hands(carried).add(hand)
    me = host.host_seat
    c = rs.reshuffle_commitment(ctx, me, r.secret)
    machine.add_commit(me, c, host.identity.sign_statement(domain.commit_statement(me, c)))
    for n in r.seats:
        if n != me:
            host._send(host._seat(n), "reshuffle_commit_req", hand=hand, term=ctx.term, at=r.at)
    _advance(host, r)
    return True


def _check(host: Any, body: dict[str, Any], seat: int) -> Round:
    r = _round(host)
    if r is None or (body["hand"], body["term"]) != (r.ctx.hand, r.ctx.term) or seat not in r.seats:
        raise RoundError("stale", "no re-shuffle round is waiting for this seat")
    return r


def host_commit(host: Any, seat: Any, body: dict[str, Any], seq: int) -> None:
    r = _check(host, body, seat.seat)
    if r.round.step is not Step.COMMIT:
        return  # a resent commitment: nothing new
    if r.round.add_commit(seat.seat, body["commitment"], body["signature"]):
        _advance(host, r)


def host_echo(host: Any, seat: Any, body: dict[str, Any], seq: int) -> None:
    r = _check(host, body, seat.seat)
    if r.round.add_echo(seat.seat, body["set"], body["signature"], host.now):
        _advance(host, r)


def host_reveal(host: Any, seat: Any, body: dict[str, Any], seq: int) -> None:
    r = _check(host, body, seat.seat)
    if r.round.add_secret(seat.seat, body["secret"], host.now):
        _advance(host, r)


def _advance(host: Any, r: Round) -> None:
    """Carry the round's step out (as host_deal does for a deal): send the signed set, ask for
    the secrets, resume the table once every secret is in."""
    m, me = r.round, host.host_seat
    if m.after_commits(host.identity.sign_statement, host.now):
        m.add_echo(me, m.digest, host.identity.sign_statement(m.domain.echo_statement(me, m.digest)),
                   host.now)
        for n in r.seats:
            if n != me:
                host._send(host._seat(n), "reshuffle_set", hand=r.ctx.hand, term=r.ctx.term, at=r.at,
                           opener=r.opener, claims=rs.claims_digest(r.claims).hex(),
                           commitments=[[s, c.hex()] for s, c in m.commitments()],
                           signature=m.set_signature.hex())
    if m.step is Step.REVEAL and me not in m.secrets:
        for n in r.seats:
            if n != me:
                host._send(host._seat(n), "reshuffle_reveal_req", hand=r.ctx.hand, term=r.ctx.term)
        m.add_secret(me, r.secret, host.now)
    if m.done:
        host._try_resume()


def expire(host: Any, now: float) -> None:
    """A re-shuffle step's deadline passed. Its secrets cannot be asked for again in the same
    domain (the new host may have seen some), so the hand is not re-shuffled: it is dealt again
    (the fallback for a hand nobody can rebuild), and the silent seats count as dropped."""
    r = _round(host)
    if r is None or r.done:
        return
    late = r.round.expire(now)
    if not late:
        return
    host.reshuffle_round = None  # the hand stays in reshuffled_hands: ``start`` now declines it
    for n in late:
        host._no_answer(n, now)
    host._try_resume()


def resume(host: Any, state: GameState, hand: int) -> bool | None:
    """The hand in play after a finished re-shuffle round (True), or None when there is none."""
    r = _round(host)
    if r is None or not r.done or r.ctx.hand != hand or r.ctx.term != host.term:
        return None
    attempts = host.carried.attempts.get(hand, [])
    claims = {c.seat: c for c in r.claims}
    actions = [(m["seat"], parse_move(m, m["seat"])) for m in r.moves]
    try:
        world = rs.world_at(state, len(attempts), r.opener, claims, actions)
        rs.reshuffle(state, r.seats, rs.reshuffle_seed(r.ctx, r.round.opened()))
    except (rs.ReshuffleError, CommitmentError):
        return False  # cannot happen: the same claims passed before the round
    d = HandDeal(host.digest, hand, host.lost_host, host.keys_before, host.ring)  # the lost host's
    for raw in attempts:
        d.attempts.append(host._attempt(d, raw, []))  # their secrets went with the lost host
    d.abandoned = list(host.carried.abandoned.get(hand, []))
    d.moves = list(r.moves)
    d.signatures = list(r.signatures)
    d.unchecked = list(range(len(d.moves)))
    d.away = d.signed_by(host.lost_host)
    d.migrated = {"host": host.host_seat, "term": host.term, "at": len(d.moves)}
    d.reshuffled = r.to_json(host.host_seat)
    host.deal, host.dealt = d, [list(h) for h in world.deal]
    from lanomino.net.host_base import Phase

    host.phase = Phase.PLAY
    # a person whose hand is in no claim cannot be told its new tiles consistently: it leaves
    for n, seat in enumerate(host.seats):
        if (seat is not None and not seat.left and state.active[n] and n not in claims and n not in host.local
                and n != host.lost_host):
            host._seat_left(n, "its hand was not in the re-shuffle")
    return True
