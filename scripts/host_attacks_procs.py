#!/usr/bin/env python3
"""The malicious-host rows against real processes on 127.0.0.1: a real ``lanomino host
--headless`` whose session is patched with one deviation (scripts/patched_host.py, the patches of
tests/net/hostile.py) and two honest ``lanomino bot`` players, each its own process, joined by the
host's address (no announcement: nothing but 127.0.0.1). Each row prints:

  deviation   what the patched host did
  detected    yes / no
  when        seconds from the deviation (the patched host's clock) to the first honest seat that
              noticed it (its own clock: one machine), and the row's goal
  by          the honest seats that noticed it, and their check
  blamed      whom their proof names, and ``lanomino verify`` of their transcripts at the end
  went on     whether the honest seats finished the match, and under which host

Goals (issue 28): a fork or a withheld log noticed within 1 s of the next message that should
have carried it (here: within 1 s of the deviation, which that message follows), a silent host
bot within its budget plus 2 s, a move relayed late within the relay deadline plus 1 s.

    python scripts/attack.py --hosts --procs      (or: python scripts/host_attacks_procs.py
                                                   [--only NAME ...] [--json])
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from host_attacks import went_on  # noqa: E402
from patched_host import MARK, PATCHES  # noqa: E402

from lanomino.net.session import Timings  # noqa: E402

PY = [sys.executable, "-u"]
LAUNCH = [*PY, str(ROOT / "scripts" / "patched_host.py")]
TARGET = 60  # points: a short match, long enough to go on after the deviation
PACE = "0.05"  # every bot pauses this long before a move
GRACE = "8"
START_S = 30.0  # the host listening, the bots seated
ROW_S = 150.0  # a row's match, from the bots seated to both honest seats done
T = Timings()
GOALS = {  # seconds from the deviation
    "another-move": 1.0,
    "withholds-logs": 1.0,
    "silent-bot": T.bot_budget_s + T.margin_s + float(PACE),
    "relays-late": 2 * T.relay_s + 1.0,  # the mover's deadline, then the members' window
}


@dataclass
class Proc:
    """One process and the lines it printed, each with its arrival time."""

    name: str
    popen: subprocess.Popen[str]
    out: list[dict[str, Any]] = field(default_factory=list)
    said: list[dict[str, Any]] = field(default_factory=list)  # the @@hostattack lines
    tail: list[str] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)

    def start_readers(self) -> None:
        for stream, keep in ((self.popen.stdout, self._stdout), (self.popen.stderr, self._stderr)):
            threading.Thread(target=self._read, args=(stream, keep), daemon=True).start()

    def _read(self, stream: Any, keep: Any) -> None:
        for line in stream:
            with self.lock:
                keep(line.rstrip("\n"))
                self.lock.notify_all()

    def _stdout(self, line: str) -> None:
        try:
            self.out.append(json.loads(line))
        except ValueError:
            self.tail = (self.tail + [line])[-30:]

    def _stderr(self, line: str) -> None:
        if line.startswith(MARK + " "):
            self.said.append(json.loads(line[len(MARK) + 1:]))
        else:
            self.tail = (self.tail + [line])[-30:]

    def wait_for(self, test: Any, timeout_s: float) -> dict[str, Any] | None:
        """The first stdout JSON line ``test`` accepts, within ``timeout_s`` (None: none came)."""
        until = time.monotonic() + timeout_s
        with self.lock:
            while True:
                found = next((o for o in self.out if test(o)), None)
                left = until - time.monotonic()
                if found is not None or left <= 0 or self.popen.poll() is not None:
                    return found
                self.lock.wait(min(left, 0.2))

    def result(self) -> dict[str, Any] | None:
        return next((o for o in reversed(self.out) if o.get("event") in ("match_over", "stopped")),
                    None)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        try:
            self.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def spawn(name: str, args: list[str], data: Path) -> Proc:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANOMINO_DATA_DIR": str(data)}
    popen = subprocess.Popen(args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc = Proc(name, popen)
    proc.start_readers()
    return proc


@dataclass
class ProcRow:
    name: str
    deviation: str
    happened: bool = False
    detected: bool = False
    when_s: float | None = None
    goal_s: float | None = None
    by: list[str] = field(default_factory=list)
    blamed: str = "-"
    honest_blamed: bool = False
    went_on: str = "no"
    verify: list[str] = field(default_factory=list)
    note: str = ""

    @property
    def in_goal(self) -> bool | None:
        if self.goal_s is None or self.when_s is None:
            return None
        return self.when_s <= self.goal_s


def verify(path: str | None) -> tuple[str, int | None]:
    """``lanomino verify`` of a transcript, in words, and the seat it blames (None: none)."""
    if not path:
        return "no transcript", None
    out = subprocess.run([*PY, "-m", "lanomino", "verify", path, "--json"], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                         text=True, timeout=60)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return f"verify exit {out.returncode}", None
    failure = report.get("failure")
    if failure is None:  # (the proof the seat kept, if any, convicts the host: verify names it)
        caught = report.get("caught") or []
        return "fair" + (f", names {caught[0].split(' signed')[0].split(' cheated')[0]}"
                         if caught else ""), None
    return f"NOT FAIR ({failure.get('check')}; blame: {failure.get('blame')})", failure.get("seat")


def run_row(name: str, workdir: Path) -> ProcRow:
    what, _, extra = PATCHES[name]
    row = ProcRow(name, what, goal_s=GOALS.get(name))
    data = workdir / name
    procs: list[Proc] = []
    try:
        # (the fair deal's host: the rows patch its deal, secrets and logs)
        host = spawn("host", [*LAUNCH, name, "--", "host", "--headless", "--deal", "fair",
                              "--bind", "127.0.0.1",
                              "--no-announce", "--json", "--seats", "3", *extra, "--level",
                              "greedy", "--bot-delay", PACE, "--set", f"target={TARGET}",
                              "--grace", GRACE, "--data-dir", str(data / "host"),
                              "--player", "cheat"], data)
        procs.append(host)
        listening = host.wait_for(lambda o: o.get("event") == "listening", START_S)
        if listening is None:
            row.note = "the host did not start: " + " | ".join(host.tail[-3:])
            return row
        peers = [spawn(f"p{n}", [*LAUNCH, "honest", "--", "bot", listening["address"],
                                 "--interface", "127.0.0.1", "--json", "--level", "greedy",
                                 "--delay", PACE, "--grace", GRACE, "--timeout", "15",
                                 "--data-dir", str(data / f"p{n}"), "--player", f"p{n}"], data)
                 for n in (1, 2)]
        procs += peers
        for peer in peers:
            if peer.wait_for(lambda o: o.get("event") == "seated", START_S) is None:
                row.note = f"{peer.name} was not seated: " + " | ".join(peer.tail[-3:])
                return row
        for peer in peers:  # each honest seat ends its match (or gives up) within the row's time
            peer.wait_for(lambda o: o.get("event") in ("match_over", "stopped"), ROW_S)
        judge(row, host, peers)
        return row
    finally:
        for proc in reversed(procs):
            proc.stop()


def judge(row: ProcRow, host: Proc, peers: list[Proc]) -> None:
    """Read what each process said into ``row``."""
    start = next((s["t"] for s in host.said if "deviation" in s), None)
    row.happened = start is not None
    seats = {p.name: next((o["seat"] for o in p.out if o.get("event") == "seated"), None)
             for p in peers}
    firsts: list[tuple[float, int, dict[str, Any]]] = []
    for peer in peers:
        caught = next((s for s in peer.said if s.get("seen") == "caught"), None)
        seat = seats[peer.name]
        if caught is not None and seat is not None:
            firsts.append((caught["t"], seat, caught))
    if firsts:
        row.detected = True
        firsts.sort(key=lambda f: f[0])
        if start is not None:
            row.when_s = round(firsts[0][0] - start, 2)
        row.by = [f"seat {seat + 1} ({c['check']}"
                  + (f" {t - start:+.2f}s)" if start is not None else ")") for t, seat, c in firsts]
        hosts = sorted({c["host"] for _, _, c in firsts if isinstance(c.get("host"), int)})
        row.blamed = ", ".join(f"the host (seat {h + 1})" for h in hosts)
        honest = {seat for seat in seats.values() if seat is not None}
        row.honest_blamed = any(h in honest for h in hosts) or any(
            f"blame: seat {s + 1}" in c.get("detail", "") for _, _, c in firsts for s in honest)
    results = [p.result() for p in peers]
    docs: dict[int, Any] = {}
    ended: dict[int, Any] = {}
    for peer, r in zip(peers, results, strict=True):
        path = r.get("transcript") if r else None
        words, blamed = verify(path)
        row.honest_blamed |= blamed is not None and blamed in seats.values()
        seat = seats[peer.name]
        if seat is None:
            continue
        row.verify.append(f"seat {seat + 1}: {words}")
        docs[seat] = json.loads(Path(path).read_text()) if path else None
        if r is not None and r.get("finished") and words.startswith("fair"):
            ended[seat] = docs[seat]
    row.went_on = went_on(ended, docs, 0)
    if not row.happened:
        row.note = "the deviation never happened in this match"


def print_header() -> None:
    print(f"(real processes on 127.0.0.1: a patched host, two honest bots; target {TARGET}, "
          f"bots pause {PACE} s, {T.relay_s:g} s relay, {T.bot_budget_s:g} s bot budget "
          f"+ {T.margin_s:g} s)")
    print(f"{'deviation':<66} {'detected':<8} {'when':>7} {'goal':>6}  {'by':<56} "
          f"{'blamed':<18} {'went on':<64} verify")


def print_rows(rows: list[ProcRow]) -> None:
    for r in rows:
        when = "-" if r.when_s is None else f"{r.when_s:.2f}s"
        goal = "-" if r.goal_s is None else f"{r.goal_s:g}s" + {True: "✓", False: "✗",
                                                                None: ""}[r.in_goal]
        print(f"{r.deviation[:66]:<66} {'yes' if r.detected else 'no':<8} {when:>7} {goal:>6}  "
              f"{', '.join(r.by)[:56]:<56} {r.blamed[:18]:<18} {r.went_on[:64]:<64} "
              f"{'; '.join(sorted(r.verify))}" + (f"  ({r.note})" if r.note else "")
              + ("  HONEST SEAT BLAMED" if r.honest_blamed else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help=f"among {', '.join(PATCHES)}")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.only or list(PATCHES)
    unknown = [n for n in names if n not in PATCHES]
    if unknown:
        print(f"unknown row(s): {', '.join(unknown)}; known: {', '.join(PATCHES)}")
        return 2
    rows: list[ProcRow] = []
    if not args.json:
        print_header()
    with tempfile.TemporaryDirectory(prefix="lanomino-hostattack-") as tmp:
        for name in names:
            rows.append(run_row(name, Path(tmp)))
            if not args.json:
                print_rows(rows[-1:])
    if args.json:
        print(json.dumps([{**r.__dict__, "in_goal": r.in_goal} for r in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
