"""Malicious-host rows as real processes on 127.0.0.1 (scripts/host_attacks_procs.py): a real
``lanomino host --headless`` patched with one deviation (scripts/patched_host.py) and two honest
``lanomino bot`` players. Each row ends with the host named by the honest seats, no honest seat
blamed, and the match finished under a new host with transcripts that verify."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import host_attacks_procs as procs  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.together("procs")]


@pytest.mark.parametrize("name", ["moves-for-seat", "withholds-logs", "false-score", "relays-late",
                                  "silent-bot"])
def test_a_patched_host_is_named_and_the_table_goes_on_under_a_new_host(
        name: str, tmp_path: Path) -> None:
    row = procs.run_row(name, tmp_path)
    assert row.happened, row
    assert row.detected and row.blamed == "the host (seat 1)", row
    assert len(row.by) == 2, row  # both honest seats hold the proof
    assert not row.honest_blamed, row
    assert row.went_on == "yes, under seat 2", row
    assert [v.split(",")[0] for v in sorted(row.verify)] == ["seat 2: fair", "seat 3: fair"], row
    assert row.in_goal in (None, True), row
