"""The tamper suite and the fuzzing of ``lanomino.transcript/2`` (as test_fair_mutations.py is
transcript/1's): any single change to any field of a locked match's transcript is refused (a
failed check, or exit 2 for a malformed file); when the host signs its own statements again over
the change, the blame falls on the host or on nobody's seat, never on a seat; when one seat signs
a change of its own statement again, on that seat, the host or nobody; and random JSON, random
values anywhere in a transcript and random bytes never make ``verify`` crash."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import patch

from blind_match import (
    VOIDING,
    away_match,
    host_signs_again,
    identities,
    play_match,
    sign_hand,
    sign_void,
    voided_hand,
    write_match,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tamperkit import get as _get
from tamperkit import mutated
from tamperkit import paths as _paths

from lanomino.blind.hand_record import Resignation
from lanomino.cli import main
from lanomino.fair.canonical import canonical_json
from lanomino.fair.identity import Identity
from lanomino.fair.statements2 import SIGNED, signers
from lanomino.fair.transcript import TranscriptError
from lanomino.fair.transcript2 import VOID_SIGNED, parse_transcript2
from lanomino.fair.verify import verify_transcript

SLOW = settings(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
# a seat's own statements in a record, and the field that names their seat
OWNED = {"keys": None, "shuffles": "seat", "opening": "seat", "moves": "seat",
         "resignations": "seat", "reveals": None}


@cache
def _sources() -> tuple[str, ...]:
    return tuple(json.dumps(doc) for doc in (
        play_match(3, hands=2, seed=11),
        play_match(2, hands=1, seed=12, resign=Resignation(1, 4, "left")),
        play_match(4, hands=1, seed=13),
        _voided(),
        away_match(),  # moves marked as a seat's own bot's, at a table with a move clock
        _unheld(),  # a hand re-shuffled blind after a person left (no escrow)
        _unheld(escrow=True),  # the same after a second person left an escrow hand
        _departed(),  # a match of two people the other one left in a deal: end.departures
    ))


def _unheld(escrow: bool = False) -> dict[str, Any]:
    """A match of 3 people at a locked table without escrow, played by the sessions in memory,
    where one quits mid-hand: its hand has ``unheld`` in its record and ``unheld_signatures``
    (``escrow``: 4 people with escrow, two of whom quit the same hand: ``unheld`` keeps the spent
    escrow). The sessions get this suite's identities, so its tests can sign again for them."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "net"))
    from test_blind_escrow_table import last_transcript, leave_mid_hand
    from test_blind_unheld_table import two_leave

    real = Identity.generate

    def ours() -> Iterator[Identity]:
        yield from identities(4 if escrow else 3)  # (the host, then the peers in seat order)
        while True:
            yield real()

    made = ours()
    with patch.object(Identity, "generate", side_effect=lambda: next(made)):
        table = two_leave(0, 2, 1, False) if escrow else leave_mid_hand(3, 1, 4, 3, escrow=False)
    doc = last_transcript(table.host_events)
    people = 4 if escrow else 3
    assert doc["keys"] == [i.public_key.hex() for i in identities(people)]
    assert any("unheld" in h["record"] and ("escrow" in h["record"]["unheld"]) == escrow
               for h in doc["hands"])
    return doc


def _departed() -> dict[str, Any]:
    """A match of 2 people at a locked table, played by the sessions in memory, which the peer
    leaves as hand 2 is dealt: the closing statement keeps its departure (this suite's
    identities, as ``_unheld``'s)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "net"))
    from test_blind_dealleave_over import departed_doc

    real = Identity.generate

    def ours() -> Iterator[Identity]:
        yield from identities(2)
        while True:
            yield real()

    made = ours()
    with patch.object(Identity, "generate", side_effect=lambda: next(made)):
        doc, _ = departed_doc()
    assert doc["end"]["departures"] and doc["keys"] == [i.public_key.hex()
                                                        for i in identities(2)]
    return doc


def _voided() -> dict[str, Any]:
    void, record = voided_hand()
    return write_match(2, [record], rules=VOIDING, voided={1: [void]})


def _mutated(data: st.DataObject, value: Any) -> Any:
    return mutated(data, value, words=("left", "seat"))


def _same(a: Any, b: Any) -> bool:
    return canonical_json(a) == canonical_json(b)


def _mutate(data: st.DataObject, doc: dict[str, Any], paths: list[tuple[Any, ...]]
            ) -> tuple[Any, ...]:
    path = data.draw(st.sampled_from(paths))
    parent = _get(doc, path[:-1])
    parent[path[-1]] = _mutated(data, parent[path[-1]])
    return path


@settings(SLOW, max_examples=150)
@given(st.data())
def test_every_change_to_a_transcript2_fails_verification(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = _mutate(data, doc, _paths(doc))
    if _same(doc, json.loads(source)):
        return  # e.g. two equal elements swapped: nothing changed
    try:
        report = verify_transcript(doc)
    except TranscriptError:
        return  # exit 2
    assert not report.ok, f"a change at {path} went unnoticed"


@settings(SLOW, max_examples=150)
@given(st.data())
def test_a_change_the_host_signs_again_blames_the_host_or_nobody_never_a_seat(
        data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = _mutate(data, doc, _paths(doc))
    try:
        doc = host_signs_again(doc, identities(len(json.loads(source)["players"]))[0])
        report = verify_transcript(doc)
    except TranscriptError:
        return
    if _same(doc, json.loads(source)):
        return
    if report.ok:  # the host left a void deal out, or said which deal attempt of a hand never
        # dealt a person left: the file cannot show it, and verify says so
        said = [line for h in report.hands for line in h.unchecked]
        if path[:2] == ("end", "departures"):
            assert path[-1] == "attempt" and report.closed, f"a change at {path} went unnoticed"
            return
        assert said and path[2] == "voided", f"a change at {path} went unnoticed"
        return
    assert report.failure is not None and report.failure.seat in (None, 0), \
        f"a change at {path}: {report.failure.describe()}"


def _owned_paths(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Paths inside a seat's own statements of a record (keys, shuffles, "not me", moves,
    resignations, reveals), each one whole or one of its fields; the void deals' records too."""
    out = []
    for h, hand in enumerate(doc["hands"]):
        records = [(("hands", h, "record"), hand["record"])]
        records += [(("hands", h, "voided", v, "record"), void["record"])
                    for v, void in enumerate(hand.get("voided", []))]
        for where, record in records:
            for field in OWNED:
                for i, item in enumerate(record.get(field, [])):
                    base = (*where, field, i)
                    out.append(base)
                    if isinstance(item, dict):
                        out += [(*base, k) for k in item]
    return out


def _statement(path: tuple[Any, ...]) -> int:
    """How long the part of ``path`` is that leads to one statement of a record."""
    return 7 if path[2] == "voided" else 5


def _owner(doc: dict[str, Any], path: tuple[Any, ...]) -> int | None:
    """The seat a statement at ``path`` belongs to (the byte strings lead with it)."""
    try:
        item = _get(doc, path[:_statement(path)])
    except (IndexError, KeyError, TypeError):
        return None
    if isinstance(item, dict):
        seat = item.get("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
    if isinstance(item, str) and len(item) >= 2:
        try:
            return bytes.fromhex(item[:2])[0]
        except ValueError:
            return None
    return None


@settings(SLOW, max_examples=150)
@given(st.data())
def test_a_seat_that_signs_a_change_of_its_own_statement_is_blamed_or_the_host_or_nobody(
        data: st.DataObject) -> None:
    """The seat of the changed statement signs its statements again (the others keep theirs),
    the host signs its points again: a statement of that seat's own, which, if it is a lie, the
    verifier must pin on it (or on the host, which let it in, or on nobody), never on another
    seat."""
    source = data.draw(st.sampled_from(_sources()))
    doc = json.loads(source)
    path = data.draw(st.sampled_from(_owned_paths(doc)))
    before = _owner(doc, path)
    parent = _get(doc, path[:-1])
    parent[path[-1]] = _mutated(data, parent[path[-1]])
    after = _owner(doc, path)
    liars = {s for s in (before, after) if s is not None}
    ids = identities(len(json.loads(source)["players"]))
    try:
        head, hands = parse_transcript2(doc)
        hand = hands[path[1]]
        if path[2] == "voided":  # a void deal's statement: its signer signs that deal again
            record = hand.voided[path[3]].record
            again = sign_void(head.header_digest, record, ids).signatures
            raw, kinds = doc["hands"][path[1]]["voided"][path[3]], VOID_SIGNED
        else:
            record, kinds = hand.record, SIGNED
            again = sign_hand(head.header_digest, record, hand.scores, ids).signatures
            raw = doc["hands"][path[1]]
        by = signers(record)
        for kind in kinds:
            for i, seat in enumerate(by[kind]):
                if seat in liars and i < len(raw[f"{kind}_signatures"]):
                    raw[f"{kind}_signatures"][i] = again.of(kind)[i].hex()
        doc = host_signs_again(doc, ids[0])
        report = verify_transcript(doc)
    except TranscriptError:
        return
    if report.ok:
        return  # the seat signed another legal move (a play with no end named, say): its word
    assert report.failure is not None and report.failure.seat in (None, 0, *liars), \
        f"a change at {path} by {liars}: {report.failure.describe()}"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=40) | st.sampled_from(["00" * 16, "ff" * 32, "lanomino.transcript/2"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["format", "hands", "record", "seat", "moves", "keys", "hand", "pos",
                         "by", "at", "zz"]) | st.text(max_size=8), children, max_size=5),
    max_leaves=30)


@settings(SLOW, max_examples=200)
@given(JSON)
def test_random_json_never_crashes_verify(value: Any) -> None:
    for doc in (value, {"format": "lanomino.transcript/2", "hands": value},
                {k: v for k, v in json.loads(_sources()[1]).items() if k != "hands"},
                {**json.loads(_sources()[1]), "hands": [value]}):
        try:
            verify_transcript(doc)
        except TranscriptError:
            pass


@settings(SLOW, max_examples=150)
@given(st.data())
def test_random_values_anywhere_in_a_transcript2_never_crash_verify(data: st.DataObject) -> None:
    doc = json.loads(data.draw(st.sampled_from(_sources())))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc)))
        _get(doc, path[:-1])[path[-1]] = data.draw(JSON)
    try:
        verify_transcript(copy.deepcopy(doc))
    except TranscriptError:
        pass


@settings(SLOW, max_examples=150)
@given(st.data())
def test_random_values_in_a_record_the_host_signs_again_never_crash_verify(
        data: st.DataObject) -> None:
    """Past the host's signature: the record's own checks meet values nobody made honestly."""
    doc = json.loads(data.draw(st.sampled_from(_sources())))
    hand = data.draw(st.integers(0, len(doc["hands"]) - 1))
    record = doc["hands"][hand]["record"]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(record)))
        value = data.draw(st.one_of(JSON, st.just(_mutated(data, _get(record, path)))))
        _get(record, path[:-1])[path[-1]] = value
    try:
        verify_transcript(host_signs_again(doc, identities(len(doc["players"]))[0]))
    except TranscriptError:
        pass


@settings(SLOW, max_examples=40)
@given(st.data())
def test_random_bytes_never_make_lanomino_verify_trace_back(data: st.DataObject) -> None:
    text = _sources()[1].encode()
    kind = data.draw(st.sampled_from(["random", "cut", "flip"]))
    if kind == "random":
        content = data.draw(st.binary(max_size=300))
    elif kind == "cut":
        content = text[: data.draw(st.integers(0, len(text) - 1))]
    else:
        i = data.draw(st.integers(0, len(text) - 1))
        content = text[:i] + bytes([text[i] ^ data.draw(st.integers(1, 255))]) + text[i + 1 :]
    path = Path(f"/tmp/lanomino-fuzz-{id(data)}.json")
    try:
        path.write_bytes(content)
        assert main(["verify", str(path)]) in (0, 1, 2)  # (a flipped space may change nothing)
    finally:
        path.unlink(missing_ok=True)
