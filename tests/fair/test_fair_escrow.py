"""Escrow: split, re-split when a holder leaves, rebuild, and wrong or missing shares."""

from __future__ import annotations

import pytest

from lanomino.fair.commit import DealContext, commitment
from lanomino.fair.escrow import (
    EscrowError,
    Share,
    rebuild,
    rebuild_unchecked,
    resplit,
    share_digest,
    split,
)

CTX = DealContext(bytes(range(16)), 3, 1)
SECRETS = [(s, bytes([0x10 + s]) * 32) for s in range(4)]
COMMITS = {s: commitment(CTX, s, secret) for s, secret in SECRETS}
DATA = b"".join(secret for _, secret in SECRETS)


def test_all_shares_rebuild_the_secrets() -> None:
    escrow, shares = split(CTX, SECRETS, [1, 2, 3])
    assert [s.holder for s in shares] == [1, 2, 3]
    assert rebuild(escrow, shares, COMMITS) == SECRETS


def test_no_proper_subset_of_shares_gives_the_secrets() -> None:
    escrow, shares = split(CTX, SECRETS, [1, 2, 3])
    for left_out in range(3):
        subset = [s for i, s in enumerate(shares) if i != left_out]
        assert rebuild_unchecked(escrow, subset) != DATA
    assert all(s.data != DATA for s in shares)


def test_fewer_than_two_holders_means_no_escrow() -> None:
    with pytest.raises(EscrowError, match="at least 2"):
        split(CTX, SECRETS, [1])


def test_resplit_after_a_holder_leaves() -> None:
    escrow, old = split(CTX, SECRETS, [1, 2, 3])
    new_escrow, new = resplit(escrow, SECRETS, leaving=2)
    assert new_escrow.holders == (1, 3)
    assert rebuild(new_escrow, new, COMMITS) == SECRETS
    # Old shares are worthless against the new escrow: fresh pads were drawn.
    mixed = [new[0], Share(3, old[2].data)]
    with pytest.raises(EscrowError, match="seat 4's escrow share is wrong"):  # (index 3)
        rebuild(new_escrow, mixed, COMMITS)


def test_resplit_down_to_one_holder_is_refused() -> None:
    escrow, _ = split(CTX, SECRETS, [1, 2])
    with pytest.raises(EscrowError):
        resplit(escrow, SECRETS, leaving=1)


def test_a_wrong_share_is_named() -> None:
    escrow, shares = split(CTX, SECRETS, [0, 2, 3])
    bad = Share(2, bytes(b ^ 1 for b in shares[1].data))
    with pytest.raises(EscrowError, match="seat 3's escrow share is wrong"):  # counted from 1
        rebuild(escrow, [shares[0], bad, shares[2]], COMMITS)


def test_a_missing_share_is_named() -> None:
    escrow, shares = split(CTX, SECRETS, [1, 2, 3])
    with pytest.raises(EscrowError, match="seat 4's escrow share is missing"):
        rebuild(escrow, shares[:2], COMMITS)


def test_shares_that_do_not_open_the_commitments_are_caught() -> None:
    # A host that escrowed the wrong secrets (with matching share digests) is caught by the
    # commitments, naming the seat whose secret comes out wrong.
    wrong = [SECRETS[0], (1, b"\x77" * 32), *SECRETS[2:]]
    escrow, shares = split(CTX, wrong, [2, 3])
    assert escrow.digests == tuple(share_digest(CTX, s.holder, s.data) for s in shares)
    with pytest.raises(EscrowError, match="seat 2 does not match its commitment"):
        rebuild(escrow, shares, COMMITS)
