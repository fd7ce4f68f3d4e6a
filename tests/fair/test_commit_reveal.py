"""The one commit-reveal machine: its transition table, its checks and its deadlines."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fairkit import make_transcript

from lanomino.fair.commit import DealContext, commitment
from lanomino.fair.commit_reveal import TRANSITIONS, CommitReveal, RoundError, Step, deal_domain
from lanomino.fair.identity import Identity, KeyRing
from lanomino.fair.transcript import parse_transcript
from lanomino.net.wire.fields import attempt_entry

CTX = DealContext(bytes(16), 1, 1)
IDS = [Identity.from_seed(bytes([n]) * 32) for n in range(3)]
RING = KeyRing()
DOMAIN = deal_domain("header", CTX, 0,
                     lambda seat, sig, st: RING.verify_statement(IDS[seat].public_key, sig, st))
SECRETS = {s: bytes([s + 1]) * 32 for s in range(3)}


def started(answer_s: float | None = 5.0) -> CommitReveal:
    return CommitReveal.started(DOMAIN, [0, 1, 2], 100.0, answer_s)


def commit(r: CommitReveal, seat: int) -> None:
    c = commitment(CTX, seat, SECRETS[seat])
    r.add_commit(seat, c, IDS[seat].sign_statement(DOMAIN.commit_statement(seat, c)))


def echo(r: CommitReveal, seat: int, now: float = 101.0) -> None:
    r.add_echo(seat, r.digest, IDS[seat].sign_statement(DOMAIN.echo_statement(seat, r.digest)), now)


def test_the_transition_table_is_the_only_way_through_the_steps() -> None:
    assert TRANSITIONS[Step.DONE] == frozenset() and TRANSITIONS[Step.ABANDONED] == frozenset()
    r = started()
    commit(r, 1)
    with pytest.raises(RoundError) as err:
        echo(r, 1)  # no set yet
    assert err.value.code == "wrong_phase"
    with pytest.raises(RoundError):
        r.add_secret(1, SECRETS[1], 100.0)
    for s in (0, 2):
        commit(r, s)
    assert r.after_commits(IDS[0].sign_statement, 100.5) and r.step is Step.ECHO
    for s in range(3):
        echo(r, s)
    assert r.step is Step.REVEAL
    for s in range(3):
        r.add_secret(s, SECRETS[s], 102.0)
    assert r.done and r.opened() == [(s, SECRETS[s]) for s in range(3)]
    assert r.deadline is None and r.expire(10**6) == []


def test_a_wrong_signature_secret_or_echo_is_refused_and_changes_nothing() -> None:
    r = started()
    c = commitment(CTX, 1, SECRETS[1])
    with pytest.raises(RoundError) as err:
        r.add_commit(1, c, IDS[2].sign_statement(DOMAIN.commit_statement(1, c)))
    assert err.value.code == "bad_signature" and r.commits == {}
    for s in range(3):
        commit(r, s)
    with pytest.raises(RoundError) as err:
        r.add_commit(1, bytes(32), bytes(64))
    assert err.value.code == "bad_commitment"
    r.seal(IDS[0].sign_statement, 100.0)
    with pytest.raises(RoundError) as err:
        r.add_echo(1, bytes(32), IDS[1].sign_statement(DOMAIN.echo_statement(1, bytes(32))), 100.0)
    assert err.value.code == "equivocation" and 1 not in r.echoes
    for s in range(3):
        echo(r, s)
    with pytest.raises(RoundError) as err:
        r.add_secret(1, SECRETS[2], 100.0)
    assert err.value.code == "bad_secret" and r.secrets == {}


def test_each_step_has_its_own_deadline_and_names_who_missed_it() -> None:
    r = started(answer_s=5.0)
    assert r.deadline == 105.0
    for s in (0, 1):
        commit(r, s)
    assert r.expire(104.9) == [] and r.step is Step.COMMIT
    assert r.expire(105.0) == [2] and r.step is Step.ABANDONED
    assert (r.abandoned_at, r.unanswered) == ("commit", (2,))
    r = started(answer_s=5.0)
    for s in range(3):
        commit(r, s)
    r.seal(IDS[0].sign_statement, 103.0)
    assert r.deadline == 108.0  # the echo step's deadline counts from the set
    echo(r, 0, 104.0)
    echo(r, 2, 104.0)
    assert r.expire(107.0) == [] and r.expire(108.0) == [1]


def test_without_a_deadline_a_round_waits() -> None:
    r = started(answer_s=None)
    assert r.deadline is None and r.expire(10**9) == []


def test_one_writer_for_a_deal_attempt_that_the_transcript_and_the_wire_both_read_back() -> None:
    """``DealAttempt.to_json`` writes a transcript's deals and the wire's attempts of the hand in
    play; the transcript's parser and the wire's field check each give the same value back."""
    doc = make_transcript("classic", players=3, seed=4)
    hand = parse_transcript(doc).hands[0]
    attempt = hand.deals[0]
    assert len(attempt.secrets) == len(attempt.commitments) == 3
    assert attempt.to_json() == doc["hands"][0]["deals"][0]
    on_the_wire = attempt.to_json(secrets=False)
    assert "secrets" not in on_the_wire
    assert attempt_entry(on_the_wire, "attempt") == replace(attempt, secrets=())
