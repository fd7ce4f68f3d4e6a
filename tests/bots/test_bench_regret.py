"""bench_regret: single choices judged against an oracle on fixed positions."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench_regret.py"
LINE = re.compile(r"^  (\S+) +regret +([\d.]+) ± [\d.]+ thousandths, the oracle's best (\d+) of 6",
                  re.M)


def regret(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), "--positions", "3", "--worlds", "200",
                           "--clock", "wall", *args], capture_output=True, text=True, timeout=300)


def test_a_random_player_regrets_more_than_the_oracles_own_search() -> None:
    run = regret("--bots", "random", "expert@4000")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("3 positions, oracle: 200 paired worlds a move")
    found = {name: (float(r), int(best)) for name, r, best in LINE.findall(run.stdout)}
    assert set(found) == {"random", "expert@4000"}, run.stdout
    assert found["expert@4000"][0] < found["random"][0]
    assert "against random:" in run.stdout


def test_a_bad_bot_or_count_is_refused() -> None:
    bad = regret("--bots", "expert:0.1,nosuch=1")
    assert bad.returncode == 2 and "nosuch" in bad.stderr
    zero = regret("--tries", "0")
    assert zero.returncode == 2 and "at least 1" in zero.stderr
