"""The locked deck at a table, through the real sessions (issue 29): one HostSession and its
PeerSessions in one process, every message through the real codec, bots on every seat
(tests/net/sessionkit.py). For 2, 3 and 4 people it plays whole matches twice with the same
bot seeds (each table's own id makes its deals), with today's fair deal (the reference,
measured in the same run) and with the locked deck (``HostSession(blind=True)``), and prints
per hand: CPU per seat (all sessions' CPU over the seats: each seat and the host check every
shuffle and share), wire bytes, and the ratio to the reference. One process for every seat:
this is the CPU the protocol costs, not the wall time of a table (``bench_blind_procs.py``
measures the core in processes).

Then the blind re-shuffle after a loss at a table without escrow (``blind/unheld_round.py``):
4 people, one quits mid-hand, and the 3 survivors' sessions re-shuffle the tiles nobody holds.
It prints the CPU of all sessions from the loss until the new deck is the boneyard (each
survivor makes its own values and checks the others'), and the busiest survivor's (the host,
which also checks and relays every value): on three machines the round's critical path lies
between the two (the vectors and openings run in parallel, the shuffles and blindings in turn).
The issue's goal: 3 survivors, at most 0.3 s.

    python scripts/bench_blind_table.py [--matches 2] [--target 100] [--losses 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))

from sessionkit import Table, in_play  # noqa: E402

from lanomino.blind import table_leave  # noqa: E402
from lanomino.engine import Rules  # noqa: E402
from lanomino.net.session import MatchOver  # noqa: E402


def measure(players: int, blind: bool, matches: int, target: int) -> tuple[float, float, int]:
    """(CPU ms per seat per hand, wire kB per hand, hands) over ``matches`` matches."""
    cpu = wire = 0.0
    hands = 0
    for seed in range(1, matches + 1):
        table = Table(Rules.preset("classic", target=target), players, blind=blind, seed=seed)
        started = time.process_time()
        table.run(table.over)
        cpu += time.process_time() - started
        wire += table.wire_bytes
        over = next(e for e in table.host_events if isinstance(e, MatchOver))
        assert over.verified, "a match did not verify"
        hands += over.hands
    return cpu * 1000 / hands / players, wire / 1000 / hands, hands


def _timed(session: Any, spent: list[float]) -> None:
    """Add the CPU of each message ``session`` takes to ``spent[0]``."""
    receive = session.receive

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return receive(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - started
    session.receive = timed


def reshuffle_ms(seed: int) -> tuple[float, float, int]:
    """(CPU ms of every session from a loss until the new deck is the boneyard, the busiest
    session's, the tiles re-shuffled): 4 people, seat 4 quits once the first hand has 3
    moves."""
    table = Table(Rules.preset("classic"), 4, blind=True, seed=seed)
    table.host.escrow = False
    blind = table.host.blind
    assert blind is not None

    due = in_play(blind, 3)
    table.run(due)
    hand = blind.hand
    assert hand is not None
    spent = {n: [0.0] for n in range(3)}
    for n, session in enumerate((table.host, table.slots[0].session, table.slots[1].session)):
        _timed(session, spent[n])
    started = time.process_time()
    table.slots[2].session.quit(table.now)
    table.step()
    table.slots[2].connected = False
    table.run(lambda: hand.unheld is not None and not table_leave.reshuffling(hand))
    cpu = (time.process_time() - started) * 1000
    assert hand.unheld is not None and hand.unheld.deck is not None, "no re-shuffle was made"
    return cpu, max(v[0] for v in spent.values()) * 1000, len(hand.unheld.deck)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--losses", type=int, default=5)
    args = parser.parse_args()
    print("seats  deal    hands  CPU/seat/hand  wire/hand  CPU vs fair")
    for players in (2, 3, 4):
        fair = measure(players, False, args.matches, args.target)
        locked = measure(players, True, args.matches, args.target)
        for name, (cpu, wire, hands) in (("fair", fair), ("locked", locked)):
            print(f"{players:>5}  {name:<6} {hands:>6}  {cpu:>10.1f} ms  {wire:>6.1f} kB  "
                  f"{cpu / fair[0]:>8.1f}x")
    runs = sorted(reshuffle_ms(seed) for seed in range(1, args.losses + 1))
    cpu, busiest, tiles = runs[len(runs) // 2]
    print(f"blind re-shuffle after a loss, 3 survivors of 4 (median of {len(runs)}): "
          f"{cpu:.0f} ms CPU for all sessions, {busiest:.0f} ms for the busiest, {tiles} tiles "
          f"nobody held (goal: 300 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
