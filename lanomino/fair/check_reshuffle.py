"""The checks of a re-shuffled hand, for ``Checker`` (``lanomino.fair.checker``). Pure.

A migration lost the deal (docs/fair-deal.md, "Re-shuffling the unknown tiles"): the deal rounds
are checked without their secrets, then the claims, the moves before the re-shuffle as far as the
claims allow, the re-shuffle's own commit-reveal, and then the rest of the hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from lanomino.engine import GameState
from lanomino.engine.errors import seat_name
from lanomino.engine.tiles import TILES
from lanomino.fair import reshuffle as rs
from lanomino.fair.commit import set_digest
from lanomino.fair.report import Blamed, DerivedDeal, HandReport, seats_named
from lanomino.fair.statements import log_statement
from lanomino.fair.transcript_model import HandLog, Reshuffled

if TYPE_CHECKING:
    from lanomino.fair.checker import Checker



def check_reshuffled(c: Checker, state: GameState, hand: HandLog) -> None:
    """A hand whose deal could not be rebuilt after a migration (the module docstring)."""
    r, m = hand.reshuffled, hand.migrated
    assert r is not None and m is not None  # the parser sees to both
    new_host = Blamed.host(r.host, new=True)
    c.deals.append(())
    digests = [c.check_commitments(state, hand, attempt, opened=bool(attempt.secrets))[0]
               for attempt in hand.deals]
    if (r.term, r.host, r.at) != (m.term, m.host, m.at):
        raise c.fail("reshuffle", new_host,
                     "the re-shuffle's term, host or move index is not the migration's")
    claims = _check_claims(c, hand, r, new_host)
    ctx = rs.ReshuffleContext(c.t.table, hand.hand, r.term)
    claimants = sorted(claims)
    _check_round(c, r, ctx, claimants, new_host)
    c.check_move_signatures(hand)
    try:
        world = rs.world_at(state, len(hand.deals), r.opener, claims,
                            [(mv.seat, mv.action) for mv in hand.moves[:r.at]])
    except rs.ReshuffleError as exc:
        blame = new_host if exc.seat is None else Blamed.player(exc.seat)
        raise c.fail(exc.check, blame, f"before the re-shuffle: {exc}") from None
    derived = DerivedDeal(tuple(map(tuple, world.deal)), tuple(world.boneyard), False)
    attempts = len(hand.deals)
    c.deals[-1] = tuple(replace(derived, void=n < attempts) for n in range(1, attempts + 1))
    secrets = [(cm.seat, s) for cm, s in zip(r.commitments, r.secrets, strict=True)]
    try:
        rs.reshuffle(state, claimants, rs.reshuffle_seed(ctx, secrets))
    except rs.ReshuffleError as exc:
        raise c.fail("reshuffle", new_host, str(exc)) from None
    draws = c.replay(state, hand, start=r.at)
    c.check_scores(state, hand)
    log = log_statement(c.t.header_digest, hand.hand, hand.log_host, digests,
                        [[] for _ in hand.deals], [mv.raw for mv in hand.moves], hand.points,
                        hand.scores, m.to_json(), r.raw,
                        abandoned=[a.to_json() for a in hand.abandoned], away=sorted(hand.away),
                        adopted=None if hand.adopted is None else hand.adopted.to_json(),
                        refused=[f.to_json() for f in hand.refused])
    c.check_log_signature(hand, log)
    commitments = sum(len(a.commitments) for a in hand.deals) + len(r.commitments)
    c.reports.append(HandReport(hand.hand, len(hand.deals), commitments, len(TILES), draws,
                                tuple(state.scores), hand.refused))


def _check_claims(c: Checker, hand: HandLog, r: Reshuffled,
                  new_host: Blamed) -> dict[int, rs.Claim]:
    """Each claimant's signed claim of its own tiles, one per seat in seat order."""
    claims: dict[int, rs.Claim] = {}
    for claim in r.claims:
        if claims and claim.seat <= max(claims):
            raise c.fail("claim", new_host, "the claims are not one per seat in seat order")
        statement = rs.claim_statement(c.t.header_digest, hand.hand, r.term, claim.seat,
                                       claim.dealt, claim.drawn)
        if not c.signed(claim.seat, claim.signature, statement):
            who = seat_name(claim.seat)
            raise c.fail("claim", new_host, f"{who}'s claim of their tiles is not signed by {who}")
        claims[claim.seat] = claim
    return claims


def _check_round(c: Checker, r: Reshuffled, ctx: rs.ReshuffleContext, claimants: list[int],
                 new_host: Blamed) -> None:
    """The re-shuffle's commit-reveal among the claimants: commitments, set, echoes, secrets."""
    header = c.t.header_digest
    seats = [cm.seat for cm in r.commitments]
    if seats != claimants:
        raise c.fail("reshuffle-commitment", new_host,
                     f"the re-shuffle's commitments come from {seats_named(seats)}, "
                     f"but {seats_named(claimants)} claimed")
    for cm in r.commitments:
        who = seat_name(cm.seat)
        if not c.signed(cm.seat, cm.signature,
                        rs.commit_statement(header, ctx, cm.seat, cm.commitment)):
            raise c.fail("reshuffle-commitment", new_host,
                         f"{who}'s re-shuffle commitment is not signed by {who}")
    statement = rs.set_statement(header, ctx, r.host, r.at, r.opener, rs.claims_digest(r.claims),
                                 [(cm.seat, cm.commitment) for cm in r.commitments])
    if not c.signed(r.host, r.set_signature, statement):
        raise c.fail("reshuffle-set", new_host, "the new host's signature on the re-shuffle's set "
                     "(claims, opener, commitments) does not verify")
    expected = set_digest(statement)
    echoed = [e.seat for e in r.echoes]
    if echoed != claimants:
        raise c.fail("reshuffle-echo", new_host, f"echoes of the re-shuffle's set come from "
                     f"{seats_named(echoed)}, not {seats_named(claimants)}")
    for e in r.echoes:
        who = seat_name(e.seat)
        if not c.signed(e.seat, e.signature, rs.echo_statement(header, ctx, e.seat, e.set_digest)):
            raise c.fail("reshuffle-echo", new_host,
                         f"{who}'s echo of the re-shuffle's set is not signed by {who}")
        if e.set_digest != expected:
            raise c.fail("equivocation", new_host,
                         f"re-shuffle: {who} was sent a different set than the one published")
    for cm, secret in zip(r.commitments, r.secrets, strict=True):
        if not rs.reshuffle_opens(ctx, cm.seat, secret, cm.commitment):
            who = seat_name(cm.seat)
            raise c.fail("reshuffle-secret", Blamed.player(cm.seat),
                         f"{who}'s re-shuffle secret does not match their commitment")
