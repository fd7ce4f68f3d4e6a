"""The verifier's check of one finished commit-reveal round, the deal's or the re-shuffle's: the
same rule for both, told apart only by the round's ``Domain`` (``fair/commit_reveal.py``: what
each step signs, how a secret opens its commitment). Pure.

In order: the commitments come from exactly ``seats``, each signed by its seat; the set is signed
by ``signer``; the echoes come from exactly ``seats``, each signed and each of the published set
(a different digest is equivocation); every secret opens its commitment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lanomino.engine.errors import seat_name
from lanomino.fair.attempt import Echo, SignedCommitment
from lanomino.fair.commit import set_digest
from lanomino.fair.commit_reveal import Domain
from lanomino.fair.report import EDITED, Blamed, seats_named

if TYPE_CHECKING:
    from lanomino.fair.checker import Checker


def check_round(c: Checker, domain: Domain, seats: Sequence[int],
                commitments: Sequence[SignedCommitment], signer: int, set_signature: bytes,
                echoes: Sequence[Echo], secrets: Sequence[bytes] | None, host: Blamed,
                where: str, in_play: str) -> bytes:
    """Check a finished round among ``seats`` (``in_play``: why those seats, in words); blame
    ``host``, who assembled and signed it, for any of it that does not hold (but for a set
    signature that does not verify: the log signed that set, so the file was changed).
    ``secrets`` None: a round whose secrets were never opened (a void deal). Returns the set's
    digest.

    Raises:
        Failed: the first check that does not hold (``where`` begins its message).
    """
    prefix = "" if domain.label == "deal" else "reshuffle-"
    named = [cm.seat for cm in commitments]
    if named != list(seats):
        raise c.fail(f"{prefix}commitment", host, f"{where}: the commitments come from "
                     f"{seats_named(named)}, but {seats_named(seats)} {in_play}")
    for cm in commitments:
        who, signed = seat_name(cm.seat), domain.commit_statement(cm.seat, cm.commitment)
        if not domain.verify(cm.seat, cm.signature, signed):
            raise c.fail(f"{prefix}commitment", host,
                         f"{where}: {who}'s commitment is not signed by {who}'s key")
    statement = domain.set_statement([(cm.seat, cm.commitment) for cm in commitments])
    if not domain.verify(signer, set_signature, statement):  # (the log names the set: signed)
        raise c.fail(f"{prefix}set", EDITED, f"{where}: the host's signature on the commitment "
                     "set does not verify: the file was changed after it was signed")
    expected = set_digest(statement)
    echoed = [e.seat for e in echoes]
    if echoed != list(seats):
        raise c.fail(f"{prefix}echo", host, f"{where}: echoes of the set come from "
                     f"{seats_named(echoed)}, not {seats_named(seats)}")
    for e in echoes:
        who = seat_name(e.seat)
        if not domain.verify(e.seat, e.signature, domain.echo_statement(e.seat, e.set_digest)):
            raise c.fail(f"{prefix}echo", host,
                         f"{where}: {who}'s echo of the set is not signed by {who}")
        if e.set_digest != expected:
            raise c.fail("equivocation", host, f"{where}: {who} was sent a different "
                         "commitment set than the one published")
    # The host takes each reveal, checks it against its commitment and publishes it in its signed
    # log: a published secret that does not open the seat's signed commitment is the host's.
    secret = "secret" if domain.label == "deal" else f"{domain.label} secret"
    for cm, opened in zip(commitments, secrets or (), strict=secrets is not None):
        if not domain.opens(cm.seat, opened, cm.commitment):
            who = seat_name(cm.seat)
            raise c.fail(f"{prefix}secret", host, f"the host published a {secret} for {who} "
                         f"that does not open {who}'s signed commitment")
    return expected
