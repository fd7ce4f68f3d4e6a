"""A line-mode watcher on pipes (issue 30 item 11): it never moves, so every line it types is
answered at once, even while a hand waits for a slow player; before the first deal and at a move
it is told it watches, not offered a game against the computer or told whose turn it is."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from linekit import LANOMINO, ROOT, LinePipe, stop_all  # noqa: E402

pytestmark = pytest.mark.timeout(120)


def _host(data: Path, *more: str) -> subprocess.Popen[str]:
    """A headless host on 127.0.0.1 playing a long match (to 500)."""
    return subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--data-dir", str(data / "host"), "--set", "target=500", *more],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)


def _address(host: subprocess.Popen[str]) -> str:
    """Where ``host`` (``_host``) says it serves: the first line it prints."""
    assert host.stdout is not None
    return str(json.loads(host.stdout.readline())["address"])


def _zed(address: str, data: Path, *more: str) -> LinePipe:
    """Zed joins the table at ``address`` in the line mode, over pipes."""
    return LinePipe(["join", address, "--lines", "--player", "Zed", "--data-dir",
                     str(data / "zed"), *more])


def test_a_line_mode_watcher_is_answered_at_once_while_a_hand_is_stalled(tmp_path: Path) -> None:
    host = _host(tmp_path, "--seats", "2")
    procs: list[subprocess.Popen[str]] = [host]
    pipe: LinePipe | None = None
    try:
        address = _address(host)
        pipe = LinePipe(["watch", address, "--lines", "--data-dir", str(tmp_path / "eve")])
        pipe.until(r"[Ww]atch")
        pipe.drain(1.0)
        pipe.send("board")
        early = pipe.read(5) or ""
        assert "not been dealt yet" in early and "computer" not in early, early
        # a player that thinks for a minute a move: the hand stalls on its turn
        procs.append(subprocess.Popen(
            [*LANOMINO, "bot", address, "--player", "Slow", "--delay", "60", "--data-dir",
             str(tmp_path / "slow")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            text=True, cwd=ROOT))
        pipe.until(r"Slow")
        pipe.until(r"^Hand 1: ")
        pipe.drain(1.0)
        began = time.monotonic()
        pipe.send("board")
        pipe.until(r"Tiles in hand: ", 5)
        pipe.send("play 1")
        refused = pipe.until(r"watching|turn", 5)
        assert refused == "You are watching: you have no seat to move from.", refused
        pipe.send("quit")
        assert pipe.finish(10) == 0
        assert time.monotonic() - began < 10  # (all within the stalled turn)
    finally:
        stop_all(pipe, procs)


def test_the_line_mode_says_a_player_lost_touch_at_once_then_did_not_come_back(
        tmp_path: Path) -> None:
    """Issue 30 item 7 in the line mode: at a table of three, Bea is killed (no goodbye)."""
    timing = ["--grace", "4"]
    host = _host(tmp_path, "--seats", "3", "--bot-delay", "0.3", *timing)
    procs: list[subprocess.Popen[str]] = [host]
    pipe: LinePipe | None = None
    try:
        address = _address(host)
        pipe = _zed(address, tmp_path, *timing)
        pipe.until(r"^At the table")
        bea = subprocess.Popen([*LANOMINO, "bot", address, "--player", "Bea", "--delay", "0.3",
                                "--data-dir", str(tmp_path / "bea")], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        procs.append(bea)
        pipe.until(r"^Hand 1: ")
        bea.kill()
        lost = pipe.until(r"lost touch", 5)
        assert lost.startswith("Bea lost touch: their seat is kept for "), lost
        # (at a locked table, the default, a hand Bea leaves before a tile is played is dealt
        # again without her)
        assert pipe.until(r"^Bea (did not|resigned)", 20) in (
            "Bea did not come back.",
            "Bea did not come back: hand 1 is dealt again among the players left.")
    finally:
        stop_all(pipe, procs)


def test_a_player_on_a_pipe_leaves_at_once_while_the_other_thinks(tmp_path: Path) -> None:
    """A player's moves read ahead from a pipe wait for its turn, but quit does not: it was
    answered only when the host's bot (a minute a move here) had moved."""
    from linekit import answer

    host = _host(tmp_path, "--seats", "2", "--bot-delay", "60")
    procs: list[subprocess.Popen[str]] = [host]
    pipe: LinePipe | None = None
    try:
        address = _address(host)
        pipe = _zed(address, tmp_path)
        pipe.until(r"^Hand 1: ")
        for line in pipe.drain(1.5):  # this seat's first move, if it opens: then the host's turn
            reply = answer(line)
            if reply is not None:
                pipe.send(reply)
        pipe.drain(1.0)
        began = time.monotonic()
        pipe.send("quit")
        assert pipe.finish(10) == 0
        assert time.monotonic() - began < 10, pipe.transcript()  # (within the host's turn)
    finally:
        stop_all(pipe, procs)


def test_a_full_table_refuses_a_seat_and_says_how_to_watch_it(tmp_path: Path) -> None:
    """A table of the host's own seats is full from the start (people watch such tables): a
    join was refused with no word on watching it."""
    host = _host(tmp_path, "--seats", "2", "--bots", "1", "--bot-delay", "1")
    procs: list[subprocess.Popen[str]] = [host]
    pipe: LinePipe | None = None
    try:
        address = _address(host)
        pipe = LinePipe(["join", address, "--lines", "--data-dir", str(tmp_path / "zed")])
        refused = pipe.until(r"^Refused", 20)
        assert refused.startswith("Refused: every seat at this table is taken; you can watch it: ")
        assert refused.endswith(f" watch {address}."), refused
        pipe.send("quit")
        assert pipe.finish(10) == 0
    finally:
        stop_all(pipe, procs)
