"""Seats are counted from 1 wherever a person reads them (messages, refusals, logs) and from 0 in
JSON, which says so: the one function that names a seat for people is ``engine.errors.seat_name``.
A source scan finds text that puts a raw 0-based seat after the word "seat" (tests/fair and
tests/net read some of the texts themselves)."""

from __future__ import annotations

import re
from pathlib import Path

from lanomino.engine.errors import seat_name

ROOT = Path(__file__).resolve().parent.parent / "lanomino"
# "seat {seat}", "seat {e.seat}'s", "seat {n}" and "seat %d" in code: a raw index after the word.
# "seat {n + 1}" counts from 1 already; "seat {text!r}" quotes what a person typed; "seats
# {players}" is a count.
INDEX = r"(?:seat|turn|holder|host|number|opener|winner|\bme\b|\b[nis]\b)"
RAW = re.compile(r"\b[Ss]eats? (?:\{(?![^}]*\+ ?1\b)(?![^}]*!r)[^}]*" + INDEX + r"[^}]*\}|%d)")


def test_no_text_puts_a_raw_seat_index_after_the_word_seat() -> None:
    found = [f"{path.relative_to(ROOT.parent)}:{n}: {line.strip()}"
             for path in sorted(ROOT.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if RAW.search(line) and not line.lstrip().startswith("#")]
    assert found == []


def test_the_scan_sees_the_forms_it_looks_for() -> None:
    seat = 2
    assert RAW.search('f"seat {seat} did not answer"')
    assert RAW.search("f\"it is seat {state.turn}'s turn\"")
    assert RAW.search('log.warning("term %d has another host (seat %d)", term, seat)')
    assert not RAW.search('f"seat {seat + 1}: Ana"')
    assert not RAW.search('f"no seat {text!r}: seats are 1-4"')
    assert not RAW.search('f"This table seats {players} players"')
    assert seat_name(seat) == "seat 3"
