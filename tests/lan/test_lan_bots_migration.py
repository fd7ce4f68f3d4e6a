"""Host-side computer players move with the table (root only): a host with a bot at its table is
killed mid-match; the two people left elect a new host, which plays the bot from then on (it
adopts the bot's seat under a key of its own), and the match is finished by all four seats but
the lost host's.
(``--deal fair``: this checks a fair table's transcript/1; a locked table's are checked in
tests/lan/test_lan_blind.py and tests/net/test_blind_*procs*.py.)"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from netlab import NetLab
from test_lan_migration import FAST, LANOMINO, PACE, bot, check_survivors, in_play, result

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120)]


def test_the_new_host_plays_the_lost_hosts_bot(lan4: NetLab, tmp_path: Path) -> None:
    h0, h1, h2, _ = lan4.hosts
    host = lan4.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                           "--deal", "fair",
                           "--level", "greedy", "--data-dir", str(tmp_path / "host"),
                           "--name", "Botty", "--seats", "4", "--bots", "1",
                           "--set", "target=100", "--bot-delay", PACE, *FAST])
    host.expect(lambda m: m.get("event") == "listening", 15)
    peers = [bot(lan4, h, tmp_path, "Botty") for h in (h1, h2)]
    for peer in peers:  # (under load a bot takes seconds to find the table: killing the host
        peer.expect(lambda m: m.get("event") == "seated", 30)  # before it sat down failed it)
    in_play([host, *peers], peers[0])
    host.kill()
    killed_at = time.time()
    results = [result(p, 90) for p in peers]
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
    resumed = [m["at"] for r in results for m in r["migrations"]]
    assert len(resumed) == 1 and resumed[0] - killed_at < 3.0
    assert json.loads(Path(results[0]["transcript"]).read_text())["players"][3].endswith("bot 1")
