"""Property: any change to any field of a valid transcript makes ``verify`` fail (exit 1 or 2)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fairkit import host_signs_again, identities, make_transcript, same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanomino.fair.transcript import TranscriptError
from lanomino.fair.verify import verify_transcript

OPTIONAL_KEYS = {"deal", "boneyard"}  # a hand may leave out the stated deal (it is derived)
HEX = "0123456789abcdef"


@cache
def _sources() -> tuple[str, ...]:
    return tuple(json.dumps(doc) for doc in (
        make_transcript("classic", 3, 1, target=30),
        make_transcript("classic", 2, 12, target=30, hand_size=2, no_double="reshuffle",
                        include_deal=True),
        make_transcript("allfives", 2, 4, target=40, bot="greedy"),
        make_transcript("block", 4, 6, target=15),
    ))


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _mutated(data: st.DataObject, value: Any) -> Any:
    """A different value in place of ``value``."""
    if isinstance(value, bool):
        return data.draw(st.sampled_from([not value, int(value), None]))
    if isinstance(value, int):
        kind = data.draw(st.sampled_from(["delta", "text", "float", "bool"]))
        if kind == "delta":
            return value + data.draw(st.integers(-5, 5).filter(bool))
        return {"text": str(value), "float": float(value), "bool": bool(value)}[kind]
    if isinstance(value, str):
        if value and all(c in HEX for c in value) and len(value) >= 32:
            i = data.draw(st.integers(0, len(value) - 1))
            c = data.draw(st.sampled_from([h for h in HEX if h != value[i]]))
            return value[:i] + c + value[i + 1 :]
        others = st.sampled_from([value + "x", "", value.upper() + "!"])
        return data.draw(others.filter(lambda v: v != value))
    if isinstance(value, list):
        copy = list(value)
        kind = data.draw(st.sampled_from(["drop", "duplicate", "swap", "empty"]))
        if kind == "empty" or not copy:
            return [] if copy else [0]
        i = data.draw(st.integers(0, len(copy) - 1))
        if kind == "drop":
            del copy[i]
        elif kind == "duplicate":
            copy.insert(i, copy[i])
        else:
            j = data.draw(st.integers(0, len(copy) - 1))
            copy[i], copy[j] = copy[j], copy[i]
        return copy
    if isinstance(value, dict):
        copy = dict(value)
        removable = sorted(k for k in copy if k not in OPTIONAL_KEYS)
        if removable and data.draw(st.booleans()):
            del copy[data.draw(st.sampled_from(removable))]
        else:
            copy["zz"] = 1
        return copy
    return 0  # null


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
