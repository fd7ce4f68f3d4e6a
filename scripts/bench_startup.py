#!/usr/bin/env python3
"""Start-up benchmark: ``lanomino --help`` against an interpreter that only imports the stdlib
modules a command line needs (argparse, dataclasses, enum, json, typing).

Both run as whole processes, one after the other (A B A B ...), so that they see the same load;
it prints the medians of wall time and of CPU time (user + system) and their ratios (goal <= 2x).
Run it with the installed package from outside the checkout to measure the installed build.

    python scripts/bench_startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:  # prefer the installed package (see setup.py)
    import lanomino
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import lanomino

BASELINE = "import argparse, dataclasses, enum, json, typing"


def child_env() -> dict[str, str]:
    """The environment for a child that imports the same lanomino as this script."""
    return {**os.environ, "PYTHONPATH": str(Path(lanomino.__file__).resolve().parent.parent)}


def timed(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compare(ours: list[str], reference: list[str], runs: int, env: dict[str, str],
            ref_env: dict[str, str] | None = None) -> dict[str, float]:
    """Interleaved runs of ``ours`` and ``reference``: medians and ratios, wall and CPU."""
    walls: tuple[list[float], list[float]] = ([], [])
    cpus: tuple[list[float], list[float]] = ([], [])
    with tempfile.TemporaryDirectory() as cwd:  # outside the checkout
        for _ in range(runs):
            for i, (command, e) in enumerate(((ours, env), (reference, ref_env or env))):
                wall, cpu = timed(command, e, cwd)
                walls[i].append(wall)
                cpus[i].append(cpu)
    ours_wall, ref_wall = statistics.median(walls[0]), statistics.median(walls[1])
    ours_cpu, ref_cpu = statistics.median(cpus[0]), statistics.median(cpus[1])
    return {"ours_wall": ours_wall, "ref_wall": ref_wall, "wall_ratio": ours_wall / ref_wall,
            "ours_cpu": ours_cpu, "ref_cpu": ref_cpu, "cpu_ratio": ours_cpu / ref_cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each (medians reported)")
    args = parser.parse_args()
    env = child_env()
    print(f"lanomino from {Path(lanomino.__file__).parent}")
    r = compare([sys.executable, "-m", "lanomino", "--help"], [sys.executable, "-c", BASELINE],
                args.runs, env)
    print(f"lanomino --help:        {r['ours_wall'] * 1e3:6.1f} ms wall, "
          f"{r['ours_cpu'] * 1e3:6.1f} ms CPU (median of {args.runs})")
    print(f"stdlib imports only:    {r['ref_wall'] * 1e3:6.1f} ms wall, "
          f"{r['ref_cpu'] * 1e3:6.1f} ms CPU")
    print(f"ratio: {r['wall_ratio']:.2f}x wall, {r['cpu_ratio']:.2f}x CPU (goal <= 2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
