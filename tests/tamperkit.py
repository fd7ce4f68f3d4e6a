"""The tamper suites' changes (tests/fair/test_fair_mutations.py for transcript/1,
tests/blind/test_transcript2_mutations.py for transcript/2): every place in a JSON document, and
a different value for any one of them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from hypothesis import strategies as st

HEX = "0123456789abcdef"


def paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``node``: a path of keys and indices to each value, nested ones too."""
    out = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, (*path, i))
    return out


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def mutated(data: st.DataObject, value: Any, keep: Collection[str] = (),
            words: tuple[str, ...] = ()) -> Any:
    """A different value in place of ``value``: another number, type or hex digit, a string
    changed (or one of ``words``), a list with an item dropped, doubled or moved, or emptied, an
    object with a key dropped (never one of ``keep``) or one added."""
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
        others = st.sampled_from([value + "x", "", value.upper() + "!", *words])
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
        removable = sorted(k for k in copy if k not in keep)
        if removable and data.draw(st.booleans()):
            del copy[data.draw(st.sampled_from(removable))]
        else:
            copy["zz"] = 1
        return copy
    return 0  # null
