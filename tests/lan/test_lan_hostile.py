"""Hostile peers on a simulated LAN (root only): floods in the lobby and in a game, garbage move
signatures, passphrase guessing, and a player restarted late in a long match. The attackers are
scripts/attack.py's, run from tests/lan/hostile_peer.py inside their own namespace; every real
player joins by the host's direct address (HOST:PORT/KEY)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from netlab import LabHost, LabProcess, NetLab

from lanomino.net.throttle import GuessPolicy

pytestmark = [pytest.mark.netns, pytest.mark.timeout(240)]

LANOMINO = [sys.executable, "-u", "-m", "lanomino"]
FAST = ["--heartbeat", "0.2", "--grace", "8"]
PACE = "0.03"
HOSTILE = Path(__file__).resolve().parent / "hostile_peer.py"


def open_table(
    lab: NetLab, data: Path, seats: int, *extra: str, pace: str = PACE
) -> tuple[LabProcess, str]:
    h0 = lab.hosts[0]
    host = lab.spawn(
        h0,
        [
            *LANOMINO,
            "host",
            "--headless",
            "--deal",
            "fair",  # (scripts/attack.py's rows: the fair deal's commit and reveal)
            "--bind",
            h0.ip,
            "--json",
            "--no-announce",
            "--level",
            "greedy",
            "--data-dir",
            str(data / "host"),
            "--seats",
            str(seats),
            "--bot-delay",
            pace,
            *FAST,
            *extra,
        ],
    )
    return host, host.expect(lambda m: m.get("event") == "listening", 20)["address"]


def player(
    lab: NetLab, where: LabHost, data: Path, address: str, *extra: str, pace: str = PACE
) -> LabProcess:
    name = f"p{where.index}"
    return lab.spawn(
        where,
        [
            *LANOMINO,
            "bot",
            address,
            "--interface",
            where.ip,
            "--json",
            "--level",
            "greedy",
            "--data-dir",
            str(data / name),
            "--player",
            name,
            "--delay",
            pace,
            *FAST,
            *extra,
        ],
    )


def hostile(lab: NetLab, where: LabHost, *args: str) -> LabProcess:
    proc = lab.spawn_python(where, HOSTILE, *args)
    proc.expect(lambda m: m.get("event") == "started", 20)
    return proc


def over(proc: LabProcess, timeout_s: float = 120) -> dict[str, Any]:
    return proc.expect(lambda m: m.get("event") in ("match_over", "stopped"), timeout_s)


def agree(host: dict[str, Any], peer: dict[str, Any]) -> None:
    """One result, both verified, and the peer never judged the host gone."""
    assert host["finished"] and peer["finished"], (host, peer)
    assert (host["winner"], host["scores"]) == (peer["winner"], peer["scores"])
    assert host["verified"] and peer["verified"]
    assert "host left" not in peer["reason"]


def test_a_hello_flood_in_the_lobby_lets_a_real_player_join_and_finish(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1, h2, _ = lan4.hosts
    host, address = open_table(lan4, tmp_path, 2, "--set", "target=100")
    flood = hostile(lan4, h2, "hello", address, "6", "40")
    started = time.monotonic()
    peer = player(lan4, h1, tmp_path, address)
    peer.expect(lambda m: m.get("event") == "seated", 10)
    assert time.monotonic() - started < 6, "joined only after the flood"
    sent = flood.expect(lambda m: m.get("event") == "done", 30)["sent"]
    assert sent > 10_000, sent  # it really flooded
    agree(over(host), over(peer))


def test_a_hello_flood_during_a_game_causes_no_false_host_loss(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1, h2, _ = lan4.hosts
    host, address = open_table(lan4, tmp_path, 2, "--set", "target=150")
    peer = player(lan4, h1, tmp_path, address)
    peer.expect(lambda m: m.get("event") == "seated", 15)
    time.sleep(1.0)
    flood = hostile(lan4, h2, "hello", address, "6", "40")
    assert flood.expect(lambda m: m.get("event") == "done", 30)["sent"] > 10_000
    agree(over(host), over(peer))


@pytest.mark.together("lan")  # (tests/together.py; the floods and the guessing run alone)
def test_moves_with_garbage_signatures_are_refused_and_the_match_verifies(
    lan4: NetLab, tmp_path: Path
) -> None:
    h0, h1, h2, _ = lan4.hosts
    host, address = open_table(lan4, tmp_path, 3, "--set", "target=60")
    peer = player(lan4, h1, tmp_path, address)
    forger = hostile(lan4, h2, "forge", address, str(tmp_path / "forger"), h2.ip)
    done = forger.expect(lambda m: m.get("event") == "done", 150)
    assert done["forged"] == 3 and done["refused"] == 3  # each refused on arrival
    result = over(host)
    agree(result, over(peer))
    assert result["problems"].get("refused.bad_signature") == 3
    assert result["verified"] and done["seat"] not in (None, 0)
    check = lan4.run(h0, [*LANOMINO, "verify", result["transcript"], "--json"], timeout_s=60)
    verdict = json.loads(check.stdout)
    assert verdict["ok"], check.stdout
    # each refusal is in the signed log: the forger's seat is at fault, never the host
    blamed = [("move", f"seat {done['seat'] + 1}")] * 3
    assert [(f["what"], f["blame"]) for f in verdict["faults"]] == blamed


def test_passphrase_guessing_is_throttled_and_logged(lan4: NetLab, tmp_path: Path) -> None:
    """A guesser on one machine spends its address's budget and the table's, and is refused
    from then on; a player on another machine who knows the PIN sits down during the guessing."""
    h0, h1, h2, _ = lan4.hosts
    host, address = open_table(lan4, tmp_path, 2, "--set", "target=100", "--passphrase", "4821")
    guesser = hostile(lan4, h2, "guess", address, "12", "4", "4821")
    deadline = time.monotonic() + 20
    while not any("refused (passphrase)" in line for line in host.stderr_tail):
        assert time.monotonic() < deadline, "the guesser was never answered"
        time.sleep(0.1)
    time.sleep(2.0)  # by now its budgets are spent
    peer = player(lan4, h1, tmp_path, address, "--passphrase", "4821")
    done = guesser.expect(lambda m: m.get("event") == "done", 30)
    policy = GuessPolicy()
    assert done["wrong"] <= policy.address_burst + policy.table_burst + 1, done
    assert done["throttled"] > 0
    logged = [line for line in host.stderr_tail if "refused (passphrase)" in line]
    assert len(logged) == done["wrong"]
    agree(over(host), over(peer))


def _hands(folder: Path) -> int:
    for path in folder.glob("*.json"):
        try:
            return len(json.loads(path.read_text())["hands"])
        except (OSError, ValueError, KeyError):
            return 0
    return 0


@pytest.mark.together("lan", weight=2)  # (its bots do not pause: a core's worth)
def test_a_player_restarted_late_in_a_long_match_resyncs(lan4: NetLab, tmp_path: Path) -> None:
    """Past 40 hands the snapshot no longer fits in one message: it goes in parts, and the
    restarted player rebuilds the match from it, plays on, and its transcript verifies."""
    h0, h1, _, _ = lan4.hosts
    host, address = open_table(lan4, tmp_path, 2, "--set", "target=100000", pace="0")
    peer = player(lan4, h1, tmp_path, address, pace="0")
    peer.expect(lambda m: m.get("event") == "seated", 15)
    hosts, mine = tmp_path / "host" / "transcripts", tmp_path / "p1" / "transcripts"
    deadline = time.monotonic() + 150

    def size() -> int:
        return sum(p.stat().st_size for p in hosts.glob("*.json"))

    # 42 hands usually make more than 256 KiB, but not always (a CI run stopped at 260,682
    # bytes): wait for both
    while (_hands(hosts) < 42 or size() <= 256 * 1024) and time.monotonic() < deadline:
        time.sleep(0.2)
    reached = _hands(hosts)
    assert reached >= 42 and size() > 256 * 1024
    peer.kill()
    again = player(
        lan4, h1, tmp_path, address, pace="0"
    )  # the same data directory: the same identity
    deadline = time.monotonic() + 60
    while _hands(mine) < reached + 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _hands(mine) >= reached + 2, "the restarted player did not play on"
    path = next(mine.glob("*.json"))
    check = lan4.run(h1, [*LANOMINO, "verify", str(path), "--json"], timeout_s=60)
    assert json.loads(check.stdout)["ok"], check.stdout[:500]
    assert again.popen.poll() is None and host.popen.poll() is None
