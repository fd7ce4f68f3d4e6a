"""runtime/stopping.py's watchdog: a process whose stop does not end it is ended 2 s after the
stop signal, or at once at a second one, with a line that says so."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lanomino.runtime.stopping import OVERRUN_STATUS, STOP_WITHIN_S

ROOT = Path(__file__).resolve().parents[2]
STUCK = """
import asyncio
from lanomino.runtime.stopping import on_stop_signals

async def main() -> None:
    on_stop_signals(lambda: print("stop asked", flush=True))  # (a stop that ends nothing)
    print("ready", flush=True)
    await asyncio.sleep(30)

asyncio.run(main())
"""


def _stuck() -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_process_that_does_not_stop_is_ended_2_s_after_the_signal(sig: int) -> None:
    proc = _stuck()
    began = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=10)
    took = time.monotonic() - began
    assert out == "stop asked\n"
    assert proc.returncode == OVERRUN_STATUS
    assert f"not stopped 2 s after {signal.Signals(sig).name}: exiting now" in err
    assert STOP_WITHIN_S <= took < STOP_WITHIN_S + 1.0, took


def test_a_second_stop_signal_ends_it_at_once() -> None:
    proc = _stuck()
    proc.send_signal(signal.SIGTERM)
    assert proc.stdout is not None and proc.stdout.readline() == "stop asked\n"
    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == OVERRUN_STATUS and "a second SIGINT: exiting now" in err
    assert time.monotonic() - began < 1.0


def test_the_terminal_restorer_gives_back_the_settings_the_alternate_screen_and_line_wrap() -> None:
    """What the watchdog does to the terminal before it ends a stuck full-screen client: the
    terminal's settings as they were, the mouse off, the cursor shown, line wrap on again (the
    full screen turns it off) and the main screen back."""
    import pty
    import termios

    from lanomino.runtime.stopping import terminal_restorer

    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        restore = terminal_restorer(follower)
        assert restore is not None
        changed = termios.tcgetattr(follower)
        changed[3] &= ~(termios.ECHO | termios.ICANON)  # as a full-screen app leaves it
        termios.tcsetattr(follower, termios.TCSANOW, changed)
        restore()
        assert termios.tcgetattr(follower) == before
        written = os.read(leader, 1024)
        for sequence in (b"\x1b[?1000l", b"\x1b[?25h", b"\x1b[?7h", b"\x1b[?1049l"):
            assert sequence in written, sequence
    finally:
        os.close(leader)
        os.close(follower)
