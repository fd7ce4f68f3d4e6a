"""How a node stops: the one place that wires SIGTERM, SIGHUP and SIGINT, and the helpers that
let every long-running task of a node end when it is cancelled.

Theory of operation: a stop signal calls the stop of whatever runs in the process (a node's
``quit``: the goodbye on the LAN, the table closed or handed over; the client's quit: a local
game saved, the terminal given back). The process then has ``STOP_WITHIN_S`` to exit on its own;
a watchdog thread ends it when it has not (a wait that ignores its deadline, a stuck disk), after
``restore`` (the terminal's settings, for the full-screen client) and a line on stderr that
names the overrun. A second stop signal ends it at once the same way.

Every loop in ``runtime/``, ``discovery/`` and ``net/zmq_transport/`` ends when its task is
cancelled: waits use ``asyncio.timeout``, never ``asyncio.wait_for`` (on Python 3.11 it returns
instead of raising when the cancel lands just after the wait it wraps finished, so a loop around
it runs on and the node never closes), no handler keeps a cancel (tests/test_architecture.py),
and the node's loops test ``cancelling()``.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Collection
from typing import Any

log = logging.getLogger("lanomino.node")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
STOP_WITHIN_S = 2.0  # from a stop signal to the process's exit
OVERRUN_STATUS = 124  # the exit status when the watchdog ended the process


def cancelling() -> bool:
    """The current task has been asked to stop (a loop's test: a cancel swallowed by a library
    must not keep it going)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def cancel_all(tasks: Collection[asyncio.Future[Any]], within_s: float) -> list[str]:
    """Cancel ``tasks`` and wait at most ``within_s`` for them to end; the names of those still
    running then (logged: a task that ignores its cancel is a bug)."""
    for task in tasks:
        task.cancel()
    if not tasks:
        return []
    done, pending = await asyncio.wait(tasks, timeout=within_s)
    for task in done:
        if not task.cancelled():
            task.exception()  # (retrieved: a failure was logged where the task was spawned)
    left = sorted(_name(task) for task in pending)
    if left:
        log.warning("still running %.1f s after being stopped: %s", within_s, ", ".join(left))
    return left


def _name(task: asyncio.Future[Any]) -> str:
    coro = task.get_coro() if isinstance(task, asyncio.Task) else None
    return str(getattr(coro, "__qualname__", task))


class _Watchdog:
    """Ends the process ``STOP_WITHIN_S`` after the first stop signal, or at the second."""

    def __init__(self, restore: Callable[[], None] | None) -> None:
        self.restore = restore
        self.timer: threading.Timer | None = None

    def signalled(self, stop: Callable[[], None], sig: int) -> None:
        if self.timer is not None:
            self.end(f"a second {signal.Signals(sig).name}")
            return
        self.timer = threading.Timer(STOP_WITHIN_S, self.end,
                                     (f"not stopped {STOP_WITHIN_S:g} s after "
                                      f"{signal.Signals(sig).name}",))
        self.timer.daemon = True
        self.timer.start()
        atexit.register(gc.freeze)  # (see on_stop_signals)
        stop()

    def end(self, why: str) -> None:
        try:
            if self.restore is not None:
                self.restore()
            sys.stderr.write(f"lanomino: {why}: exiting now\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001, S110 - nothing may keep the process from ending now
            pass
        os._exit(OVERRUN_STATUS)


def terminal_restorer(fd: int = 0) -> Callable[[], None] | None:
    """What puts the terminal on ``fd`` back as it is now (its settings; the main screen, the
    cursor and no mouse reports, as a full-screen program found them), or None when ``fd`` is
    not a terminal. For a watchdog that must end a full-screen client."""
    import termios

    try:
        saved = termios.tcgetattr(fd)
    except (OSError, termios.error):
        return None

    def restore() -> None:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
        os.write(fd, b"\x1b[?1000l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?25h\x1b[?7h\x1b[?1049l")

    return restore


def on_stop_signals(stop: Callable[[], None], *,
                    restore: Callable[[], None] | None = None) -> Callable[[], None]:
    """SIGTERM, SIGHUP and SIGINT call ``stop`` (on the running loop) once, as leaving does; the
    process must then exit within ``STOP_WITHIN_S`` or a watchdog ends it (``restore`` first,
    e.g. the terminal's settings). Returns the function that removes the handlers. Where the
    loop cannot take signal handlers (not the main thread, Windows) nothing is installed.

    After a stop signal the interpreter's exit skips its last garbage collection (``gc.freeze``
    at exit: everything is closed and flushed by then): forty nodes stopped at once on two cores
    spent 1.3 s there, most of their 2 s."""
    loop = asyncio.get_running_loop()
    watchdog = _Watchdog(restore)
    installed: list[int] = []
    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, watchdog.signalled, stop, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            continue
        installed.append(sig)

    def remove() -> None:
        if not loop.is_closed():
            for sig in installed:
                loop.remove_signal_handler(sig)

    return remove
