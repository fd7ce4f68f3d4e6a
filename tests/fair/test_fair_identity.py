"""Identities and the key file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from lanomino.fair.commit import (
    CommitmentError,
    DealContext,
    check_echoes,
    check_own_in_set,
    commitment,
    opens,
    set_statement,
)
from lanomino.fair.identity import Identity, KeyRing, peer_id
from lanomino.fair.keystore import KEY_FILE, KeyStoreError, load_or_create_identity


def test_key_file_is_created_private_and_reloaded(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path / "data")
    path = tmp_path / "data" / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_identity(tmp_path / "data")
    assert again.public_key == first.public_key
    assert len(first.peer_id) == 16 and first.peer_id == peer_id(first.public_key)


def test_loose_permissions_are_tightened(tmp_path: Path) -> None:
    load_or_create_identity(tmp_path)
    path = tmp_path / KEY_FILE
    path.chmod(0o644)
    load_or_create_identity(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_key_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("not a key\n")
    (tmp_path / KEY_FILE).chmod(0o600)
    with pytest.raises(KeyStoreError, match="damaged"):
        load_or_create_identity(tmp_path)


def test_signatures_verify_only_for_the_signer_and_the_message() -> None:
    alice, bob = Identity.from_seed(b"a" * 32), Identity.from_seed(b"b" * 32)
    ring = KeyRing()
    sig = alice.sign_statement({"type": "t", "n": 1})
    # the key order is canonical
    assert ring.verify_statement(alice.public_key, sig, {"n": 1, "type": "t"})
    assert not ring.verify_statement(bob.public_key, sig, {"type": "t", "n": 1})
    assert not ring.verify_statement(alice.public_key, sig, {"type": "t", "n": 2})
    assert not ring.verify(b"\x00" * 5, sig, b"x")


def test_a_remembering_ring_answers_only_the_very_check_that_held() -> None:
    alice, bob = Identity.from_seed(b"a" * 32), Identity.from_seed(b"b" * 32)
    ring = KeyRing(remember=2)
    one, two, three = ({"type": "t", "n": n} for n in (1, 2, 3))
    sig = alice.sign_statement(one)
    assert ring.verify_statement(alice.public_key, sig, one) and ring.recalled == 0
    assert ring.verify_statement(alice.public_key, sig, {"n": 1, "type": "t"})
    assert ring.recalled == 1  # the same key, signature and bytes: from memory
    # a check that failed is never kept; nor does a kept one answer for another message or key
    for _ in range(2):
        assert not ring.verify_statement(alice.public_key, sig, two)
        assert not ring.verify_statement(bob.public_key, sig, one)
        assert not ring.verify_statement(alice.public_key, bytes(64), one)
    assert ring.recalled == 1
    # past ``remember``, the oldest is forgotten (checked again, and holds again)
    ring.verify_statement(alice.public_key, alice.sign_statement(two), two)
    ring.verify_statement(alice.public_key, alice.sign_statement(three), three)
    assert ring.verify_statement(alice.public_key, sig, one) and ring.recalled == 1
    assert ring.verify_statement(alice.public_key, alice.sign_statement(three), three)
    assert ring.recalled == 2
    # a ring that remembers nothing (the default) checks every time
    plain = KeyRing()
    for _ in range(2):
        assert plain.verify_statement(alice.public_key, sig, one)
    assert plain.recalled == 0


def test_commitment_binds_every_field() -> None:
    ctx = DealContext(bytes(16), 2, 1)
    secret = b"\x05" * 32
    base = commitment(ctx, 1, secret)
    assert opens(ctx, 1, secret, base)
    assert not opens(ctx, 2, secret, base)
    assert not opens(DealContext(bytes(16), 3, 1), 1, secret, base)
    assert not opens(DealContext(bytes(16), 2, 2), 1, secret, base)
    assert not opens(DealContext(b"\x01" * 16, 2, 1), 1, secret, base)
    assert not opens(ctx, 1, b"\x06" * 32, base)


def test_a_peer_refuses_a_set_without_its_commitment_and_the_host_catches_equivocation() -> None:
    ctx = DealContext(bytes(16), 1, 1)
    mine = commitment(ctx, 1, b"\x01" * 32)
    other = commitment(ctx, 1, b"\x02" * 32)
    statement = set_statement("h", ctx, 0, [(0, commitment(ctx, 0, b"\x00" * 32)), (1, other)])
    with pytest.raises(CommitmentError, match="seat 2's commitment is missing"):
        check_own_in_set(statement, 1, mine)
    with pytest.raises(CommitmentError, match="seat 3 received a different"):
        check_echoes(b"x" * 32, [(1, b"x" * 32), (2, b"y" * 32)])
