"""While 50 throwaway keys guess a table's PIN from one machine, a person who knows it gets in
(issue 28 point 7). Real processes and real CURVE sockets on 127.0.0.1: the host is a headless
``lanomino host``, the guessers run in a process of their own from 127.0.0.2 (another machine on
the LAN; all of 127.0.0.0/8 is the loopback here), the right person joins from 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from attack import join_once  # noqa: E402

from lanomino.net.keys import parse_direct_address  # noqa: E402
from lanomino.net.throttle import GuessPolicy  # noqa: E402

pytestmark = pytest.mark.timeout(120)
PIN = "4821"
GUESSERS = 50
FLOOD_S = 12.0  # the guessers at it from before the first join until after the last
JOINS = 2  # (a seat of four stays free: the table waits in its lobby and the guessing goes on)


def _host(data: Path, log: Path) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "lanomino", "host", "--headless", "--json", "--no-announce",
            "--bind", "127.0.0.1", "--seats", str(JOINS + 2), "--passphrase", PIN,
            "--set", "target=100", "--data-dir", str(data)]
    env = {**os.environ, "LANOMINO_LOG": "INFO"}
    with open(log, "wb") as err:
        return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True,
                                env=env)


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _until_logged(log: Path, text: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while text not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"the host never logged {text!r}"
        time.sleep(0.1)


def test_the_right_pin_gets_in_within_10_s_while_50_keys_guess_it(tmp_path: Path) -> None:
    log = tmp_path / "host.err"
    host = _host(tmp_path / "host", log)
    guesser: subprocess.Popen[str] | None = None
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        address = parse_direct_address(listening["address"])
        guesser = subprocess.Popen(
            ["nice", "-n", "19", sys.executable, str(ROOT / "tests/lan/hostile_peer.py"), "guess",
             listening["address"], str(FLOOD_S), str(GUESSERS), PIN, "127.0.0.2"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert guesser.stdout is not None
        assert json.loads(guesser.stdout.readline())["event"] == "started"
        # the guessers have spent what they may: their address's budget and the table's (a
        # refusal names the address only once both are spent; before, their own connections'
        # backoffs refuse them, with budgets still left)
        _until_logged(log, "refused (throttled): too many wrong passphrases from your address",
                      20)
        joins = []
        for _ in range(JOINS):
            joins.append(asyncio.run(join_once(address, PIN, timeout_s=10.0)))
            time.sleep(1.0)
        flooding = guesser.poll() is None  # still guessing: every join was made during the flood
        done = json.loads(guesser.stdout.readline())
    finally:
        if guesser is not None:
            _stop(guesser)
        _stop(host)
    assert flooding, "the guessing was over before the joins were"
    assert [outcome for outcome, _ in joins] == ["welcome"] * JOINS, joins
    assert max(seconds for _, seconds in joins) < 10.0
    # the flood was on all along (at least 0.8 refusals a second from each guesser), and no more
    # of its guesses were checked than its budget
    policy = GuessPolicy()
    assert done["throttled"] > 0.8 * FLOOD_S * GUESSERS, done
    assert done["wrong"] <= policy.table_burst + policy.address_burst + 1, done
