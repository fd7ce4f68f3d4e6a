"""Host-migration soak on a simulated LAN of network namespaces (root; nothing leaves the machine).

Each game: a headless host and ``--players - 1`` bot peers, each in its own namespace. At a random
moment after the first hand has ended (a host lost during the first hand's deal has its first hand
dealt again by its successor: not what this soak measures) the host is hit by ``--fault``:
``sigkill``, ``sigstop`` (SIGCONT 3 s later), ``cut`` (its link down for 3 s, then up), ``random``
(one of those three per game), or ``sigterm`` (a graceful leave). The survivors must finish the
match with identical, verifying transcripts and scores, and no term may have two hosts. Prints games
finished, mismatches, and the time from the fault to the new host resuming play (median, p99, max).

    sudo python scripts/chaos.py --games 20 --players 3 --fault random

Timings are the product's defaults unless ``--heartbeat`` is given. ``--deal blind`` hosts a
table that deals the locked deck (``lanomino host --deal blind``), ``--escrow`` adds escrow: the
new host carries the locked hand on (docs/host-migration.md, "At a locked table"), and a game
whose hand it cannot carry on yet ends without its match finished (the soak says how each one
ended).

``--keep DIR`` keeps each game in ``DIR/gN``: the processes' data directories (transcripts
included), each process's whole stderr logged at DEBUG with times (``host-PID.log``,
``pN-PID.log``: the product's ``LANOMINO_LOG`` and the lab's ``LANOMINO_LAB_LOGS``), what each
printed on stdout (``ROLE-PID.jsonl``) and the game's line of the soak (``game.json``), so that
a rare failure can be read afterwards. Without it every game runs in a temporary directory that
is removed at the end, logs at the product's default level, and nothing is left behind.

A survivor whose match ended with a reason (the host caught, say) did not finish it: the game
counts as unfinished, and the soak says how it ended.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from netlab import LabProcess, NetLab, unavailable_reason  # noqa: E402

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
FAULTS = ("sigkill", "sigstop", "cut")


def result(proc: LabProcess, timeout_s: float) -> dict[str, Any] | None:
    try:
        return proc.expect(lambda m: m.get("event") in ("match_over", "stopped"), timeout_s)
    except AssertionError:
        return None


def verifies(path: str) -> bool:
    out = subprocess.run([*LANOMINO, "verify", path, "--json"], capture_output=True, text=True,
                         timeout=60)
    return out.returncode == 0 and bool(json.loads(out.stdout).get("ok"))


def one_game(lab: NetLab, data: Path, players: int, fault: str, rng: random.Random,
             args: argparse.Namespace, number: int) -> dict[str, Any]:
    beats = ["--heartbeat", str(args.heartbeat)] if args.heartbeat is not None else []
    env = keep_logs(data) if args.keep else None
    timing = ["--grace", "8", *beats]
    name = f"Chaos{number}"
    h0, *others = lab.hosts[:players]
    host = lab.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                          "--level", "greedy", "--data-dir", str(data / "host"), "--name", name,
                          "--seats", str(players), "--set", f"target={args.target}",
                          "--bot-delay", str(args.pace), "--deal", args.deal,
                          *(["--escrow"] if args.escrow else []), *timing], env)
    host.expect(lambda m: m.get("event") == "listening", 15)
    peers = [lab.spawn(h, [*LANOMINO, "bot", name, "--interface", h.ip, "--timeout", "15",
                           "--json", "--level", "greedy", "--data-dir", str(data / f"p{h.index}"),
                           "--player", f"p{h.index}", "--delay", str(args.pace), *timing], env)
             for h in others]
    first = time.monotonic() + 30  # wait for the first hand to end (see the module docstring)
    transcripts = data / f"p{others[0].index}" / "transcripts"
    while time.monotonic() < first and not list(transcripts.glob("*.json")):
        time.sleep(0.02)
    time.sleep(rng.uniform(args.earliest, args.latest))
    if host.popen.poll() is not None or any(p.popen.poll() is not None for p in peers):
        return {"fault": fault, "skipped": "the match ended before the fault"}
    at = time.time()
    if fault == "sigkill":
        host.kill()
    elif fault == "sigterm":  # a graceful leave: the host hands over at once
        os.kill(host.pid, signal.SIGTERM)
    elif fault == "sigstop":
        os.killpg(host.pid, signal.SIGSTOP)
        time.sleep(3.0)
        os.killpg(host.pid, signal.SIGCONT)
    else:
        port = f"v{h0.index}"
        subprocess.run(["ip", "-n", lab.bridge_namespace, "link", "set", port, "down"], check=True)
        time.sleep(3.0)
        subprocess.run(["ip", "-n", lab.bridge_namespace, "link", "set", port, "up"], check=True)
    results = [result(p, args.timeout) for p in peers]
    old = result(host, 15) if fault != "sigkill" else None
    for p in [host, *peers]:
        p.kill()
    if args.keep:
        name_logs(data, {host: "host", **{p: f"p{h.index}" for p, h in zip(peers, others,
                                                                             strict=True)}})
    # (a survivor whose match ended with a reason, the host caught say, did not finish it)
    done = [r for r in results
            if r is not None and r["finished"] and r["verified"] and not r["reason"]]
    finished = len(done) == len(peers)
    mismatch = False
    if finished:
        docs = [json.loads(Path(r["transcript"]).read_text()) for r in done]
        outcomes = {(tuple(r["scores"]), r["winner"]) for r in done}
        mismatch = (any(d != docs[0] for d in docs) or len(outcomes) != 1
                    or not all(verifies(r["transcript"]) for r in done))
    hosts: dict[str, set[int]] = {}
    for r in [*(x for x in results if x), *([old] if old else [])]:
        for term, seat in r.get("hosts", {}).items():
            hosts.setdefault(term, set()).add(seat)
    two_hosts = any(len(s) > 1 for s in hosts.values())
    resumed = [m["at"] - at for r in results if r for m in r.get("migrations", [])]
    return {"fault": fault, "finished": finished, "mismatch": mismatch or two_hosts,
            "resume_s": min(resumed) if resumed else None,
            "old_host": old_host(fault, old),
            # (LANOMINO_LAB_LOGS names each process's log by pid; a survivor that printed no
            # outcome line also took its migrations with it: resume_s is None then)
            "pids": [host.pid, *(p.pid for p in peers)],
            "silent": [p.pid for p, r in zip(peers, results, strict=True) if r is None],
            "survivors": sorted({str(r.get("reason", ""))[:80] or "finished" for r in results
                                 if r is not None})}


def keep_logs(data: Path) -> dict[str, str]:
    """The children's environment for a kept game: their log at DEBUG (the product's
    ``LANOMINO_LOG``), each one's whole stderr written with times to ``data/PID.log`` by the lab
    (``LANOMINO_LAB_LOGS``, read as each process starts, so one game's folder at a time)."""
    data.mkdir(parents=True, exist_ok=True)
    os.environ["LANOMINO_LAB_LOGS"] = str(data)
    return {"LANOMINO_LOG": "DEBUG"}


def name_logs(data: Path, roles: dict[LabProcess, str]) -> None:
    """``PID.log`` becomes ``ROLE-PID.log`` (the processes are killed, their logs complete),
    and what each printed on stdout (its ``--json`` lines) goes to ``ROLE-PID.jsonl``."""
    for proc, role in roles.items():
        log = data / f"{proc.pid}.log"
        if log.exists():
            log.rename(data / f"{role}-{proc.pid}.log")
        (data / f"{role}-{proc.pid}.jsonl").write_text(
            "".join(json.dumps(line) + "\n" for line in proc.seen))


def old_host(fault: str, old: dict[str, Any] | None) -> str | None:
    """How the lost host's own process ended (None: killed, nothing to say)."""
    if old is not None:
        return str(old.get("reason", ""))[:60] or "finished"
    return None if fault == "sigkill" else "still waiting (cut off, no newer host seen)"


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``q`` of them at or below it
    (of 100 resumes, p99 is the 99th; before, Python's rounding of 99.5 to 100 made it the max)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered) - 1e-9) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=3, choices=(3, 4))
    parser.add_argument("--fault", default="random", choices=(*FAULTS, "random", "sigterm"),
                        help="random: one of sigkill, sigstop, cut per game; "
                             "sigterm: a graceful leave")
    parser.add_argument("--target", type=int, default=100,
                        help="points to win a match (default 100)")
    parser.add_argument("--heartbeat", type=float, default=None,
                        help="heartbeat interval, s "
                             "(liveness is 5x; default: the product's, 0.25 s)")
    parser.add_argument("--pace", type=float, default=0.03,
                        help="every bot pauses this long per move, s")
    parser.add_argument("--earliest", type=float, default=0.0,
                        help="the fault comes this long after the first hand ended, "
                             "at the earliest (s)")
    parser.add_argument("--latest", type=float, default=2.5, help="... and at the latest")
    parser.add_argument("--timeout", type=float, default=90.0,
                        help="how long a survivor may take to finish, s")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deal", default="fair", choices=("fair", "blind"),
                        help="the table's deal (blind: the locked deck; default fair)")
    parser.add_argument("--escrow", action="store_true", help="the table deals with escrow")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="keep each game's data, transcripts and DEBUG logs in DIR/gN "
                             "(default: nothing is kept)")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason:
        print(f"cannot run the namespace lab: {reason}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    games: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        lab = stack.enter_context(NetLab(hosts=args.players, subnet="10.81.0"))
        root = args.keep or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        for n in range(args.games):
            fault = rng.choice(FAULTS) if args.fault == "random" else args.fault
            game = one_game(lab, root / f"g{n}", args.players, fault, rng, args, n)
            game = {"game": n, **game}
            games.append(game)
            if args.keep:
                (root / f"g{n}" / "game.json").write_text(json.dumps(game) + "\n")
            print(json.dumps(game), file=sys.stderr, flush=True)
    played = [g for g in games if "skipped" not in g]
    resumes = [g["resume_s"] for g in played if g["resume_s"] is not None]
    beat = "default" if args.heartbeat is None else f"{args.heartbeat} s"
    print(f"games: {len(games)} ({len(games) - len(played)} ended before the fault), "
          f"players {args.players}, fault {args.fault}, heartbeat {beat}, deal {args.deal}"
          + (" with escrow" if args.escrow else ""))
    print(f"finished: {sum(g['finished'] for g in played)}/{len(played)}; "
          f"mismatches: {sum(g['mismatch'] for g in played)}; "
          f"host changes: {sum(g['resume_s'] is not None for g in played)} "
          "(none: the fault came as the match was ending, the old host finished it, or a "
          "survivor printed no outcome)")
    ends = sorted({end for g in played if not g["finished"] or g["mismatch"]
                   for end in g["survivors"]})
    if ends:
        print("how the unfinished or mismatched games ended at the survivors: "
              f"{'; '.join(ends)}")
    silent = [g["game"] for g in played if g["silent"]]
    if silent:
        print(f"survivors that printed no outcome: games {silent}")
    for fault in (*FAULTS, "sigterm"):
        mine = [g for g in played if g["fault"] == fault]
        if mine:
            r = [g["resume_s"] for g in mine if g["resume_s"] is not None]
            olds = sorted({str(g["old_host"]) for g in mine if g["old_host"] is not None})
            print(f"  {fault}: {len(mine)} games, {sum(g['finished'] for g in mine)} finished"
                  + (f", resume median {statistics.median(r):.2f} s max {max(r):.2f} s"
                     if r else "")
                  + (f"; old host: {', '.join(olds)}" if olds else ""))
    if resumes:
        print(f"time to resume: median {statistics.median(resumes):.2f} s, "
              f"p99 {percentile(resumes, 0.99):.2f} s, max {max(resumes):.2f} s (n={len(resumes)})")
    ok = played and all(g["finished"] and not g["mismatch"] for g in played)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
