"""Standard input and output for the line mode: whole lines, a terminal or a pipe alike.

Input is read by a daemon thread (a blocking read works on a terminal, a pipe and a file; the
event loop never waits on it) and handed to the loop as whole lines; ``None`` means end of input.
Output is one flushed line per sentence. On a terminal a short prompt follows each burst of output.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TextIO

PROMPT = "> "


class Console:
    def __init__(self, stdin: TextIO, stdout: TextIO, prompt: bool) -> None:
        self.stdin, self.stdout, self.prompt = stdin, stdout, prompt
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._prompted = False
        self._pending = False  # a prompt is due once this burst of output is written
        self._loop = asyncio.get_running_loop()
        self.waiting: Callable[[], bool] = lambda: True  # is the reader the one to act now?

    def start(self) -> None:
        threading.Thread(target=self._read, name="lanomino-stdin", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                line = self.stdin.readline()
            except (OSError, ValueError, UnicodeDecodeError):
                line = ""
            text = line.rstrip("\r\n") if line else None
            try:
                self._loop.call_soon_threadsafe(self.lines.put_nowait, text)
            except RuntimeError:  # the line mode has ended: nobody reads any more lines
                return
            if not line:
                return

    def say(self, line: str) -> None:
        """Write one line (after a newline when a prompt is showing)."""
        lead = "\n" if self._prompted else ""
        self._prompted = False
        try:
            self.stdout.write(f"{lead}{line}\n")
            self.stdout.flush()
        except (OSError, ValueError):
            pass  # the reader went away (a closed pipe): nothing more to say to it
        if self.prompt and not self._pending:
            self._pending = True
            self._loop.call_soon(self._after_burst)

    def _after_burst(self) -> None:
        self._pending = False
        if self.waiting():
            self.show_prompt()

    def show_prompt(self) -> None:
        if self.prompt and not self._prompted:
            self._prompted = True
            try:
                self.stdout.write(PROMPT)
                self.stdout.flush()
            except (OSError, ValueError):
                pass

    def typed(self) -> None:
        """The reader pressed Enter: the prompt's line is theirs now."""
        self._prompted = False
