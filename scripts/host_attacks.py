#!/usr/bin/env python3
"""The malicious-host rows of scripts/attack.py: a host session with one deviation injected,
against honest seats, in memory on a fake clock (the sessions are sans-I/O; the kits are
tests/net/migrationkit.py and sessionkit.py, the deviations tests/net/hostile.py). Nothing touches
a network. Each row prints:

  deviation   what the patched host did
  detected    yes / no
  when        seconds (fake clock) from the deviation to the first seat that noticed it
  by          the seats that noticed it, and their check
  blamed      whom the proof names (the host, here always seat 1)
  went on     whether the honest seats finished the match with one verified transcript, and under
              which host

    python scripts/attack.py --hosts        (or: python scripts/host_attacks.py [--json])
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))

import hostile  # noqa: E402
from migrationkit import MigratingTable  # noqa: E402
from sessionkit import FAST  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402
from lanomino.net.host.session import HostSession  # noqa: E402
from lanomino.net.session import HostCaught  # noqa: E402

PLAYERS = 4
MAX_S = 600.0  # fake seconds a row may run


@dataclass
class HostRow:
    deviation: str
    detected: bool = False
    when_s: float | None = None
    by: list[str] = field(default_factory=list)
    blamed: str = "-"
    went_on: str = "no"
    note: str = ""


Patch = Callable[[HostSession, list[float]], Any]

ROWS: dict[str, tuple[str, Patch, dict[str, Any]]] = {
    "moves-for-seat": ("played a connected seat's move, host-signed, listed away, no move clock",
                       lambda h, tr: hostile.plays_for(h, 2, away=True, limit=1, trace=tr), {}),
    "resigns-seat": ("resigned a connected seat (host-signed) at move 2",
                     lambda h, tr: hostile.resigns(h, 2, at=2, trace=tr), {}),
    "another-move": ("showed one peer another move of its own seat mid-hand",
                     lambda h, tr: hostile.shows_another_move(h, 2, trace=tr), {}),
    "two-sets": ("sent one peer a different commitment set (and took its echo)",
                 lambda h, tr: hostile.two_sets(h, 2, trace=tr), {}),
    "withholds-logs": ("never sent the hand logs",
                       lambda h, tr: hostile.withholds_logs(h, trace=tr), {}),
    "relays-late": (f"held seat 2's moves {3 * FAST.relay_s:g} s before passing them on",
                    lambda h, tr: hostile.relays_late(h, 1, 3 * FAST.relay_s, trace=tr), {}),
    "silent-bot": ("its bot seat never moves, heartbeats going on",
                   lambda h, tr: hostile.silent_bot(h, 3, trace=tr), {"bots": 1}),
    "swapped-tile": ("swapped one of seat 3's dealt tiles with the boneyard's front",
                     lambda h, tr: hostile.swaps_dealt_tile(h, 2, trace=tr), {"players": 3}),
    "wrong-draw": ("gave seat 3 a drawn tile that is not the boneyard's front",
                   lambda h, tr: hostile.wrong_draw(h, 2, trace=tr), {"players": 3}),
    "wrong-secret": ("published (and signed) a wrong secret for seat 3",
                     lambda h, tr: hostile.wrong_secret(h, 2, trace=tr), {}),
    "false-score": ("signed 5 more points for its own seat than the hand gave",
                    lambda h, tr: hostile.false_score(h, trace=tr), {}),
}


def run_row(name: str) -> HostRow:
    what, patch, options = ROWS[name]
    row = HostRow(what)
    options = dict(options)
    players = options.pop("players", PLAYERS)
    table = MigratingTable(Rules.preset("classic", target=100), players, seed=3, **options)
    host = table.by_seat(0).host
    assert host is not None
    trace: list[float] = []
    patch(host, trace)
    honest = [m for m in table.machines if m.seat != 0]

    def over() -> bool:
        return all((m.host is not None and m.host.phase.value == "over")
                   or (m.peer is not None and m.peer.phase.value in ("over", "closed"))
                   for m in honest)

    table.run(over, max_time=MAX_S)
    caught = [(m.seat, e) for m in honest for e in m.events if isinstance(e, HostCaught)]
    firsts: dict[int, HostCaught] = {}
    for seat, event in caught:
        firsts.setdefault(seat, event)
    if firsts:
        row.detected = True
        start = trace[0] if trace else 0.0
        row.when_s = round(min(e.at for e in firsts.values()) - start, 2)
        row.by = [f"seat {s + 1} ({e.check})" for s, e in sorted(firsts.items())]
        hosts = {e.evidence.get("host") for e in firsts.values()}
        row.blamed = ", ".join(f"the host (seat {h + 1})" for h in sorted(hosts)  # type: ignore[operator]
                               if isinstance(h, int))
    docs = {m.seat: m.host.doc if m.host is not None else m.peer.doc  # type: ignore[union-attr]
            for m in honest}
    ended = {s: d for s, d in docs.items() if d is not None and isinstance(d.get("end"), dict)
             and d["end"].get("finished") and verify_transcript(d).ok}
    row.went_on = went_on(ended, docs, host.shared.host_seat)
    if not trace:
        row.note = "the deviation never happened in this match"
    return row


def went_on(ended: dict[int, Any], docs: dict[int, Any], cheat: int) -> str:
    """Whether the honest seats (``docs``) finished the match with a transcript that verifies
    (``ended``), and under which host (the one that signed its end)."""
    hosts = sorted({d["end"]["host"] for d in ended.values()})
    under = ", ".join("the same host" if h == cheat else f"seat {h + 1}" for h in hosts)
    games = [(d["hands"], d["end"]) for d in ended.values()]  # (each keeps its own evidence)
    if len(ended) == len(docs) and all(g == games[0] for g in games):
        return f"yes, under {under}"
    left = sorted(s + 1 for s in docs if s not in ended)
    if not ended:
        return "no"
    return (f"seat(s) {', '.join(str(s + 1) for s in sorted(ended))} finished under {under}; "
            f"seat(s) {', '.join(map(str, left))} left it")


def print_rows(rows: list[HostRow]) -> None:
    print(f"{'deviation':<72} {'detected':<8} {'when':>6}  {'by':<40} {'blamed':<20} went on")
    for r in rows:
        when = "-" if r.when_s is None else f"{r.when_s:.2f}s"
        print(f"{r.deviation[:72]:<72} {'yes' if r.detected else 'no':<8} {when:>6}  "
              f"{', '.join(r.by)[:40]:<40} {r.blamed[:20]:<20} {r.went_on}"
              + (f"  ({r.note})" if r.note else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help=f"among {', '.join(ROWS)}")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.only or list(ROWS)
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        print(f"unknown row(s): {', '.join(unknown)}; known: {', '.join(ROWS)}")
        return 2
    rows = [run_row(name) for name in names]
    if args.json:
        print(json.dumps([r.__dict__ for r in rows]))
    else:
        print(f"(in memory, {PLAYERS} seats, timings {replace(FAST)})")
        print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
