"""``lanomino watch`` against a real headless table on 127.0.0.1: real sockets, real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lanomino(*args: str) -> list[str]:
    return [sys.executable, "-m", "lanomino", *args]


def open_table(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """A headless 2-seat host on 127.0.0.1 (a short match), and its HOST:PORT/KEY."""
    host = subprocess.Popen(lanomino("host", "--headless", "--json", "--seats", "2",
                                     "--bind", "127.0.0.1", "--no-announce", "--bot-delay", "0.01",
                                     "--set", "target=30", "--data-dir", str(tmp_path / "host")),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert host.stdout is not None
    return host, str(json.loads(host.stdout.readline())["address"])


def run_bot(address: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A headless bot that takes the free seat at ``address`` and plays the match out."""
    return subprocess.run(lanomino("bot", address, "--json", "--interface", "127.0.0.1",
                                   "--delay", "0.01", "--data-dir", str(tmp_path / "bot")),
                          cwd=ROOT, capture_output=True, text=True, timeout=90)


@pytest.mark.timeout(120)
def test_a_watcher_follows_a_match_to_its_end_with_the_players_transcript(tmp_path: Path) -> None:
    host, address = open_table(tmp_path)
    try:
        watcher = subprocess.Popen(lanomino("watch", address, "--json", "--interface", "127.0.0.1",
                                            "--data-dir", str(tmp_path / "watcher")),
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True)
        assert watcher.stdout is not None
        # in before the seat fills
        assert json.loads(watcher.stdout.readline())["event"] == "watching"
        bot = run_bot(address, tmp_path)
        assert bot.returncode == 0, bot.stderr[-2000:]
        out, _ = watcher.communicate(timeout=30)
        assert watcher.returncode == 0
        lines = [json.loads(line) for line in out.splitlines()]
        hands = [line for line in lines if line.get("event") == "hand"]
        outcome = lines[-1]
        assert outcome["finished"] and outcome["verified"] and outcome["seat"] == -1  # (no seat)
        assert hands and all(h["verified"] for h in hands) and len(hands) == outcome["hands"]
        played = json.loads(bot.stdout.splitlines()[-1])
        assert Path(outcome["transcript"]).read_bytes() == Path(played["transcript"]).read_bytes()
    finally:
        for proc in (host, locals().get("watcher")):  # (a failed run leaves no watcher behind)
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


@pytest.mark.timeout(120)
def test_watch_lines_narrates_the_match_from_no_seat_over_a_pipe(tmp_path: Path) -> None:
    host, address = open_table(tmp_path)
    try:
        watcher = subprocess.Popen(lanomino("watch", address, "--lines", "--interface", "127.0.0.1",
                                            "--data-dir", str(tmp_path / "watcher")),
                                   cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True)
        assert watcher.stdout is not None and watcher.stdin is not None
        seen: list[str] = []
        for line in watcher.stdout:  # let in before the seat fills
            seen.append(line)
            if "Waiting for players" in line:
                break
        bot = run_bot(address, tmp_path)
        assert bot.returncode == 0, bot.stderr[-2000:]
        for line in watcher.stdout:
            seen.append(line)
            if "The match is over." in line:
                break
        watcher.stdin.write("quit\n")
        watcher.stdin.flush()
        watcher.wait(timeout=20)
        text = "".join(seen)
        assert "opened with" in text and "checked: the deal and every move were fair" in text
        assert "Your hand" not in text and "Your turn" not in text  # no seat, no hand
    finally:
        for proc in (host, locals().get("watcher")):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


@pytest.mark.timeout(120)
def test_a_headless_and_a_line_mode_watcher_both_say_a_seat_ran_out_of_time(
        tmp_path: Path) -> None:
    """The two ways to watch tell the same table news (issue 31: ``watch --headless`` said a seat
    ran out of time, ``watch --lines`` never did): a table with a move clock, a person who sat
    down in the line mode and never moves, and one watcher of each kind."""
    import threading
    import time

    host = subprocess.Popen(lanomino("host", "--headless", "--json", "--seats", "2",
                                     "--bind", "127.0.0.1", "--no-announce", "--bot-delay", "0.1",
                                     "--move-time", "0.5", "--set", "target=20",
                                     "--data-dir", str(tmp_path / "host")),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs = [host]
    heard: dict[str, list[str]] = {"headless": [], "lines": []}

    def follow(proc: subprocess.Popen[str], into: list[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            into.append(line.strip())

    def start(args: tuple[str, ...], name: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen(lanomino(*args, "--interface", "127.0.0.1",
                                         "--data-dir", str(tmp_path / name)),
                                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        procs.append(proc)
        return proc

    def wait_for(test: Callable[[], object], what: str, timeout_s: float = 60.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not test():
            assert time.monotonic() < deadline, f"never: {what}: {heard}"
            time.sleep(0.05)

    try:
        assert host.stdout is not None
        address = str(json.loads(host.stdout.readline())["address"])
        for kind, flag in (("headless", "--headless"), ("lines", "--lines")):
            watcher = start(("watch", address, flag), kind)
            threading.Thread(target=follow, args=(watcher, heard[kind]), daemon=True).start()
        wait_for(lambda: heard["headless"] and heard["lines"], "both watchers let in")
        start(("join", address, "--lines", "--player", "Bo"), "bo")  # sits down, never moves
        said = "Bo is out of time: the table's bot plays for them."
        wait_for(lambda: all(said in lines for lines in heard.values()), "both say it")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
