"""Whole matches over a simulated LAN: each process in its own network namespace, found through real
zeroconf, talking real CURVE ZeroMQ. Root only (skips otherwise); short timings keep it fast."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabHost, LabProcess, NetLab
from test_lan_migration import in_play

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120), pytest.mark.together("lan")]

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
# Heartbeats every 0.5 s (a drop after 1.5 s of silence): fast, yet not so tight that a process
# starved of CPU on a loaded 2-core machine looks gone and sets off a host election.
FAST = ["--heartbeat", "0.5", "--grace", "8"]


def host(lab: NetLab, where: LabHost, data: Path, *extra: str) -> tuple[LabProcess, dict[str, Any]]:
    proc = lab.spawn(where, [*LANOMINO, "host", "--headless", "--bind", where.ip, "--json",
                             "--level", "greedy", "--data-dir", str(data / "host"), *FAST, *extra])
    listening = proc.expect(lambda m: m.get("event") == "listening", 15)
    return proc, listening


def left_seats(doc: dict[str, Any]) -> list[int]:
    """The seats that resigned or left the match in a transcript: transcript/1 (a fair table)
    lists a resignation among a hand's moves; transcript/2 (a locked table, the default) in its
    hand record's resignations, or as a departure of a hand dealt again."""
    out = [int(m["seat"]) for h in doc["hands"] for m in h.get("moves", ()) if m.get("resign")]
    for h in doc["hands"]:
        if "record" in h:
            out += [int(r["seat"]) for r in h["record"].get("resignations", ())]
            out += [int(d["seat"]) for d in h.get("departures", ())]
    out += [int(d["seat"]) for d in doc["end"].get("departures", ())]  # (one ending the match)
    return out


def bot(lab: NetLab, where: LabHost, data: Path, target: str, name: str, *extra: str,
        log: str | None = None) -> LabProcess:
    """A ``lanomino bot`` (logging at ``log``: at DEBUG, ``in_play`` can tell its first move)."""
    return lab.spawn(where, [*LANOMINO, "bot", target, "--interface", where.ip, "--timeout", "15",
                             "--json", "--level", "greedy", "--data-dir", str(data / name),
                             "--player", name, *FAST, *extra],
                     env={"LANOMINO_LOG": log} if log else None)


def result(proc: LabProcess, timeout_s: float = 60) -> dict[str, Any]:
    return proc.expect(lambda m: m.get("event") in ("match_over", "stopped"), timeout_s)


def verify(path: str) -> dict[str, Any]:
    out = subprocess.run([*LANOMINO, "verify", path, "--json"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def check_agreement(results: list[dict[str, Any]]) -> None:
    """Every process finished, verified every hand, and holds the same transcript."""
    docs = []
    for r in results:
        assert r["finished"] and r["verified"], r
        assert verify(r["transcript"])["ok"]
        docs.append(json.loads(Path(r["transcript"]).read_text()))
    assert all(d == docs[0] for d in docs)
    assert len({(tuple(r["scores"]), r["winner"], r["hands"]) for r in results}) == 1


def test_two_players_find_the_table_by_name_and_finish_a_verified_match(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1 = lan4.hosts[:2]
    proc, _ = host(lan4, h0, tmp_path, "--name", "Kitchen", "--seats", "2", "--set", "target=60")
    peer = bot(lan4, h1, tmp_path, "Kitchen", "ann")
    check_agreement([result(proc), result(peer)])


def test_four_players_each_in_its_own_namespace(lan4: NetLab, tmp_path: Path) -> None:
    h0, *others = lan4.hosts
    proc, _ = host(lan4, h0, tmp_path, "--name", "Garden", "--seats", "4", "--set", "target=60")
    peers = [bot(lan4, h, tmp_path, "Garden", f"p{h.index}") for h in others]
    results = [result(proc)] + [result(p) for p in peers]
    check_agreement(results)
    assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]


def test_a_join_by_host_port_key_needs_no_discovery(lan4: NetLab, tmp_path: Path) -> None:
    h0, h1 = lan4.hosts[:2]
    proc, listening = host(lan4, h0, tmp_path, "--seats", "2", "--no-announce",
                           "--set", "target=40")
    assert listening["address"].startswith(f"{h0.ip}:")
    joiner = lan4.spawn(h1, [*LANOMINO, "join", listening["address"], "--interface", h1.ip,
                             "--json", "--player", "zoe", "--level", "random",
                             "--data-dir", str(tmp_path / "zoe"), *FAST])
    check_agreement([result(proc), result(joiner)])


def test_a_wrong_passphrase_is_refused(lan4: NetLab, tmp_path: Path) -> None:
    h0, h1, h2 = lan4.hosts[:3]
    proc, _ = host(lan4, h0, tmp_path, "--name", "Locked", "--seats", "2",
                   "--passphrase", "open sesame", "--set", "target=30")
    wrong = bot(lan4, h1, tmp_path, "Locked", "mallory", "--passphrase", "sesame open")
    refused = result(wrong, 20)
    assert not refused["finished"] and "passphrase" in refused["reason"]
    assert wrong.popen.wait(timeout=10) == 3
    right = bot(lan4, h2, tmp_path, "Locked", "alice", "--passphrase", "open sesame")
    check_agreement([result(proc), result(right)])


def test_a_peer_killed_and_restarted_within_grace_reclaims_its_seat(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1, h2 = lan4.hosts[:3]
    proc, _ = host(lan4, h0, tmp_path, "--name", "Phoenix", "--seats", "3", "--set", "target=100",
                   "--bot-delay", "0.04")
    steady = bot(lan4, h1, tmp_path, "Phoenix", "steady", "--delay", "0.04")
    victim = bot(lan4, h2, tmp_path, "Phoenix", "victim", "--delay", "0.04", log="DEBUG")
    in_play([proc, steady, victim], victim)
    victim.kill()
    time.sleep(1.0)
    back = bot(lan4, h2, tmp_path, "Phoenix", "victim", "--delay", "0.04")
    results = [result(proc), result(steady), result(back)]
    check_agreement(results)
    assert {r["seat"] for r in results} == {0, 1, 2}  # the restarted peer is back in its own seat
    doc = json.loads(Path(results[0]["transcript"]).read_text())
    assert not left_seats(doc)


@pytest.mark.parametrize("deal", ["blind", "fair"])
def test_a_peer_that_never_comes_back_has_left_and_the_other_player_wins(
    lan4: NetLab, tmp_path: Path, deal: str
) -> None:
    """At a locked table (the default) as at a fair one: the match ends won by the host (at a
    locked table the hand in play is given up, its lost key needed for its end)."""
    h0, h1 = lan4.hosts[:2]
    proc = lan4.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                           "--deal", deal,
                           "--level", "greedy", "--data-dir", str(tmp_path / "host"),
                           "--name", "Gone", "--seats", "2", "--heartbeat", "0.2", "--grace", "1.5",
                           "--set", "target=200", "--bot-delay", "0.05"])
    proc.expect(lambda m: m.get("event") == "listening", 15)
    peer = bot(lan4, h1, tmp_path, "Gone", "ghost", "--delay", "0.05", log="DEBUG")
    in_play([proc, peer], peer)  # (a peer lost in the first deal is another story)
    peer.kill()
    final = result(proc, 30)
    assert final["finished"] and final["winner"] == 0
    assert verify(final["transcript"])["ok"]
    doc = json.loads(Path(final["transcript"]).read_text())
    assert left_seats(doc) == [1]
