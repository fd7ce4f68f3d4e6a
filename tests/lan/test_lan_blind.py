"""A locked table (``lanomino host --deal blind``, with and without ``--escrow``) on a simulated
LAN: a headless host and two ``lanomino bot`` holders, each in its own network namespace. In the
middle of a hand one bot's link is cut (its port on the bridge down) and then restored.

- Cut for less than the grace period: the bot comes back within it, still holding its own key,
  so it keeps its seat and its hand; the match finishes at every seat with the same
  transcript/2, which ``lanomino verify`` accepts, and nobody resigned.
- Cut for longer than the grace period: the host resigns the bot (``left``); the others finish
  verified (with escrow standing in for its key, without it re-shuffling blind what nobody
  holds); the bot, once its link is back, stops saying that it left (it does not hang).

A bot that takes part in host elections (the default) and whose own link is cut takes its
host's silence for a lost host, but asks the other members first (net/peer/prevotes.py): they
still hear the host, so it elects nobody, keeps its connection to its host and comes back on it
(within the grace period: seat and hand kept; past it: told that its seat has left). It used to
host a term nobody joined, never went back, and stopped "lost touch with most of the table". A
bot started with ``--no-migration`` waits for its host without asking anyone, and comes back in
the same way.

Root only (network namespaces)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabProcess, NetLab

from lanomino.blind.hand_record import parse_blind_hand

pytestmark = [pytest.mark.netns, pytest.mark.timeout(90), pytest.mark.together("lan")]

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
PACE = "0.2"  # every bot pauses this long per move: the hand outlives the cut
# past the grace period: the cut seat's turn (its move, its share of a draw) holds the hand until
# it has left, and once its link is back it is told within about 0.2 s; the rest of the match
# takes seconds at this pause (at 0.2 s it took most of the test)
PACE_PAST = "0.1"
RESULT_S = 60
MOVED = "in  {'v': 1, 'type': 'update'"  # a peer's debug log: a move reached it
LEFT = "this seat has left the match"  # the host's goodbye to a seat that is no longer seated


def start_table(lab: NetLab, data: Path, name: str, escrow: bool, grace: float, target: int,
                bot_flags: tuple[str, ...] = (), pace: str = PACE
                ) -> tuple[LabProcess, list[LabProcess], list[int]]:
    """A headless locked host in the first namespace and two bots, once both are seated. The
    default heartbeat (0.25 s): a host busy settling a locked hand must not look lost."""
    h0 = lab.hosts[0]
    host = lab.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                          "--deal", "blind", *(["--escrow"] if escrow else []),
                          "--data-dir", str(data / "host"), "--name", name, "--seats", "3",
                          "--set", f"target={target}", "--grace", str(grace)],
                     env={"LANOMINO_LOG": "DEBUG"})
    host.expect(lambda m: m.get("event") == "listening", 30)
    peers = [lab.spawn(h, [*LANOMINO, "bot", name, "--interface", h.ip, "--timeout", "15",
                           "--json", "--level", "greedy", "--data-dir", str(data / f"p{h.index}"),
                           "--player", f"p{h.index}", "--delay", pace, "--grace", str(grace),
                           *bot_flags],
                       env={"LANOMINO_LOG": "DEBUG"})
             for h in lab.hosts[1:3]]
    seats = [int(p.expect(lambda m: m.get("event") == "seated", 30)["seat"]) for p in peers]
    peers[0].wait_said(MOVED, 40)  # the first hand is in play: the cut comes mid-hand
    assert all(p.popen.poll() is None for p in (host, *peers)), "the match ended before the cut"
    return host, peers, seats


def link(lab: NetLab, peer: LabProcess, state: str) -> None:
    """Put ``peer``'s port on the bridge down (its cable pulled) or up again."""
    subprocess.run(["ip", "-n", lab.bridge_namespace, "link", "set", f"v{peer.host.index}",
                    state], check=True, timeout=10)


def result(proc: LabProcess, timeout_s: float = RESULT_S) -> dict[str, Any]:
    return proc.expect(lambda m: m.get("event") in ("match_over", "stopped"), timeout_s)


def verified(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every one finished with the same transcript/2, which ``lanomino verify`` accepts."""
    for r in results:
        assert r["event"] == "match_over" and r["finished"] and r["verified"], json.dumps(r)
    docs = [json.loads(Path(r["transcript"]).read_text()) for r in results]
    assert all(doc == docs[0] for doc in docs)
    assert len({tuple(r["scores"]) for r in results}) == 1
    out = subprocess.run([*LANOMINO, "verify", results[0]["transcript"]], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    doc: dict[str, Any] = docs[0]
    return doc


def departures(doc: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(hand index, seat, by) of every resignation and every departure in a transcript/2."""
    hands = [parse_blind_hand(h["record"]) for h in doc["hands"]]
    resigned = [(i, r.seat, r.by) for i, h in enumerate(hands) for r in h.resignations]
    departed = [(i, int(d["seat"]), str(d["by"])) for i, h in enumerate(doc["hands"])
                for d in h.get("departures", ())]
    return resigned + departed


def came_back(tmp_path: Path, escrow: bool, bot_flags: tuple[str, ...]) -> None:
    """A bot's link down for 3 s of an 8 s grace period, mid-hand: it keeps its seat."""
    with NetLab(hosts=3, subnet="10.92.0") as lab:
        host, peers, seats = start_table(lab, tmp_path, "Blinking", escrow, 8, 15, bot_flags)
        link(lab, peers[0], "down")
        time.sleep(3.0)
        link(lab, peers[0], "up")
        results = [result(p) for p in (host, *peers)]
    host.wait_said(f"SeatDisconnected(seat={seats[0]})", 1)  # the host felt the cut
    doc = verified(results)
    assert not departures(doc), "a seat left the match"
    assert all(seats[0] in parse_blind_hand(h["record"]).holders for h in doc["hands"])


@pytest.mark.parametrize("escrow", [False, True], ids=["reshuffle", "escrow"])
def test_a_bot_that_waits_for_its_host_and_is_back_within_its_grace_keeps_its_seat(
        tmp_path: Path, escrow: bool) -> None:
    came_back(tmp_path, escrow, ("--no-migration",))


@pytest.mark.parametrize("escrow", [False, True], ids=["reshuffle", "escrow"])
def test_a_bot_back_within_its_grace_keeps_its_seat(tmp_path: Path, escrow: bool) -> None:
    came_back(tmp_path, escrow, ())


def down_past_grace(lab: NetLab, host: LabProcess, peers: list[LabProcess], gone: int,
                    grace: float) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``peers[0]``'s link down until the host resigns its seat ``gone``, then up: the results of
    the host and the other peer, then of the peer cut off."""
    link(lab, peers[0], "down")
    host.wait_said(f"SeatLeft(seat={gone},", grace + 20)
    link(lab, peers[0], "up")
    back = time.monotonic()
    results = [result(p) for p in (host, peers[1])]
    # it does not hang: it stops at the latest two grace periods after its link is back
    return results, result(peers[0], max(1.0, 2 * grace + 10 - (time.monotonic() - back)))


@pytest.mark.parametrize("escrow", [False, True], ids=["reshuffle", "escrow"])
def test_a_bot_whose_link_is_down_past_its_grace_leaves_and_is_told_so(
        tmp_path: Path, escrow: bool) -> None:
    grace = 3.0
    with NetLab(hosts=3, subnet="10.93.0") as lab:
        # (a target the match outlasts the cut with: the host is still there to say goodbye)
        host, peers, seats = start_table(lab, tmp_path, "Unplugged", escrow, grace, 40,
                                         pace=PACE_PAST)
        gone = seats[0]
        results, cut = down_past_grace(lab, host, peers, gone, grace)
    doc = verified(results)
    found = departures(doc)
    assert [(seat, by) for _, seat, by in found] == [(gone, "left")], found
    first = found[0][0] + 1
    assert all(gone not in parse_blind_hand(h["record"]).holders for h in doc["hands"][first:])
    assert cut["event"] == "stopped" and not cut["finished"], cut
    assert LEFT in cut["reason"], cut
