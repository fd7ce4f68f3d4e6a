"""Host migration over a simulated LAN: the host of a 3-player match is killed, stopped or quits,
and the two peers (each in its own namespace) elect a new host and finish the match. Root only.
(``--deal fair``: this checks a fair table's transcript/1; a locked table's are checked in
tests/lan/test_lan_blind.py and tests/net/test_blind_*procs*.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabHost, LabProcess, NetLab

# A peer waits up to RESULT_S for its result, well inside the test's own timeout, so that a stall
# fails with the processes' logs rather than a bare pytest-timeout stack.
RESULT_S = 100
pytestmark = [pytest.mark.netns, pytest.mark.timeout(240), pytest.mark.together("lan")]

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
FAST = ["--heartbeat", "0.2", "--grace", "8"]
PACE = "0.03"  # every bot pauses this long per move, so the match outlives the fault


def start_table(lab: NetLab, data: Path, name: str, players: int = 3,
                target: int = 80) -> tuple[LabProcess, list[LabProcess]]:
    """A headless host in the first namespace, ``players - 1`` bots in the next ones."""
    host = start_host(lab, data, name, players, target)
    return host, seat_bots(lab, data, name, players)


def start_host(lab: NetLab, data: Path, name: str, players: int, target: int) -> LabProcess:
    """A headless host in the first namespace, once it listens."""
    h0 = lab.hosts[0]
    host = lab.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                          "--deal", "fair",
                          "--level", "greedy", "--data-dir", str(data / "host"), "--name", name,
                          "--seats", str(players),
                          "--set", f"target={target}", "--bot-delay", PACE, *FAST],
                     env={"LANOMINO_LOG": "DEBUG"})
    host.expect(lambda m: m.get("event") == "listening", 30)
    return host


def seat_bots(lab: NetLab, data: Path, name: str, players: int) -> list[LabProcess]:
    """``players - 1`` bots in the namespaces after the host's, once each has a seat."""
    peers = [bot(lab, h, data, name) for h in lab.hosts[1:players]]
    for peer in peers:  # a fault injected before everyone sat down would test the lobby instead
        peer.expect(lambda m: m.get("event") == "seated", 30)
    return peers


def bot(lab: NetLab, where: LabHost, data: Path, table: str) -> LabProcess:
    name = f"p{where.index}"
    # (DEBUG: every message but the heartbeats shows in a failure's report, so a stall on a
    # loaded CI machine can be told from slowness)
    return lab.spawn(where, [*LANOMINO, "bot", table, "--interface", where.ip, "--timeout", "15",
                             "--json", "--level", "greedy", "--data-dir", str(data / name),
                             "--player", name, "--delay", PACE, *FAST],
                     env={"LANOMINO_LOG": "DEBUG"})


def result(proc: LabProcess, timeout_s: float = RESULT_S) -> dict[str, Any]:
    return proc.expect(lambda m: m.get("event") in ("match_over", "stopped"), timeout_s)


def verify(path: str) -> dict[str, Any]:
    out = subprocess.run([*LANOMINO, "verify", path, "--json"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def check_survivors(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every survivor finished with the same verified transcript; no term had two hosts."""
    docs = []
    for r in results:
        assert r["finished"] and r["verified"], r
        assert verify(r["transcript"])["ok"]
        docs.append(json.loads(Path(r["transcript"]).read_text()))
    assert all(d == docs[0] for d in docs)
    assert len({(tuple(r["scores"]), r["winner"], r["hands"]) for r in results}) == 1
    hosts: dict[str, set[int]] = {}
    for r in results:
        for term, seat in r["hosts"].items():
            hosts.setdefault(term, set()).add(seat)
    assert all(len(seats) == 1 for seats in hosts.values()), hosts
    assert len(hosts) >= 2, "no host change was seen"
    migrated = [h["migrated"] for h in docs[0]["hands"] if "migrated" in h]
    assert migrated and migrated[0]["host"] in {r["seat"] for r in results}
    return docs


MOVED = "in  {'v': 1, 'type': 'update'"  # a peer's debug log: a move reached it
NEW_HOST = "this seat hosts the table now"  # the peer elected says so once it hosts
SILENT = "HostSilent("  # a peer's debug log: it heard nothing from its host for liveness_s


def in_play(procs: list[LabProcess], peer: LabProcess, timeout_s: float = 60) -> None:
    """Once ``peer`` (logging at debug level) has seen a move: the match is under way, so a fault
    now lands mid-match (on a loaded machine the deal alone can take seconds)."""
    peer.wait_said(MOVED, timeout_s)
    assert all(p.popen.poll() is None for p in procs), (
        "the match ended before the fault: make it longer")


def new_host_elected(peers: list[LabProcess], timeout_s: float = 60) -> None:
    """Once one of ``peers`` says it hosts the table (polled: either may be the one elected)."""
    deadline = time.monotonic() + timeout_s
    while not any(NEW_HOST in line for peer in peers for line in list(peer.said)):
        assert time.monotonic() < deadline, "no peer took over the table"
        time.sleep(0.05)


def test_the_host_is_killed_mid_match_and_the_two_peers_finish_it(
    lan4: NetLab, tmp_path: Path
) -> None:
    host, peers = start_table(lan4, tmp_path, "Killed")
    in_play([host, *peers], peers[0])
    host.kill()
    results = [result(p) for p in peers]
    docs = check_survivors(results)
    assert {"seat": 0, "resign": True} in [m for h in docs[0]["hands"] for m in h["moves"]]
    resumed = [m["at"] for r in results for m in r["migrations"]]
    assert len(resumed) == 1
    # the loss was seen by liveness (1.0 s here, 5 heartbeats), not at the end of the grace
    assert all(any(SILENT in line for line in p.said) for p in peers)


def test_a_host_sent_sigterm_hands_over_at_once(lan4: NetLab, tmp_path: Path) -> None:
    host, peers = start_table(lan4, tmp_path, "Leaving")
    in_play([host, *peers], peers[0])
    os.kill(host.pid, signal.SIGTERM)
    stopped = result(host, 10)
    assert not stopped["finished"] and "handed" in stopped["reason"]
    results = [result(p) for p in peers]
    check_survivors(results)
    resumed = [m["at"] for r in results for m in r["migrations"]]
    assert len(resumed) == 1
    # handed over at once: neither peer ever waited out its host's silence
    assert not [line for p in peers for line in p.said if SILENT in line]


def test_a_host_stopped_for_three_seconds_steps_down_and_rejoins_as_a_peer(
    lan4: NetLab, tmp_path: Path
) -> None:
    # (target 120: the match outlives the old host's return; timed once, it was back 2.4 s after
    # SIGCONT, and the match to 200 then went on for 14 s more)
    host, peers = start_table(lan4, tmp_path, "Sleepy", target=120)
    in_play([host, *peers], peers[0])
    os.killpg(host.pid, signal.SIGSTOP)
    new_host_elected(peers)  # (stopped until the table has moved, however long that takes)
    os.killpg(host.pid, signal.SIGCONT)
    results = [result(p) for p in peers]
    check_survivors(results)
    old = result(host, 30)  # it stepped down, rejoined the new host as a peer and watched the end
    assert old["stepped_down"] and old["finished"], old
    check_survivors([*results, old])
    terms = {int(t): s for r in [old, *results] for t, s in r["hosts"].items()}
    assert terms[0] == 0 and max(terms) >= 1 and terms[max(terms)] != 0


def test_the_hosts_link_cut_for_three_seconds_moves_the_table(lan4: NetLab, tmp_path: Path) -> None:
    host, peers = start_table(lan4, tmp_path, "Unplugged", target=120)  # (as above)
    in_play([host, *peers], peers[0])
    port = f"v{lan4.hosts[0].index}"
    subprocess.run(["ip", "-n", lan4.bridge_namespace, "link", "set", port, "down"], check=True)
    new_host_elected(peers)
    subprocess.run(["ip", "-n", lan4.bridge_namespace, "link", "set", port, "up"], check=True)
    results = [result(p) for p in peers]
    check_survivors(results)
    old = result(host, 30)  # back on the LAN: it steps down, rejoins as a peer and learns the end
    assert old["stepped_down"] and old["finished"], old
    check_survivors([*results, old])


def test_two_of_four_lost_pause_the_table_until_one_returns(lan4: NetLab, tmp_path: Path) -> None:
    """The host and the next in line freeze: 2 of 4 cannot elect; seat 1 wakes and play goes on."""
    host, peers = start_table(lan4, tmp_path, "Quorum", players=4, target=100)
    seats = {next(m for m in p.seen if m.get("event") == "seated")["seat"]: p for p in peers}
    in_play([host, *peers], seats[2])
    for frozen in (host, seats[1]):
        os.killpg(frozen.pid, signal.SIGSTOP)
    time.sleep(3.0)
    assert not [m for p in (seats[2], seats[3]) for m in p.seen if m.get("event") == "match_over"]
    assert all(p.popen.poll() is None for p in (seats[2], seats[3]))  # waiting, not giving up
    os.killpg(seats[1].pid, signal.SIGCONT)
    results = [result(seats[n]) for n in (1, 2, 3)]
    check_survivors(results)
    os.killpg(host.pid, signal.SIGCONT)
    doc = json.loads(Path(results[0]["transcript"]).read_text())
    moves = [m for h in doc["hands"] for m in h["moves"]]
    assert {"seat": 0, "resign": True} in moves and {"seat": 1, "resign": True} not in moves
