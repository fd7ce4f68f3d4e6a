"""A host with a computer player at its table is killed mid-match (root only): the two people
left elect a new host, which carries the match on, and the people finish it with one verified
transcript.

- At a locked table (``--deal blind``, the default; transcript/2): the bot's tiles were opened by
  the lost host alone and its key went with it, so the bot leaves the match with its host
  (docs/host-migration.md, "At a locked table"): both depart, the hands after the loss are run
  and signed by the new host, and the people play on.
- At a fair table (``--deal fair``; transcript/1): the new host plays the bot from then on,
  under a key of its own (``adopted``), and the match is finished by all four seats but the lost
  host's.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabProcess, NetLab
from test_lan_blind import departures, verified
from test_lan_migration import FAST, LANOMINO, PACE, bot, check_survivors, in_play, result

from lanomino.blind.hand_record import parse_blind_hand

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120)]


def lose_the_host(lab: NetLab, tmp_path: Path, deal: str
                  ) -> tuple[list[dict[str, Any]], float]:
    """A headless host with one bot and two ``lanomino bot`` people; the host is SIGKILLed once
    the match is under way. The people's results, and when the host died."""
    h0, h1, h2, _ = lab.hosts
    host = lab.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                          "--deal", deal,
                          "--level", "greedy", "--data-dir", str(tmp_path / "host"),
                          "--name", "Botty", "--seats", "4", "--bots", "1",
                          "--set", "target=100", "--bot-delay", PACE, *FAST])
    host.expect(lambda m: m.get("event") == "listening", 15)
    peers: list[LabProcess] = [bot(lab, h, tmp_path, "Botty") for h in (h1, h2)]
    for peer in peers:  # (under load a bot takes seconds to find the table: killing the host
        peer.expect(lambda m: m.get("event") == "seated", 30)  # before it sat down failed it)
    in_play([host, *peers], peers[0])
    host.kill()
    killed_at = time.time()
    return [result(p, 90) for p in peers], killed_at


def one_quick_takeover(results: list[dict[str, Any]], killed_at: float) -> int:
    """One host per term, one term after the first, resumed within 3 s: the new host's seat."""
    hosts: dict[str, set[int]] = {}
    for r in results:
        for term, seat in r["hosts"].items():
            hosts.setdefault(term, set()).add(seat)
    assert all(len(seats) == 1 for seats in hosts.values()), hosts
    assert len(hosts) == 2, hosts
    resumed = [m for r in results for m in r["migrations"]]
    assert len(resumed) == 1 and resumed[0]["at"] - killed_at < 3.0
    new_host = next(iter(hosts[max(hosts, key=int)]))
    assert new_host in {r["seat"] for r in results}
    return new_host


def test_the_lost_hosts_bot_leaves_a_locked_table_with_it(lan4: NetLab, tmp_path: Path) -> None:
    results, killed_at = lose_the_host(lan4, tmp_path, "blind")
    doc = verified(results)
    assert doc["format"] == "lanomino.transcript/2"
    new_host = one_quick_takeover(results, killed_at)
    gone = departures(doc)
    first = min(i for i, seat, _ in gone if seat == 0)  # the hand the host was lost in
    assert (first, 3) in {(i, seat) for i, seat, _ in gone}, gone  # its bot left with it
    records = [parse_blind_hand(h["record"]) for h in doc["hands"]]
    assert all(r.host == 0 for r in records[:first])
    assert all(r.host == new_host for r in records[first + 1:])
    assert len(records) > first + 1, "no hand was dealt after the loss"
    later = records[first + 1:]
    assert all({1, 2} <= set(r.holders) and not {0, 3} & set(r.holders) for r in later)
    assert all(m.seat in (1, 2) for r in later for m in r.moves)  # the people play on
    assert doc["players"][3].endswith("bot 1")


def test_the_new_host_plays_the_lost_hosts_bot_at_a_fair_table(
        lan4: NetLab, tmp_path: Path) -> None:
    results, killed_at = lose_the_host(lan4, tmp_path, "fair")
    docs = check_survivors(results)
    moves = [m for h in docs[0]["hands"] for m in h["moves"]]
    assert {"seat": 0, "resign": True} in moves
    assert not [m for m in moves if m["seat"] == 3 and m.get("resign")]  # the bot never left
    first = next(h for h in docs[0]["hands"] if "migrated" in h)
    later = first["moves"][first["migrated"]["at"]:] + [
        m for h in docs[0]["hands"] if h["hand"] > first["hand"] for m in h["moves"]]
    assert [m for m in later if m["seat"] == 3], "the bot made no move under the new host"
    adopted = [h["adopted"] for h in docs[0]["hands"] if "adopted" in h]  # (verified above)
    header_key = docs[0]["keys"][3]
    assert len(adopted) == 1 and [k[0] for k in adopted[0]["keys"]] == [3]
    assert adopted[0]["keys"][0][1] != header_key  # the bot's key stayed with the lost host
    one_quick_takeover(results, killed_at)
    assert json.loads(Path(results[0]["transcript"]).read_text())["players"][3].endswith("bot 1")
