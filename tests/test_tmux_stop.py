"""The client stops on SIGTERM, SIGHUP and SIGINT as quitting does (issue 32): the game saved,
the terminal given back, gone within 2 s. The full-screen client runs in a detached tmux at 80x24
(its window closed is a real hang-up); the line mode runs over pipes."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from lanomino.store import open_store

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROOT = Path(__file__).resolve().parent.parent
STOP_WITHIN_S = 2.0
ADDRESS = re.compile(r"127\.0\.0\.1:\d+/[a-z2-7]{52}")  # (as the host's screen shows it)
SIGNALS = {"TERM": signal.SIGTERM, "HUP": signal.SIGHUP, "INT": signal.SIGINT}


class Tmux:
    def __init__(self) -> None:
        self.socket = f"lanomino-stop-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=10, check=True).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "play")

    def until(self, text: str, timeout_s: float = 60.0) -> str:
        deadline = time.monotonic() + timeout_s
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared; last screen:\n{screen}")

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def _client(tmux: Tmux, data: Path, after: str) -> int:
    """Start a local game in the full-screen client (``after``: what the shell does once it has
    exited); the client's pid once its hand is on screen."""
    pid_file = data / "pid"
    script = ("import os, sys; open(sys.argv[1], \"w\").write(str(os.getpid())); "
              "sys.argv[1:] = sys.argv[2:]; from lanomino.cli import main; sys.exit(main())")
    play = (f"{sys.executable} -c '{script}' {pid_file} play --seed 8 --level greedy "
            f"--pause 0.05 --data-dir {data}")
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"cd {ROOT} && {play}{after}")
    tmux.until("Your hand")
    return int(pid_file.read_text())


def _gone_within(pid: int, timeout_s: float) -> float | None:
    """Seconds until process ``pid`` has exited (None: still running after ``timeout_s``). An
    exited process not reaped yet counts as gone: a client whose terminal closed is an orphan,
    and its new parent may take a while to reap it on a busy machine."""
    began = time.monotonic()
    while time.monotonic() - began < timeout_s:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            state = "gone"
        if state in ("Z", "X", "gone"):
            return time.monotonic() - began
        time.sleep(0.01)
    return None


def _saved(data: Path) -> bool:
    store = open_store(data)
    try:
        return store.has_saved_game()
    finally:
        store.close()


@needs_tmux
@pytest.mark.parametrize("sig", list(SIGNALS))
def test_the_full_screen_client_saves_gives_the_terminal_back_and_exits(sig: str,
                                                                        tmp_path: Path) -> None:
    tmux = Tmux()
    try:
        pid = _client(tmux, tmp_path, "; echo EXITED $?; stty -a; echo STTY-SAID; sleep 30")
        os.kill(pid, SIGNALS[sig])
        took = _gone_within(pid, 10)
        screen = tmux.until("STTY-SAID", 5)
        assert took is not None and took < STOP_WITHIN_S, took
        assert "EXITED 0" in screen and "The game is saved" in screen
        assert " icanon" in screen and " echo" in screen  # (the terminal is cooked again)
        assert "Your hand" not in screen  # (the main screen is back)
        modes = tmux("display-message", "-p", "-t", "play", "#{alternate_on} #{wrap_flag}")
        assert modes.split() == ["0", "1"], modes  # (no alternate screen; lines wrap again)
    finally:
        tmux.kill()
    assert _saved(tmp_path)


@needs_tmux
def test_the_full_screen_client_whose_window_closes_saves_and_exits(tmp_path: Path) -> None:
    """A real hang-up: the terminal goes away (SIGHUP, then nothing to read or write)."""
    tmux = Tmux()
    try:
        pid = _client(tmux, tmp_path, "")
        tmux.kill()
        took = _gone_within(pid, 10)
    finally:
        tmux.kill()
    assert took is not None and took < STOP_WITHIN_S, took
    assert _saved(tmp_path)


@pytest.mark.parametrize("sig", ["TERM", "HUP"])
def test_the_line_mode_saves_and_exits(sig: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-u", "-m", "lanomino", "play", "--lines", "--pause", "0",
               "--players", "2", "--seed", "9", "--data-dir", str(tmp_path)]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if re.search(r"Playable: |Nothing fits", line):
                break
        proc.send_signal(SIGNALS[sig])
        began = time.monotonic()
        out, _ = proc.communicate(timeout=10)
        took = time.monotonic() - began
    finally:
        proc.kill()
    assert proc.returncode == 0 and "saved" in out
    assert took < STOP_WITHIN_S, took
    assert _saved(tmp_path)


@needs_tmux
def test_a_host_in_the_client_stopped_by_sigterm_closes_the_table_for_its_player(
        tmp_path: Path) -> None:
    """Mid-match on 127.0.0.1: the host's client is sent SIGTERM; it is gone within 2 s, and the
    headless player at its table hears that the table closed (a goodbye, not a silence)."""
    tmux = Tmux()
    pid_file = tmp_path / "pid"
    script = ("import os, sys; open(sys.argv[1], \"w\").write(str(os.getpid())); "
              "sys.argv[1:] = sys.argv[2:]; from lanomino.cli import main; sys.exit(main())")
    host = (f"{sys.executable} -c '{script}' {pid_file} host --bind 127.0.0.1 --no-announce "
            f"--name Den --player Me --set target=500 --data-dir {tmp_path / 'host'}")
    bot: subprocess.Popen[str] | None = None
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"cd {ROOT} && {host}")
        address = ADDRESS.search(tmux.until("waiting for players"))
        assert address is not None
        bot = subprocess.Popen([sys.executable, "-m", "lanomino", "bot", address.group(0),
                                "--level", "random", "--json", "--heartbeat", "1",
                                "--data-dir", str(tmp_path / "bot")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
        tmux.until("Your hand")
        os.kill(int(pid_file.read_text()), signal.SIGTERM)
        took = _gone_within(int(pid_file.read_text()), 10)
        out, _ = bot.communicate(timeout=15)
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
        tmux.kill()
    assert took is not None and took < STOP_WITHIN_S, took
    outcome = json.loads(out.strip().splitlines()[-1])
    assert not outcome["finished"] and "closed" in outcome["reason"], outcome  # (its bye)
