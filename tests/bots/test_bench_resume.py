"""bench_bots --save: a long strength run taken in parts adds up to one run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench_bots.py"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), "--a", "greedy", "--b", "random",
                           "--workers", "1", *args], capture_output=True, text=True, timeout=120)


def test_a_second_run_plays_only_the_matches_the_file_lacks(tmp_path: Path) -> None:
    saved = tmp_path / "runs.jsonl"
    first = bench("--matches", "4", "--save", str(saved))
    assert first.returncode == 0, first.stderr
    assert "4 matches to 100" in first.stdout
    lines = saved.read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1, 2, 3]
    second = bench("--matches", "8", "--save", str(saved))
    assert second.returncode == 0, second.stderr
    assert "4 matches of this series already" in second.stderr
    assert "8 matches to 100 (4 duplicate pairs" in second.stdout
    entries = [json.loads(line) for line in saved.read_text().splitlines()]
    assert sorted(e["index"] for e in entries) == list(range(8))  # each match played once
    # Another pairing (or seed) is another series: nothing of it is in the file yet.
    other = bench("--matches", "2", "--seed", "9", "--save", str(saved))
    assert other.returncode == 0 and "already" not in other.stderr


def test_a_file_that_is_not_saved_matches_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    saved = tmp_path / "runs.jsonl"
    assert bench("--matches", "2", "--save", str(saved)).returncode == 0
    entry = json.loads(saved.read_text().splitlines()[0])
    entry["index"] = "three"  # this series' key, but no match index
    saved.write_text(saved.read_text() + json.dumps(entry) + "\n")
    before = saved.read_bytes()
    run = bench("--matches", "4", "--save", str(saved))
    assert run.returncode == 2
    assert "line 3: not a saved match" in run.stderr
    assert saved.read_bytes() == before


def test_a_series_survives_reworded_docs_but_not_changed_code(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH.parent))
    from bench_bots import _code_of

    def code(text: str) -> bytes:
        path = tmp_path / "m.py"
        path.write_text(text)
        return _code_of(path)

    plain = code('"""A module."""\n\ndef f(x):\n    """Twice x."""\n    return 2 * x  # doubled\n')
    reworded = code('"""Another\nwording."""\n\ndef f(x):\n    """Doubles.\n\n    More."""\n'
                    "    return 2 * x\n")
    changed = code('"""A module."""\n\ndef f(x):\n    """Twice x."""\n    return 3 * x\n')
    assert plain == reworded
    assert plain != changed
