"""Two watchers, each in its own namespace, follow a 4-player match over a simulated LAN while
its host is killed: they follow the election to the new host, end with the players' transcript
and were sent no private message (a watcher logs every message it receives whole at debug
level; the test reads them back). Root only."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest
from netlab import NetLab
from test_lan_migration import (
    FAST,
    LANOMINO,
    check_survivors,
    in_play,
    result,
    seat_bots,
    start_host,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from test_watchers import private_tiles_seen  # noqa: E402

pytestmark = [pytest.mark.netns, pytest.mark.timeout(180), pytest.mark.together("lan")]

PRIVATE = ("commit_req", "commit_set", "reveal_req", "escrow", "bots")


def test_two_watchers_follow_a_host_kill_and_end_with_the_players_transcript(
        lan6: NetLab, tmp_path: Path) -> None:
    name = "Watched"
    # the watchers sit down before the players, so that they see every hand from its deal
    host = start_host(lan6, tmp_path, name, players=4, target=100)
    watchers, received = [], []
    for where in lan6.hosts[4:6]:
        seen: list[str] = []  # the type (and opening) of every message the watcher was sent
        proc = lan6.spawn(where, [*LANOMINO, "watch", name, "--interface", where.ip,
                                  "--timeout", "30", "--json",
                                  "--data-dir", str(tmp_path / f"w{where.index}"),
                                  "--player", f"w{where.index}", *FAST],
                          env={"LANOMINO_LOG": "DEBUG"})
        proc.stderr_hooks.append(
            lambda line, box=seen: box.append(line) if "in  {'v'" in line else None)
        watchers.append(proc)
        received.append(seen)
    for w in watchers:
        w.expect(lambda m: m.get("event") == "watching", 45)
    peers = seat_bots(lan6, tmp_path, name, players=4)
    in_play([host, *peers, *watchers], peers[0])
    host.kill()
    players = [result(p, 90) for p in peers]
    docs = check_survivors(players)
    for w, seen in zip(watchers, received, strict=True):
        end = result(w, 60)
        assert end["finished"] and end["verified"] and end["seat"] == -1, end
        assert json.loads(Path(end["transcript"]).read_text()) == docs[0]
        hands = [m for m in w.seen if m.get("event") == "hand"]
        # every hand checked (a hand amended after the migration is checked again)
        assert {h["hand"] for h in hands} == {h["hand"] for h in docs[0]["hands"]}
        assert all(h["verified"] for h in hands)
        assert len({int(t) for t in end["hosts"]}) >= 2  # it followed the new host
        inbox = [ast.literal_eval(line.split("in  ", 1)[1]) for line in seen]  # (logged whole)
        kinds = {m["type"] for m in inbox}
        assert {"deal", "update", "hand_log", "roster"} <= kinds
        assert not kinds & set(PRIVATE), kinds & set(PRIVATE)
        assert private_tiles_seen(inbox) == []  # no tile named before it was played or revealed
        drawn = [e for m in inbox if m["type"] == "update" for e in m["body"]["events"]
                 if e["e"] == "drawn"]
        assert all(e["tile"] is None for e in drawn)
