"""A LAN match whose host is killed during its first hand stays in History, as abandoned (issue
30 item 24): a headless host and a bot over 127.0.0.1, the host SIGKILLed once a move was made;
the bot's play log keeps the match, and stats count it."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from lanomino.lines.talk import history_lines
from lanomino.store import PlayLog, open_store
from lanomino.ui.history import check_label, result_label

ROOT = Path(__file__).resolve().parents[2]
LANOMINO = [sys.executable, "-u", "-m", "lanomino"]


def lines_of(stream: object, into: queue.Queue[str]) -> threading.Thread:
    def pump() -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.put(line.rstrip("\n"))
    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def wait_line(lines: queue.Queue[str], text: str, timeout_s: float) -> str:
    deadline = time.monotonic() + timeout_s
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"never saw {text!r}"
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if text in line:
            return line


def test_a_match_whose_host_was_killed_stays_in_history_as_abandoned(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--name", "Porch", "--set", "target=300", "--bot-delay", "0.5", "--grace", "3",
         "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    bot: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        bot = subprocess.Popen(
            [*LANOMINO, "bot", address, "--json", "--player", "Bo", "--delay", "0.5",
             "--grace", "3", "--data-dir", str(tmp_path / "bo")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "LANOMINO_LOG": "DEBUG"})
        said: queue.Queue[str] = queue.Queue()
        out: queue.Queue[str] = queue.Queue()
        lines_of(bot.stderr, said)
        lines_of(bot.stdout, out)
        wait_line(said, "in  {'v': 1, 'type': 'update'", 60)  # a move of hand 1 was made
        host.kill()
        host.wait(timeout=10)
        over = json.loads(wait_line(out, '"match_over"', 60))
        assert over["hands"] == 0 and "host left" in over["reason"], over
        assert bot.wait(timeout=30) is not None
    finally:
        for proc in (host, bot):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
    store = open_store(tmp_path / "bo")
    try:
        log = PlayLog(store)
        [match] = log.matches()
        assert match.abandoned and not match.finished and match.hands == 0
        assert match.table == "Porch" and [p.name for p in match.players] == ["host", "Bo"]
        # Bo's node decided it (a table of two whose host is gone for good): Bo's screen said
        # "you won because the host left", and so do History and stats (they said abandoned, 0
        # won)
        assert match.winner == 1 and match.you_won is True
        assert result_label(match.to_json()) == "won 0-0 (the host left)"
        # no hand was played, so nothing was checked: the column does not say "replays"
        assert check_label(match.to_json()) == "no hands"
        assert history_lines([match.to_json()])[1].endswith(": won 0-0 (the host left), no hands.")
        stats = log.stats().to_json()
        assert stats["played"] == 1 and stats["matches"] == 1 and stats["wins"] == 1, stats
    finally:
        store.close()
