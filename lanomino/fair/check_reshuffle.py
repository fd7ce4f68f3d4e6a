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
from lanomino.fair.check_round import check_round
from lanomino.fair.report import Blamed, DerivedDeal
from lanomino.fair.transcript_model import HandLog, Reshuffled

if TYPE_CHECKING:
    from lanomino.fair.checker import Checker

# What the lost secrets took with them (docs/fair-deal.md, "Re-shuffling the unknown tiles").
UNCHECKED = ("the deal before the re-shuffle (its secrets left with the lost host)",)


def check_reshuffled(c: Checker, state: GameState, hand: HandLog) -> None:
    """A hand whose deal could not be rebuilt after a migration (the module docstring)."""
    r, m = hand.reshuffled, hand.migrated
    assert r is not None and m is not None  # the parser sees to both
    new_host = Blamed.host(r.host, new=True)
    c.deals.append(())
    for attempt in hand.deals:
        c.check_commitments(state, hand, attempt, opened=bool(attempt.secrets))
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
        # A claimant whose own signed moves refute its own signed claim is to blame; anything
        # else the new host signed off when it bound the claims to the log it signed.
        blame = Blamed.player(exc.seat) if exc.seat in claims else new_host
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
    commitments = sum(len(a.commitments) for a in hand.deals) + len(r.commitments)
    c.report(state, hand, commitments, len(TILES), draws, UNCHECKED, len(r.commitments))


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
    """The re-shuffle's commit-reveal among the claimants (``fair/check_round.py``)."""
    domain = rs.reshuffle_domain(c.t.header_digest, ctx, r.host, r.at, r.opener,
                                 rs.claims_digest(r.claims), c.signed)
    check_round(c, domain, claimants, r.commitments, r.host, r.set_signature, r.echoes,
                r.secrets, new_host, "re-shuffle", "claimed")
