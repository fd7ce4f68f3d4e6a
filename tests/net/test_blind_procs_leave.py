"""A person who leaves a locked hand at an ``--escrow`` table, in real processes on 127.0.0.1
(issue 29): ``lanomino host --headless --deal blind --escrow`` and three ``lanomino bot``
holders; one bot process leaves in the middle of the first hand, cleanly (SIGTERM: it quits as a
person does) or by going silent (SIGKILL: the host waits out its grace period). The others
stand in for its key, the same deck plays on, and the host and the two bots left finish the
match, each with the same transcript/2, which ``lanomino verify`` accepts. And at a table with a
move clock, a bot process frozen (SIGSTOP) is played by nobody, leaves, and is told so when it
wakes."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostbots import ROOT  # noqa: E402

from lanomino.blind.hand_record import parse_blind_hand  # noqa: E402

# a silent seat is gone within about 3.3 s (the default heartbeat: a host's loop busy for 0.6 s at a
# hand's end on a loaded machine must not look like a silent host, as 0.1 s heartbeats made it)
FAST = ("--grace", "2")
# every bot pauses this long before a move: a hand's moves come one after another as a person's do,
# and a signal sent once a hand has a few moves lands mid-hand (a longer pause only makes each
# hand, and so the test, slower)
PACE = ("--delay", "0.05")

pytestmark = pytest.mark.together("procs", weight=2)  # (locked tables: CPU-bound)


class ProcTable:
    """A headless locked host (its log at DEBUG in a file, read to see the hand's moves) and
    ``lanomino bot`` processes joining it (their logs in files, at ``bot_log``); every process
    killed on the way out. ``run``: how a process runs lanomino."""

    def __init__(self, data: Path, host_flags: tuple[str, ...], bots: int,
                 bot_flags: tuple[str, ...], bot_log: str = "INFO",
                 run: tuple[str, ...] = (sys.executable, "-m", "lanomino")) -> None:
        self.data = data
        self.log_path = data / "host.log"
        self.logs: list[IO[str]] = [self.log_path.open("w")]
        self.host = subprocess.Popen(
            [*run, "host", "--headless", "--json", "--deal", "blind", "--seats", str(bots + 1),
             "--bind", "127.0.0.1", "--no-announce", *FAST, "--data-dir", str(data / "host"),
             *host_flags],
            cwd=ROOT, env={**os.environ, "LANOMINO_LOG": "DEBUG"}, stdout=subprocess.PIPE,
            stderr=self.logs[0], text=True)
        self.procs = [self.host]
        assert self.host.stdout is not None
        address = json.loads(self.host.stdout.readline())["address"]
        self.logs += [(data / f"bot{i}.log").open("w") for i in range(1, bots + 1)]
        self.bots = [subprocess.Popen(
            [*run, "bot", address, "--json", "--interface", "127.0.0.1", "--data-dir",
             str(data / f"bot{i}"), *FAST, *bot_flags],
            cwd=ROOT, env={**os.environ, "LANOMINO_LOG": bot_log}, stdout=subprocess.PIPE,
            stderr=self.logs[i], text=True)
            for i in range(1, bots + 1)]
        self.procs += self.bots

    def seat(self, bot: int) -> int:
        """The seat bot ``bot`` (counted from 0) sat at (its first JSON line)."""
        stdout = self.bots[bot].stdout
        assert stdout is not None
        line = json.loads(stdout.readline())
        assert line["event"] == "seated", line
        return int(line["seat"])

    def seat_all(self) -> list[int]:
        """The seat each bot sat at, in the bots' order (each one's first JSON line)."""
        return [self.seat(bot) for bot in range(len(self.bots))]

    def leave_mid_hand(self, how: signal.Signals) -> None:
        """Once the first hand is in play, far from its end (four moves from peers), the first
        bot gets ``how``."""
        self.wait_moves(1, 4, timeout_s=40)
        self.bots[0].send_signal(how)

    def freeze_before_its_turn(self, bot: int, seat: int) -> None:
        """Once the first hand is in play (four moves from peers), bot ``bot`` (at ``seat``) is
        stopped (SIGSTOP) as the turn before its own ends: the host's log shows a play or a pass
        of the seat before it (of the one before that when it is the host's own, whose moves are
        not in its log). Its turn then comes within a move or two, whatever the machine's load."""
        self.wait_moves(1, 4, timeout_s=40)
        before = (seat - 1) % len(self.procs) or len(self.procs) - 1
        ended = re.compile(rf"'type': 'move', .*'body': {{'hand': 1, 'index': \d+, "
                           rf"'move': {{'seat': {before}, '(?:play|pass)'")
        seen = len(ended.findall(self.log_path.read_text(errors="replace")))
        until = time.monotonic() + 40
        while len(ended.findall(self.log_path.read_text(errors="replace"))) <= seen:
            assert time.monotonic() < until, f"seat {before} never ended a turn in hand 1"
            assert self.host.poll() is None, "the host ended"
            time.sleep(0.01)
        self.bots[bot].send_signal(signal.SIGSTOP)

    def moves(self, hand: int) -> int:
        """How many moves of ``hand`` the host has received from its peers so far."""
        text = self.log_path.read_text(errors="replace")
        return len(re.findall(rf"'type': 'move', .*'body': {{'hand': {hand}, ", text))

    def wait_moves(self, hand: int, count: int, timeout_s: float) -> None:
        until = time.monotonic() + timeout_s
        while self.moves(hand) < count:
            assert time.monotonic() < until, f"hand {hand} never had {count} moves from peers"
            assert self.host.poll() is None, "the host ended"
            time.sleep(0.02)

    def results(self, procs: list[subprocess.Popen[str]], timeout_s: float
                ) -> list[dict[str, Any]]:
        """Each process's last JSON line once it ended (within ``timeout_s`` in all)."""
        until = time.monotonic() + timeout_s
        outs = [proc.communicate(timeout=max(1.0, until - time.monotonic()))[0]
                for proc in procs]
        return [json.loads(out.strip().splitlines()[-1]) for out in outs]

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.communicate(timeout=10)
        for log in self.logs:
            log.close()


def verify(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lanomino", "verify", path], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.timeout(90)
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["quits", "silent"])
def test_a_bot_that_leaves_a_locked_escrow_hand_does_not_end_the_match(
        tmp_path: Path, how: signal.Signals) -> None:
    table = ProcTable(tmp_path, ("--escrow", "--set", "target=50"), 3, PACE)
    try:
        gone = table.seat_all()[0]
        table.leave_mid_hand(how)
        stayed = table.results([*table.bots[1:], table.host], timeout_s=60)
        if how == signal.SIGTERM:  # it quit: it says it left the match
            left = table.results(table.bots[:1], timeout_s=10)[0]
            assert left["event"] == "stopped" and not left["finished"], left
    finally:
        table.close()
    for result in stayed:
        assert result["event"] == "match_over" and result["finished"], result
        assert result["verified"], result
    assert len({tuple(r["scores"]) for r in stayed}) == 1
    # every one left stored the same transcript/2, and lanomino verify accepts it
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in stayed]
    assert all(doc == docs[0] for doc in docs)
    # it left the first hand in play (the host resigned it, "left"), its key was rebuilt from
    # the escrow (its reveal has no seed: its shuffle is checked by its stored argument), and it
    # held no key in the hands after
    hands = [parse_blind_hand(h["record"]) for h in docs[0]["hands"]]
    assert [(r.seat, r.by) for r in hands[0].resignations] == [(gone, "left")]
    assert 0 < hands[0].resignations[0].at < len(hands[0].moves)
    assert next(r for r in hands[0].reveals if r.seat == gone).seed is None
    assert next(e for e in hands[0].shuffles if e.seat == gone).turn is not None
    assert all(gone not in h.holders and not h.resignations for h in hands[1:])
    answer = verify(stayed[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr


@pytest.mark.timeout(90)
def test_a_bot_that_leaves_at_a_hands_end_is_out_of_the_next_deal(tmp_path: Path) -> None:
    """Between two hands, as near as processes get: the bot quits (SIGTERM) once its reveal of
    the first hand's key reached the host, so its goodbye lands while the others still reveal
    theirs or as the next hand's deal begins. The hand it finished stands; the next is dealt
    among the people left, with its departure kept in the record; the match finishes."""
    table = ProcTable(tmp_path, ("--escrow", "--set", "target=80"), 3, PACE)
    try:
        gone = table.seat_all()[0]
        revealed = re.compile(rf"'type': 'blind_reveal', .*'body': {{'hand': 1, 'attempt': \d+, "
                              rf"'seat': {gone},")
        until = time.monotonic() + 40
        while not revealed.search(table.log_path.read_text(errors="replace")):
            assert time.monotonic() < until and table.host.poll() is None, "no reveal of hand 1"
            time.sleep(0.01)
        table.bots[0].send_signal(signal.SIGTERM)
        stayed = table.results([*table.bots[1:], table.host], timeout_s=60)
    finally:
        table.close()
    for result in stayed:
        assert result["event"] == "match_over" and result["finished"], json.dumps(result)
        assert result["verified"] and not result["problems"].get("failed.bye"), json.dumps(result)
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in stayed]
    assert all(doc == docs[0] for doc in docs) and len(docs[0]["hands"]) >= 2
    hands = [parse_blind_hand(h["record"]) for h in docs[0]["hands"]]
    assert gone in hands[0].holders and not hands[0].resignations  # the hand it finished
    assert [(d["seat"], d["by"]) for d in docs[0]["hands"][1]["departures"]] == [(gone, "left")]
    assert all(gone not in h.holders for h in hands[1:])
    answer = verify(stayed[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr


@pytest.mark.timeout(90)
@pytest.mark.together("procs", alone=True)  # its move clock must run out before its drop
def test_a_frozen_bot_at_a_locked_clock_table_is_played_by_nobody_and_told_it_left_on_waking(
        tmp_path: Path) -> None:
    """``--move-time 1`` at a locked table without escrow: one bot process is frozen (SIGSTOP) in
    the first hand. Its clock runs out and it is counted away, but nobody plays it: only its own
    program could open its tiles, and the host never plays a locked seat. Past its grace period
    it has left; the others re-shuffle blind what it held and finish the match. Woken (SIGCONT)
    while the match goes on, it writes to the host and is told it left the match, and ends."""
    # (its move clock must run out before its silence counts as a drop, about 3.3 s: it is
    # frozen as its turn comes; frozen four moves into the hand, a run on a machine at load 5
    # was dropped first and never counted away even with bots pausing 0.2 s a move)
    table = ProcTable(tmp_path, ("--move-time", "1", "--set", "target=60"), 3, PACE)
    try:
        gone = table.seat_all()[0]
        table.freeze_before_its_turn(0, gone)
        until = time.monotonic() + 30
        while f"SeatLeft(seat={gone}," not in table.log_path.read_text(errors="replace"):
            assert time.monotonic() < until, "the frozen seat never left"
            time.sleep(0.05)
        table.bots[0].send_signal(signal.SIGCONT)
        woken = table.results(table.bots[:1], timeout_s=15)[0]
        stayed = table.results([*table.bots[1:], table.host], timeout_s=60)
    finally:
        table.close()
    assert woken["event"] == "stopped" and not woken["finished"], woken
    assert woken["reason"].startswith("this seat has left the match (it was gone past its "
                                      "grace period"), woken
    for result in stayed:
        assert result["event"] == "match_over" and result["finished"], json.dumps(result)
        assert result["verified"], json.dumps(result)
    assert stayed[-1]["problems"].get("move_clock.away", 0) >= 1, stayed[-1]  # counted away
    assert stayed[-1]["problems"].get("refused.left", 0) >= 1, stayed[-1]  # told it left
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in stayed]
    assert all(doc == docs[0] for doc in docs)
    hands = [parse_blind_hand(h["record"]) for h in docs[0]["hands"]]
    assert [(r.seat, r.by) for r in hands[0].resignations] == [(gone, "left")]
    assert not [m for h in hands for m in h.moves if m.seat == gone and m.away]  # nobody played it
    assert all(gone not in h.holders for h in hands[1:])
    answer = verify(stayed[0]["transcript"])
    assert answer.returncode == 0, answer.stdout + answer.stderr
