"""The line mode's lobby on a simulated LAN (network namespaces, real zeroconf, real CURVE
ZeroMQ; root only, skips otherwise): a reader types tables, hears the host's table by number,
joins it and plays the match to its end, all through pipes."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).parent))
from linekit import LANOMINO, LinePipe, play_match  # noqa: E402
from netlab import NetLab, live_namespaces, require_netns  # noqa: E402

pytestmark = [pytest.mark.netns, pytest.mark.timeout(180)]
FAST = ["--heartbeat", "0.5", "--grace", "8"]


@pytest.fixture
def lan2() -> Iterator[NetLab]:
    require_netns()
    lab = NetLab(hosts=2, subnet="10.86.0")
    with lab:
        yield lab
    assert not [ns for ns in live_namespaces() if ns.startswith(lab.prefix)]


def test_a_reader_finds_a_table_in_the_lobby_and_plays_it(lan2: NetLab, tmp_path: Path) -> None:
    h0, h1 = lan2.hosts
    host = lan2.spawn(h0, [*LANOMINO, "host", "--headless", "--bind", h0.ip, "--json",
                           "--level", "greedy", "--name", "Kitchen", "--seats", "2",
                           "--set", "target=30", "--data-dir", str(tmp_path / "host"), *FAST])
    host.expect(lambda m: m.get("event") == "listening", 15)
    pipe = LinePipe(["play", "--lines", "--interface", h1.ip, "--data-dir", str(tmp_path / "me"),
                     "--pause", "0"], prefix=("ip", "netns", "exec", h1.namespace))
    try:
        pipe.until("Type new to play the computer")
        pipe.send("join 1")
        assert "type tables" in pipe.read()  # nothing listed yet: nothing joined
        pipe.send("tables")
        assert pipe.read().startswith("Looking for tables on the LAN.")
        row = pipe.until(r"^Table 1: ", timeout_s=20)
        assert row == "Table 1: Kitchen, Draw 30, 1 of 2 seats taken."
        pipe.send("join 1")
        assert "At the table: host (seat 1)" in pipe.until(r"^At the table", timeout_s=20)
        play_match(pipe, r"^The match is over: ", timeout_s=120)
        result = host.expect(lambda m: m.get("event") == "match_over", 60)
        assert result["finished"] and result["verified"]
        pipe.send("quit")
        assert pipe.finish() == 0, pipe.stderr()
        said = "\n".join(pipe.said)
        assert "Hand 1 checked: the deal and every move were fair" in said
        assert said.isascii()
    finally:
        pipe.kill()
