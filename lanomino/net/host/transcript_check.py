"""The host's own check of its transcript, hand by hand, as every peer checks it. Pure.

After each hand the host runs the verifier on the transcript as that hand left it, through one
``StreamVerifier`` for the match (each hand is checked once; a new host takes the one it kept as
a peer, whose hands need no second check). What it reports counts every problem that check
finds, not only the bad signatures the host saw on arrival: ``HandVerified``, then
``TranscriptUpdated`` for the runtime to store, and, when a hand did not verify, the match's
result says so (``MatchOver``). The check waits until the hand's messages have left (the
table's ``owe``): on a LAN it would otherwise hold up the move that ended the hand. One part of
``Playing``.
"""

from __future__ import annotations

from collections.abc import Sequence

from lanomino.fair.transcript import TranscriptError
from lanomino.fair.verify import StreamVerifier
from lanomino.net.host.table import Table
from lanomino.net.session_base import HandVerified, TranscriptUpdated
from lanomino.net.wire.checks import JsonObject


class TranscriptCheck:
    """The host's check of its own transcript (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.verifier = StreamVerifier(table.ring)  # (it shares the session's KeyRing)

    def report_hand(self, hand: int, bad: Sequence[tuple[int, int]], over: bool) -> None:
        """Check the transcript as hand ``hand`` left it and say so (HandVerified, then
        TranscriptUpdated): at once when the match is over (MatchOver tells whether every hand
        verified), else once the hand's messages have left (``Table.owe``)."""
        t = self.t
        assert t.doc is not None
        doc = t.doc
        seen = {**doc, "hands": list(doc["hands"])}  # (the transcript as this hand left it)

        def report() -> None:
            ok, detail = self.check(bad, seen)
            if not ok:
                t.stats["hand.unverified"] += 1  # the match's result says so (MatchOver)
            t.events.append(HandVerified(hand, ok, detail))
            t.events.append(TranscriptUpdated(t.table.hex(), doc, over))

        if over:
            report()
        else:
            t.owe(report)

    def check(self, bad: Sequence[tuple[int, int]], doc: JsonObject) -> tuple[bool, str]:
        """The verifier's verdict on ``doc`` (``bad``: moves whose signature failed on
        arrival): whether it holds, and what it says of the last hand."""
        if bad:
            return False, f"{len(bad)} moves carry a bad signature"
        try:
            report = self.verifier.check(doc)
        except TranscriptError as exc:
            return False, f"malformed transcript: {exc}"
        if report.failure is not None:
            return False, report.failure.describe()
        return True, report.hands[-1].describe() if report.hands else "no hands"
