"""A host lost before the first deal, on a simulated LAN (root only): the people already seated
elect a new host, which reopens the table on the LAN with the lost host's seat free; newcomers
join it by name and the match is played to the end."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from netlab import NetLab
from test_lan_migration import FAST, LANOMINO, PACE, bot, result, verify

pytestmark = [pytest.mark.netns, pytest.mark.timeout(120), pytest.mark.together("lan")]


def test_a_host_killed_in_the_lobby_is_replaced_and_newcomers_fill_the_table(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1, h2, h3 = lan4.hosts
    host = lan4.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                           "--level", "greedy", "--data-dir", str(tmp_path / "host"),
                           "--name", "Early", "--seats", "4",
                           "--set", "target=60", "--bot-delay", PACE, *FAST])
    host.expect(lambda m: m.get("event") == "listening", 15)
    first = [bot(lan4, h, tmp_path, "Early") for h in (h1, h2)]
    seats = sorted(p.expect(lambda m: m.get("event") == "seated", 15)["seat"] for p in first)
    assert seats == [1, 2]  # seat 3 is still free: the table waits in its lobby
    # The roster that tells seat 1 about seat 2 leaves the host with seat 2's welcome, but on a
    # loaded machine it may reach seat 1 tens of milliseconds later: a host killed in between
    # leaves seat 1 believing the table has two members, too few to elect (seen in a full LAN
    # run). That instant is not this test's subject: the host dies once everyone knows the table.
    time.sleep(1.0)
    host.kill()
    # the two notice (liveness 0.6 s), elect seat 1, and it announces the table again: term 1,
    # the same rules, and the lost host's seat free
    # (30 s: on a loaded 2-core machine the scan, the election and the new announcement are slow)
    deadline, seen = time.monotonic() + 30, []
    while time.monotonic() < deadline:
        out = lan4.run(h3, [*LANOMINO, "tables", "--json", "--interface", h3.ip,
                            "--timeout", "0.5"])
        seen = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        if any(t["name"] == "Early" and t["term"] == 1 and t["seats"] == "2/4" for t in seen):
            break
    report = json.dumps(seen) + "\n" + "\n".join(f"{p.pid}: " + "\n".join(list(p.stderr_tail)[-15:])
                                               for p in [host, *first])
    assert [t for t in seen if t["term"] == 1], report
    # classic, target 60: the new host says it as History does
    assert all(t["rules"] == "Draw 60" for t in seen if t["term"] == 1), report
    assert any(t["seats"] == "2/4" for t in seen if t["term"] == 1), seen
    assert all(p.popen.poll() is None for p in first)
    late = [lan4.spawn(where, [*LANOMINO, "bot", "Early", "--interface", where.ip,
                               "--timeout", "15", "--json", "--level", "greedy",
                               "--data-dir", str(tmp_path / name), "--player", name,
                               "--delay", PACE, *FAST])
            for where, name in ((h3, "late3"), (h0, "late0"))]
    try:
        seats = sorted(p.expect(lambda m: m.get("event") == "seated", 20)["seat"] for p in late)
        assert seats == [0, 3]
    except AssertionError:
        time.sleep(1)
        raise AssertionError(str([p.seen for p in [*late, *first]])) from None
    results = [result(p, 90) for p in [*first, *late]]
    docs = []
    for r in results:
        assert r["finished"] and r["verified"], r
        assert verify(r["transcript"])["ok"]
        docs.append(Path(r["transcript"]).read_text())
    assert len(set(docs)) == 1  # one match, the same transcript everywhere
    # the survivors saw seat 1 take term 1
    assert all(r["hosts"].get("1") == 1 for r in results[:2])
