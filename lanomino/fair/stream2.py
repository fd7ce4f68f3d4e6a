"""``verify_transcript`` of one match's transcript as it grows hand by hand, each hand checked
once. Pure.

A node logs its match after every hand (``runtime/base.py``, the play log behind history and
stats), and the log checks the transcript it is given. Checking a locked match's whole
transcript/2 again each time cost about 20 ms of CPU per hand already played, at every node
after every hand: a 20-hand match spent 0.4 s of each hand's end re-checking hands checked
before. ``LockedStream`` is transcript/2's counterpart of transcript/1's ``StreamVerifier``: it
keeps the engine state, the hand's report and its deals after each hand it checked, and checks
again from the first hand whose entry changed (a new header: every hand). The header's own checks
(a signature per seat, the evidence) and the closing statement are checked every time.
``TranscriptStream`` takes either format, as ``verify_transcript`` does.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from lanomino.blind.group import BlindError
from lanomino.engine import GameState
from lanomino.fair.report import DerivedDeal, Failed, HandReport, Report
from lanomino.fair.transcript2 import parse_transcript2
from lanomino.fair.transcript_model import FORMAT2, TranscriptError
from lanomino.fair.verify import StreamVerifier
from lanomino.fair.verify2 import BlindChecker

__all__ = ["LockedStream", "TranscriptStream"]


@dataclass(frozen=True)
class _Checked:
    """One hand that checked out: its entry as it was, and what its check left."""

    raw: Any
    state: GameState
    report: HandReport
    deals: tuple[DerivedDeal, ...]


class LockedStream:
    """Checks a transcript/2 that grows hand by hand without checking a hand twice;
    ``check(doc)`` gives the same report as ``verify_transcript(doc)``."""

    def __init__(self) -> None:
        self._header: Any = None  # the header fields the kept hands were checked under
        self._done: list[_Checked] = []

    def check(self, doc: Any) -> Report:
        """Check ``doc`` (parsed JSON). Raises TranscriptError when it is malformed."""
        head, hands = parse_transcript2(doc)
        raws: list[Any] = doc["hands"]
        header = {k: v for k, v in doc.items() if k not in ("hands", "end")}
        if header != self._header:
            self._header, self._done = copy.deepcopy(header), []
        kept = 0
        for done, raw in zip(self._done, raws, strict=False):
            if done.raw != raw:
                break
            kept += 1
        del self._done[kept:]
        checker = BlindChecker(head, hands)
        c = checker.c
        try:
            state = c.start()
            for done in self._done:
                c.reports.append(done.report)
                checker.deals.append(done.deals)
                state = done.state.copy()
            for raw, hand in zip(raws[kept:], hands[kept:], strict=True):
                c.hand_no = hand.record.hand
                state = checker.check_hand(state, hand)
                self._done.append(_Checked(copy.deepcopy(raw), state.copy(), c.reports[-1],
                                           checker.deals[-1]))
            c.hand_no = None
            c.check_end(state, len(hands))
        except Failed as failed:
            return checker._report(failed)
        except BlindError as exc:  # (as verify_transcript2: a value the deck cannot take)
            raise TranscriptError(f"hands: {exc}") from None
        return checker._report(None, state)


class TranscriptStream:
    """``verify_transcript`` of one match's growing transcript, of either format, each hand
    checked once (``StreamVerifier`` for transcript/1, ``LockedStream`` for transcript/2)."""

    def __init__(self) -> None:
        self.fair = StreamVerifier()
        self.locked = LockedStream()

    def check(self, doc: Any) -> Report:
        """Raises TranscriptError when ``doc`` is malformed."""
        if isinstance(doc, dict) and doc.get("format") == FORMAT2:
            return self.locked.check(doc)
        return self.fair.check(doc)
