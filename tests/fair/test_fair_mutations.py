"""Property: any change to any field of a valid transcript makes ``verify`` fail (exit 1 or 2)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fairkit import host_signs_again, identities, make_transcript, same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tamperkit import get as _get
from tamperkit import mutated
from tamperkit import paths as _paths

from lanomino.fair.transcript import TranscriptError
from lanomino.fair.verify import verify_transcript

OPTIONAL_KEYS = {"deal", "boneyard"}  # a hand may leave out the stated deal (it is derived)


@cache
def _sources() -> tuple[str, ...]:
    return tuple(json.dumps(doc) for doc in (
        make_transcript("classic", 3, 1, target=30),
        make_transcript("classic", 2, 12, target=30, hand_size=2, no_double="reshuffle",
                        include_deal=True),
        make_transcript("allfives", 2, 4, target=40, bot="greedy"),
        make_transcript("block", 4, 6, target=15),
    ))


def _mutated(data: st.DataObject, value: Any) -> Any:
    """A different value in place of ``value`` (a hand's stated deal may be left out)."""
    return mutated(data, value, keep=OPTIONAL_KEYS)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_mutation_of_a_valid_transcript_fails_verification(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = data.draw(st.sampled_from(_paths(doc)))
    parent = _get(doc, path[:-1])
    parent[path[-1]] = _mutated(data, parent[path[-1]])
    if same(doc, json.loads(source)):
        return  # e.g. swapping two equal elements: nothing changed
    try:
        report = verify_transcript(doc)
    except TranscriptError:
        return  # exit 2
    assert not report.ok, f"mutation at {path} went unnoticed"


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutation_the_host_signs_again_fails_and_blames_no_honest_seat(
        data: st.DataObject) -> None:
    """A cheating host changes any one field and signs again what it signs (its sets, logs and
    closing statement, with its own key only): the verifier still fails, and names the host
    (seat 0 here) or nobody's seat, never another seat."""
    source = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = data.draw(st.sampled_from(_paths(doc)))
    parent = _get(doc, path[:-1])
    parent[path[-1]] = _mutated(data, parent[path[-1]])
    host = identities(len(json.loads(source)["players"]))[0]
    try:
        host_signs_again(doc, [host] * 4)  # (its key only: a seat's signature stays the seat's)
        report = verify_transcript(doc)
    except TranscriptError:
        return  # exit 2
    if same(doc, json.loads(source)):
        return  # e.g. a changed signature the host signed again: nothing changed
    assert not report.ok, f"mutation at {path} went unnoticed"
    assert report.failure is not None and report.failure.seat in (None, 0), \
        f"mutation at {path}: {report.failure.describe()}"
