"""The command line: help, version, start-up imports, rule errors, selfplay, rules."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from lanomino import __version__
from lanomino.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("zmq", "zeroconf", "prompt_toolkit")


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "lanomino", *args],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT,
    )


def test_help_lists_every_subcommand() -> None:
    done = _run("--help")
    assert done.returncode == 0
    for name, _module, help_text in COMMANDS:
        assert name in done.stdout
        assert help_text in done.stdout


def test_version_prints_the_package_version() -> None:
    done = _run("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"lanomino {__version__}"


def _modules_loaded_by(argv: list[str]) -> list[str]:
    probe = (
        "import sys\n"
        "from lanomino.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print('\\n' + repr(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    return loaded


def test_help_and_version_do_not_import_zmq_zeroconf_or_prompt_toolkit() -> None:
    assert _modules_loaded_by(["--help"]) == []
    assert _modules_loaded_by(["--version"]) == []
    for name, _module, _help in COMMANDS:
        assert _modules_loaded_by([name, "--help"]) == [], name


def test_the_probe_would_see_a_heavy_import() -> None:
    # The check above means something: importing prompt_toolkit does show up in sys.modules.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys, prompt_toolkit; print('prompt_toolkit' in sys.modules)"],
        capture_output=True, text=True, timeout=60, env=env,
    )
    assert done.stdout.strip() == "True"


def _assert_usage_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_rule_settings_exit_2_with_a_clear_message() -> None:
    _assert_usage_error(_run("selfplay", "--set", "target=lots"),
                        "target must be a whole number, not 'lots'")
    _assert_usage_error(_run("selfplay", "--set", "colour=red"), "unknown rule option 'colour'")
    _assert_usage_error(_run("selfplay", "--set", "target"), "--set takes name=value")
    _assert_usage_error(_run("selfplay", "--rules", "poker"), "unknown preset 'poker'")
    _assert_usage_error(_run("rules", "--set", "game=chess"),
                        "game must be one of draw, block, allfives")
    _assert_usage_error(_run("selfplay", "--rules", "partnership", "--players", "3"),
                        "a partnership game needs exactly 4 players")
    _assert_usage_error(_run("selfplay", "--bots", "wizard"), "unknown bot 'wizard'")
    _assert_usage_error(_run("selfplay", "--records", "r", "--transcripts", "t"),
                        "--records and --transcripts do not go together")  # (records went unsaid)


def test_output_into_a_reader_that_stops_early_ends_without_a_traceback() -> None:
    """`lanomino hint FILE | head -3` printed a BrokenPipeError traceback once head had its lines
    (a new evening's bad input, issue 30); here the reader is gone before the first line."""
    done = subprocess.run(f"{sys.executable} -m lanomino rules | true", shell=True,
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def _selfplay_json(*args: str) -> dict[str, Any]:
    done = _run("selfplay", "--json", *args)
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def test_selfplay_with_the_same_seed_plays_the_same_games() -> None:
    args = ("--rules", "allfives", "--players", "3", "--games", "3", "--seed", "1234",
            "--bots", "random,greedy,random")
    first, second = _selfplay_json(*args), _selfplay_json(*args)
    assert first.pop("hands_per_second") is not None
    second.pop("hands_per_second")
    assert first == second
    assert first["seed"] == 1234 and first["games"] == 3
    assert sum(first["wins"]) + first["no_winner"] == 3
    other = _selfplay_json("--rules", "allfives", "--players", "3", "--games", "3",
                           "--seed", "1235")
    other.pop("hands_per_second")
    assert other != first


def test_selfplay_records_replay_to_the_same_wins(tmp_path: Path) -> None:
    summary = _selfplay_json("--rules", "classic", "--set", "target=30", "--players", "2",
                             "--games", "2", "--seed", "7", "--records", str(tmp_path))
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    wins = [0, 0]
    for record in records:
        done = _run("replay", str(record), "--json")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["finished"] is True
        if result["winner"] is not None:
            wins[result["winner"]] += 1
    assert wins == summary["wins"]


def test_rules_shows_the_preset_with_overrides() -> None:
    done = _run("rules", "--rules", "allfives", "--set", "target=250", "--json")
    assert done.returncode == 0
    rules = json.loads(done.stdout)
    assert (rules["game"], rules["target"], rules["round_to_5"]) == ("allfives", 250, True)
    plain = _run("rules", "--rules", "partnership")
    assert plain.returncode == 0 and "left-of-last" in plain.stdout
