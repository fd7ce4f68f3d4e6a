#!/usr/bin/env python3
"""The locked deck's rows of scripts/attack.py (issue 29): attacks at the protocol level, in
memory, on the blind core (``lanomino/blind/``) with honest holders, fixed seeds and the test
kits (tests/blind/blindkit.py, blind_match.py). Nothing touches a network. Each row prints:

  attack     what the cheater did
  detected   yes / no
  when       where it was noticed: on arrival (before anything else happens) or at the hand's end
  by         who noticed it, and by which check
  blamed     whom the check names (words counted from 1, as every sentence is)
  note       what the cheater got out of it

Rows:
  nosy-undrawn    the host asks every other holder for its share of the boneyard's next
                  position, which nobody has drawn (to open it for itself)
  nosy-dealt      the host asks for the shares of a position dealt to another seat
  nosy-twice      the host asks again for the share of a position a seat has just drawn
  shuffle-swap    a shuffler swaps two tiles of its output after making its argument
  shuffle-dup     a shuffler puts one tile in twice (re-masked, so the copy looks new)
  false-claim     a seat that holds a tile that fits says "I cannot play" and draws (or passes);
                  the hand goes on, and the written transcript is verified

    python scripts/attack.py --blind [--json]   (or: python scripts/blind_attacks.py [--json])
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "blind"))

from blind_match import header, identities, sign_hand  # noqa: E402
from blindkit import Dealt, draw, holders, layout, locked_hand, run_deal  # noqa: E402

from lanomino.blind.deal_round import LockedDeal  # noqa: E402
from lanomino.blind.deck import aggregate_key  # noqa: E402
from lanomino.blind.gate import Refusal  # noqa: E402
from lanomino.blind.hand_check import judge_blind_hand  # noqa: E402
from lanomino.blind.rounds import BlindFault, ShuffleTurn  # noqa: E402
from lanomino.engine.errors import seat_name  # noqa: E402
from lanomino.fair.statements import end_statement, header_statement  # noqa: E402
from lanomino.fair.transcript2 import write_transcript2  # noqa: E402
from lanomino.fair.transcript_model import MatchEnd  # noqa: E402
from lanomino.fair.verify import verify_transcript  # noqa: E402

SEATS = 4
HOST = 0


@dataclass
class BlindRow:
    attack: str
    detected: bool = False
    when: str = "-"
    by: str = "-"
    blamed: str = "-"
    note: str = ""


def _host_asks(row: BlindRow, dealt: Dealt, position: int, seat: int) -> None:
    """The host asks every other holder for its share of ``position`` for ``seat``: the row says
    who refused, whom the refusals name, and how many shares the host got."""
    refused: list[tuple[int, Refusal]] = []
    given = 0
    for h in dealt.holders:
        if h.seat == HOST:
            continue
        answer = h.draw_share("host", position, seat)
        if isinstance(answer, Refusal):
            refused.append((h.seat, answer))
        else:
            given += 1
    row.detected = len(refused) == SEATS - 1
    row.when = "on the request"
    row.by = ", ".join(f"{seat_name(s)}'s gate" for s, _ in refused)
    askers = {r.asker for _, r in refused}
    row.blamed = "the host" if askers == {"host"} else ", ".join(sorted(askers)) or "-"
    reasons = {r.reason: str(r) for _, r in refused}  # one sentence per distinct reason
    row.note = (f"shares given {given} of {SEATS - 1}; "
                + ("; ".join(f"'{r}'" for r in reasons.values()) if refused
                   else "the position opened"))


def nosy_undrawn() -> BlindRow:
    row = BlindRow("the host asks for a boneyard share nobody drew")
    dealt = run_deal(SEATS)
    _host_asks(row, dealt, dealt.round.layout.boneyard[0], HOST)
    return row


def nosy_dealt() -> BlindRow:
    row = BlindRow("the host asks for the shares of a seat's dealt tile")
    dealt = run_deal(SEATS)
    _host_asks(row, dealt, dealt.round.layout.dealt[2][0], HOST)
    return row


def nosy_twice() -> BlindRow:
    row = BlindRow("the host asks again for a drawn tile's shares")
    dealt = run_deal(SEATS)
    position, _ = draw(dealt, 1)  # seat 2 draws: its shares go out once, to it
    _host_asks(row, dealt, position, 1)
    return row


def _bad_shuffle(row: BlindRow, change: Callable[[ShuffleTurn, LockedDeal], ShuffleTurn]
                 ) -> BlindRow:
    """Every seat follows the deal; seat 2 (index 1) changes its output after its argument."""
    hs = holders(SEATS)
    rounds = [LockedDeal.started(hs[0].ctx, layout(SEATS), 0.0, 5.0) for _ in range(SEATS)]
    for deal in rounds:
        for h in hs:
            deal.receive_key(h.announce(), 0.0)
    for h in hs:
        h.keys_agreed(rounds[0].ctx)
    cheater = 1
    noticed: list[tuple[int, BlindFault]] = []
    for h in hs:
        turn = h.shuffle(rounds[h.seat].deck)
        if h.seat == cheater:
            turn = change(turn, rounds[h.seat])
        for seat, deal in enumerate(rounds):
            if seat == h.seat:
                continue  # (its own turn: the shuffler does not check itself)
            try:
                deal.receive_shuffle(turn, 0.0)
            except BlindFault as fault:
                noticed.append((seat, fault))
        if noticed:
            break
        rounds[h.seat].receive_shuffle(turn, 0.0)
    row.detected = len(noticed) == SEATS - 1
    row.when = "on arrival, before any tile opens"
    row.by = ", ".join(f"{seat_name(s)} (shuffle argument)" for s, _ in noticed)
    named = {f.seat for _, f in noticed}
    row.blamed = ", ".join(seat_name(s) for s in sorted(named)) or "-"
    row.note = (f"'{noticed[0][1]}'; the deal stops there: no share was released"
                if noticed else "the changed deck was accepted")
    return row


def shuffle_swap() -> BlindRow:
    def swap(turn: ShuffleTurn, _deal: LockedDeal) -> ShuffleTurn:
        deck = list(turn.deck)
        deck[3], deck[4] = deck[4], deck[3]
        return replace(turn, deck=tuple(deck))

    return _bad_shuffle(BlindRow("a shuffler swaps two tiles after its argument"), swap)


def shuffle_dup() -> BlindRow:
    def duplicate(turn: ShuffleTurn, deal: LockedDeal) -> ShuffleTurn:
        deck = list(turn.deck)
        deck[5] = deck[6].remasked(aggregate_key(deal.ctx.keys), 12345)  # one tile twice
        return replace(turn, deck=tuple(deck))

    return _bad_shuffle(BlindRow("a shuffler puts one tile in twice"), duplicate)


def false_claim() -> BlindRow:
    row = BlindRow('a seat says "I cannot play" holding a tile that fits')
    record, before, settled, lie_at = locked_hand(SEATS, 5, lie=True)
    if lie_at is None:
        row.note = "nobody could lie in this hand"
        return row
    liar = record.moves[lie_at].seat
    verdict, _ = judge_blind_hand(record, before)
    ids = identities(SEATS)
    head = header(SEATS)
    h = head.digest()
    scores = tuple(record.points)
    end = MatchEnd(HOST, 1, False, None, scores,
                   ids[HOST].sign_statement(end_statement(h, HOST, 1, False, None, scores)))
    doc = write_transcript2(head, [ids[s].sign_statement(header_statement(h, s))
                                   for s in range(SEATS)],
                            [sign_hand(h, record, scores, ids)], end)
    report = verify_transcript(doc)
    f = report.failure
    row.detected = (settled.false_claim is not None and not verdict.ok and f is not None)
    row.when = f"at the hand's end (the claim was move {lie_at + 1})"
    row.by = "every seat's settle, check_blind_hand, lanomino verify"
    row.blamed = f.blame if f is not None else "-"
    row.note = (f"{settled.false_claim}; verify: {report.verdict()}"
                if settled.false_claim is not None else verdict.describe())
    row.note += f" (the liar: {seat_name(liar)})"
    return row


ROWS: dict[str, Callable[[], BlindRow]] = {
    "nosy-undrawn": nosy_undrawn,
    "nosy-dealt": nosy_dealt,
    "nosy-twice": nosy_twice,
    "shuffle-swap": shuffle_swap,
    "shuffle-dup": shuffle_dup,
    "false-claim": false_claim,
}


def run(only: list[str] | None = None) -> list[BlindRow]:
    return [ROWS[name]() for name in (only or ROWS)]


def print_table(rows: list[BlindRow]) -> None:
    print(f"{'attack':54} {'detected':8}  {'when':38} {'blamed':10}  by; note")
    for r in rows:
        print(f"{r.attack:54} {'yes' if r.detected else 'NO':8}  {r.when:38} {r.blamed:10}  "
              f"{r.by}; {r.note}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(ROWS), metavar="NAME")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = run(args.only)
    if args.json:
        print(json.dumps([r.__dict__ for r in rows]))
    else:
        print_table(rows)
    return 0 if all(r.detected for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
