"""Writes the golden records from hand-designed deals and moves (run by hand, not by pytest).

The expected outputs (*.expected.json) are written by hand from the rules, not generated.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lanomino.engine.tiles import TILES  # noqa: E402

OUT = Path(__file__).resolve().parent

def rest(used: list[str]) -> list[str]:
    taken = {tuple(sorted(map(int, t.split("-")))) for t in used}
    return [str(t) for t in TILES if (t.low, t.high) not in taken]

def hand(hands: list[str], moves: list[dict[str, Any]],
         front: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    deal = [h.split() for h in hands]
    used = [t for h in deal for t in h] + list(front)
    assert len(set(tuple(sorted(t.split("-"))) for t in used)) == len(used), "duplicate tile"
    return {"deal": deal, "boneyard": [*front, *rest(used)], "moves": moves}

def m(
    seat: int, tile: str | None = None, end: str | None = None,
    draw: bool = False, pas: bool = False, resign: bool = False,
) -> dict[str, Any]:
    """One move in record form."""
    d: dict[str, Any] = {"seat": seat}
    if tile:
        d["play"] = tile
    if end:
        d["end"] = end
    if draw:
        d["draw"] = True
    if pas:
        d["pass"] = True
    if resign:
        d["resign"] = True
    return d

def write(name: str, rules: dict[str, Any], players: list[str],
          hands: list[dict[str, Any]]) -> None:
    doc = {"format": "lanomino.record/1", "rules": rules, "players": players, "hands": hands}
    with open(OUT / f"{name}.record.json", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

# 1. Classic, three players: seat 0 goes out; the others keep 6-2 + 3-0 (11) and 5-4 (9): 20.
classic3 = hand(
    ["6-6 5-1 4-3 0-0 2-0", "6-4 3-3 5-3 6-2 3-0", "6-5 1-1 1-0 5-2 5-4"],
    [m(0, "6-6"), m(1, "6-4"), m(2, "6-5", "right"), m(0, "5-1", "right"),
     m(1, draw=True), m(1, "4-4", "left"), m(2, "1-1", "right"), m(0, "4-3", "left"),
     m(1, "3-3", "left"), m(2, "1-0", "right"), m(0, "0-0", "right"), m(1, "5-3", "left"),
     m(2, "5-2", "left"), m(0, "2-0", "left")],
    front=["4-4"],
)
write("classic_three_players_domino", {"preset": "classic"}, ["Ana", "Ben", "Cy"], [classic3])

# 2. Block, two players: every six goes on the line; 4 pips against 15 scores 11.
CHAIN = [m(0, "6-6"), m(1, "6-5", "left"), m(0, "5-4", "left"), m(1, "4-6", "left"),
         m(0, "6-3", "right"), m(1, "3-2", "right"), m(0, "2-6", "right"), m(1, "6-1", "left"),
         m(0, "1-0", "left"), m(1, "0-6", "left")]
blocked2 = hand(["6-6 5-4 6-3 6-2 1-0 2-0 1-1", "6-5 6-4 3-2 6-1 6-0 5-5 4-1"], CHAIN)
write("block_two_players_blocked", {"preset": "block"}, ["Ana", "Ben"], [blocked2])

# 3. All Fives with four tiles each: the spinner, a short end counted once covered, a draw,
# rounding.
fives = hand(
    ["5-5 5-1 5-3 2-2", "5-0 5-4 6-1 1-0"],
    [m(0, "5-5"), m(1, "5-0", "left"), m(0, "5-1", "right"), m(1, "5-4", "up"),
     m(0, "5-3", "down"), m(1, "1-0", "left"), m(0, draw=True), m(0, "3-2", "down"), m(1, "6-1")],
    front=["3-2"],
)
write("allfives_spinner", {"preset": "allfives", "hand_size": 4}, ["Ana", "Ben"], [fives])

# 4. Partnership: a blocked hand (team 0 has 41 pips, team 1 49), then seat 1 opens hand 2.
PCHAIN = [m(0, "6-6"), m(1, "6-5", "left"), m(2, "5-4", "left"), m(3, "4-6", "left"),
          m(0, "6-3", "right"), m(1, "3-2", "right"), m(2, "2-6", "right"), m(3, "6-1", "left"),
          m(0, "1-0", "left"), m(1, "0-6", "left")]
team1 = hand(["6-6 6-3 1-0 0-0 1-1 2-0 3-3", "6-5 3-2 6-0 2-1 2-2 3-1 5-5",
              "5-4 6-2 5-3 5-2 4-4 3-0 4-1", "6-4 6-1 4-0 4-2 4-3 5-0 5-1"], PCHAIN)
team2 = hand(["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
              "4-3 4-2 4-1 4-0 3-3 3-2 3-1", "3-0 2-2 2-1 2-0 1-1 1-0 0-0"],
             [m(1, "5-0"), m(2, "4-0", "right"), m(3, pas=True), m(0, "6-5", "left")])
write("partnership_blocked", {"preset": "partnership"}, ["Ana", "Ben", "Cy", "Di"], [team1, team2])

# 5. Illegal: hand 2, seat 1 passes while its 5-3 fits the 5.
illegal2 = hand(["5-5 5-1 1-0 2-0 3-0 4-0 6-0", "5-3 2-1 3-1 4-1 6-1 3-2 4-2"],
                [m(0, "5-5"), m(1, pas=True)])
write("illegal_pass", {"preset": "block"}, ["Ana", "Ben"], [blocked2, illegal2])

# 6. Illegal: a tile on a short end outside All Fives.
illegal_up = hand(["6-6 5-4 6-3 6-2 1-0 2-0 1-1", "6-5 6-4 3-2 6-1 6-0 5-5 4-1"],
                  [m(0, "6-6"), m(1, "6-5", "up")])
write("illegal_short_end", {"preset": "block"}, ["Ana", "Ben"], [illegal_up])

# 7. Malformed: an end that does not exist.
bad = hand(["6-6 5-4 6-3 6-2 1-0 2-0 1-1", "6-5 6-4 3-2 6-1 6-0 5-5 4-1"], CHAIN[:4])
bad["moves"][3]["end"] = "middle"
write("malformed_end", {"preset": "block"}, ["Ana", "Ben"], [bad])

# 8. All Fives to 15: seat 1 reaches the target with the 5-4 on the spinner's short end.
target = hand(["5-5 5-1 5-3 2-2", "5-0 5-4 6-1 1-0"],
              [m(0, "5-5"), m(1, "5-0", "left"), m(0, "5-1", "right"), m(1, "5-4", "up")])
write("allfives_target_mid_hand", {"preset": "allfives", "hand_size": 4, "target": 15},
      ["Ana", "Ben"], [target])

# 9. Three players: seat 1 resigns, play goes on without its tiles; then seat 2 resigns too.
resign1 = hand(["5-5 5-1", "6-2 3-0", "5-4 5-3"],
               [m(0, "5-5"), m(1, resign=True), m(2, "5-3", "left"), m(0, "5-1")])
resign2 = hand(["6-6 6-5", "", "4-4 3-3"], [m(0, "6-5"), m(2, resign=True)])
write("resign_three_players", {"preset": "block", "hand_size": 2}, ["Ana", "Ben", "Cy"],
      [resign1, resign2])
