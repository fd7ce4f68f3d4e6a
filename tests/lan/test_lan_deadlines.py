"""A player that stays connected but never answers cannot stall a LAN table (issue 13): at its
commitment, at its reveal, and at its move with the move clock on; at its move without a clock the
table waits for it (a person may think), until it answers nothing past its grace period. The
fair deal's steps and its host-played moves (``--deal fair``; a locked table's are in
tests/net/test_blind_*.py). Each process in its own network namespace; root only."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from netlab import NetLab
from test_lan_tables import FAST, bot, check_agreement, host, result, verify

pytestmark = [pytest.mark.netns, pytest.mark.timeout(150), pytest.mark.together("lan")]

STALL = Path(__file__).resolve().parent / "stall_peer.py"
# the host's grace period for a seat that lets a deadline pass (FAST's 8 s for everyone else): the
# silent seat is left out of the deals within it and gone after it, and the table waits that long
# for its move without a clock; 4 s shows both as 8 s did, in half the wait
GRACE = ("--grace", "4")
FAIR = ("--deal", "fair")  # (these are the fair deal's steps; the host plays an away seat)


def stalling(lab: NetLab, where: object, data: Path, target: str, name: str, mute: str) -> object:
    return lab.spawn_python(where, STALL, target, "--interface", where.ip, "--json",  # type: ignore[attr-defined]
                            "--level", "greedy", "--data-dir", str(data / name), "--player", name,
                            *FAST, "--mute", mute)


@pytest.mark.parametrize("step", ["commit", "reveal"])
def test_a_peer_silent_at_a_deal_step_is_left_out_and_the_others_finish(
        lan4: NetLab, tmp_path: Path, step: str) -> None:
    h0, h1, h2 = lan4.hosts[:3]
    name = f"Stall{step}"
    proc, _ = host(lan4, h0, tmp_path, *FAIR, "--name", name, "--seats", "3",
                   "--set", "target=40", *GRACE)
    peer = bot(lan4, h1, tmp_path, name, "ann")
    peer.expect(lambda m: m.get("event") == "seated", 30)  # ann has seat 1, the silent one 2
    started = time.monotonic()
    silent = stalling(lan4, h2, tmp_path, name, "sam", step)
    done = [result(proc, 120), result(peer, 120)]
    check_agreement(done)
    doc = json.loads(Path(done[0]["transcript"]).read_text())
    assert verify(done[0]["transcript"])["ok"]
    first = doc["hands"][0]["abandoned"][0]
    assert first["step"] == step and first["unanswered"] == [2]
    # left out at each deal, then gone once its grace period ran out: the others went on
    assert time.monotonic() - started < 100
    silent.kill()  # type: ignore[attr-defined]


def test_with_a_move_clock_a_silent_peers_seat_is_played_by_the_tables_bot(
        lan4: NetLab, tmp_path: Path) -> None:
    h0, h1, h2 = lan4.hosts[:3]
    proc, _ = host(lan4, h0, tmp_path, *FAIR, "--name", "Clock", "--seats", "3",
                   "--set", "target=40", "--move-time", "1")
    peer = bot(lan4, h1, tmp_path, "Clock", "ann")
    peer.expect(lambda m: m.get("event") == "seated", 30)
    silent = stalling(lan4, h2, tmp_path, "Clock", "sam", "move")
    done = [result(proc, 120), result(peer, 120)]
    check_agreement(done)
    doc = json.loads(Path(done[0]["transcript"]).read_text())
    away = [(h["hand"], i) for h in doc["hands"] for i in h.get("away", [])]
    assert away and all(doc["hands"][n - 1]["moves"][i]["seat"] == 2 for n, i in away)
    over = result(silent, 30)  # type: ignore[arg-type]
    assert over["finished"] and over["verified"], over


def test_without_a_move_clock_the_table_waits_then_the_silent_seat_leaves(
        lan4: NetLab, tmp_path: Path) -> None:
    """Silent at its commitment and its moves: left out of each deal; at its turn the table waits
    (no move clock) until the grace period from its first missed deadline is over, then it has left
    the table (resigned) and the other two finish."""
    h0, h1, h2 = lan4.hosts[:3]
    proc, _ = host(lan4, h0, tmp_path, *FAIR, "--name", "Wait", "--seats", "3",
                   "--set", "target=40", *GRACE)
    peer = bot(lan4, h1, tmp_path, "Wait", "ann")
    peer.expect(lambda m: m.get("event") == "seated", 30)
    started = time.monotonic()
    silent = stalling(lan4, h2, tmp_path, "Wait", "sam", "commit,move")
    done = [result(proc, 120), result(peer, 120)]
    check_agreement(done)
    doc = json.loads(Path(done[0]["transcript"]).read_text())
    assert {"seat": 2, "resign": True} in [m for h in doc["hands"] for m in h["moves"]]
    assert time.monotonic() - started >= float(GRACE[1])  # it was waited for that long
    silent.kill()  # type: ignore[attr-defined]
