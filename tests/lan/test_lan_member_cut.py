"""A member's own link cut at a fair table (a headless host and two ``lanomino bot`` members, each
in its own network namespace; the bots take part in host elections, the default). The cut member
takes its host's silence for a lost host but asks the other members first (net/peer/prevotes.py):
they still hear the host, so nobody elects.

- Cut for 3 s of an 8 s grace period: it goes back to its host on the same connection and keeps
  its seat; the match finishes under the host of term 0 with the same verified transcript at
  every seat, and nobody resigned.
- Cut past its grace period: the host resigns it and the match goes on; once its link is back,
  the member is told that its seat has left and stops (it hosted nothing).

Root only (network namespaces).
(``--deal fair``: this checks a fair table's transcript/1; a locked table's are checked in
tests/lan/test_lan_blind.py and tests/net/test_blind_*procs*.py.)"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabProcess, NetLab
from test_lan_blind import LEFT, down_past_grace, link, verified
from test_lan_migration import FAST, LANOMINO, PACE, in_play, result

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120), pytest.mark.together("lan")]


def start(lab: NetLab, data: Path, name: str, grace: float, target: int,
          pace: str = PACE) -> tuple[LabProcess, list[LabProcess], list[int]]:
    """A headless fair host and two bots (each pausing ``pace`` a move), once the first hand is
    in play."""
    h0 = lab.hosts[0]
    timing = [*FAST[:2], "--grace", str(grace)]
    host = lab.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                          "--deal", "fair",
                          "--level", "greedy", "--bot-delay", pace,
                          "--data-dir", str(data / "host"), "--name", name, "--seats", "3",
                          "--set", f"target={target}", *timing],
                     env={"LANOMINO_LOG": "DEBUG"})
    host.expect(lambda m: m.get("event") == "listening", 30)
    peers = [lab.spawn(h, [*LANOMINO, "bot", name, "--interface", h.ip, "--timeout", "15",
                           "--json", "--level", "greedy", "--data-dir", str(data / f"p{h.index}"),
                           "--player", f"p{h.index}", "--delay", pace, *timing],
                       env={"LANOMINO_LOG": "DEBUG"})
             for h in lab.hosts[1:3]]
    seats = [int(p.expect(lambda m: m.get("event") == "seated", 30)["seat"]) for p in peers]
    in_play([host, *peers], peers[0])
    return host, peers, seats


def moves(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for h in doc["hands"] for m in h["moves"]]


def test_a_members_link_cut_for_less_than_its_grace_keeps_its_seat(tmp_path: Path) -> None:
    with NetLab(hosts=3, subnet="10.94.0") as lab:
        # (a headless host plays its own seat: the cut member's turn comes round within the cut)
        host, peers, seats = start(lab, tmp_path, "Flicker", 8, 60)
        link(lab, peers[0], "down")
        time.sleep(3.0)
        link(lab, peers[0], "up")
        results = [result(p) for p in (host, *peers)]
    host.wait_said(f"SeatDisconnected(seat={seats[0]})", 1)  # the host felt the cut
    peers[0].wait_said("HostSilent(", 1)  # and the member its host's silence
    doc = verified(results)
    assert not [m for m in moves(doc) if m.get("resign")], "a seat resigned"
    assert all(r["hosts"] in ({}, {"0": 0}) for r in results), [r["hosts"] for r in results]
    assert "migrated" not in str(doc["hands"])


def test_a_members_link_cut_past_its_grace_leaves_and_the_match_goes_on(tmp_path: Path) -> None:
    grace = 3.0
    with NetLab(hosts=3, subnet="10.95.0") as lab:
        # (bots pausing 0.1 s a move: the match outlasts the cut, the host is there to say so;
        # the cut seat's turn holds the hand until its seat has left, and once its link is back
        # it is told within about 0.2 s, while the rest of the match takes seconds)
        host, peers, seats = start(lab, tmp_path, "Unplugged", grace, 40, "0.1")
        gone = seats[0]
        results, cut = down_past_grace(lab, host, peers, gone, grace)
    doc = verified(results)
    assert {"seat": gone, "resign": True} in moves(doc)
    assert cut["event"] == "stopped" and not cut["finished"], cut
    assert LEFT in cut["reason"], cut
    assert not [line for line in peers[0].said if "takes over the table" in line]
