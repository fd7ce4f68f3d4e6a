"""``lanomino tables`` on a simulated LAN: what a looking machine lists about the tables it sees."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from netlab import NetLab

pytestmark = [pytest.mark.netns, pytest.mark.timeout(60), pytest.mark.together("lan")]

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]


def test_tables_lists_each_table_with_its_rules_seats_host_address_and_passphrase_flag(
        lan4: NetLab, tmp_path: Path) -> None:
    h0, h1, h2 = lan4.hosts[:3]
    opened = []
    for where, extra in ((h0, ["--seats", "3", "--rules", "allfives", "--passphrase", "pssst"]),
                         (h1, ["--seats", "2", "--rules", "classic"])):
        proc = lan4.spawn(where, [*LANOMINO, "host", "--headless", "--bind", where.ip, "--json",
                                  "--name", "Kitchen",
                                  "--data-dir", str(tmp_path / where.namespace), *extra])
        opened.append(proc.expect(lambda m: m.get("event") == "listening", 15))
    out = lan4.run(h2, [*LANOMINO, "tables", "--json", "--interface", h2.ip, "--timeout", "2"],
                   timeout_s=30)
    assert out.returncode == 0, out.stderr
    seen = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    by_host = {t["host"]: t for t in seen}
    assert len(seen) == 2 and len({t["service"] for t in seen}) == 2  # two "Kitchen"s, both visible
    locked, open_ = by_host[opened[0]["peer_id"]], by_host[opened[1]["peer_id"]]
    def facts(t: dict[str, Any]) -> tuple[Any, ...]:
        return (t["name"], t["rules"], t["seats"], t["passphrase"])

    assert facts(locked) == ("Kitchen", "All Fives 150", "1/3", True)
    assert facts(open_) == ("Kitchen", "Draw 100", "1/2", False)
    assert locked["address"] == opened[0]["address"] and locked["address"].startswith(f"{h0.ip}:")
    assert open_["address"] == opened[1]["address"] and open_["address"].startswith(f"{h1.ip}:")
    assert locked["term"] == 0 and locked["compatible"]
    # the host as its screen shows it, in the JSON and the lines, which fit 80 columns (item 16)
    assert [locked["fingerprint"], open_["fingerprint"]] == [o["fingerprint"] for o in opened]
    words = lan4.run(h2, [*LANOMINO, "tables", "--interface", h2.ip, "--timeout", "2"],
                     timeout_s=30)
    assert words.returncode == 0, words.stderr
    text = " ".join(words.stdout.split())
    assert all(f"fingerprint {o['fingerprint']}" in text for o in opened), words.stdout
    assert all(o["peer_id"] not in text for o in opened), words.stdout
    assert all(len(line) <= 80 for line in words.stdout.splitlines()), words.stdout
