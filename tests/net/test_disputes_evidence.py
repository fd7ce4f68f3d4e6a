"""A seat that catches its host keeps the proof in its transcript (issue 28 point 6): the host's
own signed words (a move it signed for a seat at a table without a move clock, two heads of one
log, a hand's log the rules refute), checked as ``verify`` will check them; the new host's
transcript keeps it too, and ``lanomino verify`` names the host ("Caught: ...")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import false_score, plays_for, shows_another_move, wrong_secret  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.session import HostCaught  # noqa: E402

CHEATS: dict[str, tuple[Callable[[Any], Any], str, str]] = {
    "move": (lambda host: plays_for(host, 2, away=False, limit=1), "move-signature",
             "the host (seat 1) signed a move for seat 3 at a table without a move clock"),
    "fork": (lambda host: shows_another_move(host, 2), "fork",
             "the host (seat 1) signed two different logs of one hand at one place"),
    "log": (lambda host: wrong_secret(host, 2), "hand-check",
            "the host (seat 1) signed a log of a hand that the rules refute (hand 1)"),
    "score": (false_score, "hand-check",
              "the host (seat 1) signed a log of a hand that the rules refute (hand 1)"),
}


def docs_of(table: MigratingTable) -> dict[int, Any]:
    out = {}
    for m in table.machines:
        if m.seat == 0:
            continue
        out[m.seat] = m.host.doc if m.host is not None else m.peer.doc  # type: ignore[union-attr]
    return out


@pytest.mark.parametrize("kind", list(CHEATS))
def test_the_proof_against_a_voted_out_host_is_in_the_transcripts_and_verify_names_it(
        kind: str) -> None:
    cheat, check, words = CHEATS[kind]
    table = MigratingTable(Rules.preset("classic", target=100), 4, seed=23)
    host = table.by_seat(0).host
    assert host is not None
    done = cheat(host)
    table.run(lambda: all((m.host is not None and m.host.phase.value == "over")
                          or (m.peer is not None and m.peer.phase.value in ("over", "closed"))
                          for m in table.machines if m.seat != 0), max_time=900)
    assert done
    caught = {m.seat: [e for e in m.events if isinstance(e, HostCaught)]
              for m in table.machines if m.seat != 0}
    holders = [s for s, c in caught.items() if c and c[0].check == check]
    assert holders, caught
    docs = docs_of(table)
    new_host = next(m.seat for m in table.machines if m.host is not None and m.seat != 0)
    for seat in (*holders, new_host):
        doc = docs[seat]
        assert doc["end"]["finished"], seat
        assert [p["kind"] for p in doc["evidence"]] == [kind if kind != "score" else "log"]
        report = verify_transcript(doc)
        assert report.ok, report.failure
        lines = report.lines()
        assert any(line.startswith(f"Caught: {words}") for line in lines), lines
        assert "a host was caught cheating (proof above)" in report.verdict()
    print(kind, {s: bool(d.get("evidence")) for s, d in docs.items()}, holders, new_host)
