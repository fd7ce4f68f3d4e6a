"""The locked deck's attack rows (scripts/blind_attacks.py, ``attack.py --blind``): each attack
is detected, by the seats it should be, and names the cheater."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import blind_attacks  # noqa: E402


@pytest.mark.parametrize(("name", "reason"), [
    ("nosy-undrawn", "nobody has drawn it"),
    ("nosy-dealt", "it was dealt to seat 3"),
    ("nosy-twice", "already released"),
])
def test_a_host_that_asks_for_shares_of_a_position_not_being_drawn_gets_none_and_is_named(
        name: str, reason: str) -> None:
    row = blind_attacks.ROWS[name]()
    assert row.detected and row.blamed == "the host"
    assert row.by == "seat 2's gate, seat 3's gate, seat 4's gate"
    assert row.note.startswith("shares given 0 of 3; 'refused host: a share of position ")
    assert reason in row.note


@pytest.mark.parametrize("name", ["shuffle-swap", "shuffle-dup"])
def test_a_shuffler_that_swaps_or_duplicates_a_tile_fails_on_arrival_and_is_named(
        name: str) -> None:
    row = blind_attacks.ROWS[name]()
    assert row.detected and row.blamed == "seat 2"
    assert row.when == "on arrival, before any tile opens"
    assert row.by == ("seat 1 (shuffle argument), seat 3 (shuffle argument), "
                      "seat 4 (shuffle argument)")
    assert "'seat 2: its shuffle argument does not hold'" in row.note


def test_a_false_i_cannot_play_is_named_at_the_hands_end_by_verify_too() -> None:
    row = blind_attacks.false_claim()
    assert row.detected and row.when.startswith("at the hand's end")
    liar = row.note.rsplit("(the liar: ", 1)[1].rstrip(")")
    assert row.blamed == liar
    assert f"to blame: {liar}." in row.note and "the moves check failed in hand 1" in row.note


def test_attack_py_prints_the_blind_rows_and_exits_0() -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / "attack.py"), "--blind"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("attack ") and len(lines) == 1 + len(blind_attacks.ROWS)
    assert all(" yes " in line for line in lines[1:])
