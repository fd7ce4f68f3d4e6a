"""The match's last hand log at a fair table (transcript/1) that reached some members only: the
host died sending it. Those that got it have finished; they pass it on to the others, which take
it as their host's (net/peer/proof_passing.py, the same rule as at a locked table)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from migrationkit import MigratingTable  # noqa: E402
from test_session_migration import check_survivors  # noqa: E402

from lanomino.engine import Rules  # noqa: E402
from lanomino.net.peer.proof_passing import ProofPassing  # noqa: E402
from lanomino.net.session import Closed, HostCaught, MatchOver  # noqa: E402


def _last_log(to: int, msg: dict[str, Any]) -> bool:
    return msg.get("type") == "hand_log" and msg["body"]["end"]["finished"] is True


def _last_move(to: int, msg: dict[str, Any]) -> bool:
    """The update of the move that ended the match (it goes before the log), or the log."""
    return _last_log(to, msg) or msg.get("type") == "update" and any(
        e.get("e") == "match_ended" for e in msg["body"]["events"])


def _ended(table: MigratingTable) -> bool:
    return all(isinstance(e, MatchOver | Closed) for m in table.machines[1:] if m.up
               for e in m.events[-1:])


@pytest.mark.parametrize(("players", "cut", "seed", "what"), [
    (3, (1,), 61, "log"), (4, (1, 2), 62, "log"), (4, (3,), 63, "move"), (3, (2,), 64, "move")])
def test_the_last_hand_log_that_only_some_members_got_reaches_them_all(
        players: int, cut: tuple[int, ...], seed: int, what: str) -> None:
    """The host died sending the match's last hand log: the members in ``cut`` missed it (and,
    for ``move``, the update of the match's last move too). A member that got it has finished,
    and passes it to every other member, which takes it as its host's: every survivor ends the
    match with the lost host's own transcript, verified, and nobody elects. (Before, the finished
    members elected nobody, so the others found no majority and left saying they had lost touch
    with the table.) To 40 points the match ends in hand 3, 2, 2 and 1 at these seeds."""
    table = MigratingTable(Rules.preset("classic", target=40), players, seed=seed)
    pick = _last_log if what == "log" else _last_move
    table.dies_unflushed(0, lambda to, msg: to in cut and pick(to, msg))
    table.run(lambda: not table.by_seat(0).up, max_time=300)
    assert not table.by_seat(0).up
    table.run(lambda: _ended(table), max_time=300)
    docs = check_survivors(table)
    assert len(docs) == players - 1 and docs[0]["end"]["host"] == 0  # (the lost host's closing)
    for m in table.machines[1:]:
        over = [e for e in m.events if isinstance(e, MatchOver)]
        assert over and over[-1].verified and not over[-1].reason, (m.seat, over)
        assert not [e for e in m.events if isinstance(e, HostCaught)], m.seat
    assert [t for m in table.machines for t in m.hosted_terms] == [0]  # (nobody elected)


def test_a_last_hand_log_a_member_forged_is_dropped_and_nobody_is_blamed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A member passes on the match's last hand log with the host's closing signature changed:
    the seat that lacks it drops it as false (``dropped.false_proof``), catches nobody (the host
    did not pass it), and, with no honest copy, leaves the table in clear words as before."""
    honest = ProofPassing.take

    def forged(passing: ProofPassing) -> list[tuple[int, dict[str, Any]]]:
        out = honest(passing)
        for _, message in out if passing.p.seat == 2 else ():
            for entry in message["body"]["evidence"].get("entries", []):
                if entry["type"] == "hand_log":
                    sig = entry["body"]["end"]["signature"]
                    entry["body"]["end"]["signature"] = ("0" if sig[0] != "0" else "1") + sig[1:]
        return out
    monkeypatch.setattr(ProofPassing, "take", forged)
    table = MigratingTable(Rules.preset("classic", target=10), 3, seed=61)
    table.dies_unflushed(0, lambda to, msg: to == 1 and _last_log(to, msg))
    table.run(lambda: not table.by_seat(0).up, max_time=300)
    table.run(lambda: _ended(table), max_time=300)
    seat1 = table.by_seat(1)
    assert seat1.peer is not None and seat1.peer.stats["dropped.false_proof"] == 1
    assert not [e for e in seat1.events if isinstance(e, HostCaught)]
    assert not [e for e in seat1.events if isinstance(e, MatchOver)]
    assert "lost touch with the table" in (seat1.events[-1].reason or "")
