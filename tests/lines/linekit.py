"""A line-mode lanomino on pipes: write commands, read sentences, play by what it says.

No terminal anywhere: stdin and stdout are pipes, read by a thread so that every wait has a
deadline. ``Player.play_match`` answers each "Playable:" / "Nothing fits" / "Type next" line the
way a reader would, from the words alone, and returns everything the program said.
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
ROOT = Path(__file__).resolve().parents[2]
CHOICE = re.compile(r"(\d+): [^,(.]+?(?: \(([a-z]+)[^)]*\))?(?=,|\.|$)")


class LinePipe:
    """One ``lanomino ... --lines`` process on pipes."""

    def __init__(self, args: list[str], cwd: Path = ROOT, prefix: tuple[str, ...] = ()) -> None:
        """``prefix`` runs it through another command (``ip netns exec NS``)."""
        self.proc = subprocess.Popen([*prefix, *LANOMINO, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=cwd, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.said: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.said.append(f">>> {text}")
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def read(self, timeout_s: float = 30.0) -> str | None:
        """The next line (None at the end of output). Raises AssertionError after the deadline."""
        try:
            line = self.lines.get(timeout=timeout_s)
        except queue.Empty:
            raise AssertionError(f"no output for {timeout_s:.0f} s; so far:\n"
                                 f"{self.transcript()}") from None
        if line is not None:
            self.said.append(line)
        return line

    def until(self, pattern: str, timeout_s: float = 30.0) -> str:
        """Read until a line matching ``pattern``; that line."""
        deadline = time.monotonic() + timeout_s
        while True:
            line = self.read(max(0.1, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"output ended before {pattern!r}:\n{self.transcript()}")
            if re.search(pattern, line):
                return line

    def drain(self, quiet_s: float = 0.3) -> list[str]:
        """The lines said until the program is quiet for ``quiet_s``."""
        out = []
        while True:
            try:
                line = self.lines.get(timeout=quiet_s)
            except queue.Empty:
                return out
            if line is None:
                self.lines.put(None)
                return out
            self.said.append(line)
            out.append(line)

    def finish(self, timeout_s: float = 30.0) -> int:
        """Wait for the end; the exit status."""
        while self.read(timeout_s) is not None:
            pass
        return self.proc.wait(timeout=timeout_s)

    def stderr(self) -> str:
        return self.proc.stderr.read() if self.proc.stderr and self.proc.poll() is not None else ""

    def transcript(self) -> str:
        return "\n".join(self.said[-60:])

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def stop_all(pipe: LinePipe | None, procs: list[subprocess.Popen[str]]) -> None:
    """Kill what a test started and is still running: the line-mode pipe and other processes."""
    if pipe is not None:
        pipe.kill()
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def logged_record(data: Path) -> dict[str, object]:
    history = subprocess.run([*LANOMINO, "history", "--json", "--data-dir", str(data)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True)
    [match] = json.loads(history.stdout)
    out = subprocess.run([*LANOMINO, "export", str(match["id"]), "-", "--record",
                          "--data-dir", str(data)], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True)
    record: dict[str, object] = json.loads(out.stdout)
    return record


def by_the_table(data: Path, seat: int) -> list[bool | None]:
    """For each move of ``seat`` in the one match transcript kept under ``data``: whether the
    table's bot made it for the seat while its player was out of time. transcript/1 (the fair
    deck): the hand's ``away`` lists it, the host signed it. transcript/2 (the locked deck): the
    move says ``"away": true``, the seat's own program made it and signed it; a hand's lead that
    the opening's rounds asked for (someone said "not me") is the seat's answer, which the record
    never marks away (blind/table_hand.py): None, nobody can tell who chose it."""
    [kept] = (data / "transcripts").glob("*.json")
    hands = json.loads(kept.read_text())["hands"]
    out: list[bool | None] = []
    for hand in hands:
        if "moves" in hand:  # transcript/1
            out += [i in hand.get("away", ()) for i, move in enumerate(hand["moves"])
                    if move["seat"] == seat]
            continue
        record = hand["record"]  # transcript/2: the hand's signed record
        out += [None if i == 0 and record["opening"] else bool(move.get("away"))
                for i, move in enumerate(record["moves"]) if move["seat"] == seat]
    return out


def table_then_own(moves: list[bool | None]) -> bool:
    """``by_the_table``'s list is the table's moves (at least one; or the rounds' lead, which may
    have been the table's) and then only the player's own."""
    first_own = moves.index(False)
    return (all(m is not False for m in moves[:first_own]) and not any(moves[first_own:])
            and (any(moves[:first_own]) or moves[:1] == [None]))


def answer(line: str) -> str | None:
    """What a reader types after ``line``, or None when it asks for nothing."""
    if "Playable:" in line:
        number, end = CHOICE.findall(line.split("Playable:", 1)[1])[0]
        return f"play {number}" + (f" {end}" if end else "")
    if line.startswith("Nothing fits. Type draw"):
        return "draw"
    if line.startswith("Nothing fits and nothing can be drawn"):
        return "pass"
    if line.startswith("Type next, or press Enter"):
        return "next"
    return None


def play_match(pipe: LinePipe, over: str, timeout_s: float = 240.0) -> None:
    """Answer every question until a line matching ``over``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = pipe.read(max(1.0, deadline - time.monotonic()))
        if line is None:
            raise AssertionError(f"output ended mid-match:\n{pipe.transcript()}")
        if re.search(over, line):
            return
        reply = answer(line)
        if reply is not None:
            pipe.send(reply)
    raise AssertionError(f"the match did not end in {timeout_s} s:\n{pipe.transcript()}")
