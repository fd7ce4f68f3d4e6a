"""Property: the verifier of a locked hand never crashes on a changed record, and any change to
what the cryptography binds (the context, keys, shuffles, reveals, positions) or to the points
makes it fail. (Moves' tiles and ends, and the opening's answers, are bound by the transcript's
signatures, as today: a change there may describe another legal hand.)"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from blindkit import play_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanomino.blind.group import BlindError
from lanomino.blind.hand_check import check_blind_hand
from lanomino.blind.hand_record import Resignation, format_blind_hand, parse_blind_hand
from lanomino.engine import GameState

BOUND = ("table", "hand", "attempt", "tiles", "holders", "keys", "shuffles", "reveals", "points")


@cache
def _sources() -> tuple[tuple[str, GameState], ...]:
    out = []
    for n, seed, resign in ((3, 7, None), (4, 8, None), (3, 5, Resignation(2, 3))):
        record, before = play_hand(n, rng_seed=seed, resign=resign)
        out.append((json.dumps(format_blind_hand(record)), before))
    return tuple(out)


def _leaves(node: Any, path: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [path] + [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


def _paths(doc: dict[str, Any], bound_only: bool) -> list[tuple[Any, ...]]:
    keys = BOUND if bound_only else tuple(doc)
    paths = [p for k in keys for p in _leaves(doc[k], (k,))]
    if bound_only:  # a move's position is bound too: its tile must be there, for that seat
        paths += [("moves", i, "pos") for i, m in enumerate(doc["moves"]) if "pos" in m]
        # (a shuffle's argument digest is not, once its seed reproduced the deck: the
        # transcript's signature binds it, tests/blind/test_transcript2_mutations.py)
        paths = [p for p in paths if p[-1] != "argument"]
    return paths


def _change(data: st.DataObject, value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return data.draw(st.sampled_from([1, "yes", None, False]).filter(lambda v: v != value))
    if isinstance(value, int):
        return value + data.draw(st.sampled_from([-2, -1, 1, 2, 256]))
    if isinstance(value, str):
        if not value:
            return "00"
        i = data.draw(st.integers(0, len(value) - 1))
        swap = data.draw(st.sampled_from("0123456789abcdef-x").filter(lambda c: c != value[i]))
        return value[:i] + swap + value[i + 1 :]
    assert isinstance(value, list)
    if not value:
        return [0]
    changed = list(value)
    i = data.draw(st.integers(0, len(value) - 1))
    if data.draw(st.booleans()):
        del changed[i]
    else:
        changed.insert(i, changed[i])
    return changed


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = value


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _verdict_ok(doc: dict[str, Any], before: GameState) -> bool | None:
    """True / False from the verifier, None when the record does not even parse."""
    try:
        record = parse_blind_hand(doc)
    except BlindError:
        return None
    return check_blind_hand(record, before).ok


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_change_to_a_bound_field_never_verifies(data: st.DataObject) -> None:
    source, before = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = data.draw(st.sampled_from(_paths(doc, bound_only=True)))
    _set(doc, path, _change(data, _get(doc, path)))
    if doc == json.loads(source):
        return
    assert _verdict_ok(doc, before) is not True, f"a change at {path} went unnoticed"


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_change_gives_a_verdict_or_a_clear_refusal(data: st.DataObject) -> None:
    source, before = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc, bound_only=False)))
        _set(doc, path, _change(data, _get(doc, path)))
    _verdict_ok(copy.deepcopy(doc), before)  # BlindError or a verdict; anything else fails
