"""Check a transcript from end to end: signatures, commitments, the shuffle, every move, scores.

``verify_transcript(doc)`` returns a ``Report``: one ``HandReport`` per hand that checked out and,
at the first problem, a ``Failure`` naming the check, the hand and who is to blame. Malformed
JSON raises ``TranscriptError`` instead. The checks and their order are in ``checker.py``; the
values of a report in ``report.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from lanomino.engine import GameState
from lanomino.fair.checker import Checker
from lanomino.fair.identity import KeyRing
from lanomino.fair.report import DerivedDeal, Failed, Failure, HandReport, Report
from lanomino.fair.transcript import (
    FORMAT,
    HandLog,
    Transcript,
    TranscriptError,
    parse_hand,
    parse_transcript,
)
from lanomino.fair.transcript_model import FORMAT2

__all__ = ["DerivedDeal", "Failure", "HandReport", "Report", "StreamVerifier", "to_record",
           "verify_parsed", "verify_transcript"]


def verify_transcript(doc: Any) -> Report:
    """Check a transcript (parsed JSON) of either format: ``lanomino.transcript/1`` (today's
    deal) or ``/2`` (the locked deck, ``fair/verify2.py``). Raises TranscriptError when it is
    malformed or of a format this verifier does not know."""
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt == FORMAT2:
        from lanomino.fair.verify2 import verify_transcript2

        return verify_transcript2(doc)
    if isinstance(fmt, str) and fmt.startswith("lanomino.transcript/") and fmt != FORMAT:
        raise TranscriptError(f"format: {fmt!r} is not a transcript format this verifier knows "
                              f"({FORMAT}, {FORMAT2})")
    return verify_parsed(parse_transcript(doc))


def verify_parsed(transcript: Transcript) -> Report:
    checker = Checker(transcript)
    try:
        checker.run()
    except Failed as failed:
        return _report(checker, failed.failure)
    return _report(checker, None, checker.state)


def _report(checker: Checker, failure: Failure | None, state: GameState | None = None) -> Report:
    return Report(tuple(checker.reports), failure, tuple(checker.deals), state,
                  clock=checker.clock, caught=tuple(checker.caught))


class StreamVerifier:
    """Verifies a transcript that grows hand by hand (a peer during a match) without re-checking
    the hands it has already checked: it keeps the engine state after each checked hand and
    re-checks from the first hand whose entry changed. ``check(doc)`` gives the same report as
    ``verify_transcript(doc)``.

    ``ring``: the session's own ``KeyRing``; one that remembers the signatures it verified (a
    session checks each move, commitment and echo as it arrives) answers the same checks in the
    hand's log from memory (``KeyRing``: only a check that held, over the very same bytes)."""

    def __init__(self, ring: KeyRing | None = None) -> None:
        self.ring = ring
        self._header: Any = None  # the header fields and signatures last checked
        self._start: GameState | None = None
        self._done: list[tuple[Any, GameState, HandReport, tuple[DerivedDeal, ...], HandLog]] = []
        self.parsed: tuple[HandLog, ...] = ()  # the hands of the last ``doc`` checked, parsed

    def check(self, doc: Any) -> Report:
        """Check ``doc`` (parsed JSON). Raises TranscriptError when it is malformed. Then
        ``parsed`` holds its hands, parsed (a session's own checks of the hand read them there)."""
        if not isinstance(doc, dict) or not isinstance(doc.get("hands"), list):
            parse_transcript(doc)  # raises the full parser's error
        raws: list[Any] = doc["hands"]
        self.parsed = ()
        head = parse_transcript({**doc, "hands": []})  # the header and the closing statement
        checker = Checker(head, ring=self.ring)
        header = {k: v for k, v in doc.items() if k not in ("hands", "end")}
        fresh = header != self._header or self._start is None  # a new header: all checked anew
        kept = 0
        for (entry, *_), raw in zip([] if fresh else self._done, raws, strict=False):
            if entry != raw:
                break
            kept += 1
        parsed = [done[4] for done in self._done[:kept]]
        hands = [parse_hand(raw, i, len(head.players))
                 for i, raw in enumerate(raws[kept:], start=kept)]
        self.parsed = (*parsed, *hands)
        try:
            if fresh:
                self._header, self._done = None, []
                # (a proof of a refuted hand log holds only after the file's hands before it)
                checker.t = replace(head, hands=tuple(hands))
                self._start = checker.start()
                checker.t = head
                self._header = header
            assert self._start is not None
            state = self._start.copy() if kept == 0 else self._done[kept - 1][1].copy()
            for hand in parsed:  # the keys as those hands left them (their chain was checked)
                checker.adopt(hand, checked=True)
            for _, _, report, deals, _ in self._done[:kept]:
                checker.reports.append(report)
                checker.deals.append(deals)
            del self._done[kept:]
            for raw, hand in zip(raws[kept:], hands, strict=True):
                checker.hand_no = hand.hand
                checker.check_hand(state, hand)
                self._done.append((copy.deepcopy(raw), state.copy(), checker.reports[-1],
                                   checker.deals[-1], hand))
            checker.hand_no = None
            checker.t = replace(head, hands=(*parsed, *hands))
            checker.check_end(state)
        except Failed as failed:
            return _report(checker, failed.failure)
        return _report(checker, None, state.copy())


def _record_moves(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves in record form: a transcript signs a hand's first tile with the end its higher
    number lies on; a record writes that tile left number first, with no end."""
    from lanomino.engine import parse_tile

    out = list(moves)
    for i, move in enumerate(out):
        if "play" in move:
            tile = parse_tile(move["play"])
            right = move.get("end") == "right"
            text = f"{tile.low}-{tile.high}" if right else f"{tile.high}-{tile.low}"
            out[i] = {"seat": move["seat"], "play": text}
            break
    return out


def _record_hand(deal: DerivedDeal, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A deal and its moves as a record's hand (a void deal: no moves, as in records)."""
    return {"deal": [[str(t) for t in h] for h in deal.hands],
            "boneyard": [str(t) for t in deal.boneyard],
            "moves": [] if deal.void else _record_moves(moves)}


def to_record(doc: Any, report: Report | None = None) -> dict[str, Any]:
    """The ``lanomino.record/1`` form of a transcript, with every deal derived from its secrets
    (a void deal becomes a hand with no moves, as in records). ``report``: ``doc``'s own, when
    the caller has just checked it (else it is checked here).

    Raises TranscriptError when the transcript is malformed or does not verify.
    """
    from lanomino.fair.transcript import TranscriptError

    if isinstance(doc, dict) and doc.get("format") == FORMAT2:
        return _locked_record(doc, report)
    transcript = parse_transcript(doc)
    report = verify_parsed(transcript) if report is None else report
    if report.failure is not None:
        raise TranscriptError(f"the transcript does not verify: {report.failure.describe()}")
    hands: list[dict[str, Any]] = []
    for hand, deals in zip(transcript.hands, report.deals, strict=True):
        if hand.reshuffled is not None:
            raise TranscriptError(f"hand {hand.hand} was re-shuffled after a host migration: "
                                  "it has no single deal to write as a record (lanomino replay "
                                  "shows it)")
        hands += [_record_hand(deal, [m.raw for m in hand.moves]) for deal in deals]
    return {"format": "lanomino.record/1", "rules": transcript.rules_spec,
            "players": list(transcript.players), "hands": hands}


def _locked_record(doc: Any, report: Report | None) -> dict[str, Any]:
    """``to_record`` of a transcript/2: each hand's deal as its revealed keys open it (a void deal
    the hand keeps before it as a hand with no moves, as transcript/1's), its moves and
    resignations in the order of its log (without the passes after the engine ended a blocked
    hand); a departure between its deal attempts, or one the closing statement keeps (it ended
    the match before the next hand was dealt), as a seat that left after the hand before (none
    before the first hand: TranscriptError)."""
    from lanomino.engine import RESIGN, Rules, apply, new_game, start_hand
    from lanomino.fair.statements import move_json
    from lanomino.fair.transcript2 import parse_transcript2
    from lanomino.fair.verify2 import verify_transcript2
    from lanomino.fair.walk2 import log_order, logged

    report = verify_transcript2(doc) if report is None else report
    if report.failure is not None:
        raise TranscriptError(f"the transcript does not verify: {report.failure.describe()}")
    head, signed = parse_transcript2(doc)
    hands: list[dict[str, Any]] = []
    state = new_game(Rules.from_spec(head.rules_spec), len(head.players))
    def depart(departures: Sequence[Any], number: int) -> None:
        if departures and not hands:  # (a record's resignation is a move of a hand)
            raise TranscriptError(f"a seat left hand {number} before it was dealt: a record "
                                  "has no hand before it to write its resignation in")
        for departure in departures:  # (after the hand before, as a seat left between)
            hands[-1]["moves"].append(move_json(departure.resignation.seat, RESIGN))
            apply(state, departure.resignation.seat, RESIGN)

    for hand, deals in zip(signed, report.deals, strict=True):
        depart(hand.departures, hand.record.hand)
        record, moves = hand.record, []
        if record.unheld is not None:
            raise TranscriptError(f"hand {record.hand} was re-shuffled blind after a player "
                                  "left: it has no single deal to write as a record "
                                  "(lanomino replay shows it)")
        played = deals[-1]
        start_hand(state, [list(h) for h in played.hands], list(played.boneyard))
        for _, seat, action in log_order(record):
            if logged(state, action):  # (a record has no moves after a hand's end)
                moves.append(move_json(seat, action))
                apply(state, seat, action)
        hands += [_record_hand(deal, moves) for deal in deals]
    depart(head.end.departures, len(signed) + 1)
    return {"format": "lanomino.record/1", "rules": head.rules_spec,
            "players": list(head.players), "hands": hands}
