"""A host process and ``lanomino bot`` processes on 127.0.0.1 that play a match to its end, for
the tests that run a table in real processes: each process's last JSON line, and every process
killed on the way out whatever happens."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def play_match(host_argv: Sequence[str], bots: Sequence[Sequence[str]], data: Path, *,
               env: Mapping[str, str] | None = None, bots_s: float = 150.0,
               wait_host: bool = True) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Start ``host_argv`` (it prints its address as its first JSON line), then one bot per entry
    of ``bots`` (extra arguments each; data in ``data``/botN) joining it; wait up to ``bots_s``
    for the bots to end, then (``wait_host``) up to 30 s for the host. Returns the host's last
    line (None when not waited for) and each bot's."""
    host = subprocess.Popen(list(host_argv), cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    procs = [host]
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        procs += [subprocess.Popen(
            [sys.executable, "-m", "lanomino", "bot", address, "--json", "--interface",
             "127.0.0.1", "--data-dir", str(data / f"bot{i}"), *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for i, extra in enumerate(bots, 1)]
        outs = [bot.communicate(timeout=bots_s)[0] for bot in procs[1:]]
        host_out = host.communicate(timeout=30)[0] if wait_host else None
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=10)
    return (_last(host_out) if host_out is not None else None), [_last(out) for out in outs]


def _last(text: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return result
