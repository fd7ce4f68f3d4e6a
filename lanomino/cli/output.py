"""Printing for the commands: lines that survive ``| head``, text wrapped to the terminal, a
question answered on it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable


def print_lines(lines: Iterable[str]) -> int:
    """Print ``lines``; a reader that stops early (``| head``) ends them quietly. Returns 0."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python would report the broken pipe again when it flushes at exit: point stdout away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def fill_terminal(text: str, indent: str = "", more: str = "") -> str:
    """``text`` wrapped between words to the terminal's width (a fingerprint is never split), its
    first line after ``indent``, the others after ``more``."""
    import shutil
    import textwrap

    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=more,
                         break_on_hyphens=False)


def ask_yes(question: str, prompt: str) -> bool:
    """Print ``question`` and read a yes on the terminal (no input, or anything else: no)."""
    print(fill_terminal(question), flush=True)
    try:
        answer = input(prompt).strip().lower()
    except EOFError:
        answer = ""
    return answer in ("y", "yes")
