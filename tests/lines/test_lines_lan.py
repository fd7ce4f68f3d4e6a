"""Line mode at a LAN table over real sockets on 127.0.0.1, no terminal: a line-mode player joins
a headless host, and a line-mode host seats a headless bot; both play the match from what they
are told, and the transcript both sides keep verifies."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from linekit import LANOMINO, ROOT, LinePipe, logged_record, play_match, stop_all  # noqa: E402

TIMING = ["--heartbeat", "0.3", "--grace", "5"]
OVER = r"^The match is over: "


def _check_said(said: list[str], other: str, data: Path) -> None:
    """Plain lines; every hand checked; each play in the kept transcript said exactly once."""
    lines = [s for s in said if not s.startswith(">>> ")]
    assert all(s.isascii() and s.isprintable() for s in lines)
    hands = logged_record(data)["hands"]
    assert isinstance(hands, list)
    for n in range(1, len(hands) + 1):
        assert any(s.startswith(f"Hand {n} checked: the deal and every move were fair")
                   for s in lines), n
    plays = [m for hand in hands for m in hand["moves"] if "play" in m]
    said_plays = [s for s in lines if re.match(rf"(you|{other}) (opened with|played) ", s, re.I)]
    assert len(said_plays) == len(plays)


def test_a_line_mode_player_joins_a_lan_table(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--level", "greedy", "--data-dir", str(tmp_path / "host"), "--name", "Porch",
         "--seats", "2", "--set", "target=30", *TIMING],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    pipe: LinePipe | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        pipe = LinePipe(["join", address, "--lines", "--player", "Bea",
                         "--data-dir", str(tmp_path / "bea"), *TIMING])
        assert "At the table: host (seat 1) and Bea (seat 2)" in pipe.until(r"^At the table")
        play_match(pipe, OVER, timeout_s=120)
        pipe.until(r"^Type again to play on here when the host offers a rematch, menu for the "
                   r"menu, or quit\.$")
        pipe.send("next")
        assert pipe.until(r"^The match is over\. ") == "The match is over. Type quit to leave."
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"]
        _check_said(pipe.said, "host", tmp_path / "bea")
    finally:
        if pipe is not None:
            pipe.kill()
        if host.poll() is None:
            host.kill()
            host.wait()


def test_a_line_mode_host_seats_a_bot(tmp_path: Path) -> None:
    pipe = LinePipe(["host", "--lines", "--bind", "127.0.0.1", "--no-announce", "--port", "0",
                     "--player", "Hal", "--seats", "2", "--set", "target=30",
                     "--data-dir", str(tmp_path / "hal"), *TIMING])
    bot: subprocess.Popen[str] | None = None
    try:
        opened = pipe.until(r"Others join it with: .*lanomino join ")
        address = opened.rsplit(" ", 1)[1]
        bot = subprocess.Popen([*LANOMINO, "bot", address, "--json", "--level", "greedy",
                                "--player", "Bo", "--data-dir", str(tmp_path / "bo"), *TIMING],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        play_match(pipe, OVER, timeout_s=120)
        result = json.loads(bot.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"]
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        _check_said(pipe.said, "Bo", tmp_path / "hal")
    finally:
        pipe.kill()
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait()


def test_a_line_mode_player_hears_the_host_change_and_plays_on(tmp_path: Path) -> None:
    """Three at a table on 127.0.0.1; the host is killed mid-hand: the line mode says who takes
    over and that play goes on (each said once, none lost to a redraw), then the match ends."""
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--seats", "3", "--level", "greedy", "--set", "target=1", "--bot-delay", "0.2",
         "--data-dir", str(tmp_path / "host")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs = [host]
    pipe: LinePipe | None = None
    try:
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        bot = subprocess.Popen([*LANOMINO, "bot", address, "--player", "Bo", "--level", "greedy",
                                "--json", "--delay", "0.2", "--data-dir", str(tmp_path / "bot")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
        procs.append(bot)
        assert bot.stdout is not None
        assert json.loads(bot.stdout.readline()) == {"event": "seated", "seat": 1}
        pipe = LinePipe(["join", address, "--lines", "--player", "Me",
                         "--data-dir", str(tmp_path / "me")])
        pipe.until(r"^Your hand: 1: ", timeout_s=20)
        host.kill()
        host.wait(timeout=5)
        gone = pipe.until(r"^The host is gone: ", timeout_s=20)
        assert gone == "The host is gone: Bo (seat 2) takes the table over..."
        play_match(pipe, r"^Bo \(seat 2\) hosts the table now; play goes on\.$", timeout_s=30)
        play_match(pipe, OVER, timeout_s=60)
        said = [s for s in pipe.said if not s.startswith(">>> ")]
        assert len([s for s in said if s.startswith("The host is gone: ")]) == 1
        assert len([s for s in said if "hosts the table now" in s]) == 1
        result = json.loads(bot.communicate(timeout=30)[0].strip().splitlines()[-1])
        assert result["finished"] and result["verified"] and result["hosts"] == {"0": 0, "1": 1}
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
    finally:
        stop_all(pipe, procs)


def test_joining_by_bare_address_asks_first_and_yes_sits_down(tmp_path: Path) -> None:
    """HOST:PORT without a code: the table is asked who it is, its fingerprint is read out, and
    only yes joins it (menu would have left it)."""
    host = subprocess.Popen(
        [*LANOMINO, "host", "--headless", "--bind", "127.0.0.1", "--no-announce", "--json",
         "--level", "greedy", "--data-dir", str(tmp_path / "host"), "--seats", "2",
         "--set", "target=20", *TIMING],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    pipe: LinePipe | None = None
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        bare = listening["address"].split("/")[0]
        pipe = LinePipe(["play", "--lines", "--data-dir", str(tmp_path / "me")])
        pipe.until("Type new to play the computer")
        pipe.send(f"join {bare}")
        question = pipe.until(r" is table 'Lanomino' with the host fingerprint ")
        assert question.startswith(f"{bare} is table") and listening["fingerprint"] in question
        assert pipe.read() == "Type yes to join this table, or menu to leave it."
        pipe.send("yes")
        play_match(pipe, OVER, timeout_s=120)
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        result = json.loads(host.communicate(timeout=60)[0].splitlines()[-1])
        assert result["finished"] and result["verified"]
    finally:
        if pipe is not None:
            pipe.kill()
        if host.poll() is None:
            host.kill()
            host.wait()
