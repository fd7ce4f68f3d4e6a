"""People at a LAN table (issue 30), seen in the real client in a detached tmux at 80x24: a host
that dies leaves its one other player the winner on screen; a closed table stops saying "your
turn"."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from subprocess import Popen

import pytest
from test_tmux_play import ROOT, Tmux, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120), pytest.mark.skipif(
    subprocess.run(["which", "tmux"], capture_output=True).returncode != 0, reason="needs tmux")]


def _lanomino(data: Path, who: str, *args: str) -> subprocess.Popen[str]:
    """``lanomino ARGS`` in a process of its own with its own home (``who``)."""
    return subprocess.Popen([sys.executable, "-m", "lanomino", *args, "--data-dir",
                             str(data / who)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)


def _headless_host(data: Path, *more: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lanomino", "host", "--headless", "--bind", "127.0.0.1",
         "--no-announce", "--json", "--name", "Porch", "--set", "target=500", "--bot-delay",
         "0.3", "--data-dir", str(data / "host"), *more],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def _join(tmux: Tmux, data: Path, port: int, fingerprint: str, *more: str) -> None:
    code = fingerprint.replace("-", "")[:8]
    join = (f"cd {ROOT} && {sys.executable} -m lanomino join 127.0.0.1:{port}/{code} "
            f"--player Zed --data-dir {data / 'zed'} {' '.join(more)}")
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{join}; sleep 30")
    tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()


def _stop(host: subprocess.Popen[str], tmux: Tmux) -> None:
    tmux.kill()
    if host.poll() is None:
        host.kill()
    host.communicate(timeout=10)


def test_a_host_killed_at_a_table_of_two_leaves_the_joiner_the_winner_on_screen(
        tmp_path: Path) -> None:
    """Item 1: kill -9 of the host; after the joiner's grace (3 s here) its node has decided the
    match, and the screen says so instead of "your turn" and "the host has gone quiet"."""
    host = _headless_host(tmp_path)
    tmux = Tmux()
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        _join(tmux, tmp_path, listening["port"], listening["fingerprint"], "--grace", "3")
        wait_for(tmux, "Your hand · Zed", 20)
        os.kill(host.pid, signal.SIGKILL)
        end = wait_for(tmux, "The match is over", 40)
        flat = " ".join(end.split())
        assert "you won because the host left the table (silent for 3 s)" in flat, end
        assert "your turn" not in end and "gone quiet" not in end
        assert "Enter: back to the menu" in flat and "play again" not in flat
    finally:
        _stop(host, tmux)


def test_a_table_its_host_closed_stops_saying_your_turn_and_q_just_leaves(tmp_path: Path) -> None:
    """Item 10: the host closes the table (SIGTERM: a goodbye) while it is the joiner's turn."""
    host = _headless_host(tmp_path)
    tmux = Tmux()
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        _join(tmux, tmp_path, listening["port"], listening["fingerprint"])
        wait_for(tmux, "your turn", 20)
        os.kill(host.pid, signal.SIGTERM)
        closed = wait_for(tmux, "the table is closed", 10)
        assert "your turn" not in closed and "Enter play" not in closed, closed
        assert "the table is closed" in closed
        tmux.keys("q")
        menu = wait_for(tmux, "Host a table on the LAN", 10)
        assert "resign and watch" not in menu
    finally:
        _stop(host, tmux)


def _others(*procs: subprocess.Popen[str]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=10)


@contextmanager
def _table_of_three(data: Path, *timing: str) -> Iterator[tuple[Tmux, Popen[str], Popen[str], int]]:
    """A headless host (seat 1), this client as Zed (seat 2) and a bot Bea (seat 3), once Zed's
    hand shows: (tmux, host, bot, the host's port). ``timing``: options for host and client."""
    host = _headless_host(data, "--seats", "3", *timing)
    tmux = Tmux()
    bot: Popen[str] | None = None
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        _join(tmux, data, listening["port"], listening["fingerprint"], *timing)
        wait_for(tmux, "2. Zed", 20)  # (seat 2: the next in line after the host)
        bot = _lanomino(data, "bot", "bot", listening["address"], "--level", "random",
                        "--player", "Bea", "--delay", "0.3")
        wait_for(tmux, "Your hand · Zed", 30)
        yield tmux, host, bot, listening["port"]
    finally:
        _stop(host, tmux)
        if bot is not None:
            _others(bot)


def test_the_title_stops_counting_a_watcher_who_left(tmp_path: Path) -> None:
    """Item 10: "1 watching" in the table's title goes once the watcher has said goodbye."""
    host = _headless_host(tmp_path)
    tmux = Tmux()
    watcher: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        _join(tmux, tmp_path, listening["port"], listening["fingerprint"])
        wait_for(tmux, "Your hand · Zed", 20)
        watcher = _lanomino(tmp_path, "watcher", "watch", listening["address"], "--json")
        wait_for(tmux, "1 watching", 20)
        watcher.send_signal(signal.SIGTERM)
        watcher.communicate(timeout=10)
        deadline = time.monotonic() + 10
        while "watching" in tmux.screen().splitlines()[0] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "watching" not in tmux.screen().splitlines()[0], tmux.screen()
    finally:
        _stop(host, tmux)
        if watcher is not None:
            _others(watcher)


def test_help_counts_the_players_left_and_the_boneyard_they_leave(tmp_path: Path) -> None:
    """Item 10: at a table of three, one player leaves; ? says two are left, and the boneyard
    holds the tiles of the seat nobody is dealt (5 each: 18, not 13)."""
    with _table_of_three(tmp_path) as (tmux, _, bot, _):
        tmux.keys("?")
        before = " ".join(wait_for(tmux, "Help ·", 10).split())
        assert "· 3 players" in before and "the other 13 stay face down" in before, before
        tmux.keys("Escape")
        bot.send_signal(signal.SIGTERM)
        bot.communicate(timeout=10)
        wait_for(tmux, "left the table", 20)
        tmux.keys("?")
        after = " ".join(wait_for(tmux, "Help ·", 10).split())
        assert "· 2 of 3 players left" in after, after
        assert "the other 18 stay face down" in after, after


def test_a_player_who_loses_touch_shows_at_once_with_the_time_left_then_did_not_come_back(
        tmp_path: Path) -> None:
    """Item 7: at a table of three a player is killed (no goodbye): the others see the drop and
    how long the seat is kept at once, not only when the grace (4 s here) is over, and then that
    the player did not come back (not "resigned")."""
    with _table_of_three(tmp_path, "--grace", "4") as (tmux, _, bot, _):
        os.kill(bot.pid, signal.SIGKILL)
        dropped = wait_for(tmux, "lost touch", 4)
        assert "Bea" in dropped and "seat kept" in dropped, dropped
        gone = " ".join(wait_for(tmux, "did not come back", 20).split())
        assert "resigned" not in gone, gone
        # (at a locked table, the default, Bea killed before a tile is played gives the hand up:
        # it is dealt again without her, and the line under the new hand says both)
        assert re.search(r"Bea did not come back(\.|: hand 1 is dealt again among the players "
                         r"left\.)", gone), gone


def test_a_player_who_takes_the_table_over_is_shown_where_others_join_it(tmp_path: Path) -> None:
    """Item 8: the host of three is killed; the next in seat order (this client) hosts now, and
    its screen says where to join or watch it (its own port, its fingerprint), as does ?."""
    with _table_of_three(tmp_path) as (tmux, host, _, port):
        os.kill(host.pid, signal.SIGKILL)
        wait_for(tmux, "you host", 20)
        time.sleep(1.5)  # (the turn may come meanwhile: the line stays for the hand)
        said = " ".join(wait_for(tmux, "you host the table now", 5).split())
        assert "others join or watch at 127.0.0.1:" in said, said
        tmux.keys("?")
        shown = wait_for(tmux, "Join or watch this table", 10)
        flat = "".join(shown.split())
        address = re.search(r"127\.0\.0\.1:(\d+)/", flat)
        assert address is not None and int(address.group(1)) != port, shown
        assert "hostfingerprint" in flat, shown


def test_the_name_is_asked_once_at_the_first_lan_table_and_kept(tmp_path: Path) -> None:
    """Item 6: a fresh home asks for the name others will see when the player first goes to the
    LAN (not for a game against the computer), offering the account's name; then it is kept."""
    play = f"cd {ROOT} && {sys.executable} -m lanomino play --data-dir {tmp_path}"
    tmux = Tmux()
    try:
        tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", f"{play}; sleep 30")
        tmux.path = tmux("display-message", "-p", "#{socket_path}").strip()
        wait_for(tmux, "Host a table on the LAN", 20)
        tmux.keys("t")
        asked = wait_for(tmux, "What should the other players call you?", 10)
        assert "Your name" in asked and "You_" not in asked, asked
        tmux.keys("A", "n", "a", "Enter")
        wait_for(tmux, "Open the table", 10)  # (on to the host form)
        tmux.keys("Escape")
        wait_for(tmux, "Host a table on the LAN", 10)
        tmux.keys("q")
        tmux("respawn-pane", "-k", "-t", "play", f"{play}; sleep 30")
        wait_for(tmux, "Host a table on the LAN", 20)
        tmux.keys("s")
        kept = wait_for(tmux, "Your name", 10)
        assert "Ana" in kept, kept
        tmux.keys("Escape", "t")
        form = wait_for(tmux, "Open the table", 10)
        assert "What should the other players call you?" not in form
    finally:
        tmux.kill()


def test_two_players_of_one_name_sit_as_distinct_names(tmp_path: Path) -> None:
    """Item 6: a bot called Zed sits down first; the client, also Zed, sits as "Zed 2"."""
    host = _headless_host(tmp_path, "--seats", "3")
    tmux = Tmux()
    bot: Popen[str] | None = None
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        bot = _lanomino(tmp_path, "bot", "bot", listening["address"], "--player", "Zed", "--json",
                        "--delay", "0.3")
        assert bot.stdout is not None and json.loads(bot.stdout.readline())["seat"] == 1
        _join(tmux, tmp_path, listening["port"], listening["fingerprint"])
        table = wait_for(tmux, "Your hand · Zed 2", 30)
        assert " Zed " in table.replace("Zed 2", ""), table  # (the other Zed, by its own name)
    finally:
        _stop(host, tmux)
        if bot is not None:
            _others(bot)
